import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { type Abi, type Address, encodeAbiParameters, encodeFunctionData, type Hex, maxUint256, parseAbi, toFunctionSelector } from 'viem'
import { formatAbiItem } from 'viem/utils'
import { decodePropAmmQuote, propAmmQuoteCall } from '../../src/adapters/propAmm/propAmmQuoteCall.ts'
import { deployRouter } from '../../src/devnet/deployRouter.ts'
import { loadStandInArtifacts } from '../../src/devnet/loadStandInArtifacts.ts'
import type { PropAmmVenue } from '../../src/devnet/propAmm/PropAmmDescription.ts'
import { type PropAmmKeeper, startPropAmmKeeper } from '../../src/devnet/propAmm/startPropAmmKeeper.ts'
import { sendAndWait } from '../../src/devnet/sendAndWait.ts'
import { useDevnet } from '../fixtures/useDevnet.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { encodeRouterLeg } from '../../src/router/encodeRouterLeg.ts'
import { swapRouterAbi } from '../../src/router/swapRouterAbi.ts'
import { createPropAmmMarket, type PropAmmMarket } from '../propAmm/createPropAmmMarket.ts'
import type { RouterMarket } from './createRouterMarket.ts'
import { FAR_DEADLINE } from './planBuilders.ts'
import { routerRevert } from './routerCall.ts'

// The router's prop_amm leg (contracts/router/PropAmmLegs.sol) through each venue's own entry:
// a leg at the venue's quote (asked as the router) pays exactly it, one wei more reverts inside the
// venue; no allowance is left behind; ElfomoFi's callback is refused from anyone but the venue being
// called; an unknown protocol is InvalidLegData(9).

const RECIPIENT: Address = '0x00000000000000000000000000000000000be7a1'
const tokenAbi = parseAbi([
  'function mint(address, uint256)',
  'function deposit() payable',
  'function approve(address, uint256) returns (bool)',
  'function allowance(address, address) view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
])
const venueErrors = [
  ...loadStandInArtifacts({ protocol: 'propswap' }).PropSwapRouter.abi,
  ...loadStandInArtifacts({ protocol: 'tessera' }).TesseraSwap.abi,
  ...loadStandInArtifacts({ protocol: 'elfomofi' }).ElfomoFi.abi,
  ...loadStandInArtifacts({ protocol: 'lunarbase' }).LunarPool.abi,
  ...loadStandInArtifacts({ protocol: 'feltir' }).Feltir.abi,
].filter((item) => (item as { type: string }).type === 'error')

const devnet = useDevnet()
let router: Address
let market: PropAmmMarket
let keeper: PropAmmKeeper
beforeAll(async () => {
  const { WETH9 } = devnet.artifacts
  // The router is deployed first so the venues can be deployed to serve it (LUNARBASE whitelists it).
  const weth = await sendAndWait({ devnet, data: WETH9.bytecode as Hex, gas: 5_000_000n }).then((r) => r.contractAddress as Address)
  router = await deployRouter({ devnet, weth })
  market = await createPropAmmMarket({ devnet, executor: router })
  keeper = await startPropAmmKeeper({ devnet, propAmms: market.propAmms, intervalMs: 0 })
  const { WETH, USDC, cbBTC } = market.tokens
  await writeContractAndWait({ devnet, address: WETH.address, abi: tokenAbi, functionName: 'deposit', value: 100n * 10n ** 18n })
  await writeContractAndWait({ devnet, address: USDC.address, abi: tokenAbi, functionName: 'mint', args: [devnet.account, 10n ** 13n] })
  await writeContractAndWait({ devnet, address: cbBTC.address, abi: tokenAbi, functionName: 'mint', args: [devnet.account, 10n ** 10n] })
  for (const { address } of [WETH, USDC, cbBTC])
    await writeContractAndWait({ devnet, address, abi: tokenAbi, functionName: 'approve', args: [router, maxUint256] })
})
afterAll(async () => {
  await keeper?.stop()
})

const balance = (token: Address, owner: Address) =>
  devnet.publicClient.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [owner] })

async function venueQuote(venue: PropAmmVenue, tokenIn: Address, tokenOut: Address, amountIn: bigint) {
  const { target, callData } = propAmmQuoteCall({ dex: venue.dex, entry: venue.entry, tokenIn, tokenOut, amountIn })
  const { data } = await devnet.publicClient.call({ to: target, data: callData, account: router })
  return decodePropAmmQuote(venue.dex, data as Hex)
}

