import assert from 'node:assert/strict'
import { test } from 'vitest'
import type { Address } from 'viem'
import { testTokenAbi, tokenBalanceOf } from '../../test/differential/harnessContracts.ts'
import { baseMarketTokens } from './seed/baseMarketTokens.ts'
import { deployDodoV2Market } from './deployDodoV2Market.ts'
import { deployMarketTestTokens } from './deployMarketTestTokens.ts'
import { loadStandInArtifacts } from './loadStandInArtifacts.ts'
import { useDevnet } from '../../test/fixtures/useDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

const RECIPIENT: Address = '0x000000000000000000000000000000000000d0d3'

const devnet = useDevnet()

test(
  'DODO V2 market: a DVM, two DSPs and a DPP pay near the market prices both ways, by transfer then sell',
  { timeout: 180_000 },
  async () => {
    const tokens = await deployMarketTestTokens({ devnet })
    const { pools } = await deployDodoV2Market({ devnet, tokens })
    assert.deepEqual(
      pools.map((p) => `${p.kind} ${p.name}`),
      ['DVM WETH/USDC', 'DSP USDC/USDbC', 'DSP DAI/USDC', 'DPP cbETH/WETH'],
    )
    const { DodoPmmPool } = loadStandInArtifacts({ protocol: 'dodo' })
    const usd = Object.fromEntries(baseMarketTokens.map((t) => [t.symbol, t.priceUsd])) as Record<string, number>
    const symbolOf = (address: Address) => Object.entries(tokens).find(([, t]) => t.address === address)?.[0] ?? ''
    for (const { name, pool, baseToken, quoteToken } of pools) {
      for (const sell of ['sellBase', 'sellQuote'] as const) {
        const [tokenIn, tokenOut] = sell === 'sellBase' ? [baseToken, quoteToken] : [quoteToken, baseToken]
        const [symIn, symOut] = [symbolOf(tokenIn), symbolOf(tokenOut)]
        // $1,000 of the input token, transferred to the pool first.
        const amountIn = (BigInt(Math.round((1000 / usd[symIn]) * 1e6)) * 10n ** BigInt(tokens[symIn].decimals)) / 10n ** 6n
        await writeContractAndWait({ devnet, address: tokenIn, abi: testTokenAbi, functionName: 'mint', args: [pool, amountIn] })
        const before = await tokenBalanceOf(devnet, tokenOut, RECIPIENT)
        await writeContractAndWait({ devnet, address: pool, abi: DodoPmmPool.abi, functionName: sell, args: [RECIPIENT] })
        const after = await tokenBalanceOf(devnet, tokenOut, RECIPIENT)
        const paidUsd = (Number(after - before) / 10 ** tokens[symOut].decimals) * usd[symOut]
        // The pools' prices are the market's (cbETH/WETH: 1.1 = 3,300 / 3,000); less the LP fee (≤ 0.3 %) and the curve.
        assert.ok(paidUsd < 1000 && paidUsd > 990, `${name} ${sell}: paid $${paidUsd.toFixed(2)} for $1,000`)
      }
    }
  },
)
