import type { SqlDatabase } from '../store/SqlDatabase.ts'
import { amountKey } from './amountKey.ts'

export type RevertAboveParameters = {
  tx: SqlDatabase
  chainId: number
  /** The last block that stays: everything indexed from later blocks is undone. */
  block: number
  nowIso: string
}

/**
 * Undoes everything the indexer wrote from blocks after `block` (a reorganisation replaced them):
 * balances by the inverse of each removed transfer, then every derived value the removed events
 * fed, recomputed from the events that remain (trade counts, pool price and paired balance, fee
 * accruals and claims, vesting claims, names, symbols, metadata and admins); tokens launched later
 * disappear with their positions. Holder pages of the touched tokens become stale. Runs inside the
 * caller's transaction.
 *
 * @example
 * await db.transaction((tx) => revertAbove({ tx, chainId: 8453, block: 1234, nowIso }))
 * // → { tokens: n }: n tokens touched; every row above block 1234 undone (balances restored, later launches gone)
 */
export async function revertAbove({ tx, chainId, block, nowIso }: RevertAboveParameters): Promise<{ tokens: number }> {
  const touched = new Set<string>()
  const later = [chainId, block]

  // Balances: the inverse of each removed transfer.
  const transfers = await tx.query<{ token: string; from_address: string; to_address: string; amount: string }>(
    'SELECT token, from_address, to_address, amount FROM transfers WHERE chain_id = $1 AND block_number > $2',
    later,
  )
  const deltas = new Map<string, bigint>()
  for (const t of transfers) {
    touched.add(t.token)
    const amount = BigInt(t.amount)
    if (!/^0x0{40}$/.test(t.from_address))
      deltas.set(`${t.token} ${t.from_address}`, (deltas.get(`${t.token} ${t.from_address}`) ?? 0n) + amount)
    deltas.set(`${t.token} ${t.to_address}`, (deltas.get(`${t.token} ${t.to_address}`) ?? 0n) - amount)
  }
  for (const [key, delta] of deltas) {
    const [token, holder] = key.split(' ')
    const [row] = await tx.query<{ balance: string }>('SELECT balance FROM balances WHERE chain_id = $1 AND token = $2 AND holder = $3', [
      chainId,
      token,
      holder,
    ])
    const balance = BigInt(row?.balance ?? '0') + delta
    await tx.execute(
      'UPDATE balances SET balance = $1, balance_key = $2, changed_block = $3 WHERE chain_id = $4 AND token = $5 AND holder = $6',
      [balance.toString(), amountKey(balance), block, chainId, token, holder],
    )
  }
  await tx.execute('DELETE FROM transfers WHERE chain_id = $1 AND block_number > $2', later)

  for (const table of ['trades', 'token_updates']) {
    for (const { token } of await tx.query<{ token: string }>(
      `SELECT DISTINCT token FROM ${table} WHERE chain_id = $1 AND block_number > $2`,
      later,
    ))
      touched.add(token)
    await tx.execute(`DELETE FROM ${table} WHERE chain_id = $1 AND block_number > $2`, later)
  }
  const positions = await tx.query<{ token: string; recipient: string | null }>(
    'SELECT DISTINCT token, recipient FROM fee_events WHERE chain_id = $1 AND block_number > $2',
    later,
  )
  for (const p of positions) touched.add(p.token)
  await tx.execute('DELETE FROM fee_events WHERE chain_id = $1 AND block_number > $2', later)
  const vesting = await tx.query<{ position_id: number }>(
    'SELECT DISTINCT position_id FROM vesting_claims WHERE chain_id = $1 AND block_number > $2',
    later,
  )
  await tx.execute('DELETE FROM vesting_claims WHERE chain_id = $1 AND block_number > $2', later)

  // Tokens launched after the fork are gone, with everything that hangs off them.
  const gone = await tx.query<{ address: string }>('SELECT address FROM tokens WHERE chain_id = $1 AND launch_block > $2', later)
  for (const { address } of gone) {
    touched.delete(address)
    for (const table of ['balances', 'fee_positions', 'vesting_positions'])
      await tx.execute(`DELETE FROM ${table} WHERE chain_id = $1 AND token = $2`, [chainId, address])
    await tx.execute('DELETE FROM tokens WHERE chain_id = $1 AND address = $2', [chainId, address])
  }
  await tx.execute('DELETE FROM vesting_positions WHERE chain_id = $1 AND created_block > $2', later)

  for (const token of touched) await recomputeToken({ tx, chainId, token, block, nowIso })
  for (const p of positions)
    if (p.recipient && !gone.some((g) => g.address === p.token))
      await recomputeFeePosition({ tx, chainId, token: p.token, recipient: p.recipient, block, nowIso })
  for (const { position_id } of vesting) await recomputeVestingPosition({ tx, chainId, id: position_id, block, nowIso })

  await tx.execute('DELETE FROM indexed_blocks WHERE chain_id = $1 AND block_number > $2', later)
  const [header] = await tx.query<{ block_hash: string; block_timestamp: number }>(
    'SELECT block_hash, block_timestamp FROM indexed_blocks WHERE chain_id = $1 AND block_number = $2',
    later,
  )
  if (header) {
    await tx.execute(
      'UPDATE indexer_state SET block_number = $1, block_hash = $2, block_timestamp = $3, updated_at = $4 WHERE chain_id = $5',
      [block, header.block_hash, header.block_timestamp, nowIso, chainId],
    )
  } else {
    // Back before anything this chain's indexer kept: it starts again from the launchpad's first block.
    await tx.execute('DELETE FROM indexer_state WHERE chain_id = $1', [chainId])
  }
  return { tokens: touched.size }
}

