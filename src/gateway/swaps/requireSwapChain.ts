import type { GatewayChain } from '../GatewayChain.ts'
import type { GatewayDependencies } from '../GatewayDependencies.ts'
import { GatewayProblem } from '../problems/GatewayProblem.ts'
import { requireChain } from '../routes/requireChain.ts'

/**
 * The chain a swap names: one the gateway serves (`unsupported_chain`) and one whose swap market
 * runs in this process (`unsupported_operation`: the gateway serves its launchpad, not its swaps).
 *
 * @example
 * const chain = requireSwapChain({ deps, chainId: body.chain_id })
 * // → the chain, with its swaps; 'unsupported_chain' or 'unsupported_operation' (no swap market here) otherwise
 */
export function requireSwapChain({
  deps,
  chainId,
}: {
  deps: GatewayDependencies
  chainId: number
}): GatewayChain & Required<Pick<GatewayChain, 'swaps'>> {
  const chain = requireChain({ deps, chainId })
  if (!chain.swaps)
    throw new GatewayProblem('unsupported_operation', {
      detail: `Swaps are not served on chain ${chainId} by this deployment; read /config.`,
      chainId,
    })
  return chain as GatewayChain & Required<Pick<GatewayChain, 'swaps'>>
}
