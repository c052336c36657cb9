import { type Address, decodeEventLog, getAddress, parseAbi, toEventSelector } from 'viem'
import { oneContractPoolRef } from './oneContractPoolRef.ts'
import { stateLogsOfPool } from './poolStateLogs.ts'
import { AdapterError } from './errors.ts'
import type { PoolAdapter, PoolRef } from './PoolAdapter.ts'
import { type DodoVariant, readDodoV2Pool } from './state/readDodoV2Pool.ts'

/** DODO's three factories announce pools with these (none indexed); our devnet's one `DodoPmmFactory` emits all three. */
const factoryEvents = parseAbi([
  'event NewDVM(address baseToken, address quoteToken, address creator, address dvm)',
  'event NewDSP(address baseToken, address quoteToken, address creator, address DSP)',
  'event NewDPP(address baseToken, address quoteToken, address creator, address dpp)',
])
const variantOfEvent: Record<string, DodoVariant> = { NewDVM: 'dvm', NewDSP: 'dsp', NewDPP: 'dpp' }

/**
 * DODO V2's PMM pools (DVM, DSP, DPP): discovered from their factories' `NewDVM`/`NewDSP`/`NewDPP`
 * (the event names the variant and the base token), or configured (the variant then read from the
 * pool's `version()`); priced by `readDodoV2Pool` as the solver's `dodo_pmm`. Any log of a pool
 * marks it changed (the market follows every log of a one-contract pool), and the pools are re-read
 * every block all the same: the maintainer's rate lives in the fee-rate model, which changes
 * without a pool log, and a DVM's public `sync()` moves its reserves without an event. Executed as
 * `dodo_v2 {pool, baseToken}` by our router (transfer, then `sellBase`/`sellQuote`).
 *
 * @example
 * const leg = dodoV2.encodeLeg(snapshot.ref) // { kind: 'dodo_v2', pool, baseToken }
 */
export const dodoV2: PoolAdapter = {
  dex: 'DODO_V2',
  legKind: 'dodo_v2',
  discoveryTopics: factoryEvents.map((event) => toEventSelector(event)),
  poolFromDiscoveryLog: (log) => {
    const { eventName, args } = decodeEventLog({ abi: factoryEvents, data: log.data, topics: log.topics })
    const pool = 'dvm' in args ? args.dvm : 'DSP' in args ? args.DSP : args.dpp
    const dodo = { variant: variantOfEvent[eventName], baseToken: args.baseToken.toLowerCase() as Address }
    return { ref: { ...oneContractPoolRef(pool, 'DODO_V2'), dodo } }
  },
  ...stateLogsOfPool([]),
  refOfConfiguredPool: (pool) => oneContractPoolRef(pool.address, 'DODO_V2'),
  readPool: async ({ client, ref, blockNumber }) => {
    const { input, variant, baseToken, feeRateModel } = await readDodoV2Pool({
      client,
      pool: ref.emitter,
      variant: ref.dodo?.variant,
      blockNumber,
    })
    return { ref: { ...ref, dodo: { variant, baseToken, feeRateModel } }, input, refreshEveryBlock: true }
  },
  encodeLeg: (ref: PoolRef) => {
    if (!ref.dodo) throw new AdapterError(`DODO_V2 pool ${ref.id}: a leg needs the pool's base token (read the pool first)`)
    return { kind: 'dodo_v2', pool: getAddress(ref.id), baseToken: getAddress(ref.dodo.baseToken) }
  },
}
