import type { Address, PublicClient } from 'viem'
import type { L1FeeParameters } from '../chains/opStack/L1FeeParameters.ts'
import type { QuoteService } from '../quote/createQuoteService.ts'
import { type ConfiguredUpstream, createUpstreamService, type UpstreamService } from './createUpstreamService.ts'
import { createTokenDecimals } from './createTokenDecimals.ts'
import type { UpstreamsConfig } from './readUpstreamConfig.ts'
import { startDemoUpstreams } from './standIns/startDemoUpstreams.ts'
import type { UpstreamCallEvent } from './UpstreamContext.ts'

export type StartUpstreamsParameters = {
  config: UpstreamsConfig
  chainId: number
  weth: Address
  quoteService: Pick<QuoteService, 'quote'>
  getGasPriceWei: () => Promise<bigint>
  /** The L1 fee parameters of the market's block: each source's transaction is netted of its L1 data fee. */
  l1Parameters?: () => L1FeeParameters | undefined
  client: Pick<PublicClient, 'readContract'>
  log?: (event: UpstreamCallEvent) => void
  onBug?: (error: unknown) => void
  /** Demo stand-ins' latency (ms per answer); default: around 0x's published p50 340 / p95 500 ms. */
  demoLatency?: () => number
}

/**
 * The upstream service the configuration asks for, or undefined when `UPSTREAMS` lists none (the
 * two routes are then not served). With `UPSTREAMS_DEMO=1` the upstreams are local stand-ins
 * priced from our own market (startDemoUpstreams), closed with the service. Gas is priced in
 * tokenOut by our own quote of WETH → tokenOut.
 *
 * @example
 * const upstreams = await startUpstreams({ config: config.upstreams, chainId, weth, quoteService, getGasPriceWei, client: publicClient })
 * // → an UpstreamService over the configured aggregators (stand-ins with UPSTREAMS_DEMO=1); undefined when none is
 */
export async function startUpstreams({
  config,
  chainId,
  weth,
  quoteService,
  getGasPriceWei,
  l1Parameters,
  client,
  log,
  onBug,
  demoLatency,
}: StartUpstreamsParameters): Promise<UpstreamService | undefined> {
  if (config.ids.length === 0) return undefined
  const quoteOut = async (tokenIn: Address, tokenOut: Address, amountIn: bigint) =>
    BigInt((await quoteService.quote({ chainId, tokenIn, tokenOut, amountIn: amountIn.toString(), slippageBps: 0 })).expectedAmountOut)
  let upstreams: ConfiguredUpstream[] = config.ids.map((id) => ({ id, settings: config.settings[id]! }))
  let closeDemo = async () => {}
  if (config.demo) {
    const demo = await startDemoUpstreams({
      ids: config.ids,
      chainId,
      latency: demoLatency,
      quote: (trade) => quoteOut(trade.tokenIn, trade.tokenOut, trade.amountIn).catch(() => undefined),
    })
    upstreams = demo.upstreams
    closeDemo = demo.close
  }
  const service = createUpstreamService({
    upstreams,
    chainId,
    weth,
    defaultBudgetMs: config.timeBudgetMs,
    gasPriceWei: getGasPriceWei,
    decimalsOf: createTokenDecimals({ client }),
    quoteWeth: (tokenOut, amountInWei) => quoteOut(weth, tokenOut, amountInWei),
    l1Parameters,
    log,
    onBug,
  })
  return {
    ...service,
    close: async () => {
      await service.close()
      await closeDemo()
    },
  }
}
