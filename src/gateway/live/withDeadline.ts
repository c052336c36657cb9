import { GatewayProblem } from '../problems/GatewayProblem.ts'
import { mapDependencyError } from '../problems/mapDependencyError.ts'

export type WithDeadlineParameters<T> = {
  /** The live read. */
  run: () => Promise<T>
  /** What it depends on, as the client may read it (`the chain`): never a URL. */
  dependency: string
  timeoutMs: number
}

/**
 * A live read with its deadline and its failure mapped (spec §7): past the deadline
 * `upstream_timeout`; otherwise the dependency's own failure as `mapDependencyError` says. Nothing
 * cached or older is ever returned instead.
 *
 * @example
 * const block = await withDeadline({ run: () => client.getBlockNumber({ cacheTime: 0 }), dependency: 'the chain', timeoutMs: 5000 })
 * // → the block number; GatewayProblem 'upstream_timeout' after 5 s
 */
export async function withDeadline<T>({ run, dependency, timeoutMs }: WithDeadlineParameters<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new GatewayProblem('upstream_timeout', { detail: `${dependency} did not answer within ${timeoutMs} ms.`, retryAfterSec: 1 }),
        ),
      timeoutMs,
    )
  })
  try {
    return await Promise.race([run(), deadline])
  } catch (error) {
    throw mapDependencyError({ error, dependency })
  } finally {
    clearTimeout(timer)
  }
}
