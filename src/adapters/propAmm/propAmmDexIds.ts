import type { DexId } from '../../../bindings/types.ts'

/** The five proprietary AMM kinds (research/dex-kinds.md §2.11), priced by sampling their quote views. */
export const propAmmDexIds = ['PROPSWAP', 'TESSERA', 'ELFOMOFI', 'LUNARBASE', 'FELTIR'] as const satisfies readonly DexId[]

export type PropAmmDexId = (typeof propAmmDexIds)[number]
