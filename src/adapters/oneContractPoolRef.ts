import type { Address } from 'viem'
import type { DexId } from '../../bindings/types.ts'
import type { PoolRef } from './PoolAdapter.ts'

/**
 * The ref of a pool that is one contract (it holds the tokens and emits its own state logs): id and
 * emitter are both its lowercase address, the solver's id for it.
 *
 * @example
 * oneContractPoolRef('0xAbC…', 'UNIV3') // → { id: '0xabc…', dex: 'UNIV3', emitter: '0xabc…' }
 */
export function oneContractPoolRef(address: string, dex: DexId): PoolRef {
  const id = address.toLowerCase() as Address
  return { id, dex, emitter: id }
}
