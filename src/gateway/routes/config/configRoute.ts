import { Type } from 'typebox'
import { getAddress } from 'viem'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { ceilings } from '../../limits/ceilings.ts'
import type { PolicyCharge } from '../../limits/LimitPolicy.ts'
import { readLaunchSuites } from '../../live/readLaunchSuites.ts'
import { readLiveBlock } from '../../live/readLiveBlock.ts'
import { withDeadline } from '../../live/withDeadline.ts'
import { GatewayProblem } from '../../problems/GatewayProblem.ts'
import { gatewayResponses, KEYED_PROBLEMS } from '../routeSchemaParts.ts'
import { LIVE_PROBLEMS } from '../wallets/walletFeeClaimsRoute.ts'

type Query = { include?: 'chains'; market?: 'standard' | 'all' }

/**
 * The units of a `/config` request (spec §8): `include=chains` alone needs no live read (1);
 * the live standard suites cost 5; `market=all` (every paired asset) costs 20.
 *
 * @example
 * configUnits({ market: 'all' }) // 20
 */
export function configUnits(q: Query): number {
  if (q.include === 'chains') return 1
  return q.market === 'all' ? 20 : 5
}

/** The live-configuration ceilings of spec §8 (only for the requests that read the chain). */
function liveConfigCeilings(request: FastifyRequest): PolicyCharge[] {
  if ((request.query as Query).include === 'chains') return []
  const c = ceilings.liveConfig
  return [
    {
      policy: {
        kind: 'window',
        name: 'live_config_per_source',
        key: `config:source:${request.gw.source}`,
        limit: c.perSourcePerMinute,
        windowMs: 60_000,
      },
      group: 'ceiling',
      cost: 1,
    },
    {
      policy: { kind: 'window', name: 'live_config_service', key: 'config:service', limit: c.serviceWidePerMinute, windowMs: 60_000 },
      group: 'ceiling',
      cost: 1,
    },
    {
      policy: { kind: 'concurrency', name: 'live_config_in_flight', key: 'config:inflight', limit: c.inFlight },
      group: 'ceiling',
      cost: 1,
    },
  ]
}

/**
 * `GET /config`: the chains served and where their launchpads live; with the launch suites read
 * live from each factory (never cached: spec §8), at `as_of_block`. Supported combinations:
 * nothing (chains and standard suites, 5 units), `include=chains` (chains only, 1 unit, no chain
 * read), `market=all` (chains and every suite, 20 units); `include=chains` with `market` is
 * `incompatible_parameters` (the chains alone have no market).
 *
 * @example
 * registerConfigRoute(fastify, deps)
 * // GET /config now answers the chains and their market suites (5 units; include=chains: 1 unit)
 */
export function registerConfigRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  fastify.get(
    '/config',
    {
      schema: {
        summary: 'Live configuration: chains, contracts and launch suites',
        operationId: 'getConfig',
        querystring: Type.Object(
          {
            include: Type.Optional(Type.Literal('chains', { description: 'only the chains and contracts (no live read; 1 unit)' })),
            market: Type.Optional(
              Type.Union([Type.Literal('standard'), Type.Literal('all')], {
                description: 'standard: suites paired with the wrapped native asset (default; 5 units); all: every paired asset (20 units)',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: gatewayResponses({
          ok: Type.Ref('GatewayConfigResponse'),
          description: 'The configuration (suites read live at as_of_block)',
          problems: [...KEYED_PROBLEMS, ...LIVE_PROBLEMS],
        }),
      },
      config: {
        gateway: {
          operation: 'config',
          scope: 'config:read',
          weight: { base: 5 },
          units: (request) => configUnits(request.query as Query),
          ceilings: liveConfigCeilings,
          validate: (request) => {
            const q = request.query as Query
            if (q.include === 'chains' && q.market !== undefined) {
              throw new GatewayProblem('incompatible_parameters', {
                detail: 'include=chains lists the chains alone, which have no market: send include=chains, or market without include.',
                invalidParameters: [
                  { name: 'include', in: 'query', reason: 'cannot be combined with market' },
                  { name: 'market', in: 'query', reason: 'cannot be combined with include=chains' },
                ],
                suggestedEndpoint: `/config?market=${q.market}`,
              })
            }
          },
        },
      },
    },
    async (request) => {
      const q = request.query as Query
      const chains = [...deps.chains.values()].map((c) => ({
        chain_id: c.chainId,
        name: c.name,
        native_symbol: c.nativeSymbol,
        wrapped_native: getAddress(c.wrappedNative),
        contracts: {
          launch_factory: getAddress(c.launchpad.factory),
          fee_locker: getAddress(c.launchpad.feeLocker),
          vesting_vault: getAddress(c.launchpad.vestingVault),
          uniswap_v3_factory: getAddress(c.launchpad.uniswapV3Factory),
          multicall3: getAddress(c.multicall3),
          ...(c.swaps ? { swap_router: getAddress(c.swaps.router) } : {}),
        },
      }))
      const meta = { generated_at: new Date(deps.now()).toISOString() }
      if (q.include === 'chains') return { data: { chains }, meta }
      const suites = []
      const blocks: number[] = []
      for (const chain of deps.chains.values()) {
        const block = await readLiveBlock({ chain, timeoutMs: deps.liveReadTimeoutMs })
        blocks.push(Number(block))
        suites.push(
          ...(await withDeadline({
            run: () => readLaunchSuites({ chain, blockNumber: block, extended: q.market === 'all' }),
            dependency: 'the chain',
            timeoutMs: deps.liveReadTimeoutMs,
          })),
        )
      }
      // One as_of_block per response: with several chains, each suite's block is its chain's, and the lowest is reported.
      return {
        data: { chains, suites, ...(blocks.length ? { as_of_block: Math.min(...blocks) } : {}) },
        meta: { ...meta, ...(blocks.length ? { as_of_block: Math.min(...blocks) } : {}) },
      }
    },
  )
}
