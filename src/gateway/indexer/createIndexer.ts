import type { Address, PublicClient } from 'viem'
import type { SqlDatabase } from '../store/SqlDatabase.ts'
import { applyChainBatch } from './applyChainBatch.ts'
import { fetchChainBatch } from './fetchChainBatch.ts'
import type { LaunchpadAddresses } from './LaunchpadAddresses.ts'
import { refreshRankings } from './refreshRankings.ts'
import { revertAbove } from './revertAbove.ts'

export type CreateIndexerParameters = {
  db: SqlDatabase
  client: PublicClient
  launchpad: LaunchpadAddresses
  /** Most blocks read per batch (one `eth_getLogs` range); default 2000. */
  batchBlocks?: number
  /** Pause between polls once caught up; default 1000 ms. */
  pollIntervalMs?: number
  /** Ranked values are recomputed at most this often; default 30 s. */
  rankingIntervalMs?: number
  /** Headers kept below the finalized block, to find a fork point; default 256. */
  keepBlocksBelowFinalized?: number
  log?: (line: string) => void
  now?: () => number
}

export type IndexerStatus = {
  chainId: number
  /** The last block fully indexed (undefined before the first batch). */
  blockNumber?: number
  headBlock?: number
  safeBlock?: number
  finalizedBlock?: number
  /** Wall-clock time of the last successful poll. */
  lastPollAt?: string
  lastError?: string
  reorgs: number
  running: boolean
}

export type SyncResult = { fromBlock?: bigint; toBlock?: bigint; caughtUp: boolean; reorgedTo?: number }

export type Indexer = {
  /** One step: handles a reorganisation if the last indexed block changed, then indexes one batch. */
  syncOnce: () => Promise<SyncResult>
  /** Indexes until caught up with the chain head (and refreshes the rankings once). */
  catchUp: () => Promise<void>
  /** Polls in the background until `stop`. */
  start: () => void
  stop: () => Promise<void>
  status: () => IndexerStatus
}

/**
 * Follows one chain's launchpad into the read model: batches of blocks read with `eth_getLogs`
 * (`fetchChainBatch`) and written in one transaction each, together with the indexer's position
 * (`applyChainBatch`), so a restart resumes exactly where the last commit left off. Before each
 * batch the last indexed block's hash is compared with the chain's: when it changed, the fork
 * point is the latest kept header the chain still has, and everything above it is undone
 * (`revertAbove`) and read again. The chain's safe and finalized blocks are recorded with every
 * batch (the `finality` of each resource). Ranked values are refreshed periodically.
 *
 * @example
 * const indexer = createIndexer({ db, client, launchpad })
 * await indexer.catchUp() // the read model is at the chain's head, rankings refreshed once
 * indexer.start() // polls every second until indexer.stop(); indexer.status() says where it is
 */
