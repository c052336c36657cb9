import type { Address } from 'viem'
import type { UpstreamId } from '../UpstreamAdapter.ts'

/** What a stand-in is asked: a trade, with the native asset always written 0xEeee…EEeE. */
export type StandInTrade = { tokenIn: Address; tokenOut: Address; amountIn: bigint }

/** The liquidity behind a stand-in: its output and gas for a trade, undefined when it has no route. */
export type StandInMarket = (trade: StandInTrade) => Promise<{ amountOut: bigint; gasUnits: bigint } | undefined>

/** One request as the stand-in received it (tests check adapters' encoding against these). */
export type StandInRequest = {
  method: string
  /** Path without the query string. */
  path: string
  query: Record<string, string>
  /** Lower-case header names. */
  headers: Record<string, string | string[] | undefined>
  /** The raw body, and its JSON when it parses. */
  text: string
  json: unknown
  /** When it was answered (ms since the epoch, sub-millisecond: performance.timeOrigin + now()), and how. */
  answeredAt?: number
  status?: number
}

/** An answer: `body` as JSON, or `raw` sent byte for byte when set (a body JSON.stringify cannot reproduce). */
export type StandInReply = { status: number; body: unknown; headers?: Record<string, string>; raw?: string }

/** The stand-in's own settings that a real API would hold on its side. */
export type StandInSettings = {
  chainId: number
  /** The key the API requires (the two that require one: 0x, 1inch); undefined: any. */
  apiKey?: string
  /** The stand-in's memory of what it answered (KyberSwap's routes, Odos' paths, Velora's routes). */
  memory: Map<string, unknown>
  now: () => number
}

/**
 * One API's stand-in: its paths, parameters, validation errors and answers as documented, and its
 * own formats for the failures a test can ask for.
 */
export type StandInApi = {
  id: UpstreamId
  /** The documented answer to `request` (a 4xx in the API's format for a request it would refuse). */
  answer: (request: StandInRequest, market: StandInMarket, settings: StandInSettings) => Promise<StandInReply>
  /** Its "cannot fill this trade" answer. */
  noRoute: () => StandInReply
  serverError: () => StandInReply
  rateLimited: (retryAfterSec: number) => StandInReply
  /** A 200 in its format but for another input amount (a buggy or hostile upstream). */
  tamper: (reply: StandInReply) => StandInReply
  /** A 200 JSON body that is not its format (fields missing). */
  wrongShape: () => StandInReply
}
