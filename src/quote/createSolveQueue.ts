export type SolveQueue = {
  /**
   * `run()`, once the call of the same `key` in flight (if any) has ended or `waitAtMostMs` has
   * passed, whichever is first; `run()` is then the key's call in flight until it ends.
   */
  afterSame: <T>(key: string, waitAtMostMs: number, run: () => Promise<T>) => Promise<T>
  /** Keys with a call in flight. */
  inFlight: () => number
}

/**
 * Identical solves one after the other: a solve asked while the same one is in flight (the same
 * request, as integrators poll it: the HTTP bench's 400 identical quotes a block) waits for it to
 * end, then asks the solver, which answers from the snapshot's plan memo when that solve ran to its
 * end on the snapshot it still holds (`solver-rs/src/route/plan_memos.rs`). Without the wait, the
 * first quotes of each block all solved at once, each a fresh solve (the memo is filled only when
 * one ends), on two cores each slower and cut by the budget, so none was remembered. The queue only
 * orders calls; whether an answer is reused is the solver's to say (same snapshot, same request, a
 * plan no deadline cut). The wait is bounded by what is left of the caller's budget.
 *
 * @example
 * const queue = createSolveQueue()
 * const plan = await queue.afterSame(JSON.stringify(request), budgetLeftMs(), () => solver.quote(request))
 * // → the solver's plan; a second identical call made meanwhile asks the solver once this one ended
 */
export function createSolveQueue(): SolveQueue {
  const running = new Map<string, Promise<unknown>>()
  return {
    afterSame: async (key, waitAtMostMs, run) => {
      const ahead = running.get(key)
      if (ahead && waitAtMostMs > 0) {
        let timer: NodeJS.Timeout | undefined
        const waited = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, waitAtMostMs)
        })
        await Promise.race([ahead, waited])
        clearTimeout(timer)
      }
      const mine = run()
      if (!running.has(key)) {
        const settled = mine.then(
          () => undefined,
          () => undefined,
        )
        running.set(key, settled)
        void settled.then(() => {
          if (running.get(key) === settled) running.delete(key)
        })
      }
      return mine
    },
    inFlight: () => running.size,
  }
}