function swapData(venue: PropAmmVenue, tokenIn: Address, tokenOut: Address, amountIn: bigint, minOut: bigint, protocol?: Hex) {
  const leg = encodeRouterLeg({
    leg: {
      dex: venue.dex,
      tokenIn,
      tokenOut,
      amountIn: amountIn.toString(),
      minOut: minOut.toString(),
      data: { kind: 'prop_amm', router: venue.entry, protocol: venue.dex.toLowerCase() as 'propswap' },
    } as never,
  })
  return encodeFunctionData({
    abi: swapRouterAbi,
    functionName: 'swapExactIn',
    args: [
      {
        tokenIn,
        tokenOut,
        amountIn,
        minAmountOut: minOut,
        recipient: RECIPIENT,
        feeBps: 0,
        feeRecipient: '0x0000000000000000000000000000000000000000',
        nativeIn: false,
        nativeOut: false,
        deadline: FAR_DEADLINE,
        routes: [{ amountIn, legs: [{ ...leg, data: protocol ?? leg.data }] }],
      },
    ],
  })
}

/** The revert's error name (the router's, else the venue's whose selector it is). */
async function revertName(data: Hex): Promise<string> {
  const reason = await routerRevert({ market: { devnet, router } as unknown as RouterMarket, data })
  if (!reason.startsWith('0x')) return reason.split('(')[0]
  const error = venueErrors.find((e) => toFunctionSelector(formatAbiItem(e as never)) === reason)
  return (error as { name?: string } | undefined)?.name ?? reason
}

const minOutErrors = {
  PROPSWAP: 'InsufficientOutput',
  TESSERA: 'AmountCheckFailed',
  ELFOMOFI: 'LimitNotMet',
  LUNARBASE: 'InsufficientOutput',
  FELTIR: 'LimitNotMet',
} as const

test('each venue, both ways: a leg at the venue quote pays exactly it; one wei more reverts inside the venue', async () => {
  for (const venue of market.propAmms.venues) {
    await keeper.tick()
    // Past Tessera's fee decay (3 blocks): its quotes then hold for the next block.
    if (venue.dex === 'TESSERA') await devnet.testClient.mine({ blocks: 3 })
    const [base, usdc] = venue.tokens
    for (const [tokenIn, tokenOut, amountIn] of [
      [base, usdc, venue.symbols[0] === 'WETH' ? 10n ** 18n : 2n * 10n ** 6n],
      [usdc, base, 5_000n * 10n ** 6n],
    ] as const) {
      const quoted = await venueQuote(venue, tokenIn, tokenOut, amountIn)
      assert.ok(quoted > 0n, `${venue.dex}: quotes`)
      assert.equal(await revertName(swapData(venue, tokenIn, tokenOut, amountIn, quoted + 1n)), minOutErrors[venue.dex], venue.dex)
      const before = await balance(tokenOut, RECIPIENT)
      const receipt = await sendAndWait({ devnet, to: router, data: swapData(venue, tokenIn, tokenOut, amountIn, quoted), gas: 3_000_000n })
      assert.equal(receipt.status, 'success')
      assert.equal((await balance(tokenOut, RECIPIENT)) - before, quoted, `${venue.dex} ${venue.symbols[0]}: paid its quote`)
      assert.equal(await balance(tokenIn, router), 0n)
      assert.equal(
        await devnet.publicClient.readContract({ address: tokenIn, abi: tokenAbi, functionName: 'allowance', args: [router, venue.entry] }),
        0n,
        `${venue.dex}: no allowance left`,
      )
    }
  }
})

test('ElfomoFi callbacks only from the venue being called; an unknown protocol is InvalidLegData', async () => {
  await keeper.tick()
  const callback = encodeFunctionData({
    abi: parseAbi(['function elfomoFiSwapCallback(address tokenIn, uint256 amountIn, bytes data)']),
    functionName: 'elfomoFiSwapCallback',
    args: [market.tokens.USDC.address, 1n, '0x'],
  })
  const elfomo = market.propAmms.venues.find((v) => v.dex === 'ELFOMOFI') as PropAmmVenue
  for (const from of [devnet.account, elfomo.address]) {
    await assert.rejects(devnet.publicClient.call({ to: router, data: callback, account: from }), /UnexpectedCallback|revert/)
  }
  const data = swapData(elfomo, elfomo.tokens[0], elfomo.tokens[1], 10n ** 18n, 0n, encodeAbiParameters([{ type: 'uint8' }], [7]))
  assert.equal(await revertName(data), 'InvalidLegData')
})
