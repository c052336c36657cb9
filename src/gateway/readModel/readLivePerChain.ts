import type { GatewayChain } from '../GatewayChain.ts'
import type { GatewayDependencies } from '../GatewayDependencies.ts'
import { readLiveBlock } from '../live/readLiveBlock.ts'
import { withDeadline } from '../live/withDeadline.ts'

export type ReadLivePerChainParameters<Row extends { chain_id: number }, Value> = {
  deps: GatewayDependencies
  /** The page's rows; rows of a chain the gateway does not serve are left unread. */
  rows: Row[]
  /** The key a row's live value is found under. */
  keyOf: (row: Row) => string
  /** Reads one chain's rows at `blockNumber`, one value per row in their order. */
  read: (parameters: { chain: GatewayChain; rows: Row[]; blockNumber: bigint }) => Promise<Value[]>
}

/**
 * What a page's rows hold now, read live (never cached: spec §8) chain by chain, each chain at one
 * block within the live-read deadline: a chain that fails gives its mapped error, never the indexed
 * values. `asOfBlock` is that block when the page spans one chain.
 *
 * @example
 * const { live, asOfBlock } = await readLivePerChain({ deps, rows: page, keyOf: (r) => `${r.chain_id} ${r.token}`, read })
 * live.get('8453 0xabc…') // → { ...the value read, block: 1234n }
 */
export async function readLivePerChain<Row extends { chain_id: number }, Value>({
  deps,
  rows,
  keyOf,
  read,
}: ReadLivePerChainParameters<Row, Value>) {
  const live = new Map<string, Value & { block: bigint }>()
  for (const id of new Set(rows.map((r) => r.chain_id))) {
    const chain = deps.chains.get(id)
    if (!chain) continue
    const mine = rows.filter((r) => r.chain_id === id)
    const blockNumber = await readLiveBlock({ chain, timeoutMs: deps.liveReadTimeoutMs })
    const values = await withDeadline({
      run: () => read({ chain, rows: mine, blockNumber }),
      dependency: 'the chain',
      timeoutMs: deps.liveReadTimeoutMs,
    })
    mine.forEach((r, i) => live.set(keyOf(r), { ...values[i], block: blockNumber }))
  }
  const blocks = [...new Set([...live.values()].map((l) => Number(l.block)))]
  return { live, asOfBlock: blocks.length === 1 ? blocks[0] : undefined }
}
