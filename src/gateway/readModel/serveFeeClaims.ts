import { type Address, getAddress } from 'viem'
import { finalityOf } from '../http/finalityOf.ts'
import { readClaimableFees } from '../live/readClaimableFees.ts'
import { serveLiveWalletPage } from './serveLiveWalletPage.ts'
import type { WalletPageParameters } from './PageParameters.ts'

type Row = {
  chain_id: number
  token: string
  recipient: string
  fee_locker: string
  bps: number
  claimed_token: string
  claimed_paired: string
  claim_count: number
  last_claim_tx: string | null
  last_claim_block: number | null
  last_claim_at: number | null
  changed_block: number
  updated_at: string
  name: string
  symbol: string
  paired_token: string
}

/**
 * A page of a wallet's fee positions (the launches that name it a reward recipient), by chain
 * and token. What each can claim is read live (never cached: spec §8) at one block per chain,
 * the page's `as_of_block`: a dependency that fails gives its mapped error, not the indexed
 * accruals. Claimed totals and the last claim come from the read model.
 *
 * @example
 * return serveFeeClaims({ request, deps, route: 'wallets.fee_claims', filters, wallet, limit: 25 })
 * // → { data: [positions with what each can claim now], page: { limit: 25, next_cursor }, meta } (as_of_block per chain)
 */
export async function serveFeeClaims(parameters: WalletPageParameters) {
  return serveLiveWalletPage({
    ...parameters,
    select:
      'SELECT p.*, t.name, t.symbol, t.paired_token FROM fee_positions p JOIN tokens t ON t.chain_id = p.chain_id AND t.address = p.token',
    columns: { alias: 'p', wallet: 'recipient', position: 'token' },
    positionOf: (r: Row) => r.token,
    read: ({ chain, rows, blockNumber }) =>
      readClaimableFees({
        client: chain.client,
        multicall3: chain.multicall3,
        feeLocker: chain.launchpad.feeLocker,
        positions: rows.map((r) => ({ token: r.token as Address, recipient: r.recipient as Address })),
        blockNumber,
      }),
    present: (r, l, state) => ({
      chain_id: r.chain_id,
      token: { address: getAddress(r.token), name: r.name, symbol: r.symbol },
      recipient: getAddress(r.recipient),
      bps: r.bps,
      fee_locker: getAddress(r.fee_locker),
      paired_token: getAddress(r.paired_token),
      claimable: { token_raw: l.tokenAmount.toString(), paired_raw: l.pairedAmount.toString() },
      as_of_block: Number(l.block),
      claimed_total: { token_raw: r.claimed_token, paired_raw: r.claimed_paired },
      claim_count: Number(r.claim_count),
      last_claim: r.last_claim_tx
        ? {
            tx_hash: r.last_claim_tx,
            block_number: Number(r.last_claim_block),
            claimed_at: new Date(Number(r.last_claim_at) * 1000).toISOString(),
          }
        : null,
      block_number: Number(r.changed_block),
      finality: finalityOf({ block: Number(r.changed_block), safe: state?.safe ?? 0, finalized: state?.finalized ?? 0 }),
      updated_at: r.updated_at,
    }),
  })
}
