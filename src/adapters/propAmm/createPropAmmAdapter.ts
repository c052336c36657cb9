import { getAddress, parseAbi } from 'viem'
import { oneContractPoolRef } from '../oneContractPoolRef.ts'
import { stateLogsOfPool } from '../poolStateLogs.ts'
import type { PoolInput } from '../../../bindings/types.ts'
import { PoolUnusableError } from '../errors.ts'
import type { PoolAdapter, PoolRef } from '../PoolAdapter.ts'
import type { PropAmmDexId } from './propAmmDexIds.ts'
import { propAmmMarginBps } from './propAmmMarginBps.ts'
import { readLunarbaseState } from './readLunarbaseState.ts'
import { readPropAmmVenue } from './readPropAmmVenue.ts'
import { sampleQuoteViews } from './sampleQuoteViews.ts'

/** What re-prices or re-opens a venue: the operator's update or inventory cap, a pause or unpause. */
const venueEvents = parseAbi([
  'event PriceUpdated(uint256 priceX96, uint128 depthBase, uint128 depthQuote, uint32 feePips)',
  'event PausedSet(bool paused)',
  'event InventoryCapSet(uint16 capBps)',
  'event StateUpdated(uint160 anchorPrice, uint24 feeAskX24, uint24 feeBidX24)',
  'event Unpaused(address account)',
  'event Paused(address account)',
])

/**
 * A prop AMM kind (PROPSWAP, TESSERA, ELFOMOFI, LUNARBASE, FELTIR). LUNARBASE publishes its math:
 * its pools are read exactly (`readLunarbaseState`, the solver's `lunarbase` model, tokens X then Y)
 * as the executor sees them. The others have no curve to model, so each
 * block the venue is priced by its own quote view (`propAmmQuoteCall`), asked by the address that
 * will execute (`executor`: the swap router; LUNARBASE's fee depends on the caller), at log-spaced
 * sizes plus fractions of its inventory (`propAmmSampleAmounts`), both directions, in one
 * `aggregate3` run *as the executor* (Multicall3's code placed there by an `eth_call` state
 * override, so the venues see the router as `msg.sender`). The samples become the solver's
 * `sampled` state with the venue's safety margin (`propAmmMarginBps`). A paused venue, one stale
 * by the next block, one whose samples are not monotone, or one that quotes nothing is unusable
 * for that block: the market lists it in its skip list with the reason, and reads it again on its
 * operator's next update. Configured pools only (the venues announce nothing); re-read every block.
 * `encodeLeg` gives the router's `prop_amm` leg; the quote service asks the chosen venues again
 * before answering (docs/prop-amms.md).
 *
 * @example
 * const snapshot = await propswap.readPool({ client, ref, blockNumber, nextBlock, executor: router })
 * // → input.state: { model: 'sampled', marginBps: 10, zeroForOne: [[in, out], ...], oneForZero: [...] }
 */
export function createPropAmmAdapter({ dex }: { dex: PropAmmDexId }): PoolAdapter {
  const refOf = (address: string, marginBps?: number): PoolRef => ({
    ...oneContractPoolRef(address, dex),
    ...(marginBps === undefined ? {} : { marginBps }),
  })
  return {
    dex,
    legKind: 'prop_amm',
    discoveryTopics: [],
    poolFromDiscoveryLog: (log) => ({
      skipped: { id: log.address.toLowerCase(), dex, reason: 'prop AMMs are configured, not discovered' },
    }),
    ...stateLogsOfPool(venueEvents),
    refOfConfiguredPool: (pool) => refOf(pool.address, pool.marginBps),
    readPool: async ({ client, ref, blockNumber, nextBlock, executor }) => {
      const unusable = (reason: string) => new PoolUnusableError({ poolId: ref.id, dex, reason })
      if (!executor) throw unusable('no executing address to quote for (the chain config names no router)')
      const venue = getAddress(ref.id)
      const state = await readPropAmmVenue({ client, dex, venue, blockNumber, nextBlockNumber: nextBlock.number })
      if (state.closed) throw unusable(state.closed)
      if (dex === 'LUNARBASE') {
        const exact = await readLunarbaseState({ client, venue, blockNumber, executeAt: nextBlock.number, executor })
        const input: PoolInput = { id: ref.id, dex, tokens: state.tokens, state: exact }
        return { ref: { ...ref, entry: state.entry }, input, refreshEveryBlock: true }
      }
      const sampled = await sampleQuoteViews({
        client,
        executor,
        blockNumber,
        tokens: state.tokens,
        decimals: state.decimals,
        reserves: state.reserves,
        maxIn: state.maxIn,
        ask: (i, amountIn) => ({ dex, entry: state.entry, tokenIn: state.tokens[i], tokenOut: state.tokens[1 - i], amountIn }),
        marginBps: ref.marginBps ?? propAmmMarginBps[dex],
      })
      if ('problem' in sampled) throw unusable(sampled.problem)
      const input: PoolInput = { id: ref.id, dex, tokens: sampled.tokens, state: sampled.state }
      return { ref: { ...ref, entry: state.entry }, input, refreshEveryBlock: true }
    },
    encodeLeg: (ref) => {
      if (!ref.entry) throw new Error(`${dex} venue ${ref.id}: its entry contract is not known until it is read`)
      return { kind: 'prop_amm', router: getAddress(ref.entry), protocol: dex.toLowerCase() as Lowercase<PropAmmDexId> }
    },
  }
}
