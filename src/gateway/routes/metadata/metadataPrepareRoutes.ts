import { Type } from 'typebox'
import { type Address, getAddress } from 'viem'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { TokenMetadataDocument } from '../../documents/TokenMetadataDocument.ts'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { actorCeilings, documentCeilings } from '../../metadata/metadataCeilings.ts'
import { ONCHAIN_FIELDS, type OnchainField, prepareDocumentUpdate, prepareOnchainUpdate } from '../../metadata/prepareMetadataUpdates.ts'
import { GatewayProblem } from '../../problems/GatewayProblem.ts'
import { requireChain } from '../requireChain.ts'
import { gatewayResponses, KEYED_PROBLEMS } from '../routeSchemaParts.ts'
import { readTokenPath, tokenPathParams } from '../tokenPath.ts'
import { LIVE_PROBLEMS } from '../wallets/walletFeeClaimsRoute.ts'

const PROBLEMS = [...KEYED_PROBLEMS, 403, 404, 409, 422, ...LIVE_PROBLEMS]
const planResponse = (description: string) => gatewayResponses({ ok: Type.Ref('TransactionPlanResponse'), description, problems: PROBLEMS })
const respond = (deps: GatewayDependencies, plan: { as_of_block: number }) => ({
  data: plan,
  meta: { generated_at: new Date(deps.now()).toISOString(), as_of_block: plan.as_of_block },
})
const target = (request: FastifyRequest, deps: GatewayDependencies) => {
  const { chainId, token } = readTokenPath({ request, deps })
  return { chain: requireChain({ deps, chainId }), token, actor: getAddress((request.body as { actor: string }).actor) as Address }
}

/** The one on-chain field of an on-chain body (`incompatible_parameters` for none or several). */
function onchainFieldOf(body: Record<string, unknown>): { field: OnchainField; value: string } {
  const given = (Object.keys(ONCHAIN_FIELDS) as OnchainField[]).filter((f) => body[f] !== undefined)
  if (given.length !== 1) {
    throw new GatewayProblem('incompatible_parameters', {
      detail: 'Send exactly one of name, symbol, extra_metadata: each is its own transaction of the token.',
      invalidParameters: (given.length ? given : Object.keys(ONCHAIN_FIELDS)).map((name) => ({
        name,
        in: 'body' as const,
        reason: 'exactly one of name, symbol, extra_metadata',
      })),
    })
  }
  return { field: given[0], value: body[given[0]] as string }
}

/**
 * The metadata routes (spec §4, §9):
 * - `POST /tokens/{chain}/{token}/metadata/onchain/prepare` (3 units, `metadata:write`): the
 *   admin changes one of name, symbol, extra metadata (`wallet_not_authorized` for anyone else).
 * - `POST /tokens/{chain}/{token}/metadata/document/prepare` (10 units, `Idempotency-Key`
 *   required): body `actor` and `document` (validated against `TokenMetadataDocument`); the
 *   document gets its CID and is kept, and the plan points the token's extra metadata at it.
 * - deprecated `POST …/metadata/prepare` (`operation`: update_name, update_symbol,
 *   update_extra_metadata map onto the on-chain route, update_profile onto the document route)
 *   and `POST …/metadata/profile/prepare` (the document route's body): the focused routes'
 *   results and units, plus `Deprecation` and `Link`. A combined update_profile needs an
 *   Idempotency-Key like the document route (it creates off-chain work).
 *
 * @example
 * registerMetadataPrepareRoutes(fastify, deps)
 * // POST /tokens/:chain/:token/metadata/…/prepare now answer transaction plans for the token's admin
 */
