// The cost of a quote priced for a taker (DODO_V2 maintainer rates as `poolOverrides`) against the
// same quote without, on the embedded market, in one run (interleaved, so the machine's load falls
// on both alike). Run: node --import tsx bench/dodoTakerOverride.bench.ts [rounds]
import { parseEther } from 'viem'
import { startHttpTestStack } from '../test/http/startHttpTestStack.ts'

const rounds = Number(process.argv[2] ?? 40)
const stack = await startHttpTestStack()
try {
  const { solver, market, devnet } = stack.service
  const tokens = devnet!.market.tokens
  const dodo = market.pools().filter((p) => p.ref.dex === 'DODO_V2')
  const poolOverrides = dodo.map((p) => ({ poolId: p.input.id, mtFeeRate: (5n * 10n ** 15n).toString() }))
  // The whole market, and DODO_V2 alone (every plan through the overridden pools).
  for (const allowedDexes of [undefined, ['DODO_V2' as const]]) {
    const request = {
      tokenIn: tokens.WETH.address,
      tokenOut: tokens.USDC.address,
      amountIn: parseEther('3').toString(),
      slippageBps: 50,
      gasPriceWei: '10000000',
      timeBudgetMs: 10_000,
      allowedDexes,
    }
    const time = async (overrides: boolean) => {
      const started = performance.now()
      const plan = await solver.quote(overrides ? { ...request, poolOverrides } : request)
      return { ms: performance.now() - started, plan }
    }
    const first = await time(true) // builds the overridden pools' bound curves (kept for the snapshot)
    await time(false)
    const plain: number[] = []
    const overridden: number[] = []
    for (let k = 0; k < rounds; k++) {
      plain.push((await time(false)).ms)
      overridden.push((await time(true)).ms)
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
    const usesDodo = first.plan.routes.some((r) => r.legs.some((l) => l.dex === 'DODO_V2'))
    console.log(
      JSON.stringify({
        allowedDexes: allowedDexes ?? 'all',
        pools: market.pools().length,
        overriddenPools: poolOverrides.length,
        planUsesDodo: usesDodo,
        firstOverriddenMs: +first.ms.toFixed(2),
        medianPlainMs: +median(plain).toFixed(2),
        medianOverriddenMs: +median(overridden).toFixed(2),
        ratio: +(median(overridden) / median(plain)).toFixed(3),
        rounds,
      }),
    )
  }
} finally {
  await stack.close()
}
