import type { Address, PublicClient } from 'viem'
import type { DexId } from '../../bindings/types.ts'
import type { PoolRef } from '../../src/adapters/PoolAdapter.ts'
import { presentAdapters } from '../../src/adapters/presentAdapters.ts'

export type DescribePlanPoolsParameters = {
  /** The service's `GET /market/pools/{poolId}`, authenticated. */
  fetchServicePool: (poolId: string, blockNumber: number) => Promise<{ status: number; json: any }>
  /** A client of the same chain, to read each pool as the chain holds it. */
  client: PublicClient
  poolIds: readonly string[]
  /** The plan's block. */
  blockNumber: number
  /** The chain's block time, for clock-driven fees (read for the block after, as the market does). */
  blockTimeSec: number
  /** The address the service quotes sampled venues as (its router): a CURVE CryptoSwap pool's `get_dy` is asked as it. */
  executor?: Address
}

/**
 * For each pool of a plan that paid other than it said: the state the solver priced at the plan's
 * block (and the block it was read at) beside the chain's state at that block, read with the same
 * adapter, with the fields that differ named first. The chain's side is read here, not by the
 * service, so a service whose read went wrong cannot hide it.
 *
 * @example
 * const lines = await describePlanPools({ fetchServicePool, client, poolIds, blockNumber: 120, blockTimeSec: 2 })
 * // → one line per pool: the service's state at block 120 beside the chain's, differing fields first
 */
export async function describePlanPools({
  fetchServicePool,
  client,
  poolIds,
  blockNumber,
  blockTimeSec,
  executor,
}: DescribePlanPoolsParameters): Promise<string[]> {
  const adapters = presentAdapters()
  const block = await client.getBlock({ blockNumber: BigInt(blockNumber) })
  const nextBlock = { number: block.number + 1n, timestamp: block.timestamp + BigInt(blockTimeSec) }
  const lines: string[] = []
  for (const poolId of new Set(poolIds.map((id) => id.toLowerCase()))) {
    const served = await fetchServicePool(poolId, blockNumber)
    if (served.status !== 200) {
      lines.push(`  ${poolId}: the service has no state for it at block ${blockNumber} (${served.status} ${JSON.stringify(served.json)})`)
      continue
    }
    const { dex, readAtBlock, state, ref } = served.json as {
      dex: DexId
      readAtBlock: number
      state: Record<string, unknown>
      ref: PoolRef
    }
    let chainState: Record<string, unknown> | string
    try {
      const adapter = adapters.get(dex)
      if (!adapter) throw new Error(`no adapter for ${dex}`)
      chainState = (await adapter.readPool({ client, ref, blockNumber: BigInt(blockNumber), nextBlock, executor })).input.state as Record<
        string,
        unknown
      >
    } catch (error) {
      chainState = `unreadable: ${(error as Error).message.split('\n')[0]}`
    }
    const differing = typeof chainState === 'string' ? ['(chain read failed)'] : differingFields(state, chainState)
    lines.push(
      `  ${dex} ${poolId}: solver's state read at block ${readAtBlock}; ${differing.length === 0 ? "equal to the chain's at the plan's block" : `differs from the chain's at block ${blockNumber} in ${differing.join(', ')}`}`,
    )
    if (differing.length > 0) {
      lines.push(`    solver: ${summarise(state)}`)
      lines.push(`    chain:  ${typeof chainState === 'string' ? chainState : summarise(chainState)}`)
    }
  }
  return lines
}

/**
 * The top-level fields of two wire states that differ (arrays compared whole), leaving out a
 * StableSwap pool's `timestamp` once its A ramp is over at both: the read's clock then prices
 * nothing, and a pool whose state moves only with its logs is not re-read every block for it.
 */
function differingFields(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)])
  const rampOver = (s: Record<string, unknown>) =>
    s.model === 'stableswap' && BigInt(String(s.futureATime ?? 0)) <= BigInt(String(s.timestamp ?? 0))
  if (rampOver(a) && rampOver(b)) keys.delete('timestamp')
  return [...keys].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]))
}

/** A state on one line: scalars as they are, arrays by length (the tick lists run to thousands). */
function summarise(state: Record<string, unknown>): string {
  return Object.entries(state)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? `[${v.length} entries]` : JSON.stringify(v)}`)
    .join(' ')
}
