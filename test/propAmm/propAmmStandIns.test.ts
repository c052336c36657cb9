import assert from 'node:assert/strict'
import { beforeAll, test } from 'vitest'
import { type Abi, type Address, encodeFunctionData } from 'viem'
import { deployContractAndWait } from '../../src/devnet/deployContractAndWait.ts'
import { deployTestToken } from '../../src/devnet/deployTestToken.ts'
import { loadStandInArtifacts } from '../../src/devnet/loadStandInArtifacts.ts'
import { sendAndWait } from '../../src/devnet/sendAndWait.ts'
import { useDevnet } from '../fixtures/useDevnet.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { testTokenAbi } from '../differential/harnessContracts.ts'

// The four closed-curve prop AMM stand-ins (contracts/propswap, tessera, elfomofi, feltir) on
// anvil, each through its own published entry points: the quote equals what the swap pays; an
// output minimum one above the quote reverts with the venue's error; a stale state (the operator
// silent for `blockDelay` blocks) and a paused venue quote 0 and do not swap; the operator's
// inventory cap (only the operator's) makes the quote fall past it, exactly `cap² / out`; Feltir's
// cumulative input limit per direction is spent by swaps and refuses quotes beyond it.

const Q96 = 1n << 96n
const BLOCK_DELAY = 5n
// 3,000 USDC (6 decimals) per WETH (18 decimals): raw USDC per raw WETH, Q96.
const PRICE_X96 = (3000n * 10n ** 6n * Q96) / 10n ** 18n
const DEPTH_BASE = 500n * 10n ** 18n
const DEPTH_QUOTE = 1_500_000n * 10n ** 6n
const FEE_PIPS = 500n
const FAR = (1n << 64n) - 1n

const devnet = useDevnet()
let owner: Address
let trader: Address
let weth: Address
let usdc: Address
let cbbtc: Address
beforeAll(async () => {
  ;[owner, trader] = await devnet.walletClient.getAddresses()
  weth = await deployTestToken({ devnet, name: 'Wrapped Ether', symbol: 'WETH', decimals: 18 })
  usdc = await deployTestToken({ devnet, name: 'USD Coin', symbol: 'USDC', decimals: 6 })
  cbbtc = await deployTestToken({ devnet, name: 'Coinbase BTC', symbol: 'cbBTC', decimals: 8 })
  for (const token of [weth, usdc, cbbtc]) await mint(token, trader, 10n ** 40n)
})

const lower = (address: string) => address.toLowerCase()
const mint = (token: Address, to: Address, amount: bigint) =>
  writeContractAndWait({ devnet, address: token, abi: testTokenAbi, functionName: 'mint', args: [to, amount] })
const approve = (token: Address, spender: Address) =>
  writeContractAndWait({
    devnet,
    address: token,
    abi: testTokenAbi,
    functionName: 'approve',
    args: [spender, (1n << 256n) - 1n],
    from: trader,
  })
const balance = async (token: Address, who: Address) =>
  (await devnet.publicClient.readContract({ address: token, abi: testTokenAbi, functionName: 'balanceOf', args: [who] })) as bigint
const view = async (address: Address, abi: Abi, functionName: string, args: readonly unknown[]) =>
  devnet.publicClient.readContract({ address, abi, functionName, args, account: trader })
const call = (address: Address, abi: Abi, functionName: string, args: readonly unknown[] = [], from = owner) =>
  writeContractAndWait({ devnet, address, abi, functionName, args, from })

/** Sends from the trader and returns the revert's error name, or '' when it succeeded. */
async function attempt(address: Address, abi: Abi, functionName: string, args: readonly unknown[]): Promise<string> {
  try {
    await devnet.publicClient.simulateContract({ address, abi, functionName, args, account: trader })
  } catch (error) {
    return (error as { cause?: { data?: { errorName?: string } } }).cause?.data?.errorName ?? 'reverted'
  }
  await sendAndWait({ devnet, to: address, data: encodeFunctionData({ abi, functionName, args }), from: trader, gas: 2_000_000n })
  return ''
}

type Venue = {
  quote: (tokenIn: Address, tokenOut: Address, amountIn: bigint) => Promise<bigint>
  swap: (tokenIn: Address, tokenOut: Address, amountIn: bigint, minOut: bigint, recipient: Address) => Promise<string>
  reprice: () => Promise<unknown>
  pause: (paused: boolean) => Promise<unknown>
  minOutError: string
  /** The priced contract of the base/USDC pair (its operator sets the inventory cap) and where its inventory is. */
  operated: { address: Address; abi: Abi; holder: Address }
  /** Its block delay, when not BLOCK_DELAY. */
  blockDelay?: bigint
}

