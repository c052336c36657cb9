import assert from 'node:assert/strict'
import { test } from 'vitest'
import { type Abi, type Address, BaseError, ContractFunctionRevertedError } from 'viem'
import { testTokenAbi, tokenBalanceOf } from '../../test/differential/harnessContracts.ts'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { deployMarketTestTokens } from './deployMarketTestTokens.ts'
import { deployMaverickV2Market } from './deployMaverickV2Market.ts'
import { loadStandInArtifacts } from './loadStandInArtifacts.ts'
import { baseMarketTokens } from './seed/baseMarketTokens.ts'
import { useDevnet } from '../../test/fixtures/useDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

const RECIPIENT: Address = '0x000000000000000000000000000000000000a7e2'
const { MaverickV2Pool } = loadStandInArtifacts({ protocol: 'maverick' })

const devnet = useDevnet()

test(
  'Maverick V2 market: three pools pay near the market prices both ways, by transfer first and by the authenticated callback',
  { timeout: 180_000 },
  async () => {
    const tokens = await deployMarketTestTokens({ devnet })
    const { pools } = await deployMaverickV2Market({ devnet, tokens })
    assert.deepEqual(
      pools.map((p) => p.name),
      ['WETH/USDC', 'USDC/USDbC', 'cbETH/WETH'],
    )
    const usd = Object.fromEntries(baseMarketTokens.map((t) => [t.symbol, t.priceUsd])) as Record<string, number>
    const symbolOf = (address: Address) => Object.entries(tokens).find(([, t]) => t.address === address)?.[0] ?? ''
    const paid: string[] = []
    const payer = await deployContractAndWait({ devnet, artifact: devnet.artifacts.MaverickV2CallbackPayer })
    const payerAbi = [
      ...(devnet.artifacts.MaverickV2CallbackPayer.abi as Abi),
      ...(MaverickV2Pool.abi as Abi).filter((i) => i.type === 'error'),
    ]
    for (const { name, pool, tokenA, tokenB, activeTick } of pools) {
      for (const tokenAIn of [true, false]) {
        const [tokenIn, tokenOut] = tokenAIn ? [tokenA, tokenB] : [tokenB, tokenA]
        const [symIn, symOut] = [symbolOf(tokenIn), symbolOf(tokenOut)]
        // $1,000 of the input token.
        const amount = (BigInt(Math.round((1000 / usd[symIn]) * 1e6)) * 10n ** BigInt(tokens[symIn].decimals)) / 10n ** 6n
        const tickLimit = activeTick + (tokenAIn ? 50 : -50)
        const paidUsd = (raw: bigint) => (Number(raw) / 10 ** tokens[symOut].decimals) * usd[symOut]
        // By transfer first, empty data.
        await writeContractAndWait({ devnet, address: tokenIn, abi: testTokenAbi, functionName: 'mint', args: [pool, amount] })
        let before = await balanceOf(tokenOut, RECIPIENT)
        await writeContractAndWait({
          devnet,
          address: pool,
          abi: MaverickV2Pool.abi,
          functionName: 'swap',
          args: [RECIPIENT, { amount, tokenAIn, exactOutput: false, tickLimit }, '0x'],
        })
        const first = (await balanceOf(tokenOut, RECIPIENT)) - before
        // The pools' prices are the market's; less the fee (≤ 0.05 %) and the tick's width (≤ 0.1 %).
        assert.ok(paidUsd(first) < 1000 && paidUsd(first) > 997, `${name} ${symIn} in: paid $${paidUsd(first).toFixed(2)} for $1,000`)
        // By the callback: the payer pays the pool it called, from its caller's allowance.
        await writeContractAndWait({ devnet, address: tokenIn, abi: testTokenAbi, functionName: 'mint', args: [devnet.account, amount] })
        await writeContractAndWait({ devnet, address: tokenIn, abi: testTokenAbi, functionName: 'approve', args: [payer, amount] })
        const short = await revertName(payer, payerAbi, 'swap', [pool, RECIPIENT, amount, tokenAIn, tickLimit, 1n])
        assert.equal(short, 'InsufficientInput', `${name}: a callback one unit short must revert`)
        const poolBefore = await balanceOf(tokenIn, pool)
        before = await balanceOf(tokenOut, RECIPIENT)
        await writeContractAndWait({
          devnet,
          address: payer,
          abi: payerAbi,
          functionName: 'swap',
          args: [pool, RECIPIENT, amount, tokenAIn, tickLimit, 0n],
        })
        const second = (await balanceOf(tokenOut, RECIPIENT)) - before
        assert.equal((await balanceOf(tokenIn, pool)) - poolBefore, amount, `${name}: the callback paid the pool exactly the input`)
        // The second trade starts where the first left the price: it pays a little less, never more.
        assert.ok(second <= first && paidUsd(second) > 997, `${name} ${symIn} in by callback: ${second} after ${first}`)
        paid.push(`${name} ${symIn} in: $${paidUsd(first).toFixed(2)} then $${paidUsd(second).toFixed(2)}`)
      }
    }
    console.log(`Maverick V2 market, $1,000 in: ${paid.join('; ')}`)
    // The payer's callback refuses any caller but the pool it is swapping on.
    const stray = await revertName(payer, payerAbi, 'maverickV2SwapCallback', [tokens.WETH.address, 1n, 0n, '0x'])
    assert.equal(stray, 'UnexpectedCallback')
  },
)

function balanceOf(token: Address, owner: Address) {
  return tokenBalanceOf(devnet, token, owner)
}

async function revertName(address: Address, abi: Abi, functionName: string, args: readonly unknown[]): Promise<string | undefined> {
  try {
    await devnet.publicClient.simulateContract({ address, abi, functionName, args, account: devnet.account })
    return undefined
  } catch (error) {
    const reverted = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : undefined
    return reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : undefined
  }
}
