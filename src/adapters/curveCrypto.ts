import { type Address, getAddress, parseAbi, type PublicClient } from 'viem'
import { discoveryByEvent } from './discoveryByEvent.ts'
import { oneContractPoolRef } from './oneContractPoolRef.ts'
import { stateLogsOfPool } from './poolStateLogs.ts'
import type { PoolInput } from '../../bindings/types.ts'
import { AdapterError, PoolUnusableError } from './errors.ts'
import type { PoolAdapter, PoolRef } from './PoolAdapter.ts'
import { propAmmSampleAmounts } from './propAmm/propAmmSampleAmounts.ts'
import { sampleQuoteViews } from './propAmm/sampleQuoteViews.ts'

/**
 * twocrypto-ng's factory event: it names the pool (docs/dex-kinds.md, *CURVE*), unlike
 * StableSwap-NG's `PlainPoolDeployed`.
 */
export const twocryptoFactoryEvents = parseAbi([
  'event TwocryptoPoolDeployed(address pool, string name, string symbol, address[2] coins, address math, bytes32 salt, uint256[2] precisions, uint256 packed_A_gamma, uint256 packed_fee_params, uint256 packed_rebalancing_params, uint256 packed_prices, address deployer)',
])
/** What changes a twocrypto-ng pool's price: swaps, deposits and withdrawals, parameter changes (twocrypto-ng's signatures). */
const poolEvents = parseAbi([
  'event TokenExchange(address indexed buyer, uint256 sold_id, uint256 tokens_sold, uint256 bought_id, uint256 tokens_bought, uint256 fee, uint256 packed_price_scale)',
  'event AddLiquidity(address indexed provider, address indexed receiver, uint256[2] token_amounts, uint256 fee, uint256 token_supply, uint256 packed_price_scale)',
  'event RemoveLiquidity(address indexed provider, uint256[2] token_amounts, uint256 token_supply)',
  'event RemoveLiquidityOne(address indexed provider, uint256 token_amount, uint256 coin_index, uint256 coin_amount, uint256 approx_fee, uint256 packed_price_scale)',
  'event NewParameters(uint256 mid_fee, uint256 out_fee, uint256 fee_gamma, uint256 allowed_extra_profit, uint256 adjustment_step, uint256 ma_time, uint256 xcp_ma_time)',
  'event RampAgamma(uint256 initial_A, uint256 future_A, uint256 initial_gamma, uint256 future_gamma, uint256 initial_time, uint256 future_time)',
  'event StopRampA(uint256 current_A, uint256 current_gamma, uint256 time)',
])
const poolAbi = parseAbi([
  'function coins(uint256 i) view returns (address)',
  'function balances(uint256 i) view returns (uint256)',
  'function future_A_gamma_time() view returns (uint256)',
])
const erc20Abi = parseAbi(['function decimals() view returns (uint8)'])

/**
 * The safety margin of a CryptoSwap pool's sampled curve, in bps (a configured pool's `marginBps`
 * overrides it): the plan's amounts are the pool's own `get_dy` at the leg's input, asked again
 * before answering, so the margin only has to cover a trade in the pool between that quote and the
 * swap (an A/gamma ramp or a repeg in the real template), as the leg minimums leave it.
 */
export const CURVE_CRYPTO_MARGIN_BPS = 1

/**
 * The sizes a CryptoSwap pool is sampled at each way: the prop AMMs' sizes plus 48 geometric steps
 * from 0.01 % to 99 % of the input coin's balance. Dense, so the solver's chords stay close to
 * `get_dy` and the re-quote moves a route's later legs little (their pools may be shared with
 * other routes of the plan, docs/dex-kinds.md).
 */
