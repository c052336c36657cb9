// Writes the embedded market's pools with a set of trades as one JSON file, for profiling the
// solver on the service's own market without Node (solver-rs/examples/quote_profile.rs reads it).
// The pools come from the route-quality test, which writes the saved chain's and the re-priced
// one's (prop AMMs re-priced by the keeper, as `npm start`'s service has them):
//
//   ROUTE_QUALITY_DUMP=/tmp/emb-pools.json npx vitest run test/routeQualityEmbedded.test.ts
//   node --import tsx bench/dumpEmbeddedMarket.ts --pools /tmp/emb-pools-fresh.json --out /tmp/emb-1weth-fresh.json
//   target/release/examples/quote_profile /tmp/emb-1weth-fresh.json 20 all split phases,fresh,budget=5000
//
// The requests, in order (3 hops, split, gas at 0.01 gwei): WETH → USDC at 0.1, 1 (the README's
// quote), 3 and 30 WETH; USDC → WETH 3,000 USDC; USDC → DAI 10,000; cbBTC → USDC 0.1 cbBTC; DAI →
// cbETH 10,000 DAI. Token addresses from `var/devnet.json` (written by the devnet's seed).
import { readFileSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: { pools: { type: 'string' }, devnet: { type: 'string', default: 'var/devnet.json' }, out: { type: 'string' } },
})
if (!values.pools || !values.out) throw new Error('usage: dumpEmbeddedMarket.ts --pools <ROUTE_QUALITY_DUMP file> --out <file>')
const tokens = (JSON.parse(readFileSync(values.devnet, 'utf8')) as { tokens: Record<string, { address: string }> }).tokens
const address = (symbol: string) => tokens[symbol]!.address.toLowerCase()
const trade = (tokenIn: string, tokenOut: string, amountIn: string) => ({
  tokenIn: address(tokenIn),
  tokenOut: address(tokenOut),
  amountIn,
  slippageBps: 50,
  maxHops: 3,
  splitEnabled: true,
  gasPriceWei: '10000000',
})
const requests = [
  trade('WETH', 'USDC', 10n ** 17n + ''),
  trade('WETH', 'USDC', 10n ** 18n + ''),
  trade('WETH', 'USDC', 3n * 10n ** 18n + ''),
  trade('WETH', 'USDC', 30n * 10n ** 18n + ''),
  trade('USDC', 'WETH', 3_000n * 10n ** 6n + ''),
  trade('USDC', 'DAI', 10_000n * 10n ** 6n + ''),
  trade('cbBTC', 'USDC', 10n ** 7n + ''),
  trade('DAI', 'cbETH', 10_000n * 10n ** 18n + ''),
]
const pools = JSON.parse(readFileSync(values.pools, 'utf8')) as unknown[]
writeFileSync(values.out, JSON.stringify({ config: { nativeToken: address('WETH') }, pools, requests }))
console.log(`${values.out}: ${pools.length} pools, ${requests.length} requests`)
