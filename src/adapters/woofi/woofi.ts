import { type Address, getAddress } from 'viem'
import { oneContractPoolRef } from '../oneContractPoolRef.ts'
import { stateLogsOfPool } from '../poolStateLogs.ts'
import type { PoolInput } from '../../../bindings/types.ts'
import { PoolUnusableError } from '../errors.ts'
import type { PoolAdapter, PoolRef } from '../PoolAdapter.ts'
import { readWoofiVault } from './readWoofiVault.ts'

const dex = 'WOOFI'

/**
 * WOOFi's WooPPV2 vault: one venue of a quote token and its bases, priced exactly by the solver's
 * `woofi` model (docs/dex-kinds.md, *WOOFI*). Configured, not discovered: the vault announces no
 * bases and no factory makes vaults, so a chain config lists the vault with its WooRouterV2 (the
 * `woofi {router}` leg's target) and its bases. Each block the vault and its Wooracle are read
 * whole in one multicall (`readWoofiVault`), always: the oracle's posts emit no event, and whether
 * the posted prices are fresh follows the clock (judged at `nextBlock`, the block a plan executes
 * in). Any log of the vault also marks it changed, as for every followed pool. A vault missing its
 * router or bases in the config, or whose read reverts, is unusable with the reason.
 *
 * @example
 * const ref = woofi.refOfConfiguredPool({ dex: 'WOOFI', address: pool, router, bases: [weth, cbBtc] }, undefined)
 * const snapshot = await woofi.readPool({ client, ref, blockNumber, nextBlock })
 * // → input: { id: pool, dex: 'WOOFI', tokens: [usdc, weth, cbBtc], state: { model: 'woofi', … } }
 * woofi.encodeLeg(ref) // → { kind: 'woofi', router }
 */
export const woofi: PoolAdapter = {
  dex,
  legKind: 'woofi',
  discoveryTopics: [],
  poolFromDiscoveryLog: (log) => ({
    skipped: { id: log.address.toLowerCase(), dex, reason: 'WOOFi vaults are configured, not discovered' },
  }),
  ...stateLogsOfPool([]),
  refOfConfiguredPool: (pool) => {
    const ref = oneContractPoolRef(pool.address, dex)
    if (pool.router) ref.entry = pool.router.toLowerCase() as Address
    if (pool.bases) ref.bases = pool.bases.map((b) => b.toLowerCase() as Address)
    return ref
  },
  readPool: async ({ client, ref, blockNumber, nextBlock }) => {
    const unusable = (reason: string) => new PoolUnusableError({ poolId: ref.id, dex, reason })
    if (!ref.entry) throw unusable('the config names no WooRouterV2 (router) for its woofi leg')
    if (!ref.bases || ref.bases.length < 1 || ref.bases.length > 3) throw unusable('the config must list the vault’s 1 to 3 bases')
    const read = await readWoofiVault({
      client,
      pool: getAddress(ref.id),
      bases: ref.bases.map((b) => getAddress(b)),
      blockNumber,
      timestamp: nextBlock.timestamp,
    })
    if ('problem' in read) throw unusable(read.problem)
    const input: PoolInput = {
      id: ref.id,
      dex,
      tokens: read.tokens.map((t) => t.toLowerCase() as Address) as PoolInput['tokens'],
      state: read.state,
    }
    return { ref, input, refreshEveryBlock: true }
  },
  encodeLeg: (ref) => {
    if (!ref.entry) throw new Error(`WOOFI vault ${ref.id}: no WooRouterV2 configured`)
    return { kind: 'woofi', router: getAddress(ref.entry) }
  },
}
