import assert from 'node:assert/strict'
import { test } from 'vitest'
import type { Address } from 'viem'
import { testTokenAbi, tokenBalanceOf } from '../../test/differential/harnessContracts.ts'
import { baseMarketTokens } from './seed/baseMarketTokens.ts'
import { deployCurveStableSwapMarket } from './deployCurveStableSwapMarket.ts'
import { deployTestToken } from './deployTestToken.ts'
import { loadCurveStableSwapNgArtifact } from './loadCurveStableSwapNgArtifact.ts'
import { loadStandInArtifacts } from './loadStandInArtifacts.ts'
import { useDevnet } from '../../test/fixtures/useDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

const RECIPIENT: Address = '0x000000000000000000000000000000000000cafe'

const devnet = useDevnet()

/** Mints `amount` of `token` to the devnet's account and lets `spender` take it. */
async function mintAndApprove(token: Address, spender: Address, amount: bigint) {
  await writeContractAndWait({ devnet, address: token, abi: testTokenAbi, functionName: 'mint', args: [devnet.account, amount] })
  await writeContractAndWait({ devnet, address: token, abi: testTokenAbi, functionName: 'approve', args: [spender, amount] })
}

test(
  'Curve market: five NG pools and a legacy one over the market tokens quote and pay near their rates',
  { timeout: 120_000 },
  async () => {
    const tokens: Record<string, { address: Address; decimals: number }> = {}
    for (const t of baseMarketTokens.filter((t) => t.symbol !== 'WETH'))
      tokens[t.symbol] = {
        address: await deployTestToken({ devnet, name: t.name, symbol: t.symbol, decimals: t.decimals }),
        decimals: t.decimals,
      }
    const market = await deployCurveStableSwapMarket({ devnet, tokens })
    const ng = await loadCurveStableSwapNgArtifact()
    const { CurvePlainPool } = loadStandInArtifacts({ protocol: 'curve' })
    assert.deepEqual(
      market.pools.map((p) => p.name),
      ['USDC/USDbC', 'USDC/USDbC/DAI', 'USDC/sDAI', 'USDC/USDbC/DAI/sDAI', 'cbETH/wstETH', 'USDbC/DAI (legacy)', 'USDC/[USDbC/DAI] (meta)'],
    )
    // $1,000 to $3,300 of coin 0 (1,000 dollar coins, 1 cbETH) into coin 1 (and into the last coin): what the rates say, less a few bps of fee and curve.
    const expectedPerCoin0: Record<string, number[]> = {
      'USDC/USDbC': [1],
      'USDC/USDbC/DAI': [1, 1],
      'USDC/sDAI': [1 / 1.08],
      'USDC/USDbC/DAI/sDAI': [1, 1 / 1.08],
      'cbETH/wstETH': [1.1 / 1.1833],
      'USDbC/DAI (legacy)': [1],
    }
    const underlying = market.pools.find((p) => p.name.endsWith('(meta)'))
    for (const { name, pool, coins } of market.pools.filter((p) => p !== underlying)) {
      const abi = name.endsWith('(legacy)') ? CurvePlainPool.abi : ng.abi
      const decimals = (address: Address) => Object.values(tokens).find((t) => t.address === address)?.decimals ?? 18
      const units = name === 'cbETH/wstETH' ? 1 : 1000
      const dx = BigInt(units) * 10n ** BigInt(decimals(coins[0]))
      await mintAndApprove(coins[0], pool, dx * 2n)
      for (const [k, j] of [1, coins.length - 1].slice(0, expectedPerCoin0[name].length).entries()) {
        const quoted = (await devnet.publicClient.readContract({
          address: pool,
          abi,
          functionName: 'get_dy',
          args: [0, j, dx],
        })) as bigint
        const before = await tokenBalanceOf(devnet, coins[j], RECIPIENT)
        await writeContractAndWait({ devnet, address: pool, abi, functionName: 'exchange', args: [0, j, dx, quoted, RECIPIENT] })
        const paid = await tokenBalanceOf(devnet, coins[j], RECIPIENT)
        const whole = Number(paid - before) / 10 ** decimals(coins[j])
        const expected = units * expectedPerCoin0[name][k]
        assert.ok(whole <= expected && whole > expected * 0.998, `${name} 0→${j}: paid ${whole}, rates say ${expected}`)
      }
    }
    // The meta pool: 1,000 USDC into DAI (underlying 2) through the base pool.
    assert.ok(underlying)
    const { CurveMetaPool } = loadStandInArtifacts({ protocol: 'curve' })
    const dx = 1000n * 10n ** 6n
    await mintAndApprove(tokens.USDC.address, underlying.pool, dx)
    const daiBefore = await tokenBalanceOf(devnet, tokens.DAI.address, RECIPIENT)
    await writeContractAndWait({
      devnet,
      address: underlying.pool,
      abi: CurveMetaPool.abi,
      functionName: 'exchange_underlying',
      args: [0, 2, dx, 0n, RECIPIENT],
    })
    const dai = await tokenBalanceOf(devnet, tokens.DAI.address, RECIPIENT)
    const whole = Number(dai - daiBefore) / 1e18
    assert.ok(whole < 1000 && whole > 998, `meta USDC→DAI paid ${whole}`)
  },
)