export function curveCryptoSampleAmounts({ decimals, reserveIn }: { decimals: number; reserveIn: bigint }): bigint[] {
  const amounts = new Set(propAmmSampleAmounts({ decimals, reserveIn }))
  // 10^-4 · (9,900)^(k/47): 0.01 % to 99 %, in parts per 10^9.
  for (let k = 0; k < 48; k++) amounts.add((reserveIn * BigInt(Math.round(1e5 * 9_900 ** (k / 47)))) / 1_000_000_000n)
  return [...amounts].filter((a) => a > 0n).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

/**
 * A CryptoSwap pool's coins (checksummed, in its order), balances, coin decimals and A/gamma ramp
 * end at `blockNumber`: what both templates' readers sample from.
 *
 * @example
 * const { coins, balances, decimals, rampEnd } = await readCryptoPoolBasics({ client, pool, coinCount: 3, blockNumber })
 */
export async function readCryptoPoolBasics({
  client,
  pool,
  coinCount,
  blockNumber,
}: {
  client: PublicClient
  pool: Address
  coinCount: 2 | 3
  blockNumber: bigint
}): Promise<{ coins: Address[]; balances: bigint[]; decimals: number[]; rampEnd: bigint }> {
  const read = <T>(address: Address, abi: typeof poolAbi | typeof erc20Abi, functionName: string, args: readonly bigint[] = []) =>
    client.readContract({ address, abi, functionName: functionName as never, args: args as never, blockNumber }) as Promise<T>
  const indexes = Array.from({ length: coinCount }, (_, k) => BigInt(k))
  const coins = (await Promise.all(indexes.map((k) => read<Address>(pool, poolAbi, 'coins', [k])))).map((coin) => getAddress(coin))
  const [balances, decimals, rampEnd] = await Promise.all([
    Promise.all(indexes.map((k) => read<bigint>(pool, poolAbi, 'balances', [k]))),
    Promise.all(coins.map((coin) => read<number>(coin, erc20Abi, 'decimals'))),
    read<bigint>(pool, poolAbi, 'future_A_gamma_time'),
  ])
  return { coins, balances, decimals: decimals.map(Number), rampEnd }
}

/** A CryptoSwap pool's ref: `curveTemplate` tells the CURVE adapter which template to read and execute it as. */
export const cryptoTemplateRefOf = (template: NonNullable<PoolRef['curveTemplate']>, address: string, marginBps?: number): PoolRef => ({
  ...oneContractPoolRef(address, 'CURVE'),
  curveTemplate: template,
  ...(marginBps === undefined ? {} : { marginBps }),
})

/** A twocrypto-ng pool's ref. */
export const cryptoRefOf = (address: string, marginBps?: number): PoolRef => cryptoTemplateRefOf('twocrypto-ng', address, marginBps)

/**
 * Curve's twocrypto-ng pools (CryptoSwap, two coins), priced from the pool's own `get_dy` through the
 * solver's sampled model: each block, its coins and balances are read, then `get_dy` is asked at
 * log-spaced sizes and dense fractions of its balance both ways (`curveCryptoSampleAmounts`) in one
 * `aggregate3` call (`sampleQuoteViews`, the prop AMMs' sampling), with a margin
 * (`CURVE_CRYPTO_MARGIN_BPS`); the quote service asks `get_dy` again at the chosen legs' inputs
 * before answering and lists the legs in `metadata.sampledLegs`. Discovered from the factory's
 * `TwocryptoPoolDeployed` or configured (`template: "twocrypto-ng"`). Executed as
 * `curve {pool, i, j, indexType: "uint256"}`. Part of the CURVE adapter (`curveKinds.ts`).
 *
 * @example
 * const snapshot = await curveCrypto.readPool({ client, ref: cryptoRefOf(pool), blockNumber, nextBlock, executor: router })
 * // → input.state: { model: 'sampled', marginBps: 5, zeroForOne: [[in, out], …], oneForZero: […] }; ref.coins: the pool's order
 */
export const curveCrypto: PoolAdapter = {
  dex: 'CURVE',
  legKind: 'curve',
  ...discoveryByEvent(twocryptoFactoryEvents[0], (args) => ({ ref: cryptoRefOf(args.pool) })),
  ...stateLogsOfPool(poolEvents),
  refOfConfiguredPool: (pool) => cryptoRefOf(pool.address, pool.marginBps),
  readPool: async ({ client, ref, blockNumber, nextBlock, executor }) => {
    const unusable = (reason: string) => new PoolUnusableError({ poolId: ref.id, dex: 'CURVE', reason })
    if (!executor) throw unusable('no executing address to quote for (the chain config names no router)')
    const pool = getAddress(ref.emitter)
    const { coins, balances, decimals, rampEnd } = await readCryptoPoolBasics({ client, pool, coinCount: 2, blockNumber })
    const sampled = await sampleQuoteViews({
      client,
      executor,
      blockNumber,
      tokens: [coins[0], coins[1]],
      decimals: [Number(decimals[0]), Number(decimals[1])],
      reserves: [balances[0], balances[1]],
      ask: (i, amountIn) => ({ dex: 'CURVE', entry: pool, tokenIn: coins[i], tokenOut: coins[1 - i], amountIn, coins }),
      marginBps: ref.marginBps ?? CURVE_CRYPTO_MARGIN_BPS,
      amountsOf: (i) => curveCryptoSampleAmounts({ decimals: Number(decimals[i]), reserveIn: balances[i] }),
    })
    if ('problem' in sampled) throw unusable(`get_dy: ${sampled.problem}`)
    const input: PoolInput = { id: ref.id, dex: 'CURVE', tokens: sampled.tokens, state: sampled.state }
    const lower = coins.map((c) => c.toLowerCase() as Address)
    // get_dy moves with the clock only while A and gamma ramp: then the pool is sampled every block.
    return { ref: { ...ref, coins: lower, entry: ref.emitter }, input, refreshEveryBlock: nextBlock.timestamp < rampEnd }
  },
  encodeLeg: (ref, direction) => {
    if (!direction || !ref.coins)
      throw new AdapterError(`CURVE pool ${ref.id}: a leg needs its direction and the pool's coins (read the pool first)`)
    const i = ref.coins.indexOf(direction.tokenIn.toLowerCase() as Address)
    const j = ref.coins.indexOf(direction.tokenOut.toLowerCase() as Address)
    if (i === -1 || j === -1 || i === j)
      throw new AdapterError(`CURVE pool ${ref.id}: ${direction.tokenIn} → ${direction.tokenOut} is not a pair of its coins`)
    return { kind: 'curve', pool: getAddress(ref.id), i, j, indexType: 'uint256' }
  },
}
