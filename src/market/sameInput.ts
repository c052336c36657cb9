import type { PoolInput } from '../../bindings/types.ts'

/**
 * Whether two pool inputs say the same thing to the solver: the same JSON (the adapters build an
 * input's fields in one order, and a solver input holds no bigint: amounts are decimal strings).
 * The same input decodes to the same pool state, so a pool read again as the solver holds it need
 * not be sent again. Fields in another order only make a pool look changed, never the reverse.
 *
 * @example
 * sameInput(held, { ...held, state: { ...held.state } }) // → true
 * sameInput(held, { ...held, state: { ...held.state, reserves: ['1', '2'] } }) // → false (unless those were its reserves)
 * sameInput(undefined, held) // → false: the solver does not hold the pool
 */
export function sameInput(held: PoolInput | undefined, read: PoolInput): boolean {
  return held !== undefined && (held === read || JSON.stringify(held) === JSON.stringify(read))
}
