import type { Address, Hex } from 'viem'
import type { SqlDatabase } from '../store/SqlDatabase.ts'
import { amountKey } from './amountKey.ts'
import type { ChainBatch, DecodedLog } from './ChainBatch.ts'
import type { LaunchpadAddresses } from './LaunchpadAddresses.ts'

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'
const ZERO_KEY = amountKey(0n)

export type ApplyChainBatchParameters = {
  tx: SqlDatabase
  launchpad: LaunchpadAddresses
  batch: ChainBatch
  /** Wall-clock time written to `updated_at`. */
  nowIso: string
  head: { head: bigint; safe: bigint; finalized: bigint }
}

/** A launched token as the batch needs it. */
type TokenRef = { address: string; pool: string; tokenIsToken0: boolean }

/**
 * Writes one batch into the read model (inside the caller's transaction): launches first (so the
 * events a token's own constructor emits find its row), then every log in chain order: balances
 * and holder counts from transfers, trades and pool state from swaps, metadata and admin changes,
 * reward recipients and their fee accruals and claims, vesting positions and their claims. Ends
 * with the indexer's new position (the batch's last block) and the headers read.
 *
 * @example
 * await db.transaction((tx) => applyChainBatch({ tx, launchpad, batch, nowIso: new Date().toISOString(), head }))
 * // the read model now holds the batch's launches, balances, trades and claims; indexer_state is at batch.toBlock
 */
