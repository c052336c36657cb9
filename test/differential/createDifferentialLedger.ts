import type { SimulateResult } from '../../bindings/types.ts'

/** What the chain did with an exact-input swap. */
export type ChainOutcome =
  | { kind: 'filled'; amountOut: bigint; gasUsed: bigint }
  | { kind: 'partial'; amountInUsed: bigint; amountOut: bigint; gasUsed: bigint }
  | { kind: 'reverted' }

/** What the solver said, or why it refused. */
export type SolverOutcome = { kind: 'quoted'; result: SimulateResult } | { kind: 'error'; message: string }

export type DifferentialCase = {
  /** Reproduction data: seed, state index, pool, direction, amount. */
  label: string
  amountIn: bigint
  chain: ChainOutcome
  /** Absent when the solver could not be loaded: the case is then unjudged (and the test fails). */
  solver?: SolverOutcome
  /** Initialized ticks between the pre- and post-swap price, counted from the chain (CL pools). */
  chainCrossings?: number
  /** An independent TypeScript computation of the output, where one exists (V2). */
  reference?: bigint
}

export type DifferentialLedger = {
  record: (c: DifferentialCase) => void
  cases: () => number
  mismatches: () => string[]
  referenceMismatches: () => string[]
  summary: () => string
}

/**
 * Collects differential cases for one protocol: judges each (solver vs. chain, and an optional
 * independent reference vs. chain), counts crossings and gas, and prints a one-line summary.
 *
 * Rules: a solver quote must equal the recipient's balance change of a fully filled swap; a solver
 * "no route" error must meet a chain that reverts or fills only partially; a quote of 0 may meet a
 * revert (nothing to take); any other error class is a mismatch.
 *
 * @example
 * const ledger = createDifferentialLedger({ protocol: 'UNIV2' })
 * // → { record, cases, mismatches, referenceMismatches, summary }: empty, its rules as above
 */
export function createDifferentialLedger({ protocol }: { protocol: string }): DifferentialLedger {
  let cases = 0
  let solverErrors = 0
  let partials = 0
  let crossingsSeen = 0
  let maxCrossings = 0
  let unjudged = 0
  let maxChainCrossings = 0
  const mismatches: string[] = []
  const referenceMismatches: string[] = []
  const gasChain: bigint[] = []
  const gasSolver: number[] = []
  const gasByCrossings = new Map<number, { chain: bigint; solver: number; n: number }>()

  const describe = (c: DifferentialCase) =>
    `${c.label} amountIn=${c.amountIn} chain=${JSON.stringify(c.chain, (_, v) => (typeof v === 'bigint' ? v.toString() : v))} solver=${JSON.stringify(c.solver)}`

  const gasByChainCrossings = new Map<string, { gas: bigint; n: number }>()
  const record = (c: DifferentialCase) => {
    cases++
    if (c.chain.kind === 'filled' && c.chainCrossings !== undefined) {
      const k =
        c.chainCrossings === 0
          ? '0'
          : c.chainCrossings <= 2
            ? '1-2'
            : c.chainCrossings <= 5
              ? '3-5'
              : c.chainCrossings <= 10
                ? '6-10'
                : '11+'
      const g = gasByChainCrossings.get(k) ?? { gas: 0n, n: 0 }
      g.gas += c.chain.gasUsed
      g.n++
      gasByChainCrossings.set(k, g)
    }
    if (c.chain.kind !== 'filled') partials++
    if (c.reference !== undefined) {
      const chainOut = c.chain.kind === 'filled' ? c.chain.amountOut : c.chain.kind === 'partial' ? -1n : 0n
      if (chainOut !== c.reference) referenceMismatches.push(`${describe(c)} reference=${c.reference}`)
    }
    maxChainCrossings = Math.max(maxChainCrossings, c.chainCrossings ?? 0)
    if (c.solver === undefined) {
      unjudged++
      if (c.chain.kind === 'filled') gasChain.push(c.chain.gasUsed)
      return
    }
    if (c.solver.kind === 'error') {
      solverErrors++
      const expected = c.solver.message.startsWith('no route') && c.chain.kind !== 'filled'
      if (!expected) mismatches.push(describe(c))
      return
    }
    const quoted = BigInt(c.solver.result.amountOut)
    const ok = (c.chain.kind === 'filled' && c.chain.amountOut === quoted) || (c.chain.kind === 'reverted' && quoted === 0n)
    if (!ok) mismatches.push(describe(c))
    const crossings = c.solver.result.crossings
    if (crossings > 0) crossingsSeen++
    maxCrossings = Math.max(maxCrossings, crossings)
    if (c.chain.kind === 'filled') {
      gasChain.push(c.chain.gasUsed)
      gasSolver.push(c.solver.result.gasUnits)
      const bucket = Math.min(crossings, 10)
      const g = gasByCrossings.get(bucket) ?? { chain: 0n, solver: 0, n: 0 }
      g.chain += c.chain.gasUsed
      g.solver += c.solver.result.gasUnits
      g.n++
      gasByCrossings.set(bucket, g)
    }
  }

  const summary = () => {
    const mean = (xs: readonly (bigint | number)[]) =>
      xs.length === 0 ? 'n/a' : String(Math.round(xs.reduce<number>((s, x) => s + Number(x), 0) / xs.length))
    const byCrossings = [...gasByCrossings.entries()]
      .sort(([a], [b]) => a - b)
      .map(([k, g]) => `${k === 10 ? '10+' : k}x:${Number(g.chain / BigInt(g.n))}/${Math.round(g.solver / g.n)}`)
      .join(' ')
    const byChainCrossings = ['0', '1-2', '3-5', '6-10', '11+']
      .filter((k) => gasByChainCrossings.has(k))
      .map(
        (k) =>
          `${k}:${Number(gasByChainCrossings.get(k)!.gas / BigInt(gasByChainCrossings.get(k)!.n))}(n=${gasByChainCrossings.get(k)!.n})`,
      )
      .join(' ')
    return (
      `${protocol}: cases=${cases} mismatches=${mismatches.length} referenceMismatches=${referenceMismatches.length} ` +
      `unjudged=${unjudged} solverErrors=${solverErrors} partialOrReverted=${partials} casesWithCrossings=${crossingsSeen} maxTicksCrossed=${maxCrossings} maxTicksCrossedOnChain=${maxChainCrossings} ` +
      `| gas: chain tx mean=${mean(gasChain)} solver gasUnits mean=${mean(gasSolver)} by solver crossings (tx/solver) ${byCrossings} | chain tx gas by ticks crossed on chain ${byChainCrossings}`
    )
  }

  return {
    record,
    cases: () => cases,
    mismatches: () => mismatches,
    referenceMismatches: () => referenceMismatches,
    summary,
  }
}
