import { parseAbi } from 'viem'

/**
 * `contracts/launchpad/FeeLocker.sol`, typed for viem (checked against the compiled ABI by
 * `launchpadAbis.test.ts`).
 *
 * @example
 * const [tokenAmount, pairedAmount] = await client.readContract({ address: locker, abi: feeLockerAbi, functionName: 'accrued', args: [token, recipient] })
 * // → what recipient can claim of token now: [tokenAmount, pairedAmount] (bigints)
 */
export const feeLockerAbi = parseAbi([
  'struct RewardRecipient { address recipient; uint16 bps; }',
  'function factory() view returns (address)',
  'function positions(address token) view returns (address pool, address pairedToken, int24 tickLower, int24 tickUpper, bool tokenIsToken0)',
  'function accruedToken(address token, address recipient) view returns (uint256)',
  'function accruedPaired(address token, address recipient) view returns (uint256)',
  'function accrued(address token, address recipient) view returns (uint256 tokenAmount, uint256 pairedAmount)',
  'function rewardRecipients(address token) view returns (RewardRecipient[])',
  'function collectFees(address token) returns (uint256 tokenAmount, uint256 pairedAmount)',
  'function claim(address token, address recipient) returns (uint256 tokenAmount, uint256 pairedAmount)',
  'function lock(address token, address pool, address pairedToken, int24 tickLower, int24 tickUpper, uint128 liquidity, RewardRecipient[] rewardRecipients)',
  'function BPS() view returns (uint256)',
  'event PositionLocked(address indexed token, address indexed pool, address pairedToken, int24 tickLower, int24 tickUpper, uint128 liquidity)',
  'event RewardRecipientAdded(address indexed token, address indexed recipient, uint256 index, uint16 bps)',
  'event FeesCollected(address indexed token, uint256 tokenAmount, uint256 pairedAmount)',
  'event FeesAccrued(address indexed token, address indexed recipient, uint256 tokenAmount, uint256 pairedAmount)',
  'event FeesClaimed(address indexed token, address indexed recipient, uint256 tokenAmount, uint256 pairedAmount)',
  'error NotFactory(address caller)',
  'error UnknownToken(address token)',
  'error AlreadyLocked(address token)',
  'error NothingToClaim(address token, address recipient)',
  'error TransferFailed(address asset, address to, uint256 amount)',
  'error Reentrancy()',
])
