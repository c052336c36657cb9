import { type Abi, type Address, encodeFunctionData, getAddress, type Hex, maxUint256, parseAbi, parseEther, toHex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { deployAerodrome } from '../deployAerodrome.ts'
import { deployAlgebraIntegral } from '../deployAlgebraIntegral.ts'
import { deployAlienBaseV3 } from '../deployAlienBaseV3.ts'
import { deployContractAndWait } from '../deployContractAndWait.ts'
import { deployCurveCryptoMarket } from '../deployCurveCryptoMarket.ts'
import { deployCurveTricryptoMarket } from '../deployCurveTricryptoMarket.ts'
import { deployCurveStableSwapMarket } from '../deployCurveStableSwapMarket.ts'
import { deployDodoV2Market } from '../deployDodoV2Market.ts'
import { deployGyroECLPMarket } from '../deployGyroECLPMarket.ts'
import { deployMaverickV2Market } from '../deployMaverickV2Market.ts'
import { deployPancakeInfinity } from '../deployPancakeInfinity.ts'
import { deployPancakeV2 } from '../deployPancakeV2.ts'
import { deployPancakeV3 } from '../deployPancakeV3.ts'
import { deploySlipstream } from '../deploySlipstream.ts'
import { deployTestToken } from '../deployTestToken.ts'
import { deployUniswapV2 } from '../deployUniswapV2.ts'
import { deployUniswapV3 } from '../deployUniswapV3.ts'
import { deployUniswapV4 } from '../deployUniswapV4.ts'
import { multicall3Address } from '../../chains/multicall3Address.ts'
import { deployPropAmms } from '../propAmm/deployPropAmms.ts'
import { deployWoofiMarket } from '../deployWoofiMarket.ts'
import { loadStandInArtifacts } from '../loadStandInArtifacts.ts'
import { sendAndWait } from '../sendAndWait.ts'
import type { Devnet } from '../startDevnet.ts'
import { writeContractAndWait } from '../writeContractAndWait.ts'
import { baseMarketPools } from './baseMarketPools.ts'
import { baseMarketTokens, type MarketToken } from './baseMarketTokens.ts'
import { createSeedPool } from './createSeedPool.ts'
import { createSeedPrng } from './createSeedPrng.ts'
import type { DevnetDescription, SeededFactories, SeededPool } from './DevnetDescription.ts'
import { deploySeedRouter } from './deploySeedRouter.ts'
import { type BatchCall, sendBatchAndMine } from './sendBatchAndMine.ts'

/** anvil's default dev mnemonic: its first 10 accounts are the funded test accounts. */
const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk'
/**
 * Provides every pool's liquidity, so the test accounts start with round balances. An impersonated
 * address (no key): only the seed sends from it.
 */
const LIQUIDITY_PROVIDER: Address = '0x5eed000000000000000000000000000000001a9e'
/** What each test account is given of every token, in USD, plus this much WETH. */
const ACCOUNT_TOKEN_USD = 1_000_000
const ACCOUNT_WETH = parseEther('100')
/** Largest relative price difference between venues of one pair (each venue draws in ±this). */
const VENUE_PRICE_SPREAD = 0.003
/**
 * Slipstream's dynamic swap-fee module: 1 pip per tick between the price and its time-weighted
 * average over the last minute (so a 1 % move adds about 0.01 %), capped at 2 %. It applies once a
 * pool's oracle holds 30 observations, which the seed pays for: fees then move block by block,
 * without an event, after every trade (docs/quote.md, "The block promise").
 */
const SLIPSTREAM_FEE_MODULE = { defaultScalingFactor: 1_000_000n, defaultFeeCap: 20_000, secondsAgo: 60 }

const tokenAbi = parseAbi([
  'function mint(address to, uint256 amount)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function deposit() payable',
])

export type SeedBaseMarketParameters = {
  devnet: Devnet
  /** Same seed, same market (addresses, prices, positions). */
  seed: number
  stateKey: string
}

export type SeedBaseMarketReturnType = {
  /** The description, without a meaningful `rpcUrl` (set by whoever serves the chain). */
  description: DevnetDescription
  transactions: number
}

/**
 * Seeds a fresh devnet with the Base-like market: WETH9 and nine permit tokens, Uniswap V2/V3/V4,
 * AlienBase V3, PancakeSwap V3 and two Algebra Integral instances (QuickSwap V4, Hydrex) with the
 * base plugin, all from npm bytecode, and our stand-ins of Aerodrome (volatile and stable pools),
 * Slipstream (with its dynamic swap-fee module), PancakeSwap V2 and PancakeSwap Infinity CL (with
 * protocol fees); 96 pools with reserves or four concentrated positions each; the five prop AMMs
 * (`deployPropAmms`) on WETH/USDC and cbBTC/USDC, priced once (the keeper re-prices them); a WOOFi
 * vault over WETH, cbBTC and cbETH against USDC (`deployWoofiMarket`; the keeper keeps its oracle fresh);
 * the Curve StableSwap market (`deployCurveStableSwapMarket`: five NG pools, a legacy and a meta pool);
 * three Curve twocrypto-ng pools on our stand-in (`deployCurveCryptoMarket`: USDC/cbBTC, USDC/AERO, cbETH/DEGEN);
 * Balancer's own V2 Vault with four Gyroscope E-CLPs (our stand-in pool, `deployGyroECLPMarket`);
 * a Curve tricrypto-ng pool on our stand-in over tricrypto-ng's math contract (`deployCurveTricryptoMarket`: USDC/cbBTC/WETH);
 * the first 10 anvil accounts funded with every token and WETH. Contracts and pools are created one
 * transaction at a time (their addresses come from nonces and reads); liquidity and funding go in
 * one batch with automine off.
 *
 * @example
 * const { description } = await seedBaseMarket({ devnet, seed: 8453, stateKey })
 * // → description: tokens, factories, router, pools and funded accounts (what var/devnet.json holds); also transactions: how many were sent
 */
export async function seedBaseMarket({ devnet, seed, stateKey }: SeedBaseMarketParameters): Promise<SeedBaseMarketReturnType> {
  const request = (method: string, params: unknown[]) => devnet.publicClient.request({ method: method as never, params: params as never })
  const accounts = Array.from({ length: 10 }, (_, i) => {
    const account = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: i })
    return { address: account.address, privateKey: toHex(account.getHdKey().privateKey!) as Hex }
  })
  if (getAddress(accounts[0].address) !== getAddress(devnet.account)) throw new Error('anvil is not running with its default mnemonic')

  // Contracts, in a fixed order so their addresses are the same on every seed.
  const weth = await deployContractAndWait({ devnet, artifact: devnet.artifacts.WETH9 })
  const tokens: Record<string, { address: Address; token: MarketToken }> = {}
  for (const token of baseMarketTokens) {
    const address =
      token.symbol === 'WETH' ? weth : await deployTestToken({ devnet, name: token.name, symbol: token.symbol, decimals: token.decimals })
    tokens[token.symbol] = { address: getAddress(address), token }
  }
  const harness = await deployContractAndWait({ devnet, artifact: devnet.artifacts.PoolHarness })
  const uniswapV2 = await deployUniswapV2({ devnet })
  const uniswapV3 = await deployUniswapV3({ devnet })
  const alienBaseV3 = await deployAlienBaseV3({ devnet })
  const pancakeV3 = await deployPancakeV3({ devnet })
  const uniswapV4 = await deployUniswapV4({ devnet })
  const quickswap = await deployAlgebraIntegral({ devnet })
  const hydrex = await deployAlgebraIntegral({ devnet })
  const aerodrome = await deployAerodrome({ devnet })
  const slipstream = await deploySlipstream({ devnet, swapFeeModule: SLIPSTREAM_FEE_MODULE })
  const pancakeV2 = await deployPancakeV2({ devnet })
  const infinity = await deployPancakeInfinity({ devnet })
  const factories: SeededFactories = checksummed({
    UNIV2: uniswapV2,
    UNIV3: uniswapV3,
    ALIEN_BASE_V3: alienBaseV3,
    PANCAKE_V3: { factory: pancakeV3.factory, poolDeployer: pancakeV3.poolDeployer },
    UNIV4: uniswapV4,
    QUICKSWAP_V4: quickswap,
    HYDREX: hydrex,
    AERODROME_V2LIKE: aerodrome,
    AERODROME_CL: {
      factory: slipstream.factory,
      implementation: slipstream.implementation,
      swapFeeModule: slipstream.swapFeeModule as Address,
    },
    PANCAKE_V2: pancakeV2,
    PANCAKE_INFINITY_CL: {
      poolManager: infinity.clPoolManager,
      vault: infinity.vault,
      protocolFeeController: infinity.protocolFeeController,
      testRouter: infinity.testRouter,
    },
  })
  const router = await deploySeedRouter({ devnet, weth, factories })

  // The liquidity provider: plenty of ETH wrapped into WETH, every other token minted, approvals.
  await request('anvil_setBalance', [LIQUIDITY_PROVIDER, toHex(parseEther('10000000'))])
  await request('anvil_impersonateAccount', [LIQUIDITY_PROVIDER])
  const lpCalls: BatchCall[] = [
    {
      from: LIQUIDITY_PROVIDER,
      to: weth,
      value: parseEther('5000000'),
      label: 'LP wraps ETH',
      data: encodeFunctionData({ abi: tokenAbi, functionName: 'deposit' }),
    },
  ]
  for (const { address, token } of Object.values(tokens)) {
    if (token.symbol !== 'WETH') {
      // Far more than any pool needs; the LP's leftovers are of no interest.
      lpCalls.push({
        to: address,
        label: `mint ${token.symbol} to LP`,
        data: encodeFunctionData({ abi: tokenAbi, functionName: 'mint', args: [LIQUIDITY_PROVIDER, 10n ** BigInt(token.decimals + 15)] }),
      })
    }
    for (const spender of [harness, uniswapV4.liquidityRouter, infinity.testRouter]) {
      lpCalls.push({
        from: LIQUIDITY_PROVIDER,
        to: address,
        label: `LP approves ${token.symbol}`,
        data: encodeFunctionData({ abi: tokenAbi, functionName: 'approve', args: [spender, maxUint256] }),
      })
    }
  }

  // Transactions of different senders in one block have no guaranteed order: the LP is funded
  // (by the deployer) in a block of its own, before it pays for any liquidity.
  await sendBatchAndMine({ devnet, calls: lpCalls })

  // Pools: created and initialized now, filled in the next batch.
  const calls: BatchCall[] = []
  const next = createSeedPrng({ seed })
  const pools: SeededPool[] = []
  for (const spec of baseMarketPools) {
    const offset = (next() * 2 - 1) * VENUE_PRICE_SPREAD
    const { pool, liquidityCalls } = await createSeedPool({
      devnet,
      spec,
      tokens,
      factories,
      liquidityProvider: LIQUIDITY_PROVIDER,
      harness,
      offset,
    })
    pools.push(pool)
    calls.push(...liquidityCalls)
  }

  // The test accounts: every token and some WETH.
  for (const account of accounts) {
    for (const { address, token } of Object.values(tokens)) {
      if (token.symbol === 'WETH') continue
      const amount = BigInt(Math.round(ACCOUNT_TOKEN_USD / token.priceUsd)) * 10n ** BigInt(token.decimals)
      calls.push({
        to: address,
        label: `mint ${token.symbol} to ${account.address}`,
        data: encodeFunctionData({ abi: tokenAbi, functionName: 'mint', args: [account.address, amount] }),
      })
    }
    calls.push({
      from: account.address,
      to: weth,
      value: ACCOUNT_WETH,
      label: `${account.address} wraps ETH`,
      data: encodeFunctionData({ abi: tokenAbi, functionName: 'deposit' }),
    })
  }
  await sendBatchAndMine({ devnet, calls })
  // DODO V2: a DVM, two DSPs and a DPP (`deployDodoV2Market`), deposits paid by the LP.
  const dodo = await deployDodoV2Market({ devnet, tokens: descriptionTokens(tokens), funder: LIQUIDITY_PROVIDER })
  factories.DODO_V2 = { factory: getAddress(dodo.factory), feeRateModel: getAddress(dodo.feeRateModel) }
  // Maverick V2: WETH/USDC, USDC/USDbC, a one-sided cbETH/WETH (`deployMaverickV2Market`), owned and paid by the LP.
  const maverick = await deployMaverickV2Market({ devnet, tokens: descriptionTokens(tokens), funder: LIQUIDITY_PROVIDER })
  factories.MAVERICK_V2 = { factory: getAddress(maverick.factory) }
  await request('anvil_stopImpersonatingAccount', [LIQUIDITY_PROVIDER])

  // The prop AMMs, priced around each pair's first UNIV3 pool (its deepest: baseMarketPools).
  const referenceOf = (base: string) => {
    const pool = pools.find((p) => p.dex === 'UNIV3' && p.symbols.includes(base) && p.symbols.includes('USDC'))
    if (!pool) throw new Error(`seed: no UNIV3 ${base}/USDC pool to price the prop AMMs around`)
    return pool.address as Address
  }
  const propAmms = await deployPropAmms({
    devnet,
    tokens: descriptionTokens(tokens),
    priceUsd: Object.fromEntries(baseMarketTokens.map((t) => [t.symbol, t.priceUsd])),
    references: { WETH: referenceOf('WETH'), cbBTC: referenceOf('cbBTC') },
    router,
  })
  // The WOOFi vault over WETH, cbBTC and cbETH (USDC quote); the prop AMM relay is made an admin of
  // its Wooracle, so the keeper that re-prices the venues keeps the oracle fresh in the same block.
  const woofi = await deployWoofiMarket({ devnet, tokens: descriptionTokens(tokens) })
  await writeContractAndWait({
    devnet,
    address: woofi.oracle,
    abi: loadStandInArtifacts({ protocol: 'woofi' }).WooracleV2_2.abi,
    functionName: 'setAdmin',
    args: [propAmms.relay, true],
  })
  // Curve: StableSwap-NG pools (Curve's own bytecode) through the factory, a legacy plain pool and a meta pool on it.
  const curve = await deployCurveStableSwapMarket({ devnet, tokens: descriptionTokens(tokens) })
  // Curve CryptoSwap: three twocrypto-ng pools on our stand-in, through its factory.
  const curveCrypto = await deployCurveCryptoMarket({ devnet, tokens: descriptionTokens(tokens) })

  // The deployer's own coins for the pools it funds: its WETH9 comes from ETH added for it.
  const fundDeployer = async (token: Address, amount: bigint) => {
    if (token.toLowerCase() !== weth.toLowerCase()) {
      await writeContractAndWait({ devnet, address: token, abi: tokenAbi, functionName: 'mint', args: [devnet.account, amount] })
      return
    }
    const eth = await devnet.publicClient.getBalance({ address: devnet.account })
    await request('anvil_setBalance', [devnet.account, toHex(eth + amount)])
    await sendAndWait({ devnet, to: weth, value: amount, data: encodeFunctionData({ abi: tokenAbi, functionName: 'deposit' }) })
  }
  // Balancer's V2 Vault with four Gyroscope E-CLPs (our stand-in pool), two of them rated
  // (deployGyroECLPMarket). The deployer deposits.
  const gyro = await deployGyroECLPMarket({ devnet, tokens: descriptionTokens(tokens), fund: fundDeployer })
  factories.GYROSCOPE_ECLP = {
    address: getAddress(gyro.vault),
    cbETHRateProvider: getAddress(gyro.rateProviders.cbETH),
    wstETHRateProvider: getAddress(gyro.rateProviders.wstETH),
  } // Curve CryptoSwap: a tricrypto-ng pool (USDC/cbBTC/WETH) on our stand-in and tricrypto-ng's own
  // math contract; deployed last, so every address before it stays the same.
  const curveTricrypto = await deployCurveTricryptoMarket({ devnet, tokens: descriptionTokens(tokens), fund: fundDeployer })

  const description: DevnetDescription = {
    rpcUrl: devnet.anvil.url,
    chainId: devnet.chain.id,
    router,
    weth: getAddress(weth),
    multicall: multicall3Address,
    tokens: descriptionTokens(tokens),
    pools,
    propAmms,
    woofi: {
      pool: getAddress(woofi.pool),
      oracle: getAddress(woofi.oracle),
      router: getAddress(woofi.router),
      feeds: woofi.feeds.map((feed) => getAddress(feed)),
      bases: woofi.bases.map(({ symbol, token }) => ({ symbol, token: getAddress(token) })),
    },
    curve,
    curveCrypto,
    curveTricrypto,
    factories: { ...factories, CURVE: { factory: getAddress(curve.factory), views: getAddress(curve.views) } },
    helpers: { poolHarness: getAddress(harness) },
    accounts,
    seed,
    stateKey,
  }
  let transactions = 0
  for (const sender of [LIQUIDITY_PROVIDER, ...accounts.map((a) => a.address)]) {
    transactions += Number(await request('eth_getTransactionCount', [sender, 'latest']))
  }
  return { description, transactions }
}

/** The market's tokens by symbol, as `var/devnet.json` lists them. */
function descriptionTokens(tokens: Record<string, { address: Address; token: MarketToken }>) {
  return Object.fromEntries(Object.values(tokens).map(({ address, token }) => [token.symbol, { address, decimals: token.decimals }]))
}

/** Receipts give lowercase addresses; the description lists checksummed ones (hashes stay as they are). */
function checksummed(factories: SeededFactories): SeededFactories {
  const checksum = (v: string) => (v.length === 42 ? getAddress(v) : v)
  return Object.fromEntries(
    Object.entries(factories).map(([dex, addresses]) => [
      dex,
      Object.fromEntries(Object.entries(addresses).map(([k, v]) => [k, checksum(v as string)])),
    ]),
  ) as SeededFactories
}