export async function applyChainBatch({ tx, launchpad, batch, nowIso, head }: ApplyChainBatchParameters): Promise<void> {
  const chainId = launchpad.chainId
  const timeOf = (block: bigint) => Number(batch.blocks.get(block)!.timestamp)
  for (const log of batch.logs) if (log.eventName === 'TokenLaunched') await insertLaunch({ tx, chainId, log, batch, nowIso })

  const tokensByPool = new Map<string, TokenRef>()
  const tokenOfPool = async (pool: string): Promise<TokenRef | undefined> => {
    if (!tokensByPool.has(pool)) {
      const [row] = await tx.query<{ address: string; token_is_token0: number }>(
        'SELECT address, token_is_token0 FROM tokens WHERE chain_id = $1 AND pool = $2',
        [chainId, pool],
      )
      if (row) tokensByPool.set(pool, { address: row.address, pool, tokenIsToken0: row.token_is_token0 === 1 })
    }
    return tokensByPool.get(pool)
  }
  const balances = createBalanceCache(tx, chainId)

  for (const log of batch.logs) {
    const block = Number(log.blockNumber)
    const address = log.address.toLowerCase()
    const a = log.args
    switch (`${log.source}.${log.eventName}`) {
      case 'token.Transfer': {
        const value = a.value as bigint
        await tx.execute(
          'INSERT INTO transfers (chain_id, tx_hash, log_index, block_number, token, from_address, to_address, amount) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
          [chainId, log.transactionHash, log.logIndex, block, address, lower(a.from), lower(a.to), value.toString()],
        )
        if (lower(a.from) !== ZERO_ADDRESS) await balances.add(address, lower(a.from), -value, block)
        await balances.add(address, lower(a.to), value, block)
        break
      }
      case 'token.MetadataUpdated':
        await tx.execute(
          'UPDATE tokens SET name = $1, symbol = $2, extra_metadata = $3, changed_block = $4, updated_at = $5 WHERE chain_id = $6 AND address = $7',
          [a.name as string, a.symbol as string, a.extraMetadata as string, block, nowIso, chainId, address],
        )
        await recordTokenUpdate(tx, chainId, log, address)
        break
      case 'token.AdminChanged':
        await tx.execute('UPDATE tokens SET admin = $1, changed_block = $2, updated_at = $3 WHERE chain_id = $4 AND address = $5', [
          lower(a.newAdmin),
          block,
          nowIso,
          chainId,
          address,
        ])
        await recordTokenUpdate(tx, chainId, log, address)
        break
      case 'pool.Swap': {
        const token = await tokenOfPool(address)
        if (!token) break
        const [tokenDelta, pairedDelta] = token.tokenIsToken0
          ? [a.amount0 as bigint, a.amount1 as bigint]
          : [a.amount1 as bigint, a.amount0 as bigint]
        // The pool's point of view: a buy pays the token out (negative) for the paired asset in.
        const side = tokenDelta < 0n ? 'buy' : 'sell'
        const trader = batch.senders.get(log.transactionHash)?.toLowerCase() ?? lower(a.recipient)
        await tx.execute(
          'INSERT INTO trades (chain_id, tx_hash, log_index, block_number, block_time, token, pool, side, trader, recipient, amount_token, amount_paired, sqrt_price_x96, tick) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)',
          [
            chainId,
            log.transactionHash,
            log.logIndex,
            block,
            timeOf(log.blockNumber),
            token.address,
            address,
            side,
            trader,
            lower(a.recipient),
            abs(tokenDelta).toString(),
            abs(pairedDelta).toString(),
            (a.sqrtPriceX96 as bigint).toString(),
            a.tick as number,
          ],
        )
        const [row] = await tx.query<{ pool_paired_balance: string }>(
          'SELECT pool_paired_balance FROM tokens WHERE chain_id = $1 AND address = $2',
          [chainId, token.address],
        )
        await tx.execute(
          'UPDATE tokens SET sqrt_price_x96 = $1, tick = $2, pool_paired_balance = $3, trade_count = trade_count + 1, last_trade_block = $4, changed_block = $4, updated_at = $5 WHERE chain_id = $6 AND address = $7',
          [
            (a.sqrtPriceX96 as bigint).toString(),
            a.tick as number,
            (BigInt(row.pool_paired_balance) + pairedDelta).toString(),
            block,
            nowIso,
            chainId,
            token.address,
          ],
        )
        break
      }
      case 'factory.DevBuyExecuted':
        await tx.execute('UPDATE tokens SET dev_buy_amount_in = $1, dev_buy_amount_out = $2 WHERE chain_id = $3 AND address = $4', [
          (a.amountIn as bigint).toString(),
          (a.amountOut as bigint).toString(),
          chainId,
          lower(a.token),
        ])
        break
      case 'feeLocker.RewardRecipientAdded':
        await tx.execute(
          `INSERT INTO fee_positions (chain_id, token, recipient, fee_locker, position_index, bps, accrued_token, accrued_paired, claimed_token, claimed_paired, claim_count, created_block, changed_block, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, '0', '0', '0', '0', 0, $7, $7, $8)`,
          [chainId, lower(a.token), lower(a.recipient), address, Number(a.index as bigint), a.bps as number, block, nowIso],
        )
        break
      case 'feeLocker.FeesCollected': {
        await insertFeeEvent(tx, chainId, log, timeOf(log.blockNumber), 'collected', null)
        const [row] = await tx.query<{ pool_paired_balance: string }>(
          'SELECT pool_paired_balance FROM tokens WHERE chain_id = $1 AND address = $2',
          [chainId, lower(a.token)],
        )
        if (row) {
          await tx.execute(
            'UPDATE tokens SET pool_paired_balance = $1, changed_block = $2, updated_at = $3 WHERE chain_id = $4 AND address = $5',
            [(BigInt(row.pool_paired_balance) - (a.pairedAmount as bigint)).toString(), block, nowIso, chainId, lower(a.token)],
          )
        }
        break
      }
      case 'feeLocker.FeesAccrued':
      case 'feeLocker.FeesClaimed': {
        const claimed = log.eventName === 'FeesClaimed'
        await insertFeeEvent(tx, chainId, log, timeOf(log.blockNumber), claimed ? 'claimed' : 'accrued', lower(a.recipient))
        const [p] = await tx.query<{ accrued_token: string; accrued_paired: string; claimed_token: string; claimed_paired: string }>(
          'SELECT accrued_token, accrued_paired, claimed_token, claimed_paired FROM fee_positions WHERE chain_id = $1 AND token = $2 AND recipient = $3',
          [chainId, lower(a.token), lower(a.recipient)],
        )
        if (!p) break
        const sign = claimed ? -1n : 1n
        const tokenAmount = a.tokenAmount as bigint
        const pairedAmount = a.pairedAmount as bigint
        const amounts = [
          (BigInt(p.accrued_token) + sign * tokenAmount).toString(),
          (BigInt(p.accrued_paired) + sign * pairedAmount).toString(),
          (BigInt(p.claimed_token) + (claimed ? tokenAmount : 0n)).toString(),
          (BigInt(p.claimed_paired) + (claimed ? pairedAmount : 0n)).toString(),
        ]
        const where = [chainId, lower(a.token), lower(a.recipient)]
        if (claimed) {
          await tx.execute(
            `UPDATE fee_positions SET accrued_token = $1, accrued_paired = $2, claimed_token = $3, claimed_paired = $4, claim_count = claim_count + 1,
               last_claim_tx = $5, last_claim_block = $6, last_claim_at = $7, changed_block = $6, updated_at = $8 WHERE chain_id = $9 AND token = $10 AND recipient = $11`,
            [...amounts, log.transactionHash, block, timeOf(log.blockNumber), nowIso, ...where],
          )
        } else {
          await tx.execute(
            'UPDATE fee_positions SET accrued_token = $1, accrued_paired = $2, claimed_token = $3, claimed_paired = $4, changed_block = $5, updated_at = $6 WHERE chain_id = $7 AND token = $8 AND recipient = $9',
            [...amounts, block, nowIso, ...where],
          )
        }
        break
      }
      case 'vestingVault.VestingCreated':
        await tx.execute(
          `INSERT INTO vesting_positions (chain_id, position_id, vault, token, beneficiary, amount, claimed, claim_count, start_time, lockup_end, vesting_end, created_tx, created_block, changed_block, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, '0', 0, $7, $8, $9, $10, $11, $11, $12)`,
          [
            chainId,
            Number(a.id as bigint),
            address,
            lower(a.token),
            lower(a.beneficiary),
            (a.amount as bigint).toString(),
            Number(a.start as bigint),
            Number(a.lockupEnd as bigint),
            Number(a.vestingEnd as bigint),
            log.transactionHash,
            block,
            nowIso,
          ],
        )
        break
      case 'vestingVault.VestingClaimed': {
        const id = Number(a.id as bigint)
        await tx.execute(
          'INSERT INTO vesting_claims (chain_id, tx_hash, log_index, block_number, block_time, position_id, amount) VALUES ($1, $2, $3, $4, $5, $6, $7)',
          [chainId, log.transactionHash, log.logIndex, block, timeOf(log.blockNumber), id, (a.amount as bigint).toString()],
        )
        const [p] = await tx.query<{ claimed: string }>('SELECT claimed FROM vesting_positions WHERE chain_id = $1 AND position_id = $2', [
          chainId,
          id,
        ])
        if (p) {
          await tx.execute(
            'UPDATE vesting_positions SET claimed = $1, claim_count = claim_count + 1, last_claim_tx = $2, last_claim_block = $3, last_claim_at = $4, changed_block = $3, updated_at = $5 WHERE chain_id = $6 AND position_id = $7',
            [
              (BigInt(p.claimed) + (a.amount as bigint)).toString(),
              log.transactionHash,
              block,
              timeOf(log.blockNumber),
              nowIso,
              chainId,
              id,
            ],
          )
        }
        break
      }
      default:
        // Approvals, the pool's Initialize (read with the launch), PositionLocked (the launch
        // says it all), and the factory's configuration events change nothing the API shows.
        break
    }
  }
  await balances.flush(nowIso)

  const last = batch.blocks.get(batch.toBlock)!
  for (const header of batch.blocks.values()) {
    await tx.execute(
      'INSERT INTO indexed_blocks (chain_id, block_number, block_hash, parent_hash, block_timestamp) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (chain_id, block_number) DO UPDATE SET block_hash = excluded.block_hash, parent_hash = excluded.parent_hash, block_timestamp = excluded.block_timestamp',
      [chainId, Number(header.number), header.hash.toLowerCase(), header.parentHash.toLowerCase(), Number(header.timestamp)],
    )
  }
  await tx.execute(
    `INSERT INTO indexer_state (chain_id, block_number, block_hash, block_timestamp, head_block, safe_block, finalized_block, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (chain_id) DO UPDATE SET block_number = excluded.block_number, block_hash = excluded.block_hash, block_timestamp = excluded.block_timestamp,
       head_block = excluded.head_block, safe_block = excluded.safe_block, finalized_block = excluded.finalized_block, updated_at = excluded.updated_at`,
    [
      chainId,
      Number(last.number),
      last.hash.toLowerCase(),
      Number(last.timestamp),
      Number(head.head),
      Number(head.safe),
      Number(head.finalized),
      nowIso,
    ],
  )
}

