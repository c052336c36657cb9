import { BaseSequencer, type TestSpecification } from 'vitest/node'

/** The test that seeds the devnet from scratch into the shared saved state (`var/`). */
const SEEDS_THE_SAVED_STATE = 'src/devnet/startSeededDevnet.test.ts'

/**
 * vitest's own order, with the seeded devnet's test first: it seeds from scratch and saves the state
 * every later file loads (`src/devnet/savedDevnetState.ts`), so a fresh checkout seeds once for that
 * test and the rest, not once for it and once more for whichever file came first.
 *
 * @example
 * defineConfig({ test: { sequence: { sequencer: SeededDevnetFirstSequencer } } })
 * // sort([b.test.ts, src/devnet/startSeededDevnet.test.ts, a.test.ts]) → [startSeededDevnet.test.ts, …vitest's order of the rest]
 */
export class SeededDevnetFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const first = (spec: TestSpecification) => spec.moduleId.endsWith(SEEDS_THE_SAVED_STATE)
    return [...sorted.filter(first), ...sorted.filter((spec) => !first(spec))]
  }
}
