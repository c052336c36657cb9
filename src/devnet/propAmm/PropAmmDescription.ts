import type { Address } from 'viem'
import type { PropAmmDexId } from '../../adapters/propAmm/propAmmDexIds.ts'

/** One prop AMM venue of the devnet, as `var/devnet.json` lists it. */
export type PropAmmVenue = {
  dex: PropAmmDexId
  /**
   * The priced contract: the PropPool, TesseraPool, ElfomoFi, LunarPool or Feltir stand-in (the
   * market's pool id; the operator re-prices it).
   */
  address: Address
  /** The contract a trade calls: PropSwapRouter, TesseraSwap, or the venue itself. */
  entry: Address
  /** [base, USDC]. */
  tokens: [Address, Address]
  symbols: [string, string]
  /** The UNIV3 pool whose price the keeper walks around. */
  reference: Address
  /** Curve depth in raw USDC (0 for LUNARBASE) and the fee in pips, re-published with every update. */
  depthQuote: string
  feePips: number
  blockDelay: number
}

/** The devnet's prop AMMs and their operator. */
export type PropAmmDescription = {
  /** The `OperatorRelay`: every venue's operator. */
  relay: Address
  /** The relay's owner: the keeper sends from it (an impersonated address, no key). */
  operator: Address
  venues: PropAmmVenue[]
}
