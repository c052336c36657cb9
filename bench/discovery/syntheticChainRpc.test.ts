import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { createPublicClient, http, parseAbi, parseAbiItem } from 'viem'
import { SYNTHETIC_FACTORY, SYNTHETIC_MULTICALL3, syntheticChain } from './syntheticChain.ts'
import { type SyntheticChainRpc, startSyntheticChainRpc } from './syntheticChainRpc.ts'

// The discovery bench's stand-in node, in-process (no chain, no server; the bench runs the same code
// as a process of its own): what it serves is what viem asks and decodes as from a node (the factory's PairCreated logs, aggregate3
// reads), with a node's refusals (a range over the cap, a 429 with Retry-After, a state override).

const POOLS = 300
const BLOCKS = 20_000n
const chain = syntheticChain({ pools: POOLS, blocks: BLOCKS })
let node: SyntheticChainRpc
let url: string

beforeAll(async () => {
  node = await startSyntheticChainRpc({
    pools: POOLS,
    blocks: BLOCKS,
    maxLogRange: 2000n,
    throttleEvery: 4,
    retryAfterSec: 1,
    blockTimeMs: 2000,
  })
  url = node.url
})
afterAll(async () => {
  await node?.close()
})

test('the same size gives the same chain; pairs sorted by block, token0 below token1', () => {
  const again = syntheticChain({ pools: POOLS, blocks: BLOCKS })
  assert.deepEqual(again.pairs, chain.pairs)
  assert.equal(chain.pairs.length, POOLS)
  for (const [i, p] of chain.pairs.entries()) {
    assert.ok(p.token0.toLowerCase() < p.token1.toLowerCase())
    if (i > 0) assert.ok(p.block >= chain.pairs[i - 1].block)
  }
})

test('PairCreated logs by range as viem decodes them, a range over the cap refused, every 4th eth_getLogs answered 429 with Retry-After', async () => {
  const event = parseAbiItem('event PairCreated(address indexed token0, address indexed token1, address pair, uint256 allPairsLength)')
  // No retries: each call reaches the stand-in once, so its 429s are seen.
  const client = createPublicClient({ transport: http(url, { retryCount: 0 }) })
  const logs = await client.getLogs({ address: SYNTHETIC_FACTORY, event, fromBlock: 0n, toBlock: 1999n })
  const expected = chain.pairsCreatedIn(0n, 1999n)
  assert.ok(expected.length > 0)
  assert.deepEqual(
    logs.map((l) => [l.args.token0, l.args.token1, l.args.pair, l.blockNumber]),
    expected.map((p) => [p.token0, p.token1, p.address, p.block]),
  )
  await assert.rejects(
    client.getLogs({ address: SYNTHETIC_FACTORY, event, fromBlock: 0n, toBlock: 2000n }),
    /limited to a 2000 block range/,
  )
  assert.deepEqual(await client.getLogs({ address: chain.tokens[0], event, fromBlock: 0n, toBlock: 10n }), [], 'other emitters: none')
  const throttled = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: '0x1' }] }),
  })
  assert.equal(throttled.status, 429)
  assert.equal(throttled.headers.get('retry-after'), '1')
})

test('aggregate3 reads of pairs and tokens; a state override refused; a block above the head not found', async () => {
  const client = createPublicClient({ transport: http(url, { retryCount: 0 }) })
  const pairAbi = parseAbi([
    'function getReserves() view returns (uint112, uint112, uint32)',
    'function token0() view returns (address)',
    'function balanceOf(address) view returns (uint256)',
  ])
  const pair = chain.pairs[123]
  const [reserves, token0, held, missing] = await client.multicall({
    multicallAddress: SYNTHETIC_MULTICALL3,
    contracts: [
      { address: pair.address, abi: pairAbi, functionName: 'getReserves' },
      { address: pair.address, abi: pairAbi, functionName: 'token0' },
      { address: pair.token1, abi: pairAbi, functionName: 'balanceOf', args: [pair.address] },
      { address: chain.tokens[0], abi: pairAbi, functionName: 'getReserves' },
    ],
  })
  assert.deepEqual(reserves.result?.slice(0, 2), [pair.reserve0, pair.reserve1])
  assert.equal(token0.result, pair.token0)
  assert.equal(held.result, pair.reserve1)
  assert.equal(missing.status, 'failure', 'a getter no contract there answers fails, as a revert does')
  await assert.rejects(
    client.call({ to: pair.address, data: '0x0902f1ac', stateOverride: [{ address: pair.address, balance: 1n }] }),
    /state override is not supported/,
  )
  await assert.rejects(client.call({ to: pair.address, data: '0x0902f1ac', blockNumber: BLOCKS + 1000n }), /header not found/)
  const stats = (await (await fetch(`${url}/stats`)).json()) as { unknown: Record<string, number>; refusedRanges: number }
  assert.equal(stats.refusedRanges, 1)
})
