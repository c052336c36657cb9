import { type Address, createPublicClient, getAddress, type PublicClient } from 'viem'
import { createRpcTransport } from '../../chains/rpc/createRpcTransport.ts'
import { viemChainOf } from '../../chains/viemChainOf.ts'
import type { GatewayChain } from '../GatewayChain.ts'
import { launchFactoryAbi } from '../launchpad/launchFactoryAbi.ts'
import type { GatewayChainSettings } from './GatewayChainSettings.ts'

export type ConnectGatewayChainParameters = {
  settings: GatewayChainSettings
  /** The swap service of this process: its chain, node and solver (a chain without `rpcUrls` uses its node). */
  swapService?: { chainId: number; client: PublicClient; router: Address; quote: NonNullable<GatewayChain['swaps']>['quote'] }
  rpcTimeoutMs?: number
}

/**
 * A configured chain made servable, after checking the file against the chain: the node serves
 * `chainId`; the factory answers as our `LaunchFactory` through the chain's Multicall3 and names
 * the configured fee locker and vesting vault; every configured paired asset is one it allows. The
 * wrapped native asset and the Uniswap V3 factory are the factory's own. Swaps are served on the
 * swap service's chain (its solver; the configured `swapRouter`, default the service's router).
 * Any mismatch throws an Error naming the chain and the field, so a wrong file stops the start.
 *
 * @example
 * const chain = await connectGatewayChain({ settings, swapService })
 * // → a GatewayChain with fromBlock = settings.launchpad.startBlock; an Error 'GATEWAY_CHAIN_CONFIG chain 4663: launchpad.feeLocker …' otherwise
 */
export async function connectGatewayChain({
  settings,
  swapService,
  rpcTimeoutMs,
}: ConnectGatewayChainParameters): Promise<GatewayChain & { fromBlock: bigint }> {
  const where = `GATEWAY_CHAIN_CONFIG chain ${settings.chainId} (${settings.name})`
  const own = swapService?.chainId === settings.chainId ? swapService : undefined
  let client: PublicClient
  if (settings.rpcUrls) {
    const { transport } = createRpcTransport({ urls: settings.rpcUrls, timeoutMs: rpcTimeoutMs })
    client = createPublicClient({ chain: viemChainOf(settings), transport }) as PublicClient
  } else if (own) client = own.client
  else throw new Error(`${where}: rpcUrls is required (only the swap service's chain may use its node)`)
  const found = await client.getChainId()
  if (found !== settings.chainId) throw new Error(`${where}: the node serves chain ${found}`)
  const factory = settings.launchpad.factory
  const read = (functionName: 'feeLocker' | 'vestingVault' | 'weth' | 'uniswapV3Factory' | 'pairedTokens') =>
    ({ address: factory, abi: launchFactoryAbi, functionName }) as const
  let answers: readonly unknown[]
  try {
    answers = await client.multicall({
      multicallAddress: settings.multicall3,
      allowFailure: false,
      contracts: [read('feeLocker'), read('vestingVault'), read('weth'), read('uniswapV3Factory'), read('pairedTokens')],
    })
  } catch (error) {
    throw new Error(
      `${where}: launchpad.factory ${factory} does not answer as a LaunchFactory through Multicall3 at ${settings.multicall3} (${(error as Error).message.split('\n')[0]})`,
    )
  }
  const [feeLocker, vestingVault, weth, uniswapV3Factory, paired] = answers as [Address, Address, Address, Address, readonly Address[]]
  const problems: string[] = []
  if (getAddress(feeLocker) !== settings.launchpad.feeLocker)
    problems.push(`launchpad.feeLocker: the factory's is ${getAddress(feeLocker)}`)
  if (getAddress(vestingVault) !== settings.launchpad.vestingVault)
    problems.push(`launchpad.vestingVault: the factory's is ${getAddress(vestingVault)}`)
  const allowed = new Set(paired.map((p) => getAddress(p)))
  for (const asset of settings.pairedAssets ?? [])
    if (!allowed.has(asset)) problems.push(`pairedAssets: the factory does not allow ${asset}`)
  if (settings.swapRouter && !own)
    problems.push(
      `swapRouter: swaps are served only on the swap service's chain${swapService ? ` (${swapService.chainId})` : ''}, by its solver`,
    )
  if (problems.length > 0) throw new Error(`${where}:\n  ${problems.join('\n  ')}`)
  return {
    chainId: settings.chainId,
    name: settings.name,
    nativeSymbol: settings.nativeSymbol,
    wrappedNative: getAddress(weth),
    multicall3: settings.multicall3,
    client,
    launchpad: {
      chainId: settings.chainId,
      factory,
      feeLocker: settings.launchpad.feeLocker,
      vestingVault: settings.launchpad.vestingVault,
      fromBlock: settings.launchpad.startBlock,
      uniswapV3Factory: getAddress(uniswapV3Factory),
    },
    fromBlock: settings.launchpad.startBlock,
    ...(settings.pairedAssets ? { pairedAssets: settings.pairedAssets } : {}),
    ...(own ? { swaps: { router: settings.swapRouter ?? own.router, quote: own.quote } } : {}),
  }
}
