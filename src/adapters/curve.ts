import { type Address, getAddress, parseAbi } from 'viem'
import { curveRegistryDiscovery } from './curveRegistry.ts'
import { oneContractPoolRef } from './oneContractPoolRef.ts'
import { stateLogsOfPool } from './poolStateLogs.ts'
import { AdapterError } from './errors.ts'
import type { PoolAdapter, PoolRef } from './PoolAdapter.ts'
import { readCurvePool } from './state/readCurvePool.ts'

/**
 * What changes a StableSwap pool's price: swaps, deposits and withdrawals of every kind, A ramps and
 * fee changes (NG's signatures; any other log of a followed pool marks it changed too: the legacy
 * template's fixed-size arrays, `classifyLogs`).
 */
const poolEvents = parseAbi([
  'event TokenExchange(address indexed buyer, int128 sold_id, uint256 tokens_sold, int128 bought_id, uint256 tokens_bought)',
  'event TokenExchangeUnderlying(address indexed buyer, int128 sold_id, uint256 tokens_sold, int128 bought_id, uint256 tokens_bought)',
  'event AddLiquidity(address indexed provider, uint256[] token_amounts, uint256[] fees, uint256 invariant, uint256 token_supply)',
  'event RemoveLiquidity(address indexed provider, uint256[] token_amounts, uint256[] fees, uint256 token_supply)',
  'event RemoveLiquidityOne(address indexed provider, int128 token_id, uint256 token_amount, uint256 coin_amount, uint256 token_supply)',
  'event RemoveLiquidityImbalance(address indexed provider, uint256[] token_amounts, uint256[] fees, uint256 invariant, uint256 token_supply)',
  'event RampA(uint256 old_A, uint256 new_A, uint256 initial_time, uint256 future_time)',
  'event StopRampA(uint256 A, uint256 t)',
  'event ApplyNewFee(uint256 fee, uint256 offpeg_fee_multiplier)',
])

const refOf = (address: string): PoolRef => oneContractPoolRef(address, 'CURVE')

/**
 * Curve StableSwap pools (NG and the legacy plain template, 2 to 4 coins): listed from their
 * factory's registry (`curveRegistry.ts`: its deploy events do not name the pool; the deployment is
 * marked `registry`) or configured in the chain config, read whole at a block
 * (`readCurvePool`: balances without the admin share, rates, fee, off-peg multiplier, the A ramp and
 * the timestamp of the block the plan executes in), re-read on any log of the pool, and every block
 * while its state moves without one (an NG pool's rates, a ramp, a meta pool's base pool). Executed
 * as `curve {pool, i, j}` with the coins' indexes in the pool; a legacy meta pool is one venue of
 * its underlying coins (its coin, then its base pool's), executed as `curve {pool, i, j, underlying: true}`
 * (`exchange_underlying`).
 *
 * @example
 * const leg = curve.encodeLeg(ref, { tokenIn, tokenOut }) // { kind: 'curve', pool, i: 0, j: 2 }
 */
export const curve: PoolAdapter = {
  dex: 'CURVE',
  legKind: 'curve',
  ...curveRegistryDiscovery(refOf),
  ...stateLogsOfPool(poolEvents),
  refOfConfiguredPool: (pool) => refOf(pool.address),
  readPool: async ({ client, ref, blockNumber, nextBlock }) => {
    const { input, coins, basePool, movesWithoutEvents } = await readCurvePool({
      client,
      pool: ref.emitter,
      blockNumber,
      timestamp: nextBlock.timestamp,
    })
    return { ref: { ...ref, coins, ...(basePool ? { curveBasePool: basePool } : {}) }, input, refreshEveryBlock: movesWithoutEvents }
  },
  encodeLeg: (ref, direction) => {
    if (!direction || !ref.coins)
      throw new AdapterError(`CURVE pool ${ref.id}: a leg needs its direction and the pool's coins (read the pool first)`)
    const i = ref.coins.indexOf(direction.tokenIn.toLowerCase() as Address)
    const j = ref.coins.indexOf(direction.tokenOut.toLowerCase() as Address)
    if (i === -1 || j === -1 || i === j)
      throw new AdapterError(
        `CURVE pool ${ref.id}: ${direction.tokenIn} → ${direction.tokenOut} is not a pair of its coins ${ref.coins.join(', ')}`,
      )
    return { kind: 'curve', pool: getAddress(ref.id), i, j, ...(ref.curveBasePool ? { underlying: true } : {}) }
  },
}
