import { type Address, decodeEventLog, getAddress, parseAbi, toEventSelector } from 'viem'
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
  discoveryTopics: [toEventSelector(factoryEvents[0])],
  poolFromDiscoveryLog: (log) => {
    const { args } = decodeEventLog({ abi: factoryEvents, data: log.data, topics: log.topics })
    const id = args.pool.toLowerCase() as Address
    return { ref: { id, dex: 'AERODROME_V2LIKE', emitter: id, factory: log.address.toLowerCase() as Address, stable: args.stable } }
  },
  stateTopics: [toEventSelector(poolEvents[0])],
  poolIdOfStateLog: (log) => log.address.toLowerCase(),
  refOfConfiguredPool: (pool) => {
    const id = pool.address.toLowerCase() as Address
    return { id, dex: 'AERODROME_V2LIKE', emitter: id }
  },
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