export function createIndexer({
  db,
  client,
  launchpad,
  batchBlocks = 2000,
  pollIntervalMs = 1000,
  rankingIntervalMs = 30_000,
  keepBlocksBelowFinalized = 256,
  log = () => {},
  now = Date.now,
}: CreateIndexerParameters): Indexer {
  const chainId = launchpad.chainId
  const status: IndexerStatus = { chainId, reorgs: 0, running: false }
  let lastRankingAt = 0
  const iso = () => new Date(now()).toISOString()

  const readState = async () => {
    const [state] = await db.query<{ block_number: number; block_hash: string }>(
      'SELECT block_number, block_hash FROM indexer_state WHERE chain_id = $1',
      [chainId],
    )
    return state
  }

  const tagged = async (blockTag: 'safe' | 'finalized', head: bigint) => {
    try {
      return (await client.getBlock({ blockTag })).number ?? head
    } catch {
      // A node without the tag: nothing is known safe or final beyond what it serves as latest.
      return head
    }
  }

  /**
   * The latest kept header the chain still has: everything above it was replaced. When the chain
   * has none of them, nothing indexed is known to be on it (a node pointed at another chain of the
   * same id, an embedded chain seeded again with its launchpad elsewhere): all of it is undone.
   */
  const findForkPoint = async (): Promise<number> => {
    const kept = await db.query<{ block_number: number; block_hash: string }>(
      'SELECT block_number, block_hash FROM indexed_blocks WHERE chain_id = $1 ORDER BY block_number DESC',
      [chainId],
    )
    for (const header of kept) {
      const block = await client.getBlock({ blockNumber: BigInt(header.block_number) }).catch(() => undefined)
      if (block?.hash.toLowerCase() === header.block_hash) return header.block_number
    }
    return -1
  }

  const syncStep = async (): Promise<SyncResult> => {
    const head = await client.getBlockNumber({ cacheTime: 0 })
    const [safe, finalized] = await Promise.all([tagged('safe', head), tagged('finalized', head)])
    let state = await readState()
    status.blockNumber = state?.block_number
    let reorgedTo: number | undefined
    if (state) {
      const current = await client.getBlock({ blockNumber: BigInt(state.block_number) }).catch(() => undefined)
      if (current?.hash.toLowerCase() !== state.block_hash) {
        reorgedTo = await findForkPoint()
        const fork = reorgedTo
        await db.transaction((tx) => revertAbove({ tx, chainId, block: fork, nowIso: iso() }))
        status.reorgs++
        log(`reorganisation: block ${state.block_number} changed; undone back to block ${fork}`)
        state = await readState()
        status.blockNumber = state?.block_number
        lastRankingAt = 0
      }
    }
    const fromBlock = state ? BigInt(state.block_number) + 1n : launchpad.fromBlock
    Object.assign(status, { headBlock: Number(head), safeBlock: Number(safe), finalizedBlock: Number(finalized), lastPollAt: iso() })
    if (fromBlock > head) {
      await db.execute(
        'UPDATE indexer_state SET head_block = $1, safe_block = $2, finalized_block = $3, updated_at = $4 WHERE chain_id = $5',
        [Number(head), Number(safe), Number(finalized), iso(), chainId],
      )
      return { caughtUp: true, reorgedTo }
    }
    const toBlock = head < fromBlock + BigInt(batchBlocks) - 1n ? head : fromBlock + BigInt(batchBlocks) - 1n
    const known = await db.query<{ address: Address; pool: Address }>('SELECT address, pool FROM tokens WHERE chain_id = $1', [chainId])
    const batch = await fetchChainBatch({
      client,
      launchpad,
      known: { tokens: known.map((k) => k.address), pools: known.map((k) => k.pool) },
      fromBlock,
      toBlock,
    })
    await db.transaction((tx) => applyChainBatch({ tx, launchpad, batch, nowIso: iso(), head: { head, safe, finalized } }))
    await db.execute('DELETE FROM indexed_blocks WHERE chain_id = $1 AND block_number < $2 AND block_number < $3', [
      chainId,
      Number(finalized) - keepBlocksBelowFinalized,
      Number(toBlock),
    ])
    status.blockNumber = Number(toBlock)
    return { fromBlock, toBlock, caughtUp: toBlock === head, reorgedTo }
  }

  // One step at a time: the background loop and a caller's catchUp would otherwise index the same batch twice.
  let running: Promise<unknown> = Promise.resolve()
  const syncOnce = (): Promise<SyncResult> => {
    const step = running.then(syncStep, syncStep)
    running = step.catch(() => {})
    return step
  }

  const refreshIfDue = async () => {
    if (now() - lastRankingAt < rankingIntervalMs) return
    lastRankingAt = now()
    await refreshRankings({ db, nowIso: iso() })
  }

  const catchUp = async () => {
    for (;;) {
      const result = await syncOnce()
      if (result.caughtUp) break
    }
    lastRankingAt = 0
    await refreshIfDue()
  }

  let loop: Promise<void> | undefined
  let stopping = false
  let wake: (() => void) | undefined
  const start = () => {
    if (loop) return
    stopping = false
    status.running = true
    loop = (async () => {
      while (!stopping) {
        let caughtUp = true
        try {
          caughtUp = (await syncOnce()).caughtUp
          await refreshIfDue()
          status.lastError = undefined
        } catch (error) {
          status.lastError = error instanceof Error ? error.message.split('\n')[0] : String(error)
          log(`indexer error: ${status.lastError}`)
        }
        if (caughtUp && !stopping)
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, pollIntervalMs)
            wake = () => {
              clearTimeout(timer)
              resolve()
            }
          })
      }
      status.running = false
    })()
  }
  const stop = async () => {
    stopping = true
    wake?.()
    await loop
    loop = undefined
  }
  return {
    syncOnce,
    catchUp,
    start,
    stop,
    status: () => ({ ...status, blockNumber: status.blockNumber }),
  }
}