/** Quote = paid, min-out, staleness, pause and the inventory cap, on a venue trading `base`/USDC both ways. */
async function checkVenue(name: string, venue: Venue, base: Address, amountBase: bigint) {
  const recipient = `0x${name.length.toString(16).padStart(4, '0')}000000000000000000000000000000000000` as Address
  await venue.reprice()
  for (const [tokenIn, tokenOut, amountIn] of [
    [base, usdc, amountBase],
    [usdc, base, 7_000n * 10n ** 6n],
  ] as const) {
    const quoted = await venue.quote(tokenIn, tokenOut, amountIn)
    assert.ok(quoted > 0n, `${name}: a fresh quote pays`)
    assert.equal(
      await venue.swap(tokenIn, tokenOut, amountIn, quoted + 1n, recipient),
      venue.minOutError,
      `${name}: paid less than the minimum`,
    )
    const before = await balance(tokenOut, recipient)
    assert.equal(await venue.swap(tokenIn, tokenOut, amountIn, quoted, recipient), '', `${name}: the swap at its quote`)
    assert.equal((await balance(tokenOut, recipient)) - before, quoted, `${name}: the swap pays its quote exactly`)
  }
  // A larger trade gets a worse average price (the curve is concave).
  const small = await venue.quote(base, usdc, amountBase)
  const large = await venue.quote(base, usdc, amountBase * 100n)
  assert.ok(large < small * 100n, `${name}: concave in size`)
  await devnet.testClient.mine({ blocks: Number(venue.blockDelay ?? BLOCK_DELAY) })
  assert.equal(await venue.quote(base, usdc, amountBase), 0n, `${name}: stale quotes are 0`)
  assert.notEqual(await venue.swap(base, usdc, amountBase, 0n, recipient), '', `${name}: a stale venue does not swap`)
  await venue.reprice()
  assert.ok((await venue.quote(base, usdc, amountBase)) > 0n, `${name}: the operator's update makes it fresh`)
  await venue.pause(true)
  assert.equal(await venue.quote(base, usdc, amountBase), 0n, `${name}: paused quotes are 0`)
  assert.notEqual(await venue.swap(base, usdc, amountBase, 0n, recipient), '', `${name}: a paused venue does not swap`)
  await venue.pause(false)
  await checkInventoryCap(name, venue, base, amountBase)
}

/** Off by default and only the operator's: with a cap of 10 % of the USDC inventory, outputs above it are quoted `cap² / out`. */
async function checkInventoryCap(name: string, venue: Venue, base: Address, amountBase: bigint) {
  const { address, abi, holder } = venue.operated
  assert.equal(await view(address, abi, 'inventoryCapBps', []), 0, `${name}: no cap by default`)
  assert.equal(await attempt(address, abi, 'setInventoryCap', [1_000]), 'NotOperator', `${name}: only the operator sets the cap`)
  await venue.reprice()
  const sizes = [10n, 50n, 100n, 150n, 300n].map((k) => k * amountBase)
  const quotes = () => Promise.all(sizes.map((amountIn) => venue.quote(base, usdc, amountIn)))
  await call(address, abi, 'setInventoryCap', [1_000])
  const capped = await quotes()
  await call(address, abi, 'setInventoryCap', [0])
  const plain = await quotes()
  const cap = ((await balance(usdc, holder)) * 1_000n) / 10_000n
  assert.ok(plain.at(-1)! > cap, `${name}: the largest size pays past the cap`)
  assert.deepEqual(
    capped,
    plain.map((out) => (out > cap ? (cap * cap) / out : out)),
    `${name}: past the cap the quote is cap² / out`,
  )
  assert.ok(capped.at(-1)! < capped.at(-2)!, `${name}: the capped quote view is not monotone: ${capped}`)
}

