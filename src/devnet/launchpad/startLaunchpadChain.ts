import { join } from 'node:path'
import { getAddress } from 'viem'
import { compiledContractsPath } from '../../artifacts/compiledContractsPath.ts'
import { deployContractAndWait } from '../deployContractAndWait.ts'
import { deployTestToken } from '../deployTestToken.ts'
import { deployUniswapV3 } from '../deployUniswapV3.ts'
import { savedDevnetState } from '../savedDevnetState.ts'
import { seedStateKey } from '../seed/seedStateKey.ts'
import { type Devnet, startDevnet } from '../startDevnet.ts'
import type { LaunchpadDescription } from './LaunchpadDescription.ts'
import { seedLaunchpad } from './seedLaunchpad.ts'

export type StartLaunchpadChainParameters = {
  /** The chain's id (4663, 143). */
  chainId: number
  /** The launchpad's seed; default the chain id (each chain its own launches). */
  seed?: number
  /** Where the state dump and its key live; default `<repo>/var`. */
  stateDir?: string
  /** Seed from scratch even when a current dump exists. */
  forceSeed?: boolean
}

/** A launchpad-only embedded chain: what it needs of a seeded devnet for the gateway. */
export type LaunchpadChain = Devnet & {
  market: { chainId: number; launchpad: LaunchpadDescription }
  /** `dump`: loaded from the saved state; `seed`: seeded from scratch (and saved). */
  source: 'dump' | 'seed'
  /** Wall time of the start, load or seed included. */
  startMs: number
}

/**
 * A second (third) embedded chain for the gateway: anvil with id `chainId`, WETH9, a USDC-like
 * token, the npm Uniswap V3 factory and the PoolHarness, and the launchpad seeded on them as on
 * 8453 (`seedLaunchpad`: a simulated week of launches, trades, claims and announcements), with no
 * swap market beside it. Saved to `var/devnet-<chainId>-state.json` like the main chain, so later
 * starts load it in about a second. The chain is stopped on every exit path.
 *
 * @example
 * const chain = await startLaunchpadChain({ chainId: 4663 })
 * // → chain.market.launchpad: the seeded launchpad on chain 4663; chain.source 'dump' when var/devnet-4663-state.json is current
 */
export async function startLaunchpadChain({
  chainId,
  seed = chainId,
  stateDir = join(compiledContractsPath().root, 'var'),
  forceSeed = false,
}: StartLaunchpadChainParameters): Promise<LaunchpadChain> {
  const started = Date.now()
  const key = `${seedStateKey({ seed }).key}:launchpad-chain:${chainId}`
  const saved = savedDevnetState<LaunchpadChain['market']>({ dir: stateDir, name: `devnet-${chainId}` })
  const loaded = forceSeed ? undefined : saved.load(key)
  if (loaded) {
    const devnet = await startDevnet({ chainId, loadStatePath: saved.statePath })
    return { ...devnet, market: loaded, source: 'dump', startMs: Date.now() - started }
  }
  const devnet = await startDevnet({ chainId })
  try {
    const weth = getAddress(await deployContractAndWait({ devnet, artifact: devnet.artifacts.WETH9 }))
    const usdc = getAddress(await deployTestToken({ devnet, name: 'USD Coin', symbol: 'USDC', decimals: 6 }))
    const { factory } = await deployUniswapV3({ devnet })
    const poolHarness = getAddress(await deployContractAndWait({ devnet, artifact: devnet.artifacts.PoolHarness }))
    const launchpad = await seedLaunchpad({
      devnet,
      seed,
      market: { weth, helpers: { poolHarness }, tokens: { USDC: { address: usdc, decimals: 6 } }, factories: { UNIV3: { factory } } },
    })
    const market = { chainId, launchpad }
    await saved.save({ devnet, key, description: market })
    return { ...devnet, market, source: 'seed', startMs: Date.now() - started }
  } catch (error) {
    await devnet.stop()
    throw error
  }
}

/** The embedded chains besides 8453, as `npm start` runs them: the spec's other two (4663, 143). */
export const EMBEDDED_LAUNCHPAD_CHAIN_IDS = [4663, 143] as const

/**
 * Every embedded launchpad chain (`EMBEDDED_LAUNCHPAD_CHAIN_IDS`), started at once; when one fails
 * the others are stopped and the error thrown.
 *
 * @example
 * const chains = await startLaunchpadChains()
 * // → [the chain 4663, the chain 143], each with its seeded launchpad
 */
export async function startLaunchpadChains({ stateDir }: { stateDir?: string } = {}): Promise<LaunchpadChain[]> {
  const results = await Promise.allSettled(EMBEDDED_LAUNCHPAD_CHAIN_IDS.map((chainId) => startLaunchpadChain({ chainId, stateDir })))
  const failed = results.find((r) => r.status === 'rejected')
  if (failed) {
    await Promise.all(results.map((r) => (r.status === 'fulfilled' ? r.value.stop() : undefined)))
    throw failed.reason
  }
  return results.map((r) => (r as PromiseFulfilledResult<LaunchpadChain>).value)
}
