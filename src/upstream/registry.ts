import { kyberSwap } from './adapters/kyberSwap.ts'
import { odos } from './adapters/odos.ts'
import { oneInch } from './adapters/oneInch.ts'
import { openOcean } from './adapters/openOcean.ts'
import { velora } from './adapters/velora.ts'
import { zeroEx } from './adapters/zeroEx.ts'
import type { UpstreamAdapter, UpstreamId } from './UpstreamAdapter.ts'

/** What the service knows about one upstream API before any configuration. */
export type UpstreamKind = {
  adapter: UpstreamAdapter
  /** The middle of its variables: `UPSTREAM_<envName>_API_KEY`, `_URL`, `_RPS`, `_BURST`. */
  envName: string
  /** Production host (a path prefix is allowed in `UPSTREAM_<envName>_URL`). */
  baseUrl: string
  /**
   * The production host for a configuration whose key or options call for another one (Odos'
   * keyed enterprise host, 1inch's v6.1 host), when `UPSTREAM_<envName>_URL` is not set; undefined: `baseUrl`.
   */
  hostFor?: (choice: { apiKey?: string; options: Record<string, string> }) => string | undefined
  /** Why a key without `UPSTREAM_<envName>_URL` is refused, for an API whose public host takes no key. */
  keyNeedsUrl?: string
  /** The free tier we pace ourselves to, and where that figure comes from. */
  ratePerSec: number
  burst: number
  rateSource: string
  /** Listing it in `UPSTREAMS` without `UPSTREAM_<envName>_API_KEY` is a configuration error. */
  requiresApiKey: boolean
  /** Per-API settings and their defaults (`UPSTREAM_<envName>_<OPTION>`). */
  options: Record<string, { env: string; default: string; values?: string[] }>
}

/**
 * The one list of upstream aggregators (`UPSTREAMS=0x,1inch,…` names them by these keys). Adding
 * one is an adapter under `adapters/`, a stand-in under `standIns/`, and a line here; the
 * completeness test (registry.test.ts) fails if either of the others is missing.
 */
export const upstreamRegistry: Record<UpstreamId, UpstreamKind> = {
  '0x': {
    adapter: zeroEx,
    envName: 'ZEROEX',
    baseUrl: 'https://api.0x.org',
    requiresApiKey: true,
    ratePerSec: 5,
    burst: 5,
    rateSource: '0x docs, developer-resources/rate-limits: free tier about 5 RPS in fixed 1-second windows',
    options: { flow: { env: 'FLOW', default: 'allowance-holder', values: ['allowance-holder', 'permit2'] } },
  },
  '1inch': {
    adapter: oneInch,
    envName: 'ONEINCH',
    baseUrl: 'https://api.1inch.dev',
    requiresApiKey: true,
    // The business portal's v6.1 lives on api.1inch.com; v6.0 on api.1inch.dev. A version on the other host answers 404.
    hostFor: ({ options }) => (options.version === 'v6.1' ? 'https://api.1inch.com' : undefined),
    ratePerSec: 1,
    burst: 1,
    rateSource: '1inch business portal: free tier 1 RPS',
    options: { version: { env: 'VERSION', default: 'v6.0', values: ['v6.0', 'v6.1'] } },
  },
  kyberswap: {
    adapter: kyberSwap,
    envName: 'KYBERSWAP',
    baseUrl: 'https://aggregator-api.kyberswap.com',
    requiresApiKey: false,
    keyNeedsUrl:
      'its public API takes no key (KyberSwap docs, rate-limits-and-client-id: no API keys; tiers go by x-client-id); set UPSTREAM_KYBERSWAP_URL to the host your key was issued for, or leave the key out',
    ratePerSec: 3,
    burst: 3,
    rateSource: 'KyberSwap docs, rate-limits-and-client-id: Aggregator API 3 rps by default',
    options: { clientId: { env: 'CLIENT_ID', default: 'base-swap-aggregator' } },
  },
  odos: {
    adapter: odos,
    envName: 'ODOS',
    baseUrl: 'https://api.odos.xyz',
    requiresApiKey: false,
    // Odos docs, authentication: public https://api.odos.xyz (no key); enterprise https://enterprise-api.odos.xyz (x-api-key required).
    hostFor: ({ apiKey }) => (apiKey ? 'https://enterprise-api.odos.xyz' : undefined),
    ratePerSec: 2,
    burst: 2,
    rateSource: 'Odos docs, api-portal-access: a keyed free plan of 2 RPS (4,000 a day, 120,000 a month); the keyless host unpublished',
    options: { quoteVersion: { env: 'QUOTE_VERSION', default: 'v3', values: ['v3', 'v2'] } },
  },
  velora: {
    adapter: velora,
    envName: 'VELORA',
    baseUrl: 'https://api.velora.xyz',
    requiresApiKey: false,
    ratePerSec: 2,
    burst: 2,
    rateSource: 'not published by Velora (429 past its limit); 2 RPS is our conservative choice',
    options: {},
  },
  openocean: {
    adapter: openOcean,
    envName: 'OPENOCEAN',
    baseUrl: 'https://open-api.openocean.finance',
    requiresApiKey: false,
    ratePerSec: 2,
    burst: 2,
    rateSource: 'OpenOcean API v4 docs: public plan 2 RPS (20 requests / 10 s)',
    options: {},
  },
}

/**
 * We pace ourselves at this share of a published rate by default: an upstream counts a request
 * when it arrives, a network latency after our bucket counted it, so pacing at exactly its rate
 * would meet its limit after every burst (the stand-ins enforcing the exact tier show it). The
 * burst stays the published one. `UPSTREAM_<NAME>_RPS` sets an exact rate instead.
 */
export const PACED_SHARE = 0.8

/** Every upstream id, in the registry's order. */
export const upstreamIds = Object.keys(upstreamRegistry) as UpstreamId[]
