import { parseAbi } from 'viem'

/**
 * `contracts/launchpad/VestingVault.sol`, typed for viem (checked against the compiled ABI by
 * `launchpadAbis.test.ts`).
 *
 * @example
 * const claimable = await client.readContract({ address: vault, abi: vestingVaultAbi, functionName: 'claimable', args: [1n] })
 * // → position 1's vested and unclaimed amount (bigint); reverts UnknownPosition(1) for no such position
 */
export const vestingVaultAbi = parseAbi([
  'function factory() view returns (address)',
  'function positions(uint256 id) view returns (address token, address beneficiary, uint256 amount, uint256 claimed, uint64 start, uint64 lockupEnd, uint64 vestingEnd)',
  'function positionCount() view returns (uint256)',
  'function vestedAt(uint256 id, uint256 timestamp) view returns (uint256)',
  'function claimable(uint256 id) view returns (uint256)',
  'function claim(uint256 id) returns (uint256 amount)',
  'function create(address token, address beneficiary, uint256 amount, uint64 lockupEnd, uint64 vestingEnd) returns (uint256 id)',
  'event VestingCreated(uint256 indexed id, address indexed token, address indexed beneficiary, uint256 amount, uint64 start, uint64 lockupEnd, uint64 vestingEnd)',
  'event VestingClaimed(uint256 indexed id, address indexed token, address indexed beneficiary, uint256 amount)',
  'error NotFactory(address caller)',
  'error UnknownPosition(uint256 id)',
  'error InvalidSchedule()',
  'error NothingToClaim(uint256 id)',
  'error TransferFailed(address token, address to, uint256 amount)',
  'error Reentrancy()',
])
