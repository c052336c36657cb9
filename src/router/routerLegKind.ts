/**
 * The router's leg kind numbers (`docs/route-legs.md`, `contracts/router/RouterTypes.sol`), one per
 * spec `LegData` kind (`pancake_infinity_cl`, our `balancer_vault` and `maverick_v2` since API 0.2.0). On any other
 * number the contract reverts `UnsupportedLegKind`.
 *
 * @example
 * routerLegKind.v3_direct // 1
 */
export const routerLegKind = {
  v2_direct: 0,
  v3_direct: 1,
  pancake_v3_direct: 2,
  algebra_direct: 3,
  hydrex: 4,
  univ4: 5,
  univ2: 6,
  univ3: 7,
  curve: 8,
  prop_amm: 9,
  dodo_v2: 10,
  woofi: 11,
  aerodrome_v2: 12,
  pancake_infinity_cl: 13,
  balancer_vault: 14,
  maverick_v2: 15,
} as const

/** A spec `LegData` kind. */
export type LegKindName = keyof typeof routerLegKind
