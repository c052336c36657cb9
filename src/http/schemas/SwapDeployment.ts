import type { Address } from 'viem'

/**
 * What the request schemas of one running service depend on: the served document states these
 * exactly (docs/http-api.md, "The document is exact"), so it is built per app.
 */
export type SwapDeployment = {
  /** The one chain quoted; any other `chainId` is refused by the schema. */
  chainId: number
  /** The wrapped native token: `useNativeIn` / `unwrapNativeOut` need the trade to start / end at it. */
  weth: Address
  /** Our swap router: never a valid `user` (it would pay itself). */
  router: Address
  /** The largest `feeBps` accepted (0 when no fee recipient is configured). */
  maxFeeBps: number
}
