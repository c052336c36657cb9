import type { GatewayChain } from '../GatewayChain.ts'
import { cursorPosition } from '../routes/readCursor.ts'
import { type ChainState, readChainStates } from './readChainStates.ts'
import { readLivePerChain } from './readLivePerChain.ts'
import type { WalletPageParameters } from './PageParameters.ts'

/** A wallet's position as the read model stores it: a chain, and what orders it within the chain. */
type PositionRow = { chain_id: number }

export type ServeLiveWalletPageParameters<Row extends PositionRow, Value, Item> = WalletPageParameters & {
  /** `SELECT … FROM <positions> <alias> JOIN …`: the page's rows, without WHERE, ORDER or LIMIT. */
  select: string
  /** The positions table's alias in `select`, its wallet column and the column ordering it within a chain. */
  columns: { alias: string; wallet: string; position: string }
  /** A row's place after its chain id (the cursor's second half, `columns.position`'s value). */
  positionOf: (row: Row) => string | number
  /** Reads one chain's rows live at `blockNumber`, one value per row in their order (`readLivePerChain`). */
  read: (parameters: { chain: GatewayChain; rows: Row[]; blockNumber: bigint }) => Promise<Value[]>
  /** The answer's item of a row, its live value (with the block it was read at) and its chain's indexer state. */
  present: (row: Row, live: Value & { block: bigint }, state: ChainState | undefined) => Item
}

/**
 * A page of a wallet's positions, by chain and then `columns.position` (keyset: the cursor holds
 * the last row's pair), each read live (never cached: spec §8) at one block per chain: the page's
 * `as_of_block` when it spans one chain. Rows of a chain the gateway does not serve are left out.
 *
 * @example
 * return serveLiveWalletPage({ request, deps, route: 'wallets.vesting', filters, wallet, limit: 25,
 *   select: 'SELECT v.*, t.name, t.symbol FROM vesting_positions v JOIN tokens t ON …',
 *   columns: { alias: 'v', wallet: 'beneficiary', position: 'position_id' }, positionOf: (r) => Number(r.position_id), read, present })
 * // → { data: [present(row, live, state) per row], page: { limit: 25, next_cursor: '…' | null },
 * //     meta: { generated_at: '2026-11-27T10:00:00.000Z', as_of_block: 31000123 } }
 */
export async function serveLiveWalletPage<Row extends PositionRow, Value, Item>({
  request,
  deps,
  route,
  filters,
  wallet,
  chainId,
  limit,
  select,
  columns: { alias, wallet: walletColumn, position },
  positionOf,
  read,
  present,
}: ServeLiveWalletPageParameters<Row, Value, Item>) {
  const after = cursorPosition({ request, version: 0 }) as [number, string | number] | undefined
  const params: (string | number)[] = [wallet, limit + 1]
  const where = [`${alias}.${walletColumn} = $1`]
  if (chainId !== undefined) where.push(`${alias}.chain_id = $${params.push(chainId)}`)
  if (after)
    where.push(
      `(${alias}.chain_id > $${params.push(after[0])} OR (${alias}.chain_id = $${params.length} AND ${alias}.${position} > $${params.push(after[1])}))`,
    )
  const rows = await deps.db.query<Row>(
    `${select}\n      WHERE ${where.join(' AND ')} ORDER BY ${alias}.chain_id, ${alias}.${position} LIMIT $2`,
    params,
  )
  const page = rows.slice(0, limit)
  const states = await readChainStates({ db: deps.db })
  const keyOf = (r: Row) => `${r.chain_id} ${positionOf(r)}`
  const { live, asOfBlock } = await readLivePerChain({ deps, rows: page, keyOf, read })
  const last = page.at(-1)
  return {
    data: page.filter((r) => live.has(keyOf(r))).map((r) => present(r, live.get(keyOf(r))!, states.get(r.chain_id))),
    page: {
      limit,
      next_cursor:
        rows.length > limit && last
          ? deps.cursors.encode({ route, filters, version: 0, position: [last.chain_id, positionOf(last)] })
          : null,
    },
    meta: { generated_at: new Date(deps.now()).toISOString(), ...(asOfBlock === undefined ? {} : { as_of_block: asOfBlock }) },
  }
}
