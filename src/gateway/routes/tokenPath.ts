import { Type } from 'typebox'
import type { FastifyRequest } from 'fastify'
import type { GatewayDependencies } from '../GatewayDependencies.ts'
import { requireChain } from './requireChain.ts'
import { addressParam, chainParam } from './routeSchemaParts.ts'

/** `{chain}` and `{token}` of the token routes. */
export const tokenPathParams = Type.Object({ chain: chainParam, token: addressParam }, { additionalProperties: false })

/**
 * The chain id and lowercase token address of a token route, the chain checked as served
 * (`unsupported_chain`). Called in a route's `validate`, before the limiter.
 *
 * @example
 * const { chainId, token } = readTokenPath({ request, deps })
 * // → { chainId: 8453, token: '0xabc…' (lowercase) }; unsupported_chain for a chain not served
 */
export function readTokenPath({ request, deps }: { request: FastifyRequest; deps: GatewayDependencies }): {
  chainId: number
  token: string
} {
  const params = request.params as { chain: string; token: string }
  const chainId = Number(params.chain)
  requireChain({ deps, chainId })
  return { chainId, token: params.token.toLowerCase() }
}
