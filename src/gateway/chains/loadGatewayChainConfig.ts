import { readFileSync } from 'node:fs'
import type { Static } from 'typebox'
import { Value } from 'typebox/value'
import { type Address, getAddress } from 'viem'
import { multicall3Address } from '../../chains/multicall3Address.ts'
import { GatewayChainConfigFile } from './GatewayChainConfigFile.ts'
import type { GatewayChainSettings } from './GatewayChainSettings.ts'

/**
 * Reads and checks the gateway's chain config (`GATEWAY_CHAIN_CONFIG`, docs/gateway/chains.md):
 * every problem is listed with its JSON path, and a chain id listed twice is one. Block numbers
 * may be JSON integers or decimal strings. What the file says is checked against each chain at
 * start (`connectGatewayChain`).
 *
 * @example
 * const chains = loadGatewayChainConfig({ path: 'gateway-chains.json' })
 * // → [{ chainId: 8453, name: 'Base', launchpad: { factory, …, startBlock: 123n }, … }]; an Error listing '/chains/0/launchpad/factory: …'
 */
export function loadGatewayChainConfig({ path, text }: { path: string; text?: string }): GatewayChainSettings[] {
  let json: unknown
  try {
    json = JSON.parse(text ?? readFileSync(path, 'utf8'))
  } catch (error) {
    throw new Error(`GATEWAY_CHAIN_CONFIG ${path}: ${(error as Error).message}`)
  }
  const problems = [...Value.Errors(GatewayChainConfigFile, json)].map((e) => `${e.instancePath || '/'}: ${e.message}`)
  if (problems.length === 0) {
    const seen = new Set<number>()
    for (const [i, c] of (json as Static<typeof GatewayChainConfigFile>).chains.entries()) {
      if (seen.has(c.chainId)) problems.push(`/chains/${i}/chainId: chain ${c.chainId} is listed twice`)
      seen.add(c.chainId)
    }
  }
  if (problems.length > 0) throw new Error(`GATEWAY_CHAIN_CONFIG ${path}:\n  ${problems.join('\n  ')}`)
  return (json as Static<typeof GatewayChainConfigFile>).chains.map((c) => ({
    chainId: c.chainId,
    name: c.name,
    nativeSymbol: c.nativeSymbol ?? 'ETH',
    ...(c.rpcUrls ? { rpcUrls: c.rpcUrls } : {}),
    multicall3: getAddress(c.multicall3 ?? multicall3Address),
    launchpad: {
      factory: getAddress(c.launchpad.factory),
      feeLocker: getAddress(c.launchpad.feeLocker),
      vestingVault: getAddress(c.launchpad.vestingVault),
      startBlock: BigInt(c.launchpad.startBlock),
    },
    ...(c.pairedAssets ? { pairedAssets: c.pairedAssets.map((a) => getAddress(a) as Address) } : {}),
    ...(c.swapRouter ? { swapRouter: getAddress(c.swapRouter) } : {}),
  }))
}
