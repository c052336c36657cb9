import assert from 'node:assert/strict'
import { test } from 'vitest'
import { type Address, createWalletClient, http, parseAbi } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { waitForReceipt } from '../../src/devnet/waitForReceipt.ts'
import { buildSwapTransaction } from '../../src/http/buildSwapTransaction.ts'
import { createQuoteService } from '../../src/quote/createQuoteService.ts'
import { useSeededMarket } from '../fixtures/useSeededMarket.ts'

// The block promise from a chain's first block on (docs/quote.md): a market started on an embedded
// chain someone else started (`npm run devnet`, then the service with RPC_URL on it) and the very
// first transaction after it, through the pools whose fee follows the clock (Algebra's adaptive
// fee, Slipstream's dynamic fee), which the market reads for its head's time + the block time. The
// chain loads its saved state (once a first run has seeded it): its next block must be stamped as the
// market expects, not at the wall clock nor 1 s after the head (setFixedBlockTime gives the jump to
// the wall clock a block of its own).

const NATIVE: Address = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'
const CLOCK_DRIVEN = ['QUICKSWAP_V4', 'HYDREX', 'AERODROME_CL'] as const
const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)'])

const embedded = useSeededMarket({ start: true })

test('the first trade on a freshly started chain, through clock-driven fees only, pays exactly expectedAmountOut in the next block', async () => {
  const { devnet, solver, market } = embedded
  const { market: seeded, publicClient } = devnet
  const head = await publicClient.getBlock({ blockTag: 'latest' })
  assert.equal(market.freshness().blockNumber, head.number, 'nothing was mined since the market read the chain')
  const service = createQuoteService({
    solver,
    market,
    chainId: seeded.chainId,
    weth: seeded.weth,
    router: seeded.router,
    getGasPriceWei: async () => 10n ** 9n,
  })
  const plan = await service.quote({
    chainId: seeded.chainId,
    tokenIn: NATIVE,
    tokenOut: seeded.tokens.USDC.address,
    amountIn: (3n * 10n ** 18n).toString(),
    slippageBps: 50,
    allowedDexes: [...CLOCK_DRIVEN],
  })
  assert.equal(BigInt(plan.blockNumber), head.number)
  const kinds = plan.routes.flatMap((r) => r.legs.map((l) => l.dex))
  assert.ok(
    kinds.some((k) => k === 'QUICKSWAP_V4' || k === 'HYDREX'),
    `an Algebra leg: ${kinds.join()}`,
  )

  // A seeded account's own ETH: no funding transaction moves the chain before the trade.
  const trader = privateKeyToAccount(seeded.accounts[4].privateKey)
  const recipient = seeded.accounts[3].address
  const { to, data, value } = buildSwapTransaction({
    plan,
    router: seeded.router,
    weth: seeded.weth,
    user: recipient,
    deadlineSec: head.timestamp + 600n,
  })
  const wallet = createWalletClient({ account: trader, chain: devnet.chain, transport: http(seeded.rpcUrl, { retryCount: 0 }) })
  const hash = await wallet.sendTransaction({ to, data, value, gas: 1n << 24n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 0n })
  const receipt = await waitForReceipt({ publicClient, hash })
  assert.equal(receipt.status, 'success')
  assert.equal(receipt.blockNumber, head.number + 1n, "mined in the block after the plan's")
  const mined = await publicClient.getBlock({ blockNumber: receipt.blockNumber })
  assert.equal(mined.timestamp, head.timestamp + 2n, 'stamped the block time after the head the market read')
  const balanceAt = (blockNumber: bigint) =>
    publicClient.readContract({
      address: seeded.tokens.USDC.address,
      abi: erc20,
      functionName: 'balanceOf',
      args: [recipient],
      blockNumber,
    })
  assert.equal((await balanceAt(receipt.blockNumber)) - (await balanceAt(head.number)), BigInt(plan.expectedAmountOut))
})
