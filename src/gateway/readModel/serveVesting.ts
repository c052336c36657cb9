import { getAddress } from 'viem'
import { finalityOf } from '../http/finalityOf.ts'
import { readVestingPositions } from '../live/readVestingPositions.ts'
import { serveLiveWalletPage } from './serveLiveWalletPage.ts'
import type { WalletPageParameters } from './PageParameters.ts'

type Row = {
  chain_id: number
  position_id: number
  vault: string
  token: string
  beneficiary: string
  amount: string
  claim_count: number
  start_time: number
  lockup_end: number
  vesting_end: number
  changed_block: number
  updated_at: string
  name: string
  symbol: string
}

/**
 * The stage of a vesting position at chain time `now`: `locked` before its lockup ends, `claimed`
 * once everything was claimed, `vested` once its vesting ended, `vesting` between.
 *
 * @example
 * vestingStage({ now: 100n, lockupEnd: 200n, vestingEnd: 300n, amount: 10n, claimed: 0n }) // 'locked'
 */
export function vestingStage({
  now,
  lockupEnd,
  vestingEnd,
  amount,
  claimed,
}: {
  now: bigint
  lockupEnd: bigint
  vestingEnd: bigint
  amount: bigint
  claimed: bigint
}) {
  if (claimed >= amount) return 'claimed' as const
  if (now < lockupEnd) return 'locked' as const
  if (now >= vestingEnd) return 'vested' as const
  return 'vesting' as const
}

/**
 * A page of a wallet's vesting positions, by chain and position id. Claimed, claimable and
 * vested amounts and the stage are read live from the vault (never cached: spec §8) at one block
 * per chain, the page's `as_of_block`; the schedule comes from the read model.
 *
 * @example
 * return serveVesting({ request, deps, route: 'wallets.vesting', filters, wallet, limit: 25 })
 * // → { data: [positions with vested, claimed, claimable and stage], page: { limit: 25, next_cursor }, meta }
 */
export async function serveVesting(parameters: WalletPageParameters) {
  const iso = (seconds: number) => new Date(Number(seconds) * 1000).toISOString()
  return serveLiveWalletPage({
    ...parameters,
    select: 'SELECT v.*, t.name, t.symbol FROM vesting_positions v JOIN tokens t ON t.chain_id = v.chain_id AND t.address = v.token',
    columns: { alias: 'v', wallet: 'beneficiary', position: 'position_id' },
    positionOf: (r: Row) => Number(r.position_id),
    read: ({ chain, rows, blockNumber }) =>
      readVestingPositions({
        client: chain.client,
        multicall3: chain.multicall3,
        vault: chain.launchpad.vestingVault,
        ids: rows.map((r) => BigInt(r.position_id)),
        blockNumber,
      }),
    present: (r, l, state) => ({
      chain_id: r.chain_id,
      position_id: Number(r.position_id),
      vault: getAddress(r.vault),
      token: { address: getAddress(r.token), name: r.name, symbol: r.symbol },
      beneficiary: getAddress(r.beneficiary),
      amount: r.amount,
      vested: l.vested.toString(),
      claimed: l.claimed.toString(),
      claimable: l.claimable.toString(),
      stage: vestingStage({
        now: l.timestamp,
        lockupEnd: BigInt(r.lockup_end),
        vestingEnd: BigInt(r.vesting_end),
        amount: BigInt(r.amount),
        claimed: l.claimed,
      }),
      start_at: iso(r.start_time),
      lockup_ends_at: iso(r.lockup_end),
      vesting_ends_at: iso(r.vesting_end),
      claim_count: Number(r.claim_count),
      as_of_block: Number(l.block),
      block_number: Number(r.changed_block),
      finality: finalityOf({ block: Number(r.changed_block), safe: state?.safe ?? 0, finalized: state?.finalized ?? 0 }),
      updated_at: r.updated_at,
    }),
  })
}
