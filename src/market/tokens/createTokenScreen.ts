import type { Address, PublicClient } from 'viem'
import type { PoolSnapshot } from '../../adapters/PoolAdapter.ts'
import { TokenHistoryUnavailableError } from '../errors.ts'
import { isTransportError } from '../isTransportError.ts'
import type { MarketStore } from '../store/MarketStore.ts'
import { judgeTokenBehaviour, type TokenVerdict } from './judgeTokenBehaviour.ts'

export type CreateTokenScreenParameters = {
  client: PublicClient
  store: MarketStore
  /** Tokens never judged (the chain's WETH, the native currency): always plain. */
  trusted: readonly Address[]
  /** Blocks of history the rebasing check compares (default 1,800: an hour of Base). */
  windowBlocks?: bigint
  maxBlockRange: bigint
  /** Tokens judged at once (default 8). */
  concurrency?: number
  log: (line: string) => void
}

export type TokenScreen = {
  /**
   * Judges the tokens of `snapshots` not judged yet (each with the first pool holding it), at
   * `blockNumber`, and answers why each pool holding a fee-on-transfer, rebasing or
   * untransferable token stays out (pool id → reason). A node failure is thrown (the step fails).
   */
  screen: (snapshots: readonly PoolSnapshot[], blockNumber: bigint) => Promise<Map<string, string>>
  verdicts: () => Map<string, TokenVerdict>
}

/** Nodes keep at least this many blocks of state (geth's default is 128): the fallback window. */
const SHALLOW_WINDOW_BLOCKS = 64n

/**
 * The market's token screen: every token met in a pool read is judged once
 * (`judgeTokenBehaviour`), the verdict kept in the market store (a restart does not probe again),
 * and pools with a token that is not plain are left out with its reason. A token whose holder is
 * empty is judged when a pool holding it is next read. A node that cannot serve state as old as the
 * window (not an archive node) moves the window to the last 64 blocks, and one that serves no past
 * state at all (anvil after `--load-state`) to none: transfers are still checked, rebasing is not,
 * said once each; a node that refuses the probe itself (no state overrides) leaves tokens
 * unjudged, saying so.
 *
 * @example
 * const tokens = createTokenScreen({ client, store, trusted: [weth], maxBlockRange: 2000n, log: console.log })
 * const reasons = await tokens.screen(snapshots, 123n) // pool id → 'token 0x… moves other amounts than asked …'
 */
export function createTokenScreen({
  client,
  store,
  trusted,
  windowBlocks = 1800n,
  maxBlockRange,
  concurrency = 8,
  log,
}: CreateTokenScreenParameters): TokenScreen {
  const verdicts = new Map<string, TokenVerdict>(store.tokens().map((t) => [t.address.toLowerCase(), t.verdict]))
  for (const t of trusted) verdicts.set(t.toLowerCase(), { kind: 'plain' })
  verdicts.set('0x0000000000000000000000000000000000000000', { kind: 'plain' })
  let window = windowBlocks
  let unsupported: string | undefined

  const judge = async (token: Address, holder: Address, blockNumber: bigint): Promise<TokenVerdict | undefined> => {
    for (;;) {
      try {
        return await judgeTokenBehaviour({ client, token, holder, blockNumber, windowBlocks: window, maxBlockRange })
      } catch (error) {
        if (isTransportError(error)) throw error
        const message = error instanceof Error ? error.message.split('\n')[0] : String(error)
        if (error instanceof TokenHistoryUnavailableError && window > 0n) {
          // Past state is what is missing: a shallower window, then none (transfers checked only).
          window = window > SHALLOW_WINDOW_BLOCKS ? SHALLOW_WINDOW_BLOCKS : 0n
          log(
            `market: token checks: ${message}; ${window > 0n ? `rebasing is checked over the last ${window} blocks` : 'rebasing is not checked (transfers are)'}`,
          )
          continue
        }
        if (message !== unsupported)
          log(`market: token checks: the node refused the check of ${token} (${message}); tokens it refuses stay unjudged and are routed`)
        unsupported = message
        return undefined
      }
    }
  }

  return {
    screen: async (snapshots, blockNumber) => {
      const pending = new Map<string, Address>() // token → holder to probe
      for (const s of snapshots) {
        for (const token of s.input.tokens) {
          const t = token.toLowerCase()
          if (!verdicts.has(t) && !pending.has(t)) pending.set(t, s.ref.emitter)
        }
      }
      const queue = [...pending]
      const judged: { address: Address; verdict: TokenVerdict; blockNumber: bigint }[] = []
      const worker = async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const [token, holder] = next
          const verdict = await judge(token as Address, holder, blockNumber)
          if (!verdict) continue
          verdicts.set(token, verdict)
          judged.push({ address: token as Address, verdict, blockNumber })
          if (verdict.kind !== 'plain') log(`market: token ${token} is left out: ${verdict.reason}`)
        }
      }
      await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker))
      if (judged.length > 0) store.save({ pools: [], cursors: [], tokens: judged })
      const reasons = new Map<string, string>()
      for (const s of snapshots) {
        for (const token of s.input.tokens) {
          const verdict = verdicts.get(token.toLowerCase())
          if (verdict && verdict.kind !== 'plain') {
            reasons.set(s.ref.id, `token ${token.toLowerCase()} ${verdict.reason}`)
            break
          }
        }
      }
      return reasons
    },
    verdicts: () => new Map(verdicts),
  }
}
