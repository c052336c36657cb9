import { randomBytes } from 'node:crypto'
import { Type } from 'typebox'
import { type Address, getAddress, type Hex, recoverTypedDataAddress } from 'viem'
import type { FastifyInstance } from 'fastify'
import { announcementTypedData, announcementTypes } from '../../announcements/announcementTypedData.ts'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { actorCeilings } from '../../metadata/metadataCeilings.ts'
import { GatewayProblem } from '../../problems/GatewayProblem.ts'
import { readTokenRow } from '../../readModel/readTokenRow.ts'
import { gatewayResponses, KEYED_PROBLEMS } from '../routeSchemaParts.ts'
import { readTokenPath, tokenPathParams } from '../tokenPath.ts'

/** A prepared announcement waits this long for its signature. */
export const ANNOUNCEMENT_DRAFT_TTL_MS = 10 * 60_000

type Draft = {
  id: string
  key_prefix: string
  chain_id: number
  token: string
  author: string
  title: string
  body: string
  issued_at: number
  expires_at: number
}

/**
 * Announcements (decisions: docs/gateway/write-routes.md):
 * - `POST /tokens/{chain}/{token}/announcements/prepare` (3 units, `announcements:write`): the
 *   token's creator (`wallet_not_authorized` for anyone else) gets a fresh announcement id and
 *   the EIP-712 typed data to sign; kept 10 minutes. At most 20 per creator per key per minute.
 * - `POST /tokens/{chain}/{token}/announcements` (3 units): the signature posted back; checked
 *   against the prepared message and the creator (`wallet_not_authorized` when another key signed,
 *   `not_found` for an unknown or expired id), then published: the read route serves it at once.
 *   An id already published is `announcement_id_conflict` (prepare again).
 *
 * @example
 * registerAnnouncementRoutes(fastify, deps)
 * // POST …/announcements/prepare answers the message to sign; POST …/announcements publishes it, served at once
 */
