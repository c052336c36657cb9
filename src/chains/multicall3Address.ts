/** The canonical Multicall3 address; our `Multicall3` runtime is placed there with `anvil_setCode`. */
export const multicall3Address = '0xcA11bde05977b3631167028862bE2a173976CA11' as const
