import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { Address, PublicClient } from 'viem'
import type { SqlDatabase } from '../store/SqlDatabase.ts'
import { applyChainBatch } from './applyChainBatch.ts'
import { fetchChainBatch } from './fetchChainBatch.ts'
import type { LaunchpadAddresses } from './LaunchpadAddresses.ts'
import { refreshRankings } from './refreshRankings.ts'
import { revertAbove } from './revertAbove.ts'

/** This process's lease holder id: one instance is one process (its indexers of one chain take turns through `syncOnce`). */
const PROCESS_HOLDER = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`

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
  /**
   * The chain's indexing lease when instances share one database (`indexer_leases`): this
   * indexer's holder id (default one per process) and how long a lease outlives its last renewal (default
   * 15 s: the longest a dead indexer's chain waits for another instance to take over).
   */
  lease?: { holder?: string; ttlMs?: number }
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
  /** `leader`: this instance indexes the chain; `standby`: another holds the lease (this one takes over when it lapses). */
  role?: 'leader' | 'standby'
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
 * Instances sharing one database index each chain one at a time: the holder of the chain's lease
 * (`indexer_leases`) indexes, the others stand by and take over once it lapses (`lease.ttlMs`
 * after its holder's last step); every write commits only while its writer holds the lease.
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
  lease = {},
}: CreateIndexerParameters): Indexer {
  const chainId = launchpad.chainId
  const status: IndexerStatus = { chainId, reorgs: 0, running: false }
  let lastRankingAt = 0
  const iso = () => new Date(now()).toISOString()
  const holder = lease.holder ?? PROCESS_HOLDER
  const leaseTtlMs = lease.ttlMs ?? 15_000

  /**
   * Takes or renews the chain's lease: it is this indexer's when it holds it or the lease has
   * expired (or none exists). Inside a batch's transaction the update's row lock orders it with
   * any other instance's claim, so the batch commits only if this indexer still holds the lease.
   */
  const claimLease = async (tx: SqlDatabase): Promise<boolean> => {
    const t = now()
    const renewed = await tx.execute(
      'UPDATE indexer_leases SET holder = $1, expires_at = $2 WHERE chain_id = $3 AND (holder = $1 OR expires_at <= $4)',
      [holder, t + leaseTtlMs, chainId, t],
    )
    if (renewed > 0) return true
    return (
      (await tx.execute('INSERT INTO indexer_leases (chain_id, holder, expires_at) VALUES ($1, $2, $3) ON CONFLICT (chain_id) DO NOTHING', [
        chainId,
        holder,
        t + leaseTtlMs,
      ])) > 0
    )
  }
  /** Runs `fn` in one transaction that commits only while this indexer holds the lease. */
  const asLeader = (fn: (tx: SqlDatabase) => Promise<unknown>) =>
    db.transaction(async (tx) => {
      if (!(await claimLease(tx))) throw new Error(`another instance took over indexing chain ${chainId}; this batch is not written`)
      await fn(tx)
    })

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
    const leader = await db.transaction(claimLease)
    if (status.role !== (leader ? 'leader' : 'standby'))
      log(`indexer of chain ${chainId}: ${leader ? 'indexing (lease taken)' : 'standing by (another instance holds the lease)'}`)
    status.role = leader ? 'leader' : 'standby'
    if (!leader) {
      // Another instance indexes: report where the shared read model is, write nothing.
      const shared = await readState()
      Object.assign(status, { blockNumber: shared?.block_number, headBlock: Number(head), lastPollAt: iso() })
      return { caughtUp: true }
    }
    const [safe, finalized] = await Promise.all([tagged('safe', head), tagged('finalized', head)])
    let state = await readState()
    status.blockNumber = state?.block_number
    let reorgedTo: number | undefined
    if (state) {
      const current = await client.getBlock({ blockNumber: BigInt(state.block_number) }).catch(() => undefined)
      if (current?.hash.toLowerCase() !== state.block_hash) {
        reorgedTo = await findForkPoint()
        const fork = reorgedTo
        await asLeader((tx) => revertAbove({ tx, chainId, block: fork, nowIso: iso() }))
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
      await asLeader((tx) =>
        tx.execute('UPDATE indexer_state SET head_block = $1, safe_block = $2, finalized_block = $3, updated_at = $4 WHERE chain_id = $5', [
          Number(head),
          Number(safe),
          Number(finalized),
          iso(),
          chainId,
        ]),
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
    await asLeader((tx) => applyChainBatch({ tx, launchpad, batch, nowIso: iso(), head: { head, safe, finalized } }))
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
    if (status.role !== 'leader' || now() - lastRankingAt < rankingIntervalMs) return
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
    // A clean stop hands the chain over at once (a killed instance's lease lapses after its TTL).
    if (status.role === 'leader')
      await db.execute('UPDATE indexer_leases SET expires_at = 0 WHERE chain_id = $1 AND holder = $2', [chainId, holder]).catch(() => {})
    status.role = undefined
  }
  return {
    syncOnce,
    catchUp,
    start,
    stop,
    status: () => ({ ...status, blockNumber: status.blockNumber }),
  }
}
