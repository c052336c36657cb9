import { GatewayProblem } from './GatewayProblem.ts'

/** The names viem gives the errors of a dependency that did not answer in time. */
const TIMEOUTS = new Set(['TimeoutError', 'HoldersTimeoutError'])
/** A dependency that could not be reached at all. */
const UNREACHABLE = /ECONNREFUSED|ECONNRESET|ENOTFOUND|EHOSTUNREACH|fetch failed|socket hang up|other side closed/i

export type MapDependencyErrorParameters = {
  error: unknown
  /** What the dependency is, for the client (`the chain`, `the holder provider`). Never a URL. */
  dependency: string
}

/**
 * A required dependency's failure as the spec's mapped error (§7: "never an older snapshot"):
 * a timeout is `upstream_timeout` (504), a dependency that cannot be reached is
 * `temporarily_unavailable` (503), one that answered something unusable (an RPC error, a
 * malformed body) is `upstream_error` (502). The detail names the dependency, never its URL,
 * its raw error or its body.
 *
 * @example
 * try { await client.getBlockNumber() } catch (error) { throw mapDependencyError({ error, dependency: 'the chain' }) }
 * // a timeout → 'upstream_timeout' (504); unreachable → 'temporarily_unavailable' (503); else 'upstream_error' (502)
 */
export function mapDependencyError({ error, dependency }: MapDependencyErrorParameters): GatewayProblem {
  if (error instanceof GatewayProblem) return error
  const chain: unknown[] = []
  for (let e: unknown = error; e && chain.length < 8; e = (e as { cause?: unknown }).cause) chain.push(e)
  const names = chain.map((e) => (e as { name?: string }).name ?? '')
  const messages = chain.map((e) => `${(e as { message?: string }).message ?? ''} ${(e as { code?: string }).code ?? ''}`).join(' ')
  if (names.some((n) => TIMEOUTS.has(n)))
    return new GatewayProblem('upstream_timeout', { detail: `${dependency} did not answer in time.`, retryAfterSec: 1 })
  if (UNREACHABLE.test(messages))
    return new GatewayProblem('temporarily_unavailable', { detail: `${dependency} is unreachable.`, retryAfterSec: 1 })
  return new GatewayProblem('upstream_error', { detail: `${dependency} returned an invalid response.` })
}
