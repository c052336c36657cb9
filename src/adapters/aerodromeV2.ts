import { type Address, getAddress, parseAbi } from 'viem'
import { discoveryByEvent } from './discoveryByEvent.ts'
import { oneContractPoolRef } from './oneContractPoolRef.ts'
import { stateLogsOfPool } from './poolStateLogs.ts'
import { AdapterError, PoolUnusableError } from './errors.ts'
import type { PoolAdapter, PoolRef } from './PoolAdapter.ts'
import { readAerodromeFee, readAerodromePool } from './state/readAerodromePool.ts'

const factoryEvents = parseAbi([
  'event PoolCreated(address indexed token0, address indexed token1, bool indexed stable, address pool, uint256 allPoolsLength)',
])
/** Every reserve change of an Aerodrome pool (swap, mint, burn, sync) ends in `Sync` (uint256 fields, not V2's uint112). */
const poolEvents = parseAbi(['event Sync(uint256 reserve0, uint256 reserve1)'])

/**
 * Aerodrome pools (Solidly: volatile x·y and stable x³y + xy³): discovered from the PoolFactory's
 * `PoolCreated`, priced from `metadata()` and the factory's `getFee(pool, stable)`, re-read whole on
 * `Sync` and for the fee alone every other block: the factory's default fee changes without any
 * event (`setFee`), and a pause stops every swap. Executed as `aerodrome_v2` by our router, against
 * the pool directly.
 *
 * @example
 * const leg = aerodromeV2.encodeLeg(ref, { tokenIn, tokenOut }) // { kind: 'aerodrome_v2', routes: [{ from, to, stable, factory }] }
 */
export const aerodromeV2: PoolAdapter = {
  dex: 'AERODROME_V2LIKE',
  legKind: 'aerodrome_v2',
  ...discoveryByEvent(factoryEvents[0], (args, log) => ({
    ref: { ...oneContractPoolRef(args.pool, 'AERODROME_V2LIKE'), factory: log.address.toLowerCase() as Address, stable: args.stable },
  })),
  ...stateLogsOfPool(poolEvents),
  refOfConfiguredPool: (pool) => oneContractPoolRef(pool.address, 'AERODROME_V2LIKE'),
  readPool: async ({ client, ref, blockNumber }) => {
    const { input, factory } = await readAerodromePool({ client, pool: ref.emitter, factory: ref.factory, blockNumber })
    const stable = input.state.model === 'solidly' && input.state.stable
    return { ref: { ...ref, factory: factory.toLowerCase() as Address, stable }, input, refreshEveryBlock: true }
  },
  readVolatile: async ({ client, blockNumber, previous }) => {
    const { ref, input } = previous
    if (input.state.model !== 'solidly' || !ref.factory) throw new AdapterError(`AERODROME_V2LIKE pool ${ref.id}: no previous solidly read`)
    const { feeBps, paused } = await readAerodromeFee({
      client,
      pool: ref.emitter,
      factory: ref.factory,
      stable: input.state.stable,
      blockNumber,
    })
    if (paused) throw new PoolUnusableError({ poolId: ref.id, dex: 'AERODROME_V2LIKE', reason: `factory ${ref.factory} is paused` })
    return { ...previous, input: { ...input, state: { ...input.state, feeBps } } }
  },
  encodeLeg: (ref: PoolRef, direction) => {
    if (!direction || ref.factory === undefined || ref.stable === undefined) {
      throw new AdapterError(
        `AERODROME_V2LIKE pool ${ref.id}: a leg needs its direction and the pool's factory and curve (read the pool first)`,
      )
    }
    return {
      kind: 'aerodrome_v2',
      routes: [
        { from: getAddress(direction.tokenIn), to: getAddress(direction.tokenOut), stable: ref.stable, factory: getAddress(ref.factory) },
      ],
    }
  },
}