/** A token's fields that removed events fed, from what remains. */
async function recomputeToken({
  tx,
  chainId,
  token,
  block,
  nowIso,
}: {
  tx: SqlDatabase
  chainId: number
  token: string
  block: number
  nowIso: string
}): Promise<void> {
  const key = [chainId, token]
  const [row] = await tx.query<{ initial_sqrt_price_x96: string; initial_tick: number }>(
    'SELECT initial_sqrt_price_x96, initial_tick FROM tokens WHERE chain_id = $1 AND address = $2',
    key,
  )
  if (!row) return
  const trades = await tx.query<{ side: string; amount_paired: string; sqrt_price_x96: string; tick: number; block_number: number }>(
    'SELECT side, amount_paired, sqrt_price_x96, tick, block_number FROM trades WHERE chain_id = $1 AND token = $2 ORDER BY block_number, log_index',
    key,
  )
  const collected = await tx.query<{ amount_paired: string }>(
    "SELECT amount_paired FROM fee_events WHERE chain_id = $1 AND token = $2 AND kind = 'collected'",
    key,
  )
  let paired = 0n
  for (const t of trades) paired += t.side === 'buy' ? BigInt(t.amount_paired) : -BigInt(t.amount_paired)
  for (const c of collected) paired -= BigInt(c.amount_paired)
  const last = trades.at(-1)
  const [update] = await tx.query<{ name: string; symbol: string; extra_metadata: string; admin: string }>(
    'SELECT name, symbol, extra_metadata, admin FROM token_updates WHERE chain_id = $1 AND token = $2 ORDER BY block_number DESC, log_index DESC LIMIT 1',
    key,
  )
  const [{ n: holders }] = await tx.query<{ n: number }>(
    "SELECT COUNT(*) AS n FROM balances WHERE chain_id = $1 AND token = $2 AND balance <> '0'",
    key,
  )
  await tx.execute(
    `UPDATE tokens SET sqrt_price_x96 = $1, tick = $2, pool_paired_balance = $3, trade_count = $4, last_trade_block = $5, holder_count = $6, holders_block = $7,
       name = $8, symbol = $9, extra_metadata = $10, admin = $11, changed_block = $7, updated_at = $12 WHERE chain_id = $13 AND address = $14`,
    [
      last?.sqrt_price_x96 ?? row.initial_sqrt_price_x96,
      last?.tick ?? row.initial_tick,
      paired.toString(),
      trades.length,
      last?.block_number ?? null,
      holders,
      block,
      update.name,
      update.symbol,
      update.extra_metadata,
      update.admin,
      nowIso,
      chainId,
      token,
    ],
  )
}

async function recomputeFeePosition({
  tx,
  chainId,
  token,
  recipient,
  block,
  nowIso,
}: {
  tx: SqlDatabase
  chainId: number
  token: string
  recipient: string
  block: number
  nowIso: string
}): Promise<void> {
  const events = await tx.query<{
    kind: string
    amount_token: string
    amount_paired: string
    tx_hash: string
    block_number: number
    block_time: number
  }>(
    'SELECT kind, amount_token, amount_paired, tx_hash, block_number, block_time FROM fee_events WHERE chain_id = $1 AND token = $2 AND recipient = $3 ORDER BY block_number, log_index',
    [chainId, token, recipient],
  )
  let accruedToken = 0n
  let accruedPaired = 0n
  let claimedToken = 0n
  let claimedPaired = 0n
  let lastClaim: (typeof events)[number] | undefined
  let claims = 0
  for (const e of events) {
    const sign = e.kind === 'claimed' ? -1n : 1n
    accruedToken += sign * BigInt(e.amount_token)
    accruedPaired += sign * BigInt(e.amount_paired)
    if (e.kind === 'claimed') {
      claimedToken += BigInt(e.amount_token)
      claimedPaired += BigInt(e.amount_paired)
      claims++
      lastClaim = e
    }
  }
  await tx.execute(
    `UPDATE fee_positions SET accrued_token = $1, accrued_paired = $2, claimed_token = $3, claimed_paired = $4, claim_count = $5, last_claim_tx = $6, last_claim_block = $7,
       last_claim_at = $8, changed_block = $9, updated_at = $10 WHERE chain_id = $11 AND token = $12 AND recipient = $13`,
    [
      accruedToken.toString(),
      accruedPaired.toString(),
      claimedToken.toString(),
      claimedPaired.toString(),
      claims,
      lastClaim?.tx_hash ?? null,
      lastClaim?.block_number ?? null,
      lastClaim?.block_time ?? null,
      block,
      nowIso,
      chainId,
      token,
      recipient,
    ],
  )
}

async function recomputeVestingPosition({
  tx,
  chainId,
  id,
  block,
  nowIso,
}: {
  tx: SqlDatabase
  chainId: number
  id: number
  block: number
  nowIso: string
}): Promise<void> {
  const claims = await tx.query<{ amount: string; tx_hash: string; block_number: number; block_time: number }>(
    'SELECT amount, tx_hash, block_number, block_time FROM vesting_claims WHERE chain_id = $1 AND position_id = $2 ORDER BY block_number, log_index',
    [chainId, id],
  )
  const last = claims.at(-1)
  await tx.execute(
    'UPDATE vesting_positions SET claimed = $1, claim_count = $2, last_claim_tx = $3, last_claim_block = $4, last_claim_at = $5, changed_block = $6, updated_at = $7 WHERE chain_id = $8 AND position_id = $9',
    [
      claims.reduce((s, c) => s + BigInt(c.amount), 0n).toString(),
      claims.length,
      last?.tx_hash ?? null,
      last?.block_number ?? null,
      last?.block_time ?? null,
      block,
      nowIso,
      chainId,
      id,
    ],
  )
}
