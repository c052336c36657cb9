import type { Address, Hex } from 'viem'
import type { UpstreamHttpRequest, UpstreamHttpResponse } from './http/createUpstreamHttpClient.ts'

/** The upstream aggregators we speak to; `src/upstream/registry.ts` is the one list. */
export type UpstreamId = '0x' | '1inch' | 'kyberswap' | 'odos' | 'velora' | 'openocean'

/** One exact-input trade as an upstream is asked for it. */
export type UpstreamTrade = {
  chainId: number
  /** The native asset is always written 0xEeee…EEeE here (every one of the six accepts it). */
  tokenIn: Address
  tokenOut: Address
  /** In tokenIn's smallest unit, > 0. */
  amountIn: bigint
  slippageBps: number
  /** Sender and recipient of an executable transaction; absent: price only. */
  taker?: Address
  /** Our chain's gas price (wei), passed where the API takes one so it routes for the same price. */
  gasPriceWei: bigint
  /** Token decimals, read only by the APIs that need them (Velora). */
  decimals: () => Promise<{ tokenIn: number; tokenOut: number }>
  /** The caller's integrator fee (`feeBps` > 0), passed in the API's own fee parameters; absent: no fee. */
  fee?: IntegratorFee
}

/** The caller's integrator fee: `bps` of the trade (1..10000) for `recipient`, the address the caller's key resolves to. */
export type IntegratorFee = { bps: number; recipient: Address }

/**
 * How one API charges an integrator fee (docs/upstreams.md, "Fees"): from which token, its cap, and
 * the parameters that carry it. A fee it cannot express is never sent as something else.
 */
export type UpstreamFeeTerms = {
  /** `tokenOut`: taken from the output (what it quotes is after the fee); `tokenIn`: taken from the input before the swap. */
  takenFrom: 'tokenOut' | 'tokenIn'
  /** Its documented maximum in bps; undefined when it publishes none (our key's cap applies). */
  maxBps: number | undefined
  /** The request parameters that carry the fee, for error lines and the docs. */
  parameters: string
  /** Why this configuration cannot pass a fee at all (e.g. the Odos v2 quote); undefined when it can. */
  unsupported?: (settings: UpstreamSettings) => string | undefined
}

/** A transaction an upstream built for the taker: send as is (after approving `allowanceTarget`). */
export type UpstreamTransaction = {
  to: Address
  data: Hex
  /** `msg.value` in wei. */
  value: bigint
  /** The upstream's gas limit suggestion, when it gave one. */
  gas?: bigint
  /** The address the taker must approve for tokenIn (never assume it is `to`: 0x's is not). */
  allowanceTarget?: Address
  /** 0x permit2 flow only: the EIP-712 message the taker signs; the signature is appended to `data`. */
  permit2?: unknown
}

/** What one upstream answered for one trade. */
export type UpstreamAnswer = {
  /** tokenOut paid to the taker, in its smallest unit (what the upstream quoted, before gas). */
  outputAmount: bigint
  /** Gas units of the upstream's transaction (its estimate). */
  gasUnits: bigint
  /** Present when an executable quote was asked for (a `taker`) and the API gave one. */
  transaction?: UpstreamTransaction
}

/** One HTTP call to this upstream (its pooled client, auth headers, deadline and retry rules). */
export type UpstreamRequester = (request: Omit<UpstreamHttpRequest, 'deadline'>) => Promise<UpstreamHttpResponse>

/** How one upstream is configured; defaults from the registry, overrides from the environment. */
export type UpstreamSettings = {
  baseUrl: string
  apiKey?: string
  /** Token-bucket rate (requests per second) and burst. */
  ratePerSec: number
  burst: number
  /** Extra per-API settings (KyberSwap's client id, the 0x flow, the Odos quote version). */
  options: Record<string, string>
}

/**
 * One aggregator's API: how a trade is encoded into its documented request, and how its
 * documented response (validated with TypeBox) is decoded; never a transport concern.
 */
export type UpstreamAdapter = {
  id: UpstreamId
  /** The headers every request carries (auth); built from the settings, never logged. */
  headers: (settings: UpstreamSettings) => Record<string, string>
  /** An indicative quote (no transaction). */
  price: (trade: UpstreamTrade, call: UpstreamRequester, settings: UpstreamSettings) => Promise<UpstreamAnswer>
  /** A firm quote with the transaction for `trade.taker` (which must be set). */
  executable: (trade: UpstreamTrade & { taker: Address }, call: UpstreamRequester, settings: UpstreamSettings) => Promise<UpstreamAnswer>
  /** HTTP calls one executable quote takes (2 for the quote-then-build APIs): tokens to reserve. */
  executableCalls: number
  /** How it charges the caller's integrator fee. */
  fee: UpstreamFeeTerms
}