export function registerMetadataPrepareRoutes(fastify: FastifyInstance, deps: GatewayDependencies): void {
  const onchainValidate = (request: FastifyRequest) => {
    readTokenPath({ request, deps })
    onchainFieldOf(request.body as Record<string, unknown>)
  }
  fastify.post(
    '/tokens/:chain/:token/metadata/onchain/prepare',
    {
      schema: {
        summary: "Prepare an update of a token's name, symbol or extra metadata",
        operationId: 'prepareOnchainMetadata',
        params: tokenPathParams,
        querystring: Type.Object({}, { additionalProperties: false }),
        body: Type.Ref('MetadataOnchainRequest'),
        response: planResponse('The simulated update plan'),
      },
      config: {
        gateway: {
          operation: 'metadata.onchain.prepare',
          scope: 'metadata:write',
          weight: { base: 3 },
          idempotency: 'optional',
          validate: onchainValidate,
          ceilings: (request) => actorCeilings(request, true),
        },
      },
    },
    async (request) => {
      const { chain, token, actor } = target(request, deps)
      return respond(
        deps,
        await prepareOnchainUpdate({ deps, request, chain, token, actor, ...onchainFieldOf(request.body as Record<string, unknown>) }),
      )
    },
  )

  // The document route and its deprecated profile alias: one schema, one gateway rule, one handler.
  const documentRoute = {
    schema: {
      params: tokenPathParams,
      querystring: Type.Object({}, { additionalProperties: false }),
      body: Type.Ref('MetadataDocumentRequest'),
      response: planResponse("The simulated update plan; summary.cid is the document's CIDv1"),
    },
    gateway: {
      operation: 'metadata.document.prepare',
      scope: 'metadata:write',
      weight: { base: 10 },
      idempotency: 'required',
      validate: (request: FastifyRequest) => void readTokenPath({ request, deps }),
      ceilings: documentCeilings,
    },
    handler: async (request: FastifyRequest) => {
      const { chain, token, actor } = target(request, deps)
      return respond(
        deps,
        await prepareDocumentUpdate({
          deps,
          request,
          chain,
          token,
          actor,
          document: (request.body as { document: TokenMetadataDocument }).document,
        }),
      )
    },
  } as const
  fastify.post(
    '/tokens/:chain/:token/metadata/document/prepare',
    {
      schema: {
        ...documentRoute.schema,
        summary: "Prepare a token's metadata document (IPFS) and the update pointing at it",
        operationId: 'prepareMetadataDocument',
      },
      config: {
        gateway: documentRoute.gateway,
      },
    },
    documentRoute.handler,
  )

  // Only for a valid path: a refused one's raw characters must not reach a Link header.
  const successor = (request: FastifyRequest, focused: string) => {
    const { chain, token } = (request.params ?? {}) as { chain?: string; token?: string }
    if (!chain || !token || !/^[0-9]{1,10}$/.test(chain) || !/^0x[0-9a-fA-F]{40}$/.test(token)) return undefined
    return `/tokens/${chain}/${token}/metadata/${focused}/prepare`
  }
  fastify.post(
    '/tokens/:chain/:token/metadata/profile/prepare',
    {
      schema: {
        ...documentRoute.schema,
        summary: 'Deprecated: use …/metadata/document/prepare',
        operationId: 'prepareMetadataProfile',
        deprecated: true,
      },
      config: {
        gateway: {
          ...documentRoute.gateway,
          deprecated: { successor: (request) => successor(request, 'document') },
        },
      },
    },
    documentRoute.handler,
  )

  type Combined = {
    actor: string
    operation: 'update_name' | 'update_symbol' | 'update_extra_metadata' | 'update_profile'
    value?: string
    document?: TokenMetadataDocument
  }
  const FIELD: Record<Exclude<Combined['operation'], 'update_profile'>, OnchainField> = {
    update_name: 'name',
    update_symbol: 'symbol',
    update_extra_metadata: 'extra_metadata',
  }
  const isProfile = (request: FastifyRequest) => (request.body as Combined | undefined)?.operation === 'update_profile'
  fastify.post(
    '/tokens/:chain/:token/metadata/prepare',
    {
      schema: {
        summary: 'Deprecated: use …/metadata/onchain/prepare or …/metadata/document/prepare',
        operationId: 'prepareMetadataCombined',
        deprecated: true,
        params: tokenPathParams,
        querystring: Type.Object({}, { additionalProperties: false }),
        body: Type.Ref('MetadataCombinedRequest'),
        response: planResponse('The simulated update plan'),
      },
      config: {
        gateway: {
          operation: 'metadata.combined.prepare',
          scope: 'metadata:write',
          weight: { base: 3 },
          units: (request) => (isProfile(request) ? 10 : 3),
          // The header is checked per operation below (update_profile requires it, like the document route).
          idempotency: 'optional',
          validate: (request) => {
            readTokenPath({ request, deps })
            const body = request.body as Combined
            if (body.operation === 'update_profile') {
              if (!body.document || body.value !== undefined)
                throw new GatewayProblem('incompatible_parameters', {
                  detail: 'update_profile takes document (not value).',
                  invalidParameters: [{ name: 'document', in: 'body', reason: 'required with update_profile; value is not' }],
                })
              if (request.headers['idempotency-key'] === undefined)
                throw new GatewayProblem('missing_idempotency_key', {
                  detail: 'update_profile creates off-chain work: send an Idempotency-Key header.',
                })
            } else if (body.value === undefined || body.document !== undefined) {
              throw new GatewayProblem('incompatible_parameters', {
                detail: `${body.operation} takes value (not document).`,
                invalidParameters: [{ name: 'value', in: 'body', reason: `required with ${body.operation}; document is not` }],
              })
            }
          },
          ceilings: (request) => (isProfile(request) ? documentCeilings(request) : actorCeilings(request, true)),
          deprecated: { successor: (request) => successor(request, isProfile(request) ? 'document' : 'onchain') },
        },
      },
    },
    async (request) => {
      const { chain, token, actor } = target(request, deps)
      const body = request.body as Combined
      if (body.operation === 'update_profile')
        return respond(deps, await prepareDocumentUpdate({ deps, request, chain, token, actor, document: body.document! }))
      return respond(
        deps,
        await prepareOnchainUpdate({ deps, request, chain, token, actor, field: FIELD[body.operation], value: body.value! }),
      )
    },
  )
}
