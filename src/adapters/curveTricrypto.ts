import { type Address, getAddress, parseAbi } from 'viem'
import { discoveryByEvent } from './discoveryByEvent.ts'
import { stateLogsOfPool } from './poolStateLogs.ts'
import type { PoolInput } from '../../bindings/types.ts'
import { PoolUnusableError } from './errors.ts'
import type { PoolAdapter, PoolRef } from './PoolAdapter.ts'
import { CURVE_CRYPTO_MARGIN_BPS, cryptoTemplateRefOf, curveCrypto, curveCryptoSampleAmounts, readCryptoPoolBasics } from './curveCrypto.ts'
import { curveCryptoPairSamples } from './curveCryptoPairSamples.ts'

/** tricrypto-ng's factory event: it names the pool (docs/dex-kinds.md, *CURVE*). */
export const tricryptoFactoryEvents = parseAbi([
  'event TricryptoPoolDeployed(address pool, string name, string symbol, address weth, address[3] coins, address math, bytes32 salt, uint256 packed_precisions, uint256 packed_A_gamma, uint256 packed_fee_params, uint256 packed_rebalancing_params, uint256 packed_prices, address deployer)',
])
/** What changes a tricrypto-ng pool's price: swaps, deposits and withdrawals, parameter changes (tricrypto-ng's signatures). */
const poolEvents = parseAbi([
  'event TokenExchange(address indexed buyer, uint256 sold_id, uint256 tokens_sold, uint256 bought_id, uint256 tokens_bought, uint256 fee, uint256 packed_price_scale)',
  'event AddLiquidity(address indexed provider, uint256[3] token_amounts, uint256 fee, uint256 token_supply, uint256 packed_price_scale)',
  'event RemoveLiquidity(address indexed provider, uint256[3] token_amounts, uint256 token_supply)',
  'event RemoveLiquidityOne(address indexed provider, uint256 token_amount, uint256 coin_index, uint256 coin_amount, uint256 approx_fee, uint256 packed_price_scale)',
  'event NewParameters(uint256 mid_fee, uint256 out_fee, uint256 fee_gamma, uint256 allowed_extra_profit, uint256 adjustment_step, uint256 ma_time)',
  'event RampAgamma(uint256 initial_A, uint256 future_A, uint256 initial_gamma, uint256 future_gamma, uint256 initial_time, uint256 future_time)',
  'event StopRampA(uint256 current_A, uint256 current_gamma, uint256 time)',
])

/** A tricrypto-ng pool's ref ([`cryptoTemplateRefOf`]). */
export const tricryptoRefOf = (address: string, marginBps?: number): PoolRef => cryptoTemplateRefOf('tricrypto-ng', address, marginBps)

/**
 * Curve's tricrypto-ng pools (CryptoSwap, three coins), priced from the pool's own `get_dy` through the
 * solver's sampled model in its `pairs` form: each block, its coins and balances are read, then
 * `get_dy(i, j, dx)` is asked for all six ordered pairs at the twocrypto-ng sizes
 * (`curveCryptoSampleAmounts` of coin `i`'s balance) in one `aggregate3` call
 * (`curveCryptoPairSamples`), with twocrypto-ng's margin (`CURVE_CRYPTO_MARGIN_BPS`; a configured
 * pool's `marginBps` overrides it). The solver trades the pool through one ordered pair per plan (its
 * samples price the untouched pool only); the quote service asks `get_dy` again at the chosen legs'
 * inputs and lists them in `metadata.sampledLegs`, as for twocrypto-ng. Discovered from the factory's
 * `TricryptoPoolDeployed` or configured (`template: "tricrypto-ng"`). Executed as
 * `curve {pool, i, j, indexType: "uint256"}`. Part of the CURVE adapter (`curveKinds.ts`).
 *
 * @example
 * const snapshot = await curveTricrypto.readPool({ client, ref: tricryptoRefOf(pool), blockNumber, nextBlock, executor: router })
 * // → input.tokens: the pool's coins; input.state: { model: 'sampled', marginBps: 1, pairs: [{ tokenIn: 0, tokenOut: 1, samples: [[in, out], …] }, …] }
 */
export const curveTricrypto: PoolAdapter = {
  dex: 'CURVE',
  legKind: 'curve',
  ...discoveryByEvent(tricryptoFactoryEvents[0], (args) => ({ ref: tricryptoRefOf(args.pool) })),
  ...stateLogsOfPool(poolEvents),
  refOfConfiguredPool: (pool) => tricryptoRefOf(pool.address, pool.marginBps),
  readPool: async ({ client, ref, blockNumber, nextBlock, executor }) => {
    const unusable = (reason: string) => new PoolUnusableError({ poolId: ref.id, dex: 'CURVE', reason })
    if (!executor) throw unusable('no executing address to quote for (the chain config names no router)')
    const pool = getAddress(ref.emitter)
    const { coins, balances, decimals, rampEnd } = await readCryptoPoolBasics({ client, pool, coinCount: 3, blockNumber })
    const sampled = await curveCryptoPairSamples({
      client,
      executor,
      blockNumber,
      pool,
      coins,
      amountsOf: (i) => curveCryptoSampleAmounts({ decimals: decimals[i], reserveIn: balances[i] }),
      marginBps: ref.marginBps ?? CURVE_CRYPTO_MARGIN_BPS,
    })
    if ('problem' in sampled) throw unusable(`get_dy: ${sampled.problem}`)
    const input: PoolInput = { id: ref.id, dex: 'CURVE', tokens: coins, state: sampled.state }
    const lower = coins.map((c) => c.toLowerCase() as Address)
    // get_dy moves with the clock only while A and gamma ramp: then the pool is sampled every block.
    return { ref: { ...ref, coins: lower, entry: ref.emitter }, input, refreshEveryBlock: nextBlock.timestamp < rampEnd }
  },
  // The same leg as twocrypto-ng's (the `uint256` exchange, indices from the pool's coins).
  encodeLeg: (ref, direction) => curveCrypto.encodeLeg(ref, direction),
}
