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
  /** A verdict is judged again this many blocks after it was reached (default 43,200: a day of Base). */
  recheckAfterBlocks?: bigint
  /**
   * A token the node refused to judge, and a plain verdict reached without the full rebasing
   * window, are judged again this many blocks later (default 1,800: an hour of Base).
   */
  retryAfterBlocks?: bigint
  /** Verdicts judged again per `screen` call at most (new tokens are not counted; default 32). */
  rechecksPerCall?: number
  log: (line: string) => void
}

/** Why a pool is left out for one of its tokens. */
export type TokenLeftOut = { token: Address; reason: string }

/** What the screen has judged and what it could not (`/metrics`' token gauges). */
export type TokenScreenStatus = {
  /** Tokens with a verdict (the trusted ones not counted). */
  judged: number
  /** Of those, left out: fee on transfer, rebasing, untransferable. */
  leftOut: number
  /** Of those, plain but judged without the full rebasing window (the node's history was shorter). */
  partlyChecked: number
  /** Tokens the node refused to judge (no state overrides): routed unjudged, asked again later. */
  unjudged: number
}

export type TokenScreen = {
  /**
   * Judges the tokens of `snapshots` not judged yet, and those whose verdict is due again (each
   * with the first pool holding it), at `blockNumber`, and answers which pools stay out for a
   * fee-on-transfer, rebasing or untransferable token (pool id → token and reason). A node
   * failure is thrown (the step fails).
   */
  screen: (snapshots: readonly PoolSnapshot[], blockNumber: bigint) => Promise<Map<string, TokenLeftOut>>
  /** Left-out tokens whose verdict is due again at `blockNumber`: the market reads their pools again to judge them. */
  dueLeftOut: (blockNumber: bigint) => Address[]
  verdicts: () => Map<string, TokenVerdict>
  status: () => TokenScreenStatus
}

/** Nodes keep at least this many blocks of state (geth's default is 128): the fallback window. */
const SHALLOW_WINDOW_BLOCKS = 64n

type Judged = { verdict: TokenVerdict; blockNumber: bigint }

/**
 * The market's token screen: every token met in a pool read is judged (`judgeTokenBehaviour`),
 * the verdict kept in the market store (a restart does not probe again) and judged again on a
 * schedule (`recheckAfterBlocks`: a tax switched on later is found), and pools with a token that
 * is not plain are left out with its reason. The probe runs against the pool's holder of the
 * tokens (`PoolRef.holder`: PancakeSwap Infinity's Vault), else its emitter. A token whose holder
 * is empty is judged when a pool holding it is next read.
 *
 * A node that cannot serve state as old as the window (not an archive node) is met token by token:
 * that token's rebasing check falls back to the last 64 blocks, then to none (transfers are still
 * checked), its verdict says what was not checked, later tokens start at the shorter window until
 * `retryAfterBlocks` have passed (then the full window is tried again), and such verdicts are
 * judged again after `retryAfterBlocks`. A node that refuses the probe itself (no state overrides)
 * leaves that token unjudged and routed, logged per token with the node's words and asked again
 * after `retryAfterBlocks`. Neither turns screening off for later tokens; `status()` counts both.
 *
 * @example
 * const tokens = createTokenScreen({ client, store, trusted: [weth], maxBlockRange: 2000n, log: console.log })
 * const out = await tokens.screen(snapshots, 123n) // pool id → { token, reason: 'moves other amounts than asked …' }
 */
