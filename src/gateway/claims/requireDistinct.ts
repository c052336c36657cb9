import { GatewayProblem } from '../problems/GatewayProblem.ts'

/**
 * A batch names each position once: a repeat is `invalid_parameter` on the repeated item.
 *
 * @example
 * requireDistinct({ values: body.positions.map((p) => p.token.toLowerCase()), field: 'token' })
 * // values ['0xa', '0xb', '0xa'] → GatewayProblem 'invalid_parameter' (400) on positions.2.token; distinct values: nothing
 */
export function requireDistinct({ values, field }: { values: readonly (string | number)[]; field: string }): void {
  const seen = new Set<string | number>()
  values.forEach((v, i) => {
    if (seen.has(v))
      throw new GatewayProblem('invalid_parameter', {
        detail: `positions.${i}.${field} repeats an earlier position.`,
        invalidParameters: [{ name: `positions.${i}.${field}`, in: 'body', reason: 'repeats an earlier position' }],
      })
    seen.add(v)
  })
}
