import { createClient, type RedisClientType } from '@redis/client'
import { SharedStateUnavailableError } from '../SharedStateUnavailableError.ts'

export type SharedRedis = {
  client: RedisClientType
  /** Runs one command (or script) with a deadline; any failure, or no answer in time, is a `SharedStateUnavailableError`. */
  run: <T>(command: (client: RedisClientType) => Promise<T>) => Promise<T>
  /** Whether the connection is up now (readiness). */
  isReady: () => boolean
  close: () => Promise<void>
}

export type ConnectRedisParameters = {
  url: string
  /** Longest wait for one command (default 1000 ms): past it the request gets a 503, not a hang. */
  commandTimeoutMs?: number
  /** Told of connection errors and reconnections (the caller redacts and logs). */
  onEvent?: (event: { kind: 'error' | 'reconnecting' | 'ready' | 'commandFailed'; message?: string }) => void
}

/**
 * The service's connection to Redis (node-redis): commands fail at once while it is disconnected
 * (no offline queue: a request must not wait for Redis to come back), reconnection runs in the
 * background with a backoff of 100 ms per attempt up to 2 s, and every command has a deadline.
 * The first connection is awaited and not retried, so a wrong `REDIS_URL` (nothing listening, a
 * wrong password) stops the start at once with its error, before the market's cold start. Once
 * connected, Redis's `maxmemory-policy` must be `noeviction` (docs/scaling.md): any other policy
 * may evict a caller's rate-limit window under memory pressure (volatile-ttl evicts the shortest
 * TTL first: exactly those windows), letting the caller past its limit; the start is refused then.
 *
 * @example
 * const redis = await connectRedis({ url: process.env.REDIS_URL })
 * await redis.run((c) => c.get('key'))
 * // → the value, or null; a SharedStateUnavailableError (503) past commandTimeoutMs or while Redis is down
 */
export async function connectRedis({ url, commandTimeoutMs = 1000, onEvent }: ConnectRedisParameters): Promise<SharedRedis> {
  let connected = false
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 2000,
      // Before the first connection: no retry (the start fails now, not hours later); after it, reconnect with backoff.
      reconnectStrategy: (retries: number, cause: Error) =>
        connected ? Math.min(100 * (retries + 1), 2000) : new Error(`REDIS_URL: cannot connect to Redis: ${cause.message}`),
    },
  }) as RedisClientType
  client.on('error', (error: Error) => onEvent?.({ kind: 'error', message: error.message }))
  client.on('reconnecting', () => onEvent?.({ kind: 'reconnecting' }))
  client.on('ready', () => onEvent?.({ kind: 'ready' }))
  try {
    await client.connect()
    connected = true
    const policy = /maxmemory_policy:(\S+)/.exec(await client.info('memory'))?.[1]
    if (policy !== 'noeviction') {
      throw new Error(
        `REDIS_URL: Redis's maxmemory-policy is ${policy ?? 'unknown'}; the rate limiter needs noeviction (an evicted window lets a caller past its limit): set maxmemory-policy noeviction (redis.conf or CONFIG SET), docs/scaling.md`,
      )
    }
  } catch (error) {
    if (client.isOpen) await client.close().catch(() => undefined)
    throw error
  }
  return {
    client,
    run: async (command) => {
      let timer: NodeJS.Timeout | undefined
      try {
        return await Promise.race([
          command(client),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer from Redis in ${commandTimeoutMs} ms`)), commandTimeoutMs)
          }),
        ])
      } catch (error) {
        onEvent?.({ kind: 'commandFailed', message: error instanceof Error ? error.message : String(error) })
        throw new SharedStateUnavailableError(error)
      } finally {
        clearTimeout(timer)
      }
    },
    isReady: () => client.isReady,
    close: async () => {
      if (client.isOpen) await client.close()
    },
  }
}