export function createTokenScreen({
  client,
  store,
  trusted,
  windowBlocks = 1800n,
  maxBlockRange,
  concurrency = 8,
  recheckAfterBlocks = 43_200n,
  retryAfterBlocks = 1800n,
  rechecksPerCall = 32,
  log,
}: CreateTokenScreenParameters): TokenScreen {
  const judged = new Map<string, Judged>(
    store.tokens().map((t) => [t.address.toLowerCase(), { verdict: t.verdict, blockNumber: t.blockNumber }]),
  )
  const always = new Set([...trusted.map((t) => t.toLowerCase()), '0x0000000000000000000000000000000000000000'])
  /** Tokens the node refused to judge: the block from which they are asked again. */
  const unjudged = new Map<string, bigint>()
  /** The window later tokens start at after a node could not serve the full one, and until when. */
  let shallow: { window: bigint; until: bigint } | undefined

  const dueAt = (token: string): bigint | undefined => {
    const refused = unjudged.get(token)
    if (refused !== undefined) return refused
    const j = judged.get(token)
    return j && j.blockNumber + (j.verdict.kind === 'plain' && j.verdict.unchecked ? retryAfterBlocks : recheckAfterBlocks)
  }

  const judge = async (token: Address, holder: Address, blockNumber: bigint): Promise<TokenVerdict | undefined> => {
    if (shallow && blockNumber >= shallow.until) shallow = undefined
    let window = shallow?.window ?? windowBlocks
    let unchecked: string | undefined = shallow
      ? `the node served no state ${windowBlocks} blocks back at block ${shallow.until - retryAfterBlocks}`
      : undefined
    for (;;) {
      try {
        const verdict = await judgeTokenBehaviour({ client, token, holder, blockNumber, windowBlocks: window, maxBlockRange })
        unjudged.delete(token)
        if (verdict?.kind !== 'plain' || unchecked === undefined) return verdict
        const what = window > 0n ? `rebasing checked over the last ${window} blocks, not ${windowBlocks}` : 'rebasing not checked'
        return { kind: 'plain', unchecked: `${what}: ${unchecked}` }
      } catch (error) {
        if (isTransportError(error)) throw error
        const message = error instanceof Error ? error.message.split('\n')[0] : String(error)
        if (error instanceof TokenHistoryUnavailableError && window > 0n) {
          // Past state is what is missing: a shallower window for this token, then none (transfers
          // checked only); later tokens start there until the full window is tried again.
          window = window > SHALLOW_WINDOW_BLOCKS ? SHALLOW_WINDOW_BLOCKS : 0n
          unchecked = message
          if (shallow?.window !== window)
            log(
              `market: token checks: ${message}; ${window > 0n ? `rebasing is checked over the last ${window} blocks` : 'rebasing is not checked (transfers are)'} until block ${blockNumber + retryAfterBlocks}, when the full ${windowBlocks} blocks are tried again; such verdicts are judged again then`,
            )
          shallow = { window, until: blockNumber + retryAfterBlocks }
          continue
        }
        unjudged.set(token, blockNumber + retryAfterBlocks)
        log(
          `market: token checks: the node refused the check of ${token} (${message}); it stays unjudged and routed, asked again at block ${blockNumber + retryAfterBlocks}`,
        )
        return undefined
      }
    }
  }

  return {
    screen: async (snapshots, blockNumber) => {
      const pending = new Map<string, Address>() // token → holder to probe
      let rechecks = 0
      for (const s of snapshots) {
        for (const token of s.input.tokens) {
          const t = token.toLowerCase()
          if (always.has(t) || pending.has(t)) continue
          const due = dueAt(t)
          if (due !== undefined && (due > blockNumber || rechecks >= rechecksPerCall)) continue
          if (due !== undefined) rechecks++
          pending.set(t, s.ref.holder ?? s.ref.emitter)
        }
      }
      const queue = [...pending]
      const reached: { address: Address; verdict: TokenVerdict; blockNumber: bigint }[] = []
      const worker = async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const [token, holder] = next
          const verdict = await judge(token as Address, holder, blockNumber)
          if (!verdict) continue
          const before = judged.get(token)?.verdict
          judged.set(token, { verdict, blockNumber })
          reached.push({ address: token as Address, verdict, blockNumber })
          if (verdict.kind !== 'plain' && before?.kind !== verdict.kind) log(`market: token ${token} is left out: ${verdict.reason}`)
          if (verdict.kind === 'plain' && before && before.kind !== 'plain')
            log(`market: token ${token} is plain again at block ${blockNumber} (was left out: ${before.reason}); its pools are routed`)
        }
      }
      await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker))
      if (reached.length > 0) store.save({ pools: [], cursors: [], tokens: reached })
      const out = new Map<string, TokenLeftOut>()
      for (const s of snapshots) {
        for (const token of s.input.tokens) {
          const verdict = judged.get(token.toLowerCase())?.verdict
          if (verdict && verdict.kind !== 'plain' && !always.has(token.toLowerCase())) {
            out.set(s.ref.id, { token: token.toLowerCase() as Address, reason: `token ${token.toLowerCase()} ${verdict.reason}` })
            break
          }
        }
      }
      return out
    },
    dueLeftOut: (blockNumber) =>
      [...judged]
        .filter(([token, j]) => j.verdict.kind !== 'plain' && !always.has(token) && (dueAt(token) as bigint) <= blockNumber)
        .map(([token]) => token as Address),
    verdicts: () => {
      const all = new Map([...judged].map(([token, j]) => [token, j.verdict]))
      for (const t of always) all.set(t, { kind: 'plain' })
      return all
    },
    status: () => {
      const own = [...judged].filter(([token]) => !always.has(token)).map(([, j]) => j.verdict)
      return {
        judged: own.length,
        leftOut: own.filter((v) => v.kind !== 'plain').length,
        partlyChecked: own.filter((v) => v.kind === 'plain' && v.unchecked !== undefined).length,
        unjudged: unjudged.size,
      }
    },
  }
}
