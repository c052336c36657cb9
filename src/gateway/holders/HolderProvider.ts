import { BaseError } from '../../errors/BaseError.ts'

/** One page of a holder snapshot, largest balance first (address ascending on ties). */
export type HolderPage = {
  /** The block the balances are at. */
  snapshotBlock: number
  /** The holder ordering's version: it changes whenever a balance of the token does. */
  version: number
  holderCount: number
  totalSupply: string
  holders: { address: string; balance: string; balanceKey: string }[]
}

/**
 * Where holder snapshots come from: an external provider in the spec's terms (§8: "holder pages
 * come from an external provider with no stale fallback"). When it is down, the request fails
 * with its mapped error; nothing older is served instead.
 */
export interface HolderProvider {
  page(args: { chainId: number; token: string; limit: number; after?: { balanceKey: string; address: string } }): Promise<HolderPage>
}

/** The provider cannot answer now (down, or too far behind the chain to answer truthfully). */
export class HolderProviderUnavailableError extends BaseError<'holders unavailable'> {
  override name = 'HolderProviderUnavailableError'
  constructor(message: string) {
    super('holders unavailable', message)
  }
}
