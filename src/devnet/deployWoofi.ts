import type { Address } from 'viem'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { loadStandInArtifacts } from './loadStandInArtifacts.ts'
import type { Devnet } from './startDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

export type DeployWoofiParameters = {
  devnet: Devnet
  /** The vault's quote token (USDC on Base). */
  quoteToken: Address
  /** The vault's base tokens. */
  baseTokens: Address[]
  /** The wrapped native token the router names (it trades ERC-20s only: `contracts/woofi/WooRouterV2.sol`). */
  weth: Address
  /** Each token's Chainlink answer at deployment (8 decimals), quote token first; the feeds stay settable. */
  feedAnswers: bigint[]
}

export type DeployWoofiReturnType = {
  /** `WooPPV2`: the vault; the devnet account is its owner and admin. */
  pool: Address
  /** `WooracleV2_2`: its oracle; the devnet account is owner, admin and guardian, the pool its `wooPP`. */
  oracle: Address
  /** `WooRouterV2` over the pool: the target of the `woofi {router}` leg. */
  router: Address
  /** One `WooChainlinkFeed` (8 decimals) per token, quote token first. */
  feeds: Address[]
}

/**
 * Deploys a WOOFi vault's contracts on the devnet (`contracts/woofi/`, stand-ins of WooPPV2,
 * WooracleV2_2 and WooRouterV2) and wires them as WOOFi's deployment does: a Chainlink feed per
 * token, the oracle's quote token, the pool as the oracle's `wooPP` (so swaps post prices), the
 * router over the pool. Reserves, fee rates, caps and oracle states are the caller's to set.
 *
 * @example
 * const { pool, oracle, router } = await deployWoofi({ devnet, quoteToken: usdc, baseTokens: [weth], weth, feedAnswers: [1n * 10n ** 8n, 3000n * 10n ** 8n] })
 * // three addresses, wired: pool.wooracle() === oracle, router.wooPool() === pool; no reserves, fee rates or prices set yet
 */
export async function deployWoofi({
  devnet,
  quoteToken,
  baseTokens,
  weth,
  feedAnswers,
}: DeployWoofiParameters): Promise<DeployWoofiReturnType> {
  const { WooPPV2, WooracleV2_2, WooRouterV2, WooChainlinkFeed } = loadStandInArtifacts({ protocol: 'woofi' })
  const tokens = [quoteToken, ...baseTokens]
  if (feedAnswers.length !== tokens.length) throw new Error(`deployWoofi: ${tokens.length} tokens but ${feedAnswers.length} feed answers`)
  const feeds: Address[] = []
  for (const answer of feedAnswers) feeds.push(await deployContractAndWait({ devnet, artifact: WooChainlinkFeed, args: [8, answer] }))
  const oracle = await deployContractAndWait({ devnet, artifact: WooracleV2_2 })
  const pool = await deployContractAndWait({ devnet, artifact: WooPPV2, args: [quoteToken] })
  const onOracle = (functionName: string, args: readonly unknown[]) =>
    writeContractAndWait({ devnet, address: oracle, abi: WooracleV2_2.abi, functionName, args })
  await onOracle('setGuardian', [devnet.account, true])
  await onOracle('setQuoteToken', [quoteToken, feeds[0]])
  for (const [k, base] of baseTokens.entries()) await onOracle('setCLOracle', [base, feeds[k + 1], false])
  await onOracle('setWooPP', [pool])
  await writeContractAndWait({ devnet, address: pool, abi: WooPPV2.abi, functionName: 'init', args: [oracle, devnet.account] })
  const router = await deployContractAndWait({ devnet, artifact: WooRouterV2, args: [weth, pool] })
  return { pool, oracle, router, feeds }
}
