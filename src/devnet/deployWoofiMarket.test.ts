import assert from 'node:assert/strict'
import { test } from 'vitest'
import { type Abi, type Address, encodeFunctionData, parseAbi } from 'viem'
import { testTokenAbi, tokenBalanceOf } from '../../test/differential/harnessContracts.ts'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { deployTestToken } from './deployTestToken.ts'
import { deployWoofiMarket } from './deployWoofiMarket.ts'
import { loadStandInArtifacts } from './loadStandInArtifacts.ts'
import { sendAndWait } from './sendAndWait.ts'
import { baseMarketTokens } from './seed/baseMarketTokens.ts'
import { useDevnet } from '../../test/fixtures/useDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

const RECIPIENT: Address = '0x000000000000000000000000000000000000cafe'

const devnet = useDevnet()

test(
  'WOOFi market: the vault over WETH, cbBTC and cbETH pays near the oracle prices through the router, and refuses a stale oracle',
  { timeout: 180_000 },
  async () => {
    const tokens: Record<string, { address: Address; decimals: number }> = {}
    tokens.WETH = { address: await deployContractAndWait({ devnet, artifact: devnet.artifacts.WETH9 }), decimals: 18 }
    for (const t of baseMarketTokens.filter((t) => ['USDC', 'cbBTC', 'cbETH'].includes(t.symbol)))
      tokens[t.symbol] = {
        address: await deployTestToken({ devnet, name: t.name, symbol: t.symbol, decimals: t.decimals }),
        decimals: t.decimals,
      }
    const market = await deployWoofiMarket({ devnet, tokens })
    assert.deepEqual(
      market.bases.map((b) => b.symbol),
      ['WETH', 'cbBTC', 'cbETH'],
    )
    const { WooRouterV2, WooracleV2_2 } = loadStandInArtifacts({ protocol: 'woofi' })
    const routerAbi = WooRouterV2.abi as Abi
    const balance = (token: Address) => tokenBalanceOf(devnet, token, RECIPIENT)
    const swap = async (from: string, to: string, amount: bigint) => {
      if (from === 'WETH')
        await sendAndWait({
          devnet,
          to: tokens.WETH.address,
          data: encodeFunctionData({ abi: parseAbi(['function deposit() payable']) }),
          value: amount,
        })
      const onToken = (functionName: string, args: readonly unknown[]) =>
        writeContractAndWait({ devnet, address: tokens[from].address, abi: testTokenAbi, functionName, args })
      if (from !== 'WETH') await onToken('mint', [devnet.account, amount])
      await onToken('approve', [market.router, amount])
      const quoted = (await devnet.publicClient.readContract({
        address: market.router,
        abi: routerAbi,
        functionName: 'querySwap',
        args: [tokens[from].address, tokens[to].address, amount],
      })) as bigint
      const before = await balance(tokens[to].address)
      await writeContractAndWait({
        devnet,
        address: market.router,
        abi: routerAbi,
        functionName: 'swap',
        args: [tokens[from].address, tokens[to].address, amount, quoted, RECIPIENT, RECIPIENT],
      })
      const paid = (await balance(tokens[to].address)) - before
      assert.equal(paid, quoted, `${from}→${to}: paid what querySwap said`)
      return Number(paid) / 10 ** tokens[to].decimals
    }
    // $30k a trade: the fee (2.5 bps), half a spread of 2–4 bps and a gamma of 3–6e-5 cost under 10 bps.
    const near = (got: number, fair: number, label: string) => assert.ok(got < fair && got > fair * 0.999, `${label}: ${got}, fair ${fair}`)
    near(await swap('USDC', 'WETH', 30_000n * 10n ** 6n), 10, 'USDC→WETH')
    near(await swap('WETH', 'USDC', 10n * 10n ** 18n), 30_000, 'WETH→USDC')
    near(await swap('cbBTC', 'cbETH', 5n * 10n ** 7n), (0.5 * 60_000) / 3_300, 'cbBTC→cbETH')
    // Base to base moved both oracle prices: cbBTC down (sold), cbETH up (bought).
    const infos = async (token: Address) =>
      (await devnet.publicClient.readContract({
        address: market.oracle,
        abi: WooracleV2_2.abi as Abi,
        functionName: 'infos',
        args: [token],
      })) as readonly bigint[]
    assert.ok((await infos(tokens.cbBTC.address))[0] < market.bases[1].price, 'cbBTC price moved down')
    assert.ok((await infos(tokens.cbETH.address))[0] > market.bases[2].price, 'cbETH price moved up')
    // 301 s without a post: stale, so the vault refuses to quote.
    const oracleTimestamp = (await devnet.publicClient.readContract({
      address: market.oracle,
      abi: WooracleV2_2.abi as Abi,
      functionName: 'timestamp',
    })) as bigint
    await devnet.testClient.setNextBlockTimestamp({ timestamp: oracleTimestamp + 301n })
    await devnet.testClient.mine({ blocks: 1 })
    await assert.rejects(
      devnet.publicClient.readContract({
        address: market.router,
        abi: routerAbi,
        functionName: 'querySwap',
        args: [tokens.USDC.address, tokens.WETH.address, 10n ** 9n],
      }),
      /ORACLE_FEASIBLE/,
    )
  },
)
