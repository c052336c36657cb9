import { type Address, encodeFunctionData, parseAbi } from 'viem'
import { deployWoofi } from './deployWoofi.ts'
import { loadStandInArtifacts } from './loadStandInArtifacts.ts'
import { sendAndWait } from './sendAndWait.ts'
import type { Devnet } from './startDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

export type DeployWoofiMarketParameters = {
  devnet: Devnet
  /** The embedded market's tokens by symbol (`DevnetDescription.tokens`): USDC, WETH (our WETH9), cbBTC and cbETH are used. */
  tokens: Record<string, { address: Address; decimals: number }>
}

export type WoofiMarketBase = {
  symbol: string
  token: Address
  /** The Wooracle price posted at deployment: USDC per whole token, 8 decimals. */
  price: bigint
  /** Its spread and slippage coefficient (18 decimals). */
  spread: bigint
  coeff: bigint
}

export type DeployWoofiMarketReturnType = {
  pool: Address
  oracle: Address
  router: Address
  /** The Chainlink feeds (8 decimals, settable), USDC first, then the bases in order. */
  feeds: Address[]
  bases: WoofiMarketBase[]
}

const tokenAbi = parseAbi(['function mint(address, uint256)', 'function approve(address, uint256) returns (bool)'])

/**
 * A WOOFi vault over the embedded market's tokens: WETH ($3,000), cbBTC ($60,000) and cbETH
 * ($3,300) against USDC, about $10M of each base and $30M of USDC deposited by the devnet account,
 * fee rate 2.5 bps, coefficients of 1e9 to 2e9 (1e-9 per dollar: a $1M trade moves the price about
 * 0.1 %), spreads of 2 to 4 bps, at most $5M notional and a gamma of 1 % per swap, the Wooracle
 * within its default 1 % of the Chainlink feeds and 300 s staleness. The oracle is updatable: its
 * admin (the devnet account) posts with `postState`/`postPrice`; after 300 s without a post its
 * prices are stale and the vault refuses to quote (no base is Chainlink-preferred). Part of the
 * default seed (`seedBaseMarket`), where the prop AMM keeper keeps the oracle fresh.
 *
 * @example
 * const { router, bases } = await deployWoofiMarket({ devnet, tokens: market.tokens })
 * bases.map((b) => [b.symbol, b.price]) // → [['WETH', 300000000000n], ['cbBTC', 6000000000000n], ['cbETH', 330000000000n]] (USDC per token, 8 decimals)
 */
export async function deployWoofiMarket({ devnet, tokens }: DeployWoofiMarketParameters): Promise<DeployWoofiMarketReturnType> {
  const { WooPPV2, WooracleV2_2 } = loadStandInArtifacts({ protocol: 'woofi' })
  const usdc = tokens.USDC
  const specs = [
    { symbol: 'WETH', usd: 3_000n, whole: 3_333n, spread: 3n * 10n ** 14n, coeff: 10n ** 9n },
    { symbol: 'cbBTC', usd: 60_000n, whole: 166n, spread: 2n * 10n ** 14n, coeff: 10n ** 9n },
    { symbol: 'cbETH', usd: 3_300n, whole: 3_030n, spread: 4n * 10n ** 14n, coeff: 2n * 10n ** 9n },
  ]
  const { pool, oracle, router, feeds } = await deployWoofi({
    devnet,
    quoteToken: usdc.address,
    baseTokens: specs.map((s) => tokens[s.symbol].address),
    weth: tokens.WETH.address,
    feedAnswers: [10n ** 8n, ...specs.map((s) => s.usd * 10n ** 8n)],
  })
  const onPool = (functionName: string, args: readonly unknown[]) =>
    writeContractAndWait({ devnet, address: pool, abi: WooPPV2.abi, functionName, args })
  const deposit = async (token: { address: Address; decimals: number }, whole: bigint) => {
    const amount = whole * 10n ** BigInt(token.decimals)
    if (token.address === tokens.WETH.address)
      await sendAndWait({
        devnet,
        to: token.address,
        data: encodeFunctionData({ abi: parseAbi(['function deposit() payable']) }),
        value: amount,
      })
    else await writeContractAndWait({ devnet, address: token.address, abi: tokenAbi, functionName: 'mint', args: [devnet.account, amount] })
    await writeContractAndWait({ devnet, address: token.address, abi: tokenAbi, functionName: 'approve', args: [pool, amount] })
    await onPool('deposit', [token.address, amount])
  }
  await deposit(usdc, 30_000_000n)
  const maxNotionalSwap = 5_000_000n * 10n ** BigInt(usdc.decimals)
  const bases: WoofiMarketBase[] = []
  for (const spec of specs) {
    const token = tokens[spec.symbol]
    await deposit(token, spec.whole)
    await onPool('setTokenInfo', [token.address, 25, 10n ** 16n, maxNotionalSwap])
    const price = spec.usd * 10n ** 8n
    await writeContractAndWait({
      devnet,
      address: oracle,
      abi: WooracleV2_2.abi,
      functionName: 'postState',
      args: [token.address, price, spec.spread, spec.coeff],
    })
    // The guardian's range: a tenth to ten times the price.
    await writeContractAndWait({
      devnet,
      address: oracle,
      abi: WooracleV2_2.abi,
      functionName: 'setRange',
      args: [token.address, price / 10n, price * 10n],
    })
    bases.push({ symbol: spec.symbol, token: token.address, price, spread: spec.spread, coeff: spec.coeff })
  }
  return { pool, oracle, router, feeds, bases }
}
