import { GatewayProblem } from '../problems/GatewayProblem.ts'

export type CheckQueryParametersParameters = {
  /** The request's raw URL (path and query). */
  url: string
  /** The parameters the route accepts. */
  accepted: readonly string[]
  /** Parameters known to be refused on this route, and why. */
  retired?: Record<string, { reason: string; suggestedEndpoint?: string }>
}

/**
 * Spec §4 rules 2 and 3, on the raw query string (before any parsing merges repeats): a parameter
 * given twice is `duplicate_parameter`; a retired one (a separate `order` next to self-contained
 * sort values) is `incompatible_parameters`; any the route does not accept is
 * `unknown_parameter`, all of them listed in `invalid_parameters`.
 *
 * @example
 * checkQueryParameters({ url: '/tokens?sort=newest&sort=oldest', accepted: ['sort', 'limit', 'cursor'] }) // throws duplicate_parameter
 */
export function checkQueryParameters({ url, accepted, retired = {} }: CheckQueryParametersParameters): void {
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : ''
  if (!query) return
  const seen = new Map<string, number>()
  for (const [name] of new URLSearchParams(query)) seen.set(name, (seen.get(name) ?? 0) + 1)
  const repeated = [...seen].filter(([, n]) => n > 1).map(([name]) => name)
  if (repeated.length) {
    throw new GatewayProblem('duplicate_parameter', {
      detail: `Given more than once: ${repeated.join(', ')}.`,
      invalidParameters: repeated.map((name) => ({ name, in: 'query', reason: 'given more than once' })),
    })
  }
  const known = new Set(accepted)
  const refused = [...seen.keys()].filter((name) => Object.hasOwn(retired, name))
  if (refused.length) {
    const first = retired[refused[0]]
    const others = [...seen.keys()].filter((name) => known.has(name) && name !== refused[0])
    throw new GatewayProblem('incompatible_parameters', {
      detail: refused.map((name) => `${name}: ${retired[name].reason}`).join(' '),
      invalidParameters: [...refused, ...others.filter((n) => n === 'sort')].map((name) => ({
        name,
        in: 'query',
        reason: Object.hasOwn(retired, name) ? retired[name].reason : 'cannot be combined with the parameters listed',
      })),
      suggestedEndpoint: first.suggestedEndpoint,
    })
  }
  const unknown = [...seen.keys()].filter((name) => !known.has(name))
  if (unknown.length) {
    throw new GatewayProblem('unknown_parameter', {
      detail: `Not accepted by this route: ${unknown.join(', ')}. Accepted: ${accepted.join(', ') || 'none'}.`,
      invalidParameters: unknown.map((name) => ({ name, in: 'query', reason: 'not accepted by this route' })),
    })
  }
}
