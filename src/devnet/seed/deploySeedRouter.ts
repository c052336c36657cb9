import type { Address } from 'viem'
import type { Devnet } from '../startDevnet.ts'

export type DeploySeedRouterParameters = { devnet: Devnet; weth: Address }

/**
 * THE ROUTER HOOK. Our swap router (`contracts/router/SwapRouter.sol`, deployed by
 * `src/router/deployRouter.ts`) is being written on branch `router` and has not landed on main, so
 * the seeded market has no router yet and `var/devnet.json` says `router: null`. When it lands,
 * deploy it here and return its address: the seed's state key covers this file, so the saved state
 * is rebuilt on the next start.
 *
 * @example
 * const router = await deploySeedRouter({ devnet, weth })
 */
export async function deploySeedRouter(_parameters: DeploySeedRouterParameters): Promise<Address | null> {
  return null
}