export function registerAnnouncementRoutes(fastify: FastifyInstance, deps: GatewayDependencies): void {
  fastify.post(
    '/tokens/:chain/:token/announcements/prepare',
    {
      schema: {
        summary: 'Prepare an announcement for the creator to sign (EIP-712)',
        operationId: 'prepareAnnouncement',
        params: tokenPathParams,
        querystring: Type.Object({}, { additionalProperties: false }),
        body: Type.Ref('AnnouncementPrepareRequest'),
        response: gatewayResponses({
          ok: Type.Ref('AnnouncementDraftResponse'),
          description: 'The announcement id and the typed data to sign',
          problems: [...KEYED_PROBLEMS, 403, 404, 422],
        }),
      },
      config: {
        gateway: {
          operation: 'announcements.prepare',
          scope: 'announcements:write',
          weight: { base: 3 },
          validate: (request) => void readTokenPath({ request, deps }),
          ceilings: (request) => actorCeilings(request, false),
        },
      },
    },
    async (request) => {
      const { chainId, token } = readTokenPath({ request, deps })
      const body = request.body as { author: string; title: string; body: string }
      const row = await readTokenRow({ db: deps.db, chainId, token })
      const author = getAddress(body.author)
      if (author.toLowerCase() !== row.creator)
        throw new GatewayProblem('wallet_not_authorized', {
          detail: `Only the creator of ${getAddress(token)} may announce for it.`,
          chainId,
          tokenAddress: getAddress(token),
        })
      const id = `0x${randomBytes(32).toString('hex')}` as Hex
      const now = deps.now()
      const issuedAt = BigInt(Math.floor(now / 1000))
      const expiresAt = now + ANNOUNCEMENT_DRAFT_TTL_MS
      await deps.db.execute(
        'INSERT INTO announcement_drafts (id, key_prefix, chain_id, token, author, title, body, issued_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
        [id, request.gw.key!.prefix, chainId, token, author.toLowerCase(), body.title, body.body, Number(issuedAt), expiresAt],
      )
      const typed = announcementTypedData({
        chainId,
        message: { id, token: getAddress(token) as Address, title: body.title, body: body.body, issuedAt },
      })
      return {
        data: {
          announcement_id: id,
          chain_id: chainId,
          token: getAddress(token),
          author,
          typed_data: {
            domain: { name: typed.domain!.name!, version: typed.domain!.version!, chainId },
            types: announcementTypes as unknown as Record<string, { name: string; type: string }[]>,
            primaryType: 'Announcement',
            message: { id, token: getAddress(token), title: body.title, body: body.body, issuedAt: issuedAt.toString() },
          },
          expires_at: new Date(expiresAt).toISOString(),
        },
        meta: { generated_at: new Date(now).toISOString() },
      }
    },
  )

  fastify.post(
    '/tokens/:chain/:token/announcements',
    {
      schema: {
        summary: 'Publish a prepared announcement with its signature',
        operationId: 'publishAnnouncement',
        params: tokenPathParams,
        querystring: Type.Object({}, { additionalProperties: false }),
        body: Type.Ref('AnnouncementPublishRequest'),
        response: gatewayResponses({
          ok: Type.Ref('AnnouncementResponse'),
          description: 'The published announcement',
          problems: [...KEYED_PROBLEMS, 403, 404, 409, 422],
          okStatus: 201,
        }),
      },
      config: {
        gateway: {
          operation: 'announcements.publish',
          scope: 'announcements:write',
          weight: { base: 3 },
          validate: (request) => void readTokenPath({ request, deps }),
        },
      },
    },
    async (request, reply) => {
      const { chainId, token } = readTokenPath({ request, deps })
      const body = request.body as { announcement_id: string; signature: string }
      const id = body.announcement_id.toLowerCase()
      const [published] = await deps.db.query<{ id: string }>('SELECT id FROM announcements WHERE id = $1', [id])
      if (published)
        throw new GatewayProblem('announcement_id_conflict', {
          detail: `Announcement ${id} is already published; prepare a new one.`,
          chainId,
          tokenAddress: getAddress(token),
        })
      const [draft] = await deps.db.query<Draft>('SELECT * FROM announcement_drafts WHERE id = $1', [id])
      if (
        !draft ||
        draft.key_prefix !== request.gw.key!.prefix ||
        draft.chain_id !== chainId ||
        draft.token !== token ||
        Number(draft.expires_at) <= deps.now()
      ) {
        throw new GatewayProblem('not_found', {
          detail: `No announcement ${id} prepared with this key for this token (or it expired: prepare again).`,
          resource: 'announcement',
        })
      }
      const message = {
        id: id as Hex,
        token: getAddress(token) as Address,
        title: draft.title,
        body: draft.body,
        issuedAt: BigInt(draft.issued_at),
      }
      let signer: Address
      try {
        signer = await recoverTypedDataAddress({ ...announcementTypedData({ chainId, message }), signature: body.signature as Hex })
      } catch {
        throw new GatewayProblem('invalid_parameter', {
          detail: 'signature is not a valid EIP-712 signature.',
          invalidParameters: [{ name: 'signature', in: 'body', reason: 'not a valid signature' }],
        })
      }
      if (signer.toLowerCase() !== draft.author)
        throw new GatewayProblem('wallet_not_authorized', {
          detail: "The signature is not the token creator's.",
          chainId,
          tokenAddress: getAddress(token),
        })
      const createdAt = new Date(deps.now()).toISOString()
      const inserted = await deps.db.transaction(async (tx) => {
        const n = await tx.execute(
          'INSERT INTO announcements (id, chain_id, token, author, title, body, issued_at, signature, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING',
          [id, chainId, token, draft.author, draft.title, draft.body, Number(draft.issued_at), body.signature.toLowerCase(), createdAt],
        )
        await tx.execute('DELETE FROM announcement_drafts WHERE id = $1', [id])
        return n
      })
      if (inserted === 0)
        throw new GatewayProblem('announcement_id_conflict', {
          detail: `Announcement ${id} is already published; prepare a new one.`,
          chainId,
          tokenAddress: getAddress(token),
        })
      reply.code(201)
      return {
        data: {
          id,
          chain_id: chainId,
          token: getAddress(token),
          author: getAddress(draft.author),
          author_is_creator: true,
          title: draft.title,
          body: draft.body,
          issued_at: new Date(Number(draft.issued_at) * 1000).toISOString(),
          signature: { scheme: 'eip712' as const, value: body.signature.toLowerCase() },
          updated_at: createdAt,
        },
        meta: { generated_at: createdAt },
      }
    },
  )
}
