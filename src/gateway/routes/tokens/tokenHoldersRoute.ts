import { Type } from 'typebox'
import { getAddress } from 'viem'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { HolderProviderUnavailableError } from '../../holders/HolderProvider.ts'
import type { PolicyCharge } from '../../limits/LimitPolicy.ts'
import { ceilings } from '../../limits/ceilings.ts'
import { GatewayProblem } from '../../problems/GatewayProblem.ts'
import { withDeadline } from '../../live/withDeadline.ts'
import { readTokenRow } from '../../readModel/readTokenRow.ts'
import { readCursor } from '../readCursor.ts'
import { gatewayResponses, KEYED_PROBLEMS, pageQuery } from '../routeSchemaParts.ts'
import { readTokenPath, tokenPathParams } from '../tokenPath.ts'

const BURN = new Set(['0x0000000000000000000000000000000000000000', '0x000000000000000000000000000000000000dead'])

/**
 * The holder-snapshot ceilings of spec §8 this request is charged to: 2 in flight per key, 60 per
 * source and 300 service-wide per minute, 20 in flight service-wide.
 *
 * @example
 * ceilings: holderSnapshotCeilings
 * // holderSnapshotCeilings(request) → 2 in flight per key, 60 per source and 300 service-wide a minute, 20 in flight
 */
export function holderSnapshotCeilings(request: FastifyRequest): PolicyCharge[] {
  const c = ceilings.holderSnapshots
  return [
    {
      policy: {
        kind: 'concurrency',
        name: 'holder_snapshots_in_flight_per_key',
        key: `holders:inflight:${request.gw.key!.prefix}`,
        limit: c.perKeyInFlight,
      },
      group: 'ceiling',
      cost: 1,
    },
    {
      policy: {
        kind: 'window',
        name: 'holder_snapshots_per_source',
        key: `holders:source:${request.gw.source}`,
        limit: c.perSourcePerMinute,
        windowMs: 60_000,
      },
      group: 'ceiling',
      cost: 1,
    },
    {
      policy: { kind: 'window', name: 'holder_snapshots_service', key: 'holders:service', limit: c.serviceWidePerMinute, windowMs: 60_000 },
      group: 'ceiling',
      cost: 1,
    },
    {
      policy: { kind: 'concurrency', name: 'holder_snapshots_in_flight', key: 'holders:inflight', limit: c.inFlight },
      group: 'ceiling',
      cost: 1,
    },
  ]
}

/**
 * `GET /tokens/{chain}/{token}/holders`: the holder snapshot, largest balance first, paged; 10
 * units per 50 rows. Pages come from the holder provider with no stale fallback (spec §8): when
 * it is down or behind, the answer is `temporarily_unavailable`, past the deadline
 * `upstream_timeout`. A cursor is stale once any balance of the token changed since it was issued
 * (the snapshot moved on). Each holder carries its role when it is one of the launch's contracts.
 *
 * @example
 * registerTokenHoldersRoute(fastify, deps)
 * // GET /tokens/:chain/:token/holders now answers { data: [holders, with role where one of the launch's], page, meta }
 */
export function registerTokenHoldersRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  fastify.get(
    '/tokens/:chain/:token/holders',
    {
      schema: {
        summary: "A token's holder snapshot",
        operationId: 'listTokenHolders',
        params: tokenPathParams,
        querystring: Type.Object(
          { limit: Type.Optional(pageQuery.limit), cursor: Type.Optional(pageQuery.cursor) },
          { additionalProperties: false },
        ),
        response: gatewayResponses({
          ok: Type.Ref('HolderList'),
          description: 'A page of holders, largest balance first',
          problems: [...KEYED_PROBLEMS, 404, 409, 422, 503, 504],
        }),
      },
      config: {
        gateway: {
          operation: 'tokens.holders',
          scope: 'holders:read',
          weight: { base: 10, rowsPerStep: 50 },
          defaultLimit: 50,
          ceilings: holderSnapshotCeilings,
          validate: (request) => {
            const path = readTokenPath({ request, deps })
            request.gw.locals.path = path
            readCursor({ request, deps, route: 'tokens.holders', filters: path })
          },
        },
      },
    },
    async (request) => {
      const { chainId, token } = request.gw.locals.path as { chainId: number; token: string }
      const limit = (request.query as { limit?: number }).limit ?? 50
      const row = await readTokenRow({ db: deps.db, chainId, token })
      const chain = deps.chains.get(chainId)!
      const cursor = request.gw.locals.cursor as { version: number; position: [string, string, number] } | undefined
      const page = await withDeadline({
        run: async () => {
          try {
            return await deps.holders.page({
              chainId,
              token,
              limit: limit + 1,
              after: cursor ? { balanceKey: cursor.position[0], address: cursor.position[1] } : undefined,
            })
          } catch (error) {
            if (error instanceof HolderProviderUnavailableError)
              throw new GatewayProblem('temporarily_unavailable', {
                detail: 'The holder provider cannot give a current snapshot now.',
                retryAfterSec: 5,
              })
            throw error
          }
        },
        dependency: 'the holder provider',
        timeoutMs: deps.liveReadTimeoutMs,
      })
      if (cursor && cursor.version !== page.version)
        throw new GatewayProblem('cursor_stale', {
          detail: 'Balances of this token changed since the cursor was issued: the snapshot moved on.',
        })
      const labels = new Map<string, 'pool' | 'fee_locker' | 'vesting_vault' | 'creator'>([
        [row.pool, 'pool'],
        [chain.launchpad.feeLocker.toLowerCase(), 'fee_locker'],
        [chain.launchpad.vestingVault.toLowerCase(), 'vesting_vault'],
        [row.creator, 'creator'],
      ])
      const rows = page.holders.slice(0, limit)
      const supply = BigInt(page.totalSupply)
      // The cursor carries the rank its page ended at, so ranks continue across pages.
      const start = cursor ? Number(cursor.position[2] ?? 0) : 0
      const last = rows.at(-1)
      return {
        data: rows.map((h, i) => ({
          rank: start + i + 1,
          address: getAddress(h.address),
          balance: h.balance,
          share_bps: supply === 0n ? 0 : Number((BigInt(h.balance) * 10_000n) / supply),
          label: BURN.has(h.address) ? ('burn' as const) : (labels.get(h.address) ?? null),
        })),
        snapshot: {
          chain_id: chainId,
          token: getAddress(token),
          snapshot_block: page.snapshotBlock,
          holder_count: page.holderCount,
          total_supply: page.totalSupply,
        },
        page: {
          limit,
          next_cursor:
            page.holders.length > limit && last
              ? deps.cursors.encode({
                  route: 'tokens.holders',
                  filters: { chainId, token },
                  version: page.version,
                  position: [last.balanceKey, last.address, start + rows.length],
                })
              : null,
        },
        meta: { generated_at: new Date(deps.now()).toISOString(), observed_block: page.snapshotBlock },
      }
    },
  )
}
