import { createConstantProductAdapter } from './createConstantProductAdapter.ts'

/**
 * Uniswap V2 pairs: discovered from the factory's `PairCreated`, priced from `getReserves()`,
 * refreshed on `Sync`, executed as `v2_direct` with the 30 bps fee.
 *
 * @example
 * const snapshot = await uniswapV2.readPool({ client, ref: { id: pair, dex: 'UNIV2', emitter: pair }, blockNumber, nextBlock })
 * // → { ref, input: { id: pair, dex: 'UNIV2', tokens, state: { model: 'constant_product', reserves } }, refreshEveryBlock: false }
 */
export const uniswapV2 = createConstantProductAdapter({ dex: 'UNIV2', feeBps: 30 })
