import { type Abi, type Address, parseAbi } from 'viem'
import { deployContractAndWait } from '../../src/devnet/deployContractAndWait.ts'
import { deployTestToken } from '../../src/devnet/deployTestToken.ts'
import type { Devnet } from '../../src/devnet/startDevnet.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'

/** The test tokens' functions the suites use (`deployTestToken` tokens have them all). */
export const testTokenAbi = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function mint(address, uint256)',
  'function transfer(address, uint256) returns (bool)',
  'function approve(address, uint256) returns (bool)',
])

/** TickMath's bounds (Q64.96): the price limits of a swap that may go anywhere are one inside. */
export const MIN_SQRT_RATIO = 4295128739n
export const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n

/** The price limit a swap in this direction passes to go as far as the pool allows. */
export function openPriceLimit(zeroForOne: boolean): bigint {
  return zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n
}

export type SwapBalances = {
  /** Token 0 and 1 held by the pool's custodian (the pool, or a singleton's manager or vault), the payer and the recipient. */
  pool: readonly [bigint, bigint]
  payer: readonly [bigint, bigint]
  recipient: readonly [bigint, bigint]
  /** The pool's state read in the same call (slot0, globalState, …), when asked for. */
  state: unknown
}

export type SwapBalancesParameters = {
  devnet: Devnet
  /** Who holds the pool's funds: the pool itself, or a singleton's pool manager or vault. */
  pool: Address
  token0: Address
  token1: Address
  payer: Address
  recipient: Address
  stateCall?: { address: Address; abi: Abi; functionName: string }
}

/**
 * Reads, in one multicall at one block, what a swap moves: both tokens' balances of the pool's
 * custodian, the payer and the recipient, and the pool's state (`stateCall`, optional).
 *
 * @example
 * const read = swapBalances({ devnet, pool, token0, token1, payer: harness, recipient, stateCall: { address: pool, abi, functionName: 'slot0' } })
 * const before = await read() // → { pool: [b0, b1], payer: [b0, b1], recipient: [b0, b1], state: the slot0 tuple }
 */
export function swapBalances({
  devnet,
  pool,
  token0,
  token1,
  payer,
  recipient,
  stateCall,
}: SwapBalancesParameters): () => Promise<SwapBalances> {
  const balance = (token: Address, holder: Address) =>
    ({ address: token, abi: testTokenAbi, functionName: 'balanceOf', args: [holder] }) as const
  const holders = [pool, payer, recipient].flatMap((holder) => [balance(token0, holder), balance(token1, holder)])
  return async () => {
    const r = await devnet.publicClient.multicall({
      allowFailure: false,
      contracts: [...holders, ...(stateCall ? [stateCall] : [])] as const,
    })
    const at = (i: number) => r[i] as bigint
    return { pool: [at(0), at(1)], payer: [at(2), at(3)], recipient: [at(4), at(5)], state: r[6] }
  }
}

/** What a swap between two readings took from the payer and paid the recipient. */
export function swapAmounts(before: SwapBalances, after: SwapBalances, zeroForOne: boolean): { amountInUsed: bigint; amountOut: bigint } {
  const [inToken, outToken] = zeroForOne ? [0, 1] : [1, 0]
  return {
    amountInUsed: before.payer[inToken] - after.payer[inToken],
    amountOut: after.recipient[outToken] - before.recipient[outToken],
  }
}

/**
 * A PoolHarness and test tokens of the given decimals, each minted (2^200) to the harness, which
 * pays for every swap and mint the suites send through it.
 *
 * @example
 * const { harness, harnessAbi, tokens } = await deployHarnessWithTokens({ devnet, decimals: [6, 8, 18, 18] })
 * // → harness and 4 tokens (6, 8, 18, 18 decimals), each minted 2^200 to the harness
 */
export async function deployHarnessWithTokens({
  devnet,
  decimals,
}: {
  devnet: Devnet
  decimals: readonly number[]
}): Promise<{ harness: Address; harnessAbi: Abi; tokens: Address[] }> {
  const harness = await deployContractAndWait({ devnet, artifact: devnet.artifacts.PoolHarness })
  const tokens: Address[] = []
  for (const [i, d] of decimals.entries()) {
    const token = await deployTestToken({ devnet, name: `T${i}`, symbol: `T${i}`, decimals: d })
    await writeContractAndWait({ devnet, address: token, abi: testTokenAbi, functionName: 'mint', args: [harness, 2n ** 200n] })
    tokens.push(token)
  }
  return { harness, harnessAbi: devnet.artifacts.PoolHarness.abi as Abi, tokens }
}

/**
 * A test token's balance of `owner` at the devnet's head.
 *
 * @example
 * await tokenBalanceOf(devnet, usdc, recipient) // → 1_000_000n
 */
export function tokenBalanceOf(devnet: Devnet, token: Address, owner: Address): Promise<bigint> {
  return devnet.publicClient.readContract({ address: token, abi: testTokenAbi, functionName: 'balanceOf', args: [owner] })
}
