/** A route's weight (spec §8): `base` units for the default page, and the rows one step of `base` buys. */
export type RouteWeight = { base: number; rowsPerStep?: number }

/**
 * The weighted units a request costs: the route's base, scaled by the page asked for (spec §8
 * "paging scales cost": 2 units per 25 rows of a token list, so a `limit` of 100 costs 8; holders
 * 10 per 50 rows, so a 200-holder page costs 40). A route without paging costs its base.
 *
 * @example
 * routeUnits({ weight: { base: 2, rowsPerStep: 25 }, limit: 100 }) // 8
 */
export function routeUnits({ weight, limit }: { weight: RouteWeight; limit?: number }): number {
  if (!weight.rowsPerStep || limit === undefined) return weight.base
  return weight.base * Math.max(1, Math.ceil(limit / weight.rowsPerStep))
}