async function insertLaunch({
  tx,
  chainId,
  log,
  batch,
  nowIso,
}: {
  tx: SqlDatabase
  chainId: number
  log: DecodedLog
  batch: ChainBatch
  nowIso: string
}): Promise<void> {
  const a = log.args
  const token = lower(a.token)
  const pool = lower(a.pool)
  const initialize = batch.logs.find(
    (l) =>
      l.source === 'pool' && l.eventName === 'Initialize' && l.address.toLowerCase() === pool && l.transactionHash === log.transactionHash,
  )
  if (!initialize) throw new Error(`launch of ${token}: the pool's Initialize log is missing from ${log.transactionHash}`)
  const sqrtPrice = (initialize.args.sqrtPriceX96 as bigint).toString()
  const tick = initialize.args.tick as number
  const block = Number(log.blockNumber)
  await tx.execute(
    `INSERT INTO tokens (chain_id, address, name, symbol, extra_metadata, decimals, total_supply, creator, admin, factory, pool, paired_token, token_is_token0, pool_fee, tick_spacing,
       tick_lower, tick_upper, position_liquidity, pool_supply, vesting_supply, salt, starting_tick, launch_tx, launch_block, launch_log_index, launched_at,
       initial_sqrt_price_x96, initial_tick, sqrt_price_x96, tick, pool_paired_balance, trade_count, holder_count, holders_block, changed_block, updated_at,
       market_cap, market_cap_key, liquidity, liquidity_key, volume_24h, volume_24h_key, trades_24h, trending_score, ranked_at, ranked_block)
     VALUES ($1, $2, '', '', '', 18, $3, $4, $5, $6, $7, $8, $9, 10000, 200, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $21, $22, '0', 0, 0, $18, $18, $23,
       '0', $24, '0', $24, '0', $24, 0, 0, $23, $18)`,
    [
      chainId,
      token,
      ((a.poolSupply as bigint) + (a.vestingSupply as bigint)).toString(),
      lower(a.creator),
      lower(a.admin),
      log.address.toLowerCase(),
      pool,
      lower(a.pairedToken),
      BigInt(token) < BigInt(lower(a.pairedToken)) ? 1 : 0,
      a.tickLower as number,
      a.tickUpper as number,
      (a.liquidity as bigint).toString(),
      (a.poolSupply as bigint).toString(),
      (a.vestingSupply as bigint).toString(),
      (a.salt as Hex).toLowerCase(),
      a.startingTick as number,
      log.transactionHash,
      block,
      log.logIndex,
      Number(batch.blocks.get(log.blockNumber)!.timestamp),
      sqrtPrice,
      tick,
      nowIso,
      ZERO_KEY,
    ],
  )
}

