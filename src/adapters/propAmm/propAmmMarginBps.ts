import type { PropAmmDexId } from './propAmmDexIds.ts'

/**
 * The default safety margin of each prop AMM kind, in bps floored off every sampled output by the
 * solver (a venue's own `marginBps` in the chain config's pools overrides it). It covers the
 * interpolation between samples and an operator re-pricing between our snapshot and the trade:
 * TESSERA's fee only falls between re-pricings (it decays), LUNARBASE's punishment only rises with
 * swaps; Velora uses 100 bps for PropSwap, KyberSwap a configurable figure.
 */
export const propAmmMarginBps: Readonly<Record<PropAmmDexId, number>> = {
  PROPSWAP: 10,
  TESSERA: 10,
  ELFOMOFI: 10,
  LUNARBASE: 15,
  FELTIR: 10,
}
