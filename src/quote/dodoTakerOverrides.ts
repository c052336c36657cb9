import { type Address, getAddress, zeroAddress } from 'viem'
import type { DexId, SolverPoolOverride } from '../../bindings/types.ts'
import type { DodoRatePool } from '../adapters/state/readDodoTakerRates.ts'
import type { MarketState } from '../market/createMarketState.ts'
import { perPoolList } from '../market/perPoolList.ts'

/** Reads the maintainer rates `taker` pays on `pools` at `blockNumber`, by pool id (`readDodoTakerRates`). */
export type ReadTakerRates = (args: { taker: Address; blockNumber: bigint; pools: readonly DodoRatePool[] }) => Promise<Map<string, bigint>>

/** (taker, block) pairs whose rates are kept: a taker's next quotes in the block reuse them; older ones go first. */
export const DODO_TAKER_RATE_ENTRIES = 64

/**
 * `read` with its answers kept per (taker, block) and pool, at most `maxEntries` pairs (the oldest
 * pair goes first), so that no client can grow it: a taker quoting several times in one block reads
 * each rate once. A failed read is not kept.
 *
 * @example
 * const rates = cacheTakerRates((args) => readDodoTakerRates({ client, ...args }))
 * await rates({ taker, blockNumber: 120n, pools }) // reads; the same again in block 120 does not
 */
export function cacheTakerRates(read: ReadTakerRates, maxEntries = DODO_TAKER_RATE_ENTRIES): ReadTakerRates {
  const entries = new Map<string, Map<string, Promise<bigint>>>()
  return async ({ taker, blockNumber, pools }) => {
    const key = `${taker.toLowerCase()}@${blockNumber}`
    let byPool = entries.get(key)
    if (!byPool) {
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string)
      byPool = new Map()
      entries.set(key, byPool)
    }
    const missing = pools.filter((pool) => !byPool.has(pool.id))
    if (missing.length > 0) {
      const reading = read({ taker, blockNumber, pools: missing })
      for (const { id } of missing) {
        const rate = reading.then((rates) => {
          const answer = rates.get(id)
          if (answer === undefined) throw new Error(`no maintainer rate read for pool ${id}`)
          return answer
        })
        // A failed read is asked again next time (and its rejection handled here, awaited below).
        rate.catch(() => byPool.get(id) === rate && byPool.delete(id))
        byPool.set(id, rate)
      }
    }
    const rates = await Promise.all(pools.map((pool) => byPool.get(pool.id) as Promise<bigint>))
    return new Map(pools.map(({ id }, k) => [id, rates[k]]))
  }
}

/**
 * A taker's DODO_V2 rates at one block: the solver's `poolOverrides` (empty when every rate is the
 * market's, and the request is solved on the market as it is), and the market's own rate of each
 * pool where the taker's differs.
 */
export type DodoTakerOverrides = {
  blockNumber: bigint
  overrides: SolverPoolOverride[]
  differing: Map<string, { mtFeeRate: string; marketMtFeeRate: string }>
}

type RatedPool = DodoRatePool & { marketRate: bigint }

/** The DODO_V2 pools of a pool list of the market's whose maintainer rate depends on the trader: found once per list, not per quote. */
const ratedPools = perPoolList((pools): RatedPool[] =>
  pools.flatMap(({ ref, input }) =>
    ref.dex === 'DODO_V2' && input.state.model === 'dodo_pmm' && ref.dodo?.feeRateModel && ref.dodo.feeRateModel !== zeroAddress
      ? [{ id: input.id, feeRateModel: ref.dodo.feeRateModel, marketRate: BigInt(input.state.mtFeeRate) }]
      : [],
  ),
)

/**
 * The maintainer rate of each DODO_V2 pool for `taker` at `blockNumber` (the market's block when
 * absent), when the plan could touch DODO pools (the allowed dexes include DODO_V2 and the market
 * holds some with a fee-rate model); undefined otherwise. Where some rate differs from the market's
 * (the anonymous trader's), every such pool is sent as an override (the solver replaces only those
 * whose rate differs at the block it solves on), so a rate the market changes meanwhile is still
 * the taker's.
 *
 * @example
 * await dodoTakerOverrides({ taker, allowedDexes: undefined, market, readRates })
 * // → { blockNumber: 120n, overrides: [{ poolId: '0x…dsp', mtFeeRate: '3000000000000000' }], differing: Map { '0x…dsp' => { mtFeeRate: '3000000000000000', marketMtFeeRate: '0' } } }
 */
export async function dodoTakerOverrides({
  taker,
  allowedDexes,
  market,
  readRates,
  blockNumber = market.freshness?.().blockNumber,
}: {
  taker: string | undefined
  allowedDexes: DexId[] | undefined
  market: Pick<MarketState, 'pools'> & Partial<Pick<MarketState, 'freshness'>>
  readRates: ReadTakerRates | undefined
  blockNumber?: bigint
}): Promise<DodoTakerOverrides | undefined> {
  if (!taker || !readRates || (allowedDexes && !allowedDexes.includes('DODO_V2'))) return undefined
  if (blockNumber === undefined) return undefined
  const pools = ratedPools(market.pools())
  if (pools.length === 0) return undefined
  // The request's address in any letter case (the spec's pattern): checksummed for the calls, which
  // refuse a mixed-case address whose case is not its checksum.
  const rates = await readRates({ taker: getAddress(taker), blockNumber, pools })
  const differing = new Map(
    pools
      .filter((pool) => rates.get(pool.id) !== pool.marketRate)
      .map((pool) => [pool.id, { mtFeeRate: String(rates.get(pool.id)), marketMtFeeRate: pool.marketRate.toString() }]),
  )
  const overrides = differing.size === 0 ? [] : pools.map((pool) => ({ poolId: pool.id, mtFeeRate: String(rates.get(pool.id)) }))
  return { blockNumber, overrides, differing }
}

/** Whether two reads give the solver the same overrides (the same pools at the same rates). */
export function sameTakerOverrides(a: DodoTakerOverrides | undefined, b: DodoTakerOverrides | undefined): boolean {
  const key = (t: DodoTakerOverrides | undefined) => JSON.stringify(t?.overrides ?? [])
  return key(a) === key(b)
}
