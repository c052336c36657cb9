import { startHttpTestStack, KEY_A } from './test/http/startHttpTestStack.ts'
import { performance } from 'node:perf_hooks'
const stack = await startHttpTestStack()
const { devnet, solver } = stack.service
const body = { chainId: 8453, tokenIn: devnet!.market.tokens.WETH.address, tokenOut: devnet!.market.tokens.USDC.address, amountIn: '1000000000000000000', slippageBps: 50 }
const app = stack.service.fastify
const { chainId, ...sreq } = body
async function measure(label: string, fn: () => Promise<unknown>) {
  for (let i = 0; i < 20; i++) await fn()
  const c0 = process.cpuUsage(); const e0 = performance.eventLoopUtilization(); const t0 = performance.now()
  const N = 100
  for (let i = 0; i < N; i++) await fn()
  const c = process.cpuUsage(c0); const e = performance.eventLoopUtilization(e0); const wall = performance.now() - t0
  console.log(label, 'wall/req', (wall / N).toFixed(2), 'cpu/req', ((c.user + c.system) / 1000 / N).toFixed(2), 'main-thread busy/req', (e.active / N).toFixed(2))
}
await measure('solver', () => solver.quote({ ...sreq, gasPriceWei: '1000000' } as never))
await measure('service', () => stack.service.deps.quoteService.quote(body as never))
await measure('inject', () => app.inject({ method: 'POST', url: '/quote', headers: { 'x-api-key': KEY_A }, payload: body }))
await stack.close()
