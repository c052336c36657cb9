// Writes a synthetic market and its benchmark trades as one JSON file, for profiling the solver
// without Node (solver-rs/examples/quote_profile.rs reads it):
//
//   node --import tsx bench/dumpSyntheticMarket.ts --pools 1000 --out /tmp/market-1000.json
//   cargo run --release --example quote_profile -- /tmp/market-1000.json 200
//
// `--sizes 0.01,1,100` dumps each trade at those multiples of about $10,000 (hops first, then
// sizes); `--gas-price 0` dumps them with gas not priced (the quality bench's gas-free quotes);
// `--families all` dumps the market with every pool family (test/fixtures/syntheticFamilies.ts).
import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { createSyntheticMarket } from '../test/fixtures/syntheticMarket.ts'
import type { SyntheticFamilies } from '../test/fixtures/syntheticFamilies.ts'

const { values } = parseArgs({
  options: {
    pools: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '7' },
    sizes: { type: 'string', default: '1' },
    'gas-price': { type: 'string', default: '10000000' },
    families: { type: 'string', default: 'default' },
    out: { type: 'string' },
  },
})
const pools = Number(values.pools)
const families = values.families as SyntheticFamilies
const market = createSyntheticMarket({ pools, seed: Number(values.seed), families })
// The same trades and request fields as bench/solver.bench.ts.
const sizes = values.sizes.split(',').map(Number)
const requests = ([1, 2, 3] as const).flatMap((hops) =>
  sizes.map((size) => {
    return market.quoteRequest(hops, { usd: 10_000 * size, splitEnabled: true, gasPriceWei: values['gas-price'] })
  }),
)
const out = values.out ?? `market-${pools}.json`
writeFileSync(out, JSON.stringify({ config: { nativeToken: market.nativeToken }, pools: market.pools, requests }))
console.log(`${out}: ${market.pools.length} pools, ${requests.length} requests`)
