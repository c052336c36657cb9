import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { type Address, createWalletClient, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { loadConfig } from '../../src/config/loadConfig.ts'
import { waitForReceipt } from '../../src/devnet/waitForReceipt.ts'
import { type SwapService, startSwapService } from '../../src/startSwapService.ts'

// The block promise from the chain's first block on (docs/quote.md): right after `npm start`, before
// anything else was sent, a user's first trade is executed in the block after its plan's and must
// pay exactly what the plan said, also through the pools whose fee follows the clock (Algebra's
// adaptive fee, Slipstream's dynamic fee), which the market reads for the next block's time. The
// embedded chain loads a saved state whose last block is as old as the seed; the next block must be
// stamped as the market expects (the chain's block time after the head it read), not at whatever
// time the chain was started.

const KEY = 'first-block-key-0123456789abcdef'
const NATIVE: Address = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'
let service: SwapService

beforeAll(async () => {
  const config = loadConfig({ API_KEYS: KEY, LOG_LEVEL: 'silent' })
  service = await startSwapService({ config, logger: false })
}, 600_000)
afterAll(async () => {
  await service?.fastify.close()
})

test('the first trade after the start, through clock-driven fees, pays exactly expectedAmountOut in the next block', async () => {
  const { devnet } = service
  assert.ok(devnet)
  const seeded = devnet.market
  const head = await devnet.publicClient.getBlock({ blockTag: 'latest' })
  assert.equal(service.market.freshness().blockNumber, head.number, 'the market is at the head and nothing was sent since the start')

  // A seeded account's own ETH: no funding transaction moves the chain before the trade.
  const trader = privateKeyToAccount(seeded.accounts[4].privateKey)
  const recipient = seeded.accounts[3].address
  const response = await service.fastify.inject({
    method: 'POST', url: '/execute', headers: { 'x-api-key': KEY },
    payload: { chainId: seeded.chainId, tokenIn: NATIVE, tokenOut: seeded.tokens.USDC.address, amountIn: (3n * 10n ** 18n).toString(), slippageBps: 50, allowedDexes: ['QUICKSWAP_V4', 'HYDREX', 'AERODROME_CL'], user: recipient },
  })
  assert.equal(response.statusCode, 200, response.body)
  const { routePlan: plan, to, data, value } = response.json() as { routePlan: any; to: Address; data: Hex; value: string }
  assert.equal(BigInt(plan.blockNumber), head.number)
  const kinds = new Set(plan.routes.flatMap((r: any) => r.legs.map((l: any) => l.dex)))
  assert.ok([...kinds].every((k) => ['QUICKSWAP_V4', 'HYDREX', 'AERODROME_CL'].includes(k as string)), [...kinds].join())

  const wallet = createWalletClient({ account: trader, chain: devnet.chain, transport: http(seeded.rpcUrl, { retryCount: 0 }) })
  const usdc = seeded.tokens.USDC.address
  const balanceAt = (blockNumber: bigint) => devnet.publicClient.readContract({ address: usdc, abi: [{ type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ type: 'address' }], outputs: [{ type: 'uint256' }] }], functionName: 'balanceOf', args: [recipient], blockNumber })
  const hash = await wallet.sendTransaction({ to, data, value: BigInt(value), gas: 1n << 24n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 0n })
  const receipt = await waitForReceipt({ publicClient: devnet.publicClient, hash })
  assert.equal(receipt.status, 'success')
  assert.equal(receipt.blockNumber, head.number + 1n, 'mined in the block after the plan\'s')
  const mined = await devnet.publicClient.getBlock({ blockNumber: receipt.blockNumber })
  assert.equal(mined.timestamp, head.timestamp + 2n, 'stamped the chain\'s block time after the head the market read')
  const received = (await balanceAt(receipt.blockNumber)) - (await balanceAt(head.number))
  assert.equal(received, BigInt(plan.expectedAmountOut))
})
