import { type Address, encodeFunctionData, getAddress } from 'viem'
import type { FastifyRequest } from 'fastify'
import { canonicalJson } from '../../http/quotes/canonicalJson.ts'
import { computeDocumentCid } from '../documents/computeDocumentCid.ts'
import type { TokenMetadataDocument } from '../documents/TokenMetadataDocument.ts'
import type { GatewayChain } from '../GatewayChain.ts'
import type { GatewayDependencies } from '../GatewayDependencies.ts'
import { launchTokenAbi } from '../launchpad/launchTokenAbi.ts'
import { readLiveBlock } from '../live/readLiveBlock.ts'
import { preparePlan } from '../transactionPlans/preparePlan.ts'
import type { TransactionPlan } from '../transactionPlans/TransactionPlan.ts'
import { requireTokenAdmin } from './requireTokenAdmin.ts'

/** An on-chain field an admin can change, and the token's function that changes it. */
export const ONCHAIN_FIELDS = { name: 'updateName', symbol: 'updateSymbol', extra_metadata: 'updateExtraMetadata' } as const
export type OnchainField = keyof typeof ONCHAIN_FIELDS

const TOKEN_REVERTS = {
  NotAdmin: { code: 'wallet_not_authorized', detail: "Only the token's admin may update its metadata." },
  InvalidName: { code: 'invalid_parameter', detail: 'The token refuses this name.' },
  InvalidSymbol: { code: 'invalid_parameter', detail: 'The token refuses this symbol.' },
} as const

type Common = { deps: GatewayDependencies; request: FastifyRequest; chain: GatewayChain; token: string; actor: Address }

/**
 * A plan changing one on-chain field of a token (its admin's `updateName`, `updateSymbol` or
 * `updateExtraMetadata`), after checking the actor is its admin at the latest block.
 *
 * @example
 * const plan = await prepareOnchainUpdate({ deps, request, chain, token, actor, field: 'name', value: 'New name' })
 * // → a TransactionPlan whose call is the token's updateName('New name'); GatewayProblem when actor is not its admin
 */
export async function prepareOnchainUpdate({
  deps,
  request,
  chain,
  token,
  actor,
  field,
  value,
}: Common & { field: OnchainField; value: string }): Promise<TransactionPlan> {
  const block = await readLiveBlock({ chain, timeoutMs: deps.liveReadTimeoutMs })
  await requireTokenAdmin({ db: deps.db, chain, token, actor, blockNumber: block, timeoutMs: deps.liveReadTimeoutMs })
  return preparePlan({
    deps,
    request,
    chain,
    kind: 'metadata_onchain',
    from: actor,
    blockNumber: block,
    tx: {
      to: getAddress(token),
      data: encodeFunctionData({ abi: launchTokenAbi, functionName: ONCHAIN_FIELDS[field], args: [value] }),
      value: 0n,
    },
    summary: { token: getAddress(token), field, value },
    abis: [launchTokenAbi],
    reverts: TOKEN_REVERTS,
  })
}

/**
 * A plan pointing a token's extra metadata at a new metadata document: the document (already
 * valid against `TokenMetadataDocument`) as canonical JSON, its CIDv1 computed here (raw leaf,
 * sha2-256: the CID Kubo gives it), pinned (`deps.ipfs`: the embedded blockstore or a Kubo node,
 * which must answer the same CID), kept in the gateway's store by CID (the token's detail serves
 * it once the update is indexed), then the admin's `updateExtraMetadata("ipfs://<cid>")`.
 *
 * @example
 * const plan = await prepareDocumentUpdate({ deps, request, chain, token, actor, document })
 * // → a TransactionPlan calling updateExtraMetadata('ipfs://<cid>'); the document is stored under its CID
 */
export async function prepareDocumentUpdate({
  deps,
  request,
  chain,
  token,
  actor,
  document,
}: Common & { document: TokenMetadataDocument }): Promise<TransactionPlan> {
  const block = await readLiveBlock({ chain, timeoutMs: deps.liveReadTimeoutMs })
  await requireTokenAdmin({ db: deps.db, chain, token, actor, blockNumber: block, timeoutMs: deps.liveReadTimeoutMs })
  const content = canonicalJson(document)
  const bytes = new TextEncoder().encode(content)
  const cid = computeDocumentCid(bytes)
  // Pinned before anything refers to it: a node that fails answers its mapped error and no plan.
  await deps.ipfs.pin({ cid, bytes })
  await deps.db.execute('INSERT INTO documents (cid, content, created_at) VALUES ($1, $2, $3) ON CONFLICT (cid) DO NOTHING', [
    cid,
    content,
    new Date(deps.now()).toISOString(),
  ])
  const uri = `ipfs://${cid}`
  return preparePlan({
    deps,
    request,
    chain,
    kind: 'metadata_document',
    from: actor,
    blockNumber: block,
    tx: {
      to: getAddress(token),
      data: encodeFunctionData({ abi: launchTokenAbi, functionName: 'updateExtraMetadata', args: [uri] }),
      value: 0n,
    },
    summary: { token: getAddress(token), cid, uri, document, bytes: bytes.length, pinned_to: deps.ipfs.target },
    abis: [launchTokenAbi],
    reverts: TOKEN_REVERTS,
  })
}
