import { type Address, erc20Abi, getAddress } from 'viem'
import type { GatewayChain } from '../GatewayChain.ts'
import { launchFactoryAbi } from '../launchpad/launchFactoryAbi.ts'

const BOUNDS = [
  'POOL_FEE',
  'TICK_SPACING',
  'TOKEN_SUPPLY',
  'MAX_VESTING_BPS',
  'MAX_REWARD_RECIPIENTS',
  'MAX_LOCKUP_SECONDS',
  'MAX_VESTING_SECONDS',
  'MIN_STARTING_TICK',
  'MAX_STARTING_TICK',
  'weth',
] as const

/**
 * The launch suites of one chain read live from its factory at `blockNumber`: one per paired
 * asset the factory allows, each with the pool kind and every bound a launch is checked against.
 * The suite pairing with the wrapped native asset is `standard`; the others are `extended`
 * (listed only when `extended` is asked for). Two multicalls, both at the same block.
 *
 * @example
 * const suites = await readLaunchSuites({ chain, blockNumber, extended: false })
 * // → [{ id: '8453:standard:<weth>', chain_id, category: 'standard', paired_token, pool: { dex: 'uniswap_v3', fee_pips, … }, … }]
 */
export async function readLaunchSuites({ chain, blockNumber, extended }: { chain: GatewayChain; blockNumber: bigint; extended: boolean }) {
  const factory = chain.launchpad.factory
  const contracts = [
    { address: factory, abi: launchFactoryAbi, functionName: 'pairedTokens' },
    ...BOUNDS.map((functionName) => ({ address: factory, abi: launchFactoryAbi, functionName })),
  ]
  const [paired, ...bounds] = (await chain.client.multicall({
    multicallAddress: chain.multicall3,
    allowFailure: false,
    blockNumber,
    contracts: contracts as never,
  })) as unknown[]
  const b = Object.fromEntries(BOUNDS.map((name, i) => [name, bounds[i]])) as Record<(typeof BOUNDS)[number], bigint | number | Address>
  const weth = (b.weth as Address).toLowerCase()
  // A configured subset of paired assets (GATEWAY_CHAIN_CONFIG's pairedAssets) narrows the factory's.
  const offered = new Set(chain.pairedAssets?.map((p) => p.toLowerCase()))
  const listed = (paired as readonly Address[]).filter(
    (p) => (extended || p.toLowerCase() === weth) && (!chain.pairedAssets || offered.has(p.toLowerCase())),
  )
  const meta = await chain.client.multicall({
    multicallAddress: chain.multicall3,
    allowFailure: false,
    blockNumber,
    contracts: listed.flatMap((p) => [
      { address: p, abi: erc20Abi, functionName: 'symbol' } as const,
      { address: p, abi: erc20Abi, functionName: 'decimals' } as const,
    ]),
  })
  return listed.map((p, i) => {
    const standard = p.toLowerCase() === weth
    return {
      id: `${chain.chainId}:${standard ? 'standard' : 'extended'}:${p.toLowerCase()}`,
      chain_id: chain.chainId,
      category: standard ? ('standard' as const) : ('extended' as const),
      paired_token: { address: getAddress(p), symbol: meta[2 * i] as string, decimals: Number(meta[2 * i + 1]) },
      pool: { dex: 'uniswap_v3' as const, fee_pips: Number(b.POOL_FEE), tick_spacing: Number(b.TICK_SPACING) },
      token: { supply_raw: String(b.TOKEN_SUPPLY), decimals: 18 },
      starting_tick: { min: Number(b.MIN_STARTING_TICK), max: Number(b.MAX_STARTING_TICK), step: Number(b.TICK_SPACING) },
      vesting: {
        max_bps: Number(b.MAX_VESTING_BPS),
        max_lockup_seconds: Number(b.MAX_LOCKUP_SECONDS),
        max_vesting_seconds: Number(b.MAX_VESTING_SECONDS),
      },
      reward_recipients: { max: Number(b.MAX_REWARD_RECIPIENTS), total_bps: 10_000 },
      dev_buy: standard,
    }
  })
}
