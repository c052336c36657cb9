import type { FastifyRequest } from 'fastify'
import type { GatewayChain } from '../GatewayChain.ts'
import type { GatewayDependencies } from '../GatewayDependencies.ts'
import { GatewayProblem } from '../problems/GatewayProblem.ts'

/**
 * The chain a request names (`{chain}` in the path, or the `chain` query filter), which must be
 * one the gateway serves: else `unsupported_chain` (422), naming the supported ids.
 *
 * @example
 * const chain = requireChain({ request, deps, chainId: Number(request.params.chain) })
 * // → the served GatewayChain; GatewayProblem 'unsupported_chain' (422) naming the served ids otherwise
 */
export function requireChain({ deps, chainId }: { request?: FastifyRequest; deps: GatewayDependencies; chainId: number }): GatewayChain {
  const chain = deps.chains.get(chainId)
  if (!chain) {
    throw new GatewayProblem('unsupported_chain', {
      detail: `Chain ${chainId} is not served here; supported: ${[...deps.chains.keys()].join(', ') || 'none'}.`,
      chainId,
    })
  }
  return chain
}
