import { parseAbi } from 'viem'

/**
 * `contracts/launchpad/LaunchFactory.sol`, typed for viem (checked against the compiled ABI by
 * `launchpadAbis.test.ts`).
 *
 * @example
 * const data = encodeFunctionData({ abi: launchFactoryAbi, functionName: 'launch', args: [params] })
 * // → the calldata of launch(params), '0x' then the selector and the encoded LaunchParams
 */
export const launchFactoryAbi = parseAbi([
  'struct RewardRecipient { address recipient; uint16 bps; }',
  'struct Vesting { address beneficiary; uint16 bps; uint32 lockupSeconds; uint32 vestingSeconds; }',
  'struct DevBuy { address recipient; uint256 minAmountOut; }',
  'struct LaunchParams { string name; string symbol; string extraMetadata; address admin; bytes32 salt; address pairedToken; int24 startingTick; RewardRecipient[] rewardRecipients; Vesting vesting; DevBuy devBuy; }',
  'function launch(LaunchParams params) payable returns (address token, address pool)',
  'function predictTokenAddress(address creator, LaunchParams params) view returns (address)',
  'function tokenSalt(address creator, bytes32 salt) pure returns (bytes32)',
  'function setPairedToken(address token, bool allowed)',
  'function setOwner(address newOwner)',
  'function pairedTokens() view returns (address[])',
  'function isPairedToken(address token) view returns (bool)',
  'function owner() view returns (address)',
  'function weth() view returns (address)',
  'function uniswapV3Factory() view returns (address)',
  'function feeLocker() view returns (address)',
  'function vestingVault() view returns (address)',
  'function POOL_FEE() view returns (uint24)',
  'function TICK_SPACING() view returns (int24)',
  'function TOKEN_SUPPLY() view returns (uint256)',
  'function MAX_VESTING_BPS() view returns (uint16)',
  'function MAX_REWARD_RECIPIENTS() view returns (uint256)',
  'function MAX_LOCKUP_SECONDS() view returns (uint32)',
  'function MAX_VESTING_SECONDS() view returns (uint32)',
  'function MIN_STARTING_TICK() view returns (int24)',
  'function MAX_STARTING_TICK() view returns (int24)',
  'function MAX_USABLE_TICK() view returns (int24)',
  'function BURN_ADDRESS() view returns (address)',
  'function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes data)',
  'function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes data)',
  'event TokenLaunched(address indexed token, address indexed creator, address indexed pool, address admin, address pairedToken, bytes32 salt, int24 startingTick, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256 poolSupply, uint256 vestingSupply, uint256 vestingId)',
  'event DevBuyExecuted(address indexed token, address indexed recipient, uint256 amountIn, uint256 amountOut)',
  'event PairedTokenSet(address indexed token, bool allowed)',
  'event OwnerChanged(address indexed previousOwner, address indexed newOwner)',
  'error NotOwner(address caller)',
  'error Reentrancy()',
  'error PairedTokenNotAllowed(address pairedToken)',
  'error InvalidStartingTick(int24 startingTick)',
  'error InvalidRewardRecipients()',
  'error InvalidVesting()',
  'error DevBuyNotSupported()',
  'error InvalidDevBuyRecipient()',
  'error DevBuyBelowMinimum(uint256 amountOut, uint256 minAmountOut)',
  'error DevBuyPartialFill(uint256 amountIn, uint256 value)',
  'error PoolAlreadyInitialized(address pool)',
  'error LiquidityOutOfRange(uint256 liquidity)',
  'error UnexpectedCallback(address caller)',
  'error UnexpectedMintAmounts(uint256 amount0Owed, uint256 amount1Owed)',
  'error TransferFailed(address asset, address to, uint256 amount)',
  'error MulDivOverflow()',
  'error TickOutOfRange(int24 tick)',
])
