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
  onEvent?: (event: { kind: 'error' | 'reconnecting' | 'ready'; message?: string }) => void
}

/**
 * The service's connection to Redis (node-redis): commands fail at once while it is disconnected
 * (no offline queue: a request must not wait for Redis to come back), reconnection runs in the
 * background with a backoff of 100 ms per attempt up to 2 s, and every command has a deadline.
 * The first connection is awaited, so a wrong `REDIS_URL` stops the start with its error.
 *
 * @example
 * const redis = await connectRedis({ url: process.env.REDIS_URL })
 * await redis.run((c) => c.get('key'))
 */
export async function connectRedis({ url, commandTimeoutMs = 1000, onEvent }: ConnectRedisParameters): Promise<SharedRedis> {
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 2000, reconnectStrategy: (retries: number) => Math.min(100 * (retries + 1), 2000) },
  }) as RedisClientType
  client.on('error', (error: Error) => onEvent?.({ kind: 'error', message: error.message }))
  client.on('reconnecting', () => onEvent?.({ kind: 'reconnecting' }))
  client.on('ready', () => onEvent?.({ kind: 'ready' }))
  await client.connect()
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