test('PROPSWAP: router quotes equal swaps, one hop and two through USDC; min-out, stale, paused and the inventory cap', async () => {
  const { PropSwapRouter, PropPool } = loadStandInArtifacts({ protocol: 'propswap' })
  const [routerAbi, poolAbi] = [PropSwapRouter.abi as Abi, PropPool.abi as Abi]
  const router = await deployContractAndWait({ devnet, artifact: PropSwapRouter, args: [usdc, owner] })
  const wethPool = await deployContractAndWait({ devnet, artifact: PropPool, args: [weth, usdc, owner, router, BLOCK_DELAY] })
  const btcPool = await deployContractAndWait({ devnet, artifact: PropPool, args: [cbbtc, usdc, owner, router, BLOCK_DELAY] })
  for (const pool of [wethPool, btcPool]) await call(router, routerAbi, 'listPool', [pool])
  await mint(weth, wethPool, 1_000n * 10n ** 18n)
  await mint(usdc, wethPool, 3_000_000n * 10n ** 6n)
  await mint(cbbtc, btcPool, 100n * 10n ** 8n)
  await mint(usdc, btcPool, 9_000_000n * 10n ** 6n)
  for (const token of [weth, usdc, cbbtc]) await approve(token, router)
  const btcPrice = (90_000n * 10n ** 6n * Q96) / 10n ** 8n
  const reprice = async () => {
    await call(wethPool, poolAbi, 'updatePrice', [PRICE_X96, DEPTH_BASE, DEPTH_QUOTE, FEE_PIPS])
    await call(btcPool, poolAbi, 'updatePrice', [btcPrice, 50n * 10n ** 8n, 4_500_000n * 10n ** 6n, FEE_PIPS])
  }
  assert.deepEqual(((await view(router, routerAbi, 'getListedTokens', [])) as Address[]).map(lower), [weth, cbbtc].map(lower))
  const venue: Venue = {
    quote: async (i, o, a) => (await view(router, routerAbi, 'quoteExactInput', [i, o, a])) as bigint,
    swap: (i, o, a, m, r) => attempt(router, routerAbi, 'swapExactInput', [i, o, a, m, r, FAR]),
    reprice,
    pause: async (p) => {
      await call(wethPool, poolAbi, 'setPaused', [p])
      await call(btcPool, poolAbi, 'setPaused', [p])
    },
    minOutError: 'InsufficientOutput',
    operated: { address: wethPool, abi: poolAbi, holder: wethPool },
  }
  await checkVenue('propswap', venue, weth, 10n ** 18n)
  // Two hops: WETH -> USDC -> cbBTC, the quote equals the payment.
  await reprice()
  const amountIn = 2n * 10n ** 18n
  const quoted = await venue.quote(weth, cbbtc, amountIn)
  const viaUsdc = (await view(wethPool, poolAbi, 'quoteExactInput', [weth, amountIn])) as bigint
  assert.equal(quoted, (await view(btcPool, poolAbi, 'quoteExactInput', [usdc, viaUsdc])) as bigint)
  const before = await balance(cbbtc, trader)
  assert.equal(await venue.swap(weth, cbbtc, amountIn, quoted, trader), '')
  assert.equal((await balance(cbbtc, trader)) - before, quoted)
})

const DECAY = 3n
const TESSERA_DELAY = 10n

test('TESSERA: view amounts equal swaps; the fee decays after a re-price; min-out, stale, paused and the inventory cap', async () => {
  const { TesseraSwap, TesseraPool } = loadStandInArtifacts({ protocol: 'tessera' })
  const [swapAbi, poolAbi] = [TesseraSwap.abi as Abi, TesseraPool.abi as Abi]
  const engine = await deployContractAndWait({ devnet, artifact: TesseraSwap, args: [owner] })
  const pool = await deployContractAndWait({ devnet, artifact: TesseraPool, args: [weth, usdc, owner, engine, TESSERA_DELAY] })
  await call(engine, swapAbi, 'registerPool', [pool])
  await call(pool, poolAbi, 'setFeeDecay', [5_000, DECAY])
  await mint(weth, pool, 1_000n * 10n ** 18n)
  await mint(usdc, pool, 3_000_000n * 10n ** 6n)
  for (const token of [weth, usdc]) await approve(token, engine)
  const reprice = () => call(pool, poolAbi, 'updatePrice', [PRICE_X96, DEPTH_BASE, DEPTH_QUOTE, FEE_PIPS])
  const quote = async (i: Address, o: Address, a: bigint) =>
    ((await view(engine, swapAbi, 'tesseraSwapViewAmounts', [i, o, a])) as [bigint, bigint])[1]
  await reprice()
  const first = await quote(weth, usdc, 10n ** 18n)
  await devnet.testClient.mine({ blocks: 2 })
  const later = await quote(weth, usdc, 10n ** 18n)
  assert.ok(later > first, 'the fee decays block by block after a re-price')
  assert.equal(lower((await view(engine, swapAbi, 'getTesseraPool', [usdc, weth])) as Address), lower(pool))
  // While the fee decays, a swap a block after its quote pays more than the quote; past the decay
  // they are equal, so the shared checks re-price and then let the decay run out.
  await checkVenue(
    'tessera',
    {
      quote,
      swap: (i, o, a, m, r) => attempt(engine, swapAbi, 'tesseraSwapWithAllowances', [i, o, a, m, r, '0x']),
      reprice: async () => {
        await reprice()
        await devnet.testClient.mine({ blocks: Number(DECAY) })
      },
      blockDelay: TESSERA_DELAY,
      pause: (p) => call(pool, poolAbi, 'setPaused', [p]),
      minOutError: 'AmountCheckFailed',
      operated: { address: pool, abi: poolAbi, holder: pool },
    },
    weth,
    10n ** 18n,
  )
})

