import assert from 'node:assert/strict'
import { test } from 'vitest'
import type { Address } from 'viem'
import { testTokenAbi, tokenBalanceOf } from '../../test/differential/harnessContracts.ts'
import { baseMarketTokens } from './seed/baseMarketTokens.ts'
import { balancerV2VaultAbi } from './balancerV2VaultAbi.ts'
import { deployGyroECLPMarket } from './deployGyroECLPMarket.ts'
import { deployMarketTestTokens } from './deployMarketTestTokens.ts'
import { useDevnet } from '../../test/fixtures/useDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

const RECIPIENT: Address = '0x000000000000000000000000000000000000ec1f'

const devnet = useDevnet()

test('Gyro E-CLP market: four pools on the Balancer V2 Vault pay near the market prices both ways', { timeout: 180_000 }, async () => {
  const tokens = await deployMarketTestTokens({ devnet })
  const market = await deployGyroECLPMarket({ devnet, tokens })
  assert.deepEqual(
    market.pools.map((p) => p.name),
    ['USDC/USDbC', 'WETH/USDC', 'wstETH/WETH', 'cbETH/wstETH'],
  )
  const usd = Object.fromEntries(baseMarketTokens.map((t) => [t.symbol, t.priceUsd])) as Record<string, number>
  const symbolOf = (address: Address) => Object.entries(tokens).find(([, t]) => t.address === address)?.[0] ?? ''
  for (const { name, poolId, tokens: pair } of market.pools) {
    for (const [inIx, outIx] of [
      [0, 1],
      [1, 0],
    ]) {
      const [tokenIn, tokenOut] = [pair[inIx], pair[outIx]]
      const [symIn, symOut] = [symbolOf(tokenIn), symbolOf(tokenOut)]
      // $1,000 of the input token.
      const scaledIn = (BigInt(Math.round((1000 / usd[symIn]) * 1e6)) * 10n ** BigInt(tokens[symIn].decimals)) / 10n ** 6n
      await writeContractAndWait({ devnet, address: tokenIn, abi: testTokenAbi, functionName: 'mint', args: [devnet.account, scaledIn] })
      await writeContractAndWait({ devnet, address: tokenIn, abi: testTokenAbi, functionName: 'approve', args: [market.vault, scaledIn] })
      const before = await tokenBalanceOf(devnet, tokenOut, RECIPIENT)
      await writeContractAndWait({
        devnet,
        address: market.vault,
        abi: balancerV2VaultAbi,
        functionName: 'swap',
        args: [
          { poolId, kind: 0, assetIn: tokenIn, assetOut: tokenOut, amount: scaledIn, userData: '0x' },
          { sender: devnet.account, fromInternalBalance: false, recipient: RECIPIENT, toInternalBalance: false },
          0n,
          2n ** 255n,
        ],
      })
      const after = await tokenBalanceOf(devnet, tokenOut, RECIPIENT)
      const paidUsd = (Number(after - before) / 10 ** tokens[symOut].decimals) * usd[symOut]
      // The E-CLPs are centred on the market's prices; WETH/USDC's wide range sits further off its peg.
      const tolerance = name === 'WETH/USDC' ? 0.05 : 0.01
      assert.ok(Math.abs(paidUsd - 1000) < 1000 * tolerance, `${name} ${symIn}→${symOut}: paid $${paidUsd.toFixed(2)} for $1,000`)
    }
  }
})
