import { createHash } from 'node:crypto'
import type { SqlDatabase } from '../store/SqlDatabase.ts'
import { amountKey } from './amountKey.ts'
import { marketCapOf } from './marketCapOf.ts'

/** The sorts whose order the refresh computes (`newest` and `oldest` follow launch time). */
export const RANKED_SORTS = ['trending', 'liquidity', 'market_cap', 'volume_24h'] as const
export type RankedSort = (typeof RANKED_SORTS)[number]

/** Trending weighs each trade of the last 24 h by its paired value, halved every 6 hours of age. */
export const TRENDING_HALF_LIFE_SEC = 6 * 3600
const DAY_SEC = 86_400

export type RefreshRankingsParameters = { db: SqlDatabase; nowIso: string }
export type RefreshRankingsReturnType = { tokens: number; changed: number; versions: Record<RankedSort, number> }

type Ranked = { market_cap: string; liquidity: string; volume_24h: string; trades_24h: number; trending_score: number }

/**
 * Recomputes the ranked values of every token (spec §8.3: a periodic refresh, visible in
 * `ranked_at`): market cap (supply × pool price, in the paired asset's base units), liquidity (the
 * paired asset the pool holds), 24 h volume and trade count (trades whose block is less than 24 h
 * older than the chain's last indexed block: chain time, not the wall clock), and the trending
 * score (`TRENDING_HALF_LIFE_SEC`). Only rows whose values changed are written. Each ranked
 * sort's order is hashed; its version in `rankings` moves only when the order changed, which is
 * what makes an older cursor on that sort stale.
 *
 * @example
 * const { versions } = await refreshRankings({ db, nowIso: new Date().toISOString() })
 * // → { tokens, changed, versions: { market_cap: 3, … } }: a sort's version moves only when its order changed
 */
export async function refreshRankings({ db, nowIso }: RefreshRankingsParameters): Promise<RefreshRankingsReturnType> {
  const heads = new Map(
    (
      await db.query<{ chain_id: number; block_number: number; block_timestamp: number }>(
        'SELECT chain_id, block_number, block_timestamp FROM indexer_state',
      )
    ).map((h) => [h.chain_id, h]),
  )
  const tokens = await db.query<
    Ranked & {
      chain_id: number
      address: string
      total_supply: string
      sqrt_price_x96: string
      token_is_token0: number
      pool_paired_balance: string
    }
  >(
    'SELECT chain_id, address, total_supply, sqrt_price_x96, token_is_token0, pool_paired_balance, market_cap, liquidity, volume_24h, trades_24h, trending_score FROM tokens',
  )
  const windows = new Map<string, { volume: bigint; trades: number; score: number }>()
  for (const [chainId, head] of heads) {
    const trades = await db.query<{ token: string; amount_paired: string; block_time: number }>(
      'SELECT token, amount_paired, block_time FROM trades WHERE chain_id = $1 AND block_time > $2',
      [chainId, head.block_timestamp - DAY_SEC],
    )
    for (const t of trades) {
      const key = `${chainId}:${t.token}`
      const w = windows.get(key) ?? { volume: 0n, trades: 0, score: 0 }
      const value = BigInt(t.amount_paired)
      w.volume += value
      w.trades++
      // A score, not an amount: floating point is fine here (in whole paired units).
      w.score += (Number(value) / 1e18) * 0.5 ** (Math.max(0, head.block_timestamp - t.block_time) / TRENDING_HALF_LIFE_SEC)
      windows.set(key, w)
    }
  }
  const next = tokens.map((t) => {
    const w = windows.get(`${t.chain_id}:${t.address}`)
    const ranked: Ranked = {
      market_cap: marketCapOf({
        totalSupply: BigInt(t.total_supply),
        sqrtPriceX96: BigInt(t.sqrt_price_x96),
        tokenIsToken0: t.token_is_token0 === 1,
      }).toString(),
      liquidity: (BigInt(t.pool_paired_balance) > 0n ? BigInt(t.pool_paired_balance) : 0n).toString(),
      volume_24h: (w?.volume ?? 0n).toString(),
      trades_24h: w?.trades ?? 0,
      // Rounded so the same trades give the same score on every engine and run.
      trending_score: Number((w?.score ?? 0).toPrecision(12)),
    }
    return { t, ranked }
  })
  let changed = 0
  await db.transaction(async (tx) => {
    for (const { t, ranked } of next) {
      const same =
        t.market_cap === ranked.market_cap &&
        t.liquidity === ranked.liquidity &&
        t.volume_24h === ranked.volume_24h &&
        Number(t.trades_24h) === ranked.trades_24h &&
        Number(t.trending_score) === ranked.trending_score
      if (same) continue
      changed++
      await tx.execute(
        `UPDATE tokens SET market_cap = $1, market_cap_key = $2, liquidity = $3, liquidity_key = $4, volume_24h = $5, volume_24h_key = $6, trades_24h = $7, trending_score = $8
           WHERE chain_id = $9 AND address = $10`,
        [
          ranked.market_cap,
          amountKey(BigInt(ranked.market_cap)),
          ranked.liquidity,
          amountKey(BigInt(ranked.liquidity)),
          ranked.volume_24h,
          amountKey(BigInt(ranked.volume_24h)),
          ranked.trades_24h,
          ranked.trending_score,
          t.chain_id,
          t.address,
        ],
      )
    }
    // Every value is current as of this refresh, changed or not.
    for (const [chainId, head] of heads)
      await tx.execute('UPDATE tokens SET ranked_at = $1, ranked_block = $2 WHERE chain_id = $3', [nowIso, head.block_number, chainId])
  })
  const versions = {} as Record<RankedSort, number>
  for (const sort of RANKED_SORTS) {
    const order = [...next].sort((x, y) => compareRanked(sort, x, y)).map(({ t }) => `${t.chain_id}:${t.address}`)
    const digest = createHash('sha256').update(order.join(',')).digest('hex')
    await db.execute(
      `INSERT INTO rankings (sort, version, digest, refreshed_at) VALUES ($1, 1, $2, $3)
       ON CONFLICT (sort) DO UPDATE SET version = CASE WHEN rankings.digest = excluded.digest THEN rankings.version ELSE rankings.version + 1 END,
         digest = excluded.digest, refreshed_at = excluded.refreshed_at`,
      [sort, digest, nowIso],
    )
    const [row] = await db.query<{ version: number }>('SELECT version FROM rankings WHERE sort = $1', [sort])
    versions[sort] = row.version
  }
  return { tokens: tokens.length, changed, versions }
}

/** The list order of a ranked sort: value descending, then chain id and address ascending. */
function compareRanked(sort: RankedSort, x: { t: { chain_id: number; address: string }; ranked: Ranked }, y: typeof x): number {
  let byValue: number
  if (sort === 'trending') byValue = y.ranked.trending_score - x.ranked.trending_score
  else {
    const a = BigInt(x.ranked[sort])
    const b = BigInt(y.ranked[sort])
    byValue = a === b ? 0 : a < b ? 1 : -1
  }
  if (byValue !== 0) return byValue
  if (x.t.chain_id !== y.t.chain_id) return x.t.chain_id - y.t.chain_id
  return x.t.address < y.t.address ? -1 : x.t.address > y.t.address ? 1 : 0
}
