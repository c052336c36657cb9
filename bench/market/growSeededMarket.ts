import { type Address, encodeFunctionData, getAddress, maxUint256, parseAbi, parseEther, toHex } from 'viem'
import { deployTestToken } from '../../src/devnet/deployTestToken.ts'
import type { MarketPoolSpec } from '../../src/devnet/seed/baseMarketPools.ts'
import { baseMarketTokens, type MarketToken } from '../../src/devnet/seed/baseMarketTokens.ts'
import { createSeedPool } from '../../src/devnet/seed/createSeedPool.ts'
import { createSeedPrng } from '../../src/devnet/seed/createSeedPrng.ts'
import type { SeededPool } from '../../src/devnet/seed/DevnetDescription.ts'
import { type BatchCall, sendBatchAndMine } from '../../src/devnet/seed/sendBatchAndMine.ts'
import type { SeededDevnet } from '../../src/devnet/startSeededDevnet.ts'

const tokenAbi = parseAbi([
  'function mint(address to, uint256 amount)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function deposit() payable',
])

/**
 * Venues given to every long-tail token: six against WETH, six against USDC, over all seven kinds
 * (two of them Algebra with the dynamic-fee plugin, as on Base).
 */
const longTailVenues: readonly Omit<MarketPoolSpec, 'pair' | 'tvlUsd'>[] = [
  { dex: 'UNIV2', fee: 3000, tickSpacing: 1 },
  { dex: 'UNIV3', fee: 3000, tickSpacing: 60 },
  { dex: 'PANCAKE_V3', fee: 2500, tickSpacing: 50 },
  { dex: 'UNIV4', fee: 3000, tickSpacing: 60 },
  { dex: 'ALIEN_BASE_V3', fee: 3000, tickSpacing: 60 },
  { dex: 'HYDREX', fee: 3000, tickSpacing: 60 },
]
const usdcVenues: readonly Omit<MarketPoolSpec, 'pair' | 'tvlUsd'>[] = [
  { dex: 'UNIV2', fee: 3000, tickSpacing: 1 },
  { dex: 'UNIV3', fee: 10000, tickSpacing: 200 },
  { dex: 'PANCAKE_V3', fee: 10000, tickSpacing: 200 },
  { dex: 'UNIV4', fee: 10000, tickSpacing: 200 },
  { dex: 'ALIEN_BASE_V3', fee: 10000, tickSpacing: 200 },
  { dex: 'QUICKSWAP_V4', fee: 3000, tickSpacing: 60 },
]

export type GrowSeededMarketParameters = {
  devnet: SeededDevnet
  /** Long-tail tokens to add; each gets 12 pools (6 against WETH, 6 against USDC). */
  extraTokens: number
}

export type GrowSeededMarketReturnType = {
  /** The seeded pools followed by the new ones. */
  pools: SeededPool[]
  /** Every token by symbol, with its fair price (for trade sizes). */
  tokens: Record<string, { address: Address; token: MarketToken }>
  durationMs: number
}

/**
 * Bench support: grows the seeded 67-pool market into a "Base-like" market of a few hundred pools
 * with the seed's own helpers (`createSeedPool`, `sendBatchAndMine`): `extraTokens` long-tail
 * tokens, each on 12 venues. The devnet account provides the liquidity.
 *
 * @example
 * const { pools } = await growSeededMarket({ devnet, extraTokens: 20 }) // 67 + 240 pools
 */
export async function growSeededMarket({ devnet, extraTokens }: GrowSeededMarketParameters): Promise<GrowSeededMarketReturnType> {
  const started = Date.now()
  const { market } = devnet
  const provider = devnet.account
  const tokens: GrowSeededMarketReturnType['tokens'] = Object.fromEntries(
    baseMarketTokens.map((token) => [token.symbol, { address: getAddress(market.tokens[token.symbol].address), token }]),
  )
  const next = createSeedPrng({ seed: 0xb45e })
  const added: MarketToken[] = []
  for (let i = 0; i < extraTokens; i++) {
    // Prices from $0.001 to $100, log-spread; 18 decimals like most long-tail tokens.
    const token: MarketToken = {
      symbol: `LT${i}`,
      name: `Long Tail ${i}`,
      decimals: 18,
      priceUsd: 10 ** (-3 + (5 * i) / Math.max(extraTokens - 1, 1)),
    }
    const address = await deployTestToken({ devnet, name: token.name, symbol: token.symbol, decimals: token.decimals })
    tokens[token.symbol] = { address: getAddress(address), token }
    added.push(token)
  }

  await devnet.publicClient.request({ method: 'anvil_setBalance' as never, params: [provider, toHex(parseEther('100000000'))] as never })
  const funding: BatchCall[] = [
    {
      to: market.weth,
      value: parseEther('50000000'),
      label: 'wrap ETH',
      data: encodeFunctionData({ abi: tokenAbi, functionName: 'deposit' }),
    },
  ]
  for (const symbol of ['USDC', ...added.map((t) => t.symbol)]) {
    const { address, token } = tokens[symbol]
    funding.push({
      to: address,
      label: `mint ${symbol}`,
      data: encodeFunctionData({ abi: tokenAbi, functionName: 'mint', args: [provider, 10n ** BigInt(token.decimals + 15)] }),
    })
  }
  for (const symbol of ['WETH', 'USDC', ...added.map((t) => t.symbol)]) {
    for (const spender of [market.helpers.poolHarness, market.factories.UNIV4.liquidityRouter]) {
      funding.push({
        to: tokens[symbol].address,
        label: `approve ${symbol}`,
        data: encodeFunctionData({ abi: tokenAbi, functionName: 'approve', args: [spender, maxUint256] }),
      })
    }
  }
  await sendBatchAndMine({ devnet, calls: funding })

  const pools = [...market.pools]
  const liquidity: BatchCall[] = []
  for (const token of added) {
    const specs: MarketPoolSpec[] = [
      ...longTailVenues.map((v) => ({ ...v, pair: [token.symbol, 'WETH'] as const, tvlUsd: 50_000 + next() * 450_000 })),
      ...usdcVenues.map((v) => ({ ...v, pair: [token.symbol, 'USDC'] as const, tvlUsd: 20_000 + next() * 200_000 })),
    ]
    for (const spec of specs) {
      const { pool, liquidityCalls } = await createSeedPool({
        devnet,
        spec,
        tokens,
        factories: market.factories,
        liquidityProvider: provider,
        harness: market.helpers.poolHarness,
        offset: (next() * 2 - 1) * 0.003,
      })
      pools.push(pool)
      liquidity.push(...liquidityCalls)
    }
  }
  await sendBatchAndMine({ devnet, calls: liquidity })
  return { pools, tokens, durationMs: Date.now() - started }
}
