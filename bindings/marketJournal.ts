import type { BlockResult, BlockUpdate, PoolInput } from './types.ts'

/** The one call that rebuilds a market in a fresh backend. */
export type MarketRebuild = { op: 'applyBlock'; update: BlockUpdate } | { op: 'upsertPools'; pools: PoolInput[] }

export type MarketJournal = {
  /** `applyBlock(update)` answered `result`. */
  applied: (update: BlockUpdate, result: BlockResult) => void
  /** `upsertPools(pools)` succeeded (the market then has no block). */
  upserted: (pools: PoolInput[]) => void
  /** `removePools(ids)` succeeded (the market then has no block). */
  removed: (ids: string[]) => void
  /** The call that gives a fresh backend this market and block; undefined when there is nothing to rebuild. */
  rebuild: () => MarketRebuild | undefined
}

/**
 * What a solver's market holds, kept beside a backend that may have to be started again (a WASM
 * instance that trapped is never called again): the latest input of every live pool and the block,
 * following the solver's own rules (docs/solver-wire-format.md): a removal wins over an upsert of the
 * same id, a refused input leaves the market, changes without a block clear it. Only calls the
 * backend answered are recorded, so a call in flight is simply sent again after the rebuild.
 *
 * @example
 * const journal = createMarketJournal()
 * journal.applied({ blockNumber: 7, upserts: [pool] }, { pools: 1, rejected: [] })
 * journal.rebuild() // { op: 'applyBlock', update: { blockNumber: 7, upserts: [pool] } }
 */
export function createMarketJournal(): MarketJournal {
  const pools = new Map<string, PoolInput>()
  let blockNumber: number | null = null
  let l1GasPerLeg: number | undefined
  const key = (id: string) => id.toLowerCase()
  return {
    applied: (update, result) => {
      for (const pool of update.upserts ?? []) pools.set(key(pool.id), pool)
      for (const id of [...(update.removals ?? []), ...result.rejected.map((r) => r.id)]) pools.delete(key(id))
      blockNumber = update.blockNumber
      l1GasPerLeg = update.l1GasPerLeg
    },
    upserted: (inputs) => {
      for (const pool of inputs) pools.set(key(pool.id), pool)
      blockNumber = null
    },
    removed: (ids) => {
      for (const id of ids) pools.delete(key(id))
      blockNumber = null
    },
    rebuild: () => {
      if (blockNumber !== null)
        return { op: 'applyBlock', update: { blockNumber, upserts: [...pools.values()], ...(l1GasPerLeg ? { l1GasPerLeg } : {}) } }
      return pools.size > 0 ? { op: 'upsertPools', pools: [...pools.values()] } : undefined
    },
  }
}
