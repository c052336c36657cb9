import type { SqlDatabase, SqlValue } from '../../src/gateway/store/SqlDatabase.ts'
import { amountKey } from '../../src/gateway/indexer/amountKey.ts'

/** A deterministic 20-byte address (lowercase hex) from a kind and an index. */
const address = (kind: number, i: number) => `0x${kind.toString(16).padStart(8, '0')}${i.toString(16).padStart(32, '0')}`
const hash = (i: number) => `0x${i.toString(16).padStart(64, '0')}`

/** Rows per multi-row INSERT (PostgreSQL allows 65,535 parameters per statement). */
const ROWS_PER_INSERT = 500

async function insertRows(db: SqlDatabase, table: string, columns: string[], rows: SqlValue[][]) {
  for (let at = 0; at < rows.length; at += ROWS_PER_INSERT) {
    const chunk = rows.slice(at, at + ROWS_PER_INSERT)
    const params: SqlValue[] = []
    const tuples = chunk.map((row) => `(${row.map((v) => `$${params.push(v)}`).join(', ')})`)
    await db.execute(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, params)
  }
}

/**
 * A synthetic read model of `tokens` launched tokens and `trades` trades on chain 8453, in the
 * exact schema the indexer writes: trades spread over tokens with a heavy tail (token i gets a
 * share proportional to 1/(i+1)), one per block over a month of 2 s blocks, ranked values varied
 * so every sort has a real order. For the bench only: values are plausible, not a chain's.
 *
 * @example
 * await seedSyntheticReadModel({ db, tokens: 10_000, trades: 1_000_000 })
 * // → { hotToken }: the token with the most trades (1/(i+1) of them go to token i)
 */
export async function seedSyntheticReadModel({
  db,
  tokens,
  trades,
}: {
  db: SqlDatabase
  tokens: number
  trades: number
}): Promise<{ hotToken: string }> {
  const now = new Date().toISOString()
  const start = 1_790_000_000
  const head = trades + 10
  await db.execute(
    'INSERT INTO indexer_state (chain_id, block_number, block_hash, block_timestamp, head_block, safe_block, finalized_block, updated_at) VALUES (8453, $1, $2, $3, $1, $4, $5, $6)',
    [head, hash(head), start + head * 2, head - 20, head - 200, now],
  )
  const tokenColumns = [
    'chain_id',
    'address',
    'name',
    'symbol',
    'extra_metadata',
    'decimals',
    'total_supply',
    'creator',
    'admin',
    'factory',
    'pool',
    'paired_token',
    'token_is_token0',
    'pool_fee',
    'tick_spacing',
    'tick_lower',
    'tick_upper',
    'position_liquidity',
    'pool_supply',
    'vesting_supply',
    'salt',
    'starting_tick',
    'launch_tx',
    'launch_block',
    'launch_log_index',
    'launched_at',
    'dev_buy_amount_in',
    'dev_buy_amount_out',
    'initial_sqrt_price_x96',
    'initial_tick',
    'sqrt_price_x96',
    'tick',
    'pool_paired_balance',
    'trade_count',
    'last_trade_block',
    'holder_count',
    'holders_block',
    'changed_block',
    'updated_at',
    'market_cap',
    'market_cap_key',
    'liquidity',
    'liquidity_key',
    'volume_24h',
    'volume_24h_key',
    'trades_24h',
    'trending_score',
    'ranked_at',
    'ranked_block',
  ]
  const weights = Array.from({ length: tokens }, (_, i) => 1 / (i + 1))
  const total = weights.reduce((a, b) => a + b, 0)
  const counts = weights.map((w) => Math.floor((w / total) * trades))
  counts[0] += trades - counts.reduce((a, b) => a + b, 0)
  const tokenRows: SqlValue[][] = []
  for (let i = 0; i < tokens; i++) {
    const cap = BigInt(1e15) * BigInt(((i * 7919) % 10_007) + 1)
    const liquidity = BigInt(1e14) * BigInt(((i * 104_729) % 9_973) + 1)
    const volume = BigInt(1e13) * BigInt(((i * 15_485_863) % 8_191) + 1)
    tokenRows.push([
      8453,
      address(1, i),
      `Token ${i}`,
      `T${i}`,
      '',
      18,
      '1000000000000000000000000000',
      address(2, i % 500),
      address(2, i % 500),
      address(3, 0),
      address(4, i),
      address(5, 0),
      0,
      10_000,
      200,
      -887_200,
      887_200,
      '1000000000000000000',
      '750000000000000000000000000',
      '0',
      hash(i),
      -171_200,
      hash(10_000_000 + i),
      1 + i,
      0,
      start + i * 60,
      null,
      null,
      '79228162514264337593543950336',
      0,
      '79228162514264337593543950336',
      0,
      liquidity.toString(),
      counts[i],
      head,
      10 + (i % 90),
      head - 5,
      head - 5,
      now,
      cap.toString(),
      amountKey(cap),
      liquidity.toString(),
      amountKey(liquidity),
      volume.toString(),
      amountKey(volume),
      i % 300,
      ((i * 48_271) % 65_537) / 1000,
      now,
      head,
    ])
  }
  await db.transaction((tx) => insertRows(tx, 'tokens', tokenColumns, tokenRows))
  for (const sort of ['trending', 'liquidity', 'market_cap', 'volume_24h'])
    await db.execute('INSERT INTO rankings (sort, version, digest, refreshed_at) VALUES ($1, 1, $2, $3)', [sort, 'synthetic', now])
  const tradeColumns = [
    'chain_id',
    'tx_hash',
    'log_index',
    'block_number',
    'block_time',
    'token',
    'pool',
    'side',
    'trader',
    'recipient',
    'amount_token',
    'amount_paired',
    'sqrt_price_x96',
    'tick',
  ]
  let n = 0
  let batch: SqlValue[][] = []
  const flush = async () => {
    const rows = batch
    batch = []
    await db.transaction((tx) => insertRows(tx, 'trades', tradeColumns, rows))
  }
  for (let i = 0; i < tokens; i++) {
    for (let k = 0; k < counts[i]; k++) {
      const block = 1 + ((n * 2_654_435_761) % trades)
      batch.push([
        8453,
        hash(n),
        0,
        block,
        start + block * 2,
        address(1, i),
        address(4, i),
        n % 2 ? 'buy' : 'sell',
        address(6, n % 5000),
        address(6, n % 5000),
        String(1_000_000_000_000n * BigInt(1 + (n % 1000))),
        String(10_000_000_000n * BigInt(1 + (n % 977))),
        '79228162514264337593543950336',
        0,
      ])
      n++
      if (batch.length >= 20_000) await flush()
    }
  }
  if (batch.length) await flush()
  // Statistics for the planner after a bulk load (the indexer's steady trickle leaves this to autovacuum).
  if (db.dialect === 'postgres') await db.execute('ANALYZE')
  return { hotToken: address(1, 0) }
}
