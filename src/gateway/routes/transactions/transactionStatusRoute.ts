import { Type } from 'typebox'
import { getAddress, type Hex } from 'viem'
import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { readTransactionStatus } from '../../live/readTransactionStatus.ts'
import { withDeadline } from '../../live/withDeadline.ts'
import { GatewayProblem } from '../../problems/GatewayProblem.ts'
import { requireChain } from '../requireChain.ts'
import { chainParam, gatewayResponses, KEYED_PROBLEMS } from '../routeSchemaParts.ts'
import { LIVE_PROBLEMS } from '../wallets/walletFeeClaimsRoute.ts'

/**
 * `GET /transactions/{chain}/{hash}`: a transaction's status and finality, read live (1 unit).
 * A hash the chain's node does not know is `not_found`; when the transaction launched a token
 * here, `launched_token` names it.
 *
 * @example
 * registerTransactionStatusRoute(fastify, deps)
 * // GET /transactions/:chain/:hash now answers the status and finality, with launched_token when it launched one
 */
export function registerTransactionStatusRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  fastify.get(
    '/transactions/:chain/:hash',
    {
      schema: {
        summary: "A transaction's status and finality",
        operationId: 'getTransactionStatus',
        params: Type.Object(
          { chain: chainParam, hash: Type.String({ pattern: '^0x[a-fA-F0-9]{64}$', description: 'a 32-byte transaction hash' }) },
          { additionalProperties: false },
        ),
        querystring: Type.Object({}, { additionalProperties: false }),
        response: gatewayResponses({
          ok: Type.Ref('TransactionStatusResponse'),
          description: 'The transaction, read live',
          problems: [...KEYED_PROBLEMS, 404, 422, ...LIVE_PROBLEMS],
        }),
      },
      config: {
        gateway: {
          operation: 'transactions.status',
          scope: 'transactions:read',
          weight: { base: 1 },
          validate: (request) => void requireChain({ deps, chainId: Number((request.params as { chain: string }).chain) }),
        },
      },
    },
    async (request) => {
      const params = request.params as { chain: string; hash: string }
      const chainId = Number(params.chain)
      const hash = params.hash.toLowerCase() as Hex
      const chain = deps.chains.get(chainId)!
      const status = await withDeadline({
        run: () => readTransactionStatus({ client: chain.client, hash }),
        dependency: 'the chain',
        timeoutMs: deps.liveReadTimeoutMs,
      })
      if (!status)
        throw new GatewayProblem('not_found', {
          detail: `Chain ${chainId}'s node does not know transaction ${hash}.`,
          resource: 'transaction',
          chainId,
        })
      const [launched] =
        status.blockNumber === null
          ? []
          : await deps.db.query<{ address: string }>('SELECT address FROM tokens WHERE chain_id = $1 AND launch_tx = $2', [chainId, hash])
      return {
        data: {
          chain_id: chainId,
          hash,
          status: status.status,
          block_number: status.blockNumber,
          block_hash: status.blockHash,
          confirmations: status.confirmations,
          finality: status.finality,
          from: status.from,
          to: status.to,
          gas_used: status.gasUsed,
          launched_token: launched ? getAddress(launched.address) : null,
        },
        meta: {
          generated_at: new Date(deps.now()).toISOString(),
          ...(status.blockNumber !== null ? { as_of_block: status.blockNumber + status.confirmations - 1 } : {}),
        },
      }
    },
  )
}
