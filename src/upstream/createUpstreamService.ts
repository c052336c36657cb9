import type { Address } from 'viem'
import type { L1FeeParameters } from '../chains/opStack/L1FeeParameters.ts'
import type { CompareResponse, SplitResponse } from '../http/schemas/upstream.ts'
import type { QuoteRequest } from '../quote/quoteTypes.ts'
import { compareUpstreams } from './compareUpstreams.ts'
import { createGasCostPricer } from './createGasCostPricer.ts'
import { createUpstreamEndpoint, type UpstreamEndpoint } from './createUpstreamEndpoint.ts'
import { splitAcrossSources } from './splitAcrossSources.ts'
import { transactionL1FeeWei } from './transactionL1FeeWei.ts'
import type { UpstreamId, UpstreamSettings } from './UpstreamAdapter.ts'
import type { LocalSource, UpstreamContext } from './UpstreamContext.ts'

/** One configured upstream: its id, settings, and how answers name it. */
export type ConfiguredUpstream = { id: UpstreamId; settings: UpstreamSettings; sourceId?: string }

export type UpstreamService = {
  /** How answers name the configured upstreams, in configuration order. */
  sourceIds: string[]
  /** `feeRecipient`: where the caller's `feeBps` goes (resolved from its key, as for /quote); every upstream is asked to charge it. */
  compare: (request: QuoteRequest, local: LocalSource, feeRecipient?: Address) => Promise<CompareResponse>
  split: (request: QuoteRequest, local: LocalSource, feeRecipient?: Address) => Promise<SplitResponse>
  /** The endpoints (buckets, breakers), for tests and the operator. */
  endpoints: UpstreamEndpoint[]
  close: () => Promise<void>
}

export type CreateUpstreamServiceParameters = Pick<
  UpstreamContext,
  'chainId' | 'weth' | 'defaultBudgetMs' | 'gasPriceWei' | 'decimalsOf'
> & {
  upstreams: ConfiguredUpstream[]
  /** tokenOut our market gives for `amountInWei` of WETH (prices gas in tokenOut). */
  quoteWeth: (tokenOut: Address, amountInWei: bigint) => Promise<bigint>
  /** The L1 fee parameters of the market's block (OP-stack chains); absent or undefined: no L1 fee is netted. */
  l1Parameters?: () => L1FeeParameters | undefined
  log?: UpstreamContext['log']
  /** A bug of ours met while answering (logged by the caller; the answer says `internal error`). */
  onBug?: (error: unknown) => void
  now?: () => number
}

/**
 * The upstream side of the service: one endpoint per configured aggregator (pooled client, token
 * bucket, circuit breaker), and the two operations /quote/compare and /quote/split run. At least
 * one upstream must be configured (the routes exist only then).
 *
 * @example
 * const upstreams = createUpstreamService({ upstreams: config.upstreams, chainId: 8453, weth, defaultBudgetMs: 1500, gasPriceWei, decimalsOf, quoteWeth })
 * const answer = await upstreams.compare(request, local)
 * // → our quote beside the best upstream's (net of gas), the alternates and each failure's reason
 */
export function createUpstreamService({
  upstreams,
  chainId,
  weth,
  defaultBudgetMs,
  gasPriceWei,
  decimalsOf,
  quoteWeth,
  l1Parameters,
  log = () => {},
  onBug,
  now = Date.now,
}: CreateUpstreamServiceParameters): UpstreamService {
  if (upstreams.length === 0) throw new RangeError('createUpstreamService: no upstream configured')
  const endpoints = upstreams.map(({ id, settings, sourceId }) => createUpstreamEndpoint({ id, settings, sourceId, onBug, now }))
  const ctx: UpstreamContext = {
    endpoints,
    chainId,
    weth,
    defaultBudgetMs,
    gasPriceWei,
    decimalsOf,
    gasCost: createGasCostPricer({ weth, quoteWeth, now }),
    l1FeeWei: (transaction, gasPriceWei) => {
      const parameters = l1Parameters?.()
      return parameters ? transactionL1FeeWei({ parameters, chainId, gasPriceWei, transaction }) : 0n
    },
    log,
    now,
  }
  return {
    sourceIds: endpoints.map((e) => e.sourceId),
    endpoints,
    compare: (request, local, feeRecipient) => compareUpstreams({ ctx, request, local, feeRecipient, onBug }),
    split: (request, local, feeRecipient) => splitAcrossSources({ ctx, request, local, feeRecipient, onBug }),
    close: async () => {
      await Promise.all(endpoints.map((e) => e.close()))
    },
  }
}
