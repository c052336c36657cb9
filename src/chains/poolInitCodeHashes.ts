import type { Hex } from 'viem'

/**
 * The canonical creation-code hashes of Uniswap's pools (`@uniswap/v2-core`, `@uniswap/v3-core`;
 * Base's deployments agree): a pool's address follows from its factory, its tokens (and fee) and
 * this hash by CREATE2, so a router can check a callback's sender and a launch can predict its pool.
 */
export const UNISWAP_V2_PAIR_INIT_CODE_HASH: Hex = '0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f'
export const UNISWAP_V3_POOL_INIT_CODE_HASH: Hex = '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54'
