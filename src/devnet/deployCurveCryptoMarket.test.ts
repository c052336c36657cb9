import assert from 'node:assert/strict'
import { test } from 'vitest'
import type { Abi, Address } from 'viem'
import { createPrng } from '../../test/differential/createPrng.ts'
import { testTokenAbi } from '../../test/differential/harnessContracts.ts'
import { useDevnet } from '../../test/fixtures/useDevnet.ts'
import { deployCurveCryptoMarket } from './deployCurveCryptoMarket.ts'
import { deployMarketTestTokens } from './deployMarketTestTokens.ts'
import { loadStandInArtifacts } from './loadStandInArtifacts.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

// Our twocrypto-ng stand-in (contracts/curve/CurveTwocryptoPool.sol) on the three seeded pools:
// each quotes about the market's price less its mid fee; `get_dy` rises with the input; and over
// TRADES random trades (either way, 10^-6 to 40 % of the input coin's balance, `CROSSCHECK_CASES`
// for more) `exchange` pays exactly what `get_dy` answered at the same state, and the invariant D never
// falls (the fee stays in the pool).

const TRADES = Number(process.env.CROSSCHECK_CASES ?? 30)
const devnet = useDevnet()

test(
  `CurveTwocryptoPool: quotes at the market price, exchange pays exactly get_dy over ${TRADES} random trades`,
  { timeout: 120_000 },
  async () => {
    const tokens = await deployMarketTestTokens({ devnet })
    const { pools } = await deployCurveCryptoMarket({ devnet, tokens })
    assert.deepEqual(
      pools.map((p) => p.name),
      ['USDC/cbBTC', 'USDC/AERO', 'cbETH/DEGEN'],
    )
    const abi = loadStandInArtifacts({ protocol: 'curve' }).CurveTwocryptoPool.abi as Abi
    const read = (pool: Address, functionName: string, args: readonly unknown[] = []) =>
      devnet.publicClient.readContract({ address: pool, abi, functionName, args }) as Promise<bigint>
    const decimalsOf = (coin: Address) => Object.values(tokens).find((t) => t.address === coin)?.decimals ?? 18
    // A thousandth of the pool's coin 1 sold pays its price in coin 0 less about the mid fee (0.26 %; the seeded balances are within 1 % of the price).
    for (const { name, pool, coins } of pools) {
      const price = Number(await read(pool, 'price_scale')) / 1e18
      const dx1 = (await read(pool, 'balances', [1n])) / 1000n
      const dy = await read(pool, 'get_dy', [1n, 0n, dx1])
      const paid = Number(dy) / 10 ** decimalsOf(coins[0]) / (Number(dx1) / 10 ** decimalsOf(coins[1]))
      assert.ok(paid < price * (1 - 0.002) && paid > price * (1 - 0.004), `${name}: a coin 1 pays ${paid}, price ${price}`)
      const sizes = [1n, 10n, 100n, 1_000n, 10_000n].map((k) => (k * 10n ** BigInt(decimalsOf(coins[0]))) / 100n)
      let last = 0n
      for (const dx of sizes) {
        const out = await read(pool, 'get_dy', [0n, 1n, dx])
        assert.ok(out > last, `${name}: get_dy not rising at ${dx}`)
        last = out
      }
    }
    const prng = createPrng({ seed: 2121 })
    for (let k = 0; k < TRADES; k++) {
      const { name, pool, coins } = prng.pick(pools)
      const i = prng.int(0, 1)
      const j = 1 - i
      const balance = await read(pool, 'balances', [BigInt(i)])
      const dx = (balance * prng.logBigint(1n, 400_000n)) / 1_000_000n
      const quoted = await read(pool, 'get_dy', [BigInt(i), BigInt(j), dx])
      const dBefore = await read(pool, 'D')
      await writeContractAndWait({ devnet, address: coins[i], abi: testTokenAbi, functionName: 'mint', args: [devnet.account, dx] })
      await writeContractAndWait({ devnet, address: coins[i], abi: testTokenAbi, functionName: 'approve', args: [pool, dx] })
      const balanceOf = () =>
        devnet.publicClient.readContract({ address: coins[j], abi: testTokenAbi, functionName: 'balanceOf', args: [devnet.account] })
      const before = await balanceOf()
      await writeContractAndWait({ devnet, address: pool, abi, functionName: 'exchange', args: [BigInt(i), BigInt(j), dx, quoted] })
      assert.equal((await balanceOf()) - before, quoted, `${name} trade ${k}: ${dx} of coin ${i}`)
      assert.ok((await read(pool, 'D')) >= dBefore, `${name} trade ${k}: D fell`)
    }
  },
)