async function recordTokenUpdate(tx: SqlDatabase, chainId: number, log: DecodedLog, token: string): Promise<void> {
  await tx.execute(
    `INSERT INTO token_updates (chain_id, tx_hash, log_index, block_number, token, name, symbol, extra_metadata, admin)
     SELECT chain_id, CAST($2 AS TEXT), CAST($3 AS INTEGER), CAST($4 AS BIGINT), address, name, symbol, extra_metadata, admin FROM tokens WHERE chain_id = $1 AND address = $5`,
    [chainId, log.transactionHash, log.logIndex, Number(log.blockNumber), token],
  )
}

async function insertFeeEvent(
  tx: SqlDatabase,
  chainId: number,
  log: DecodedLog,
  blockTime: number,
  kind: string,
  recipient: string | null,
): Promise<void> {
  await tx.execute(
    'INSERT INTO fee_events (chain_id, tx_hash, log_index, block_number, block_time, kind, token, recipient, amount_token, amount_paired) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)',
    [
      chainId,
      log.transactionHash,
      log.logIndex,
      Number(log.blockNumber),
      blockTime,
      kind,
      lower(log.args.token),
      recipient,
      (log.args.tokenAmount as bigint).toString(),
      (log.args.pairedAmount as bigint).toString(),
    ],
  )
}

/**
 * Balances touched by a batch, read once and written once: a busy token's holders move many
 * times per batch. Holder counts follow balances crossing zero; `holders_block` moves with any change.
 */
function createBalanceCache(tx: SqlDatabase, chainId: number) {
  const cache = new Map<string, { token: string; holder: string; before: bigint; after: bigint; block: number; exists: boolean }>()
  return {
    add: async (token: string, holder: string, delta: bigint, block: number) => {
      const key = `${token}:${holder}`
      let entry = cache.get(key)
      if (!entry) {
        const [row] = await tx.query<{ balance: string }>(
          'SELECT balance FROM balances WHERE chain_id = $1 AND token = $2 AND holder = $3',
          [chainId, token, holder],
        )
        const before = row ? BigInt(row.balance) : 0n
        entry = { token, holder, before, after: before, block, exists: Boolean(row) }
        cache.set(key, entry)
      }
      entry.after += delta
      entry.block = block
      if (entry.after < 0n) throw new Error(`balance of ${holder} in ${token} below zero at block ${block}`)
    },
    flush: async (nowIso: string) => {
      const holderDelta = new Map<string, { count: number; block: number }>()
      for (const e of cache.values()) {
        await tx.execute(
          `INSERT INTO balances (chain_id, token, holder, balance, balance_key, changed_block) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (chain_id, token, holder) DO UPDATE SET balance = excluded.balance, balance_key = excluded.balance_key, changed_block = excluded.changed_block`,
          [chainId, e.token, e.holder, e.after.toString(), amountKey(e.after), e.block],
        )
        const d = holderDelta.get(e.token) ?? { count: 0, block: 0 }
        d.count += (e.after > 0n ? 1 : 0) - (e.before > 0n ? 1 : 0)
        d.block = Math.max(d.block, e.block)
        holderDelta.set(e.token, d)
      }
      for (const [token, d] of holderDelta) {
        await tx.execute(
          'UPDATE tokens SET holder_count = holder_count + $1, holders_block = $2, updated_at = $3 WHERE chain_id = $4 AND address = $5',
          [d.count, d.block, nowIso, chainId, token],
        )
      }
    },
  }
}

function lower(value: unknown): string {
  return (value as Address).toLowerCase()
}

function abs(value: bigint): bigint {
  return value < 0n ? -value : value
}