test('ELFOMOFI: getAmountOut equals swapWithCallback paid through an authenticated callback; min-out, stale, paused and the inventory cap', async () => {
  const { ElfomoFi } = loadStandInArtifacts({ protocol: 'elfomofi' })
  const abi = ElfomoFi.abi as Abi
  const venueAddress = await deployContractAndWait({ devnet, artifact: ElfomoFi, args: [weth, usdc, owner, BLOCK_DELAY] })
  const payer = await deployContractAndWait({ devnet, artifact: devnet.artifacts.ElfomoFiCallbackPayer })
  // The venue's errors bubble up through the payer.
  const payerAbi = [...(devnet.artifacts.ElfomoFiCallbackPayer.abi as Abi), ...abi.filter((item) => item.type === 'error')]
  await mint(weth, venueAddress, 1_000n * 10n ** 18n)
  await mint(usdc, venueAddress, 3_000_000n * 10n ** 6n)
  for (const token of [weth, usdc]) await approve(token, payer)
  // A swap called directly by an account (no callback to run) reverts: the input is pulled only through the callback.
  await call(venueAddress, abi, 'updatePrice', [PRICE_X96, DEPTH_BASE, DEPTH_QUOTE, FEE_PIPS])
  assert.notEqual(await attempt(venueAddress, abi, 'swapWithCallback', [weth, usdc, 10n ** 18n, 0n, trader, 0n, '0x']), '')
  await checkVenue(
    'elfomofi',
    {
      quote: async (i, o, a) => (await view(venueAddress, abi, 'getAmountOut', [i, o, a])) as bigint,
      swap: (i, o, a, m, r) => attempt(payer, payerAbi, 'swap', [venueAddress, i, o, a, m, r]),
      reprice: () => call(venueAddress, abi, 'updatePrice', [PRICE_X96, DEPTH_BASE, DEPTH_QUOTE, FEE_PIPS]),
      pause: (p) => call(venueAddress, abi, 'setPaused', [p]),
      minOutError: 'LimitNotMet',
      operated: { address: venueAddress, abi, holder: venueAddress },
    },
    weth,
    10n ** 18n,
  )
})

test('FELTIR: getAmountOut equals swap from the maker vault; the cumulative limit per direction; min-out, stale, paused and the inventory cap', async () => {
  const { Feltir } = loadStandInArtifacts({ protocol: 'feltir' })
  const abi = Feltir.abi as Abi
  const venueAddress = await deployContractAndWait({ devnet, artifact: Feltir, args: [weth, usdc, owner, BLOCK_DELAY] })
  const vault = (await view(venueAddress, abi, 'vault', [])) as Address
  await mint(weth, vault, 1_000n * 10n ** 18n)
  await mint(usdc, vault, 3_000_000n * 10n ** 6n)
  for (const token of [weth, usdc]) await approve(token, venueAddress)
  await call(venueAddress, abi, 'setSwapLimit', [weth, usdc, 500n * 10n ** 18n])
  await call(venueAddress, abi, 'setSwapLimit', [usdc, weth, 100_000n * 10n ** 6n])
  const [ids, token0, token1] = (await view(venueAddress, abi, 'getPools', [])) as [string[], Address[], Address[]]
  assert.deepEqual([ids.length, lower(token0[0]), lower(token1[0])], [1, lower(weth), lower(usdc)])
  const reprice = () => call(venueAddress, abi, 'setOracle', [PRICE_X96, DEPTH_BASE, DEPTH_QUOTE, FEE_PIPS])
  await checkVenue(
    'feltir',
    {
      quote: async (i, o, a) => (await view(venueAddress, abi, 'getAmountOut', [i, o, a])) as bigint,
      swap: (i, o, a, m, r) => attempt(venueAddress, abi, 'swap', [i, o, a, m, r]),
      reprice,
      pause: (p) => call(venueAddress, abi, 'setPaused', [p]),
      minOutError: 'LimitNotMet',
      operated: { address: venueAddress, abi, holder: vault },
    },
    weth,
    10n ** 18n,
  )
  // checkVenue swapped 1 WETH in: the WETH -> USDC limit has 499 left; 500 is refused, and a 499 swap spends it.
  assert.equal(await view(venueAddress, abi, 'remainingIn', [weth, usdc]), 499n * 10n ** 18n)
  await reprice()
  await assert.rejects(view(venueAddress, abi, 'getAmountOut', [weth, usdc, 500n * 10n ** 18n]), /SwapLimitExceeded/)
  assert.equal(await attempt(venueAddress, abi, 'swap', [weth, usdc, 499n * 10n ** 18n, 0n, trader]), '')
  assert.equal(await attempt(venueAddress, abi, 'swap', [weth, usdc, 1n, 0n, trader]), 'SwapLimitExceeded')
  // The other direction has its own limit.
  assert.ok(((await view(venueAddress, abi, 'getAmountOut', [usdc, weth, 1_000n * 10n ** 6n])) as bigint) > 0n)
})
