/**
 * A JSON-RPC node serving a generated Uniswap V2 market (`syntheticChain.ts`) without anvil: the
 * discovery bench at Base's scale (20,000 pools, 100,000 ranges) needs a chain anvil could not hold
 * on this machine (over 19 GB for the 20,000-pool state). It speaks the wire format a node does, so
 * the server under test runs unchanged against it:
 * - `eth_getLogs`: the factory's `PairCreated` logs in the range asked (any other filter: none, the
 *   pairs never trade); a range over `--max-log-range` blocks is refused with a JSON-RPC error
 *   worded as providers word it; every `--throttle-every`-th call is answered HTTP 429 with
 *   `Retry-After: --retry-after-sec`;
 * - `eth_call` to Multicall3's `aggregate3` (pairs' `getReserves`/`token0`/`token1`/`factory`,
 *   tokens' `decimals`/`symbol`/`name`/`totalSupply`/`balanceOf`) or to one of them alone; a call
 *   with a state override is refused as nodes without overrides refuse it (so the token screening
 *   reports its tokens unjudged, as it does on such a node); a block above the head: "header not found";
 * - `eth_blockNumber`, `eth_getBlockByNumber`, `eth_chainId`, `eth_gasPrice`, `eth_getBalance`,
 *   `eth_getCode`; the head moves one empty block every `--block-time-ms`, as Base's does.
 * Any other method is answered "method not found" and counted, so a bench sees what it missed.
 * `GET /stats` answers the calls by method, refusals, 429s and this process's peak memory.
 *
 *   node --max-old-space-size=256 --import tsx bench/discovery/syntheticChainRpc.ts --pools 20000 --blocks 200000000
 *   # → prints `synthetic chain listening on http://127.0.0.1:PORT` once serving
 * (`startSyntheticChainRpc` is the same node in-process, for its test.)
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import {
  type Address,
  decodeFunctionData,
  encodeAbiParameters,
  encodeFunctionResult,
  type Hex,
  multicall3Abi,
  numberToHex,
  pad,
  slice,
  stringToHex,
} from 'viem'
import { SELECTORS, SYNTHETIC_CHAIN_ID, SYNTHETIC_FACTORY, SYNTHETIC_MULTICALL3, syntheticChain } from './syntheticChain.ts'

/** A JSON-RPC error answer (its code as nodes use it). */
class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

export type SyntheticChainRpcOptions = {
  pools: number
  blocks: bigint
  /** Blocks per `eth_getLogs` at most. */
  maxLogRange: bigint
  /** Every this many `eth_getLogs` are answered 429 (0: never). */
  throttleEvery: number
  retryAfterSec: number
  /** One empty block more every this many ms. */
  blockTimeMs: number
  port?: number
}

export type SyntheticChainRpc = { url: string; pools: number; tokens: number; head: bigint; close: () => Promise<void> }

/**
 * The stand-in node serving `syntheticChain({ pools, blocks })` over HTTP on 127.0.0.1.
 *
 * @example
 * const node = await startSyntheticChainRpc({ pools: 300, blocks: 20_000n, maxLogRange: 2000n, throttleEvery: 0, retryAfterSec: 1, blockTimeMs: 2000 })
 * // → { url: 'http://127.0.0.1:PORT', pools: 300, tokens: 25, head: 19999n, close }
 */
export async function startSyntheticChainRpc(options: SyntheticChainRpcOptions): Promise<SyntheticChainRpc> {
  const chain = syntheticChain({ pools: options.pools, blocks: options.blocks })
  const { maxLogRange, throttleEvery, blockTimeMs } = options
  const retryAfterSec = String(options.retryAfterSec)
  const started = Date.now()
  const head = () => chain.startHead + BigInt(Math.floor((Date.now() - started) / blockTimeMs))

  const calls = new Map<string, number>()
  const unknown = new Map<string, number>()
  let refusedRanges = 0
  let throttled = 0
  let logsAsked = 0

  const blockOf = (tag: unknown): bigint => {
    const now = head()
    if (tag === undefined || tag === 'latest' || tag === 'pending' || tag === 'safe' || tag === 'finalized') return now
    if (tag === 'earliest') return 0n
    if (typeof tag === 'object' && tag !== null && 'blockNumber' in tag) return blockOf((tag as { blockNumber: string }).blockNumber)
    const n = BigInt(tag as string)
    if (n > now) throw new RpcError(-32000, 'header not found')
    return n
  }

  const block = (n: bigint) => ({
    number: numberToHex(n),
    hash: chain.blockHash(n),
    parentHash: n === 0n ? pad('0x0') : chain.blockHash(n - 1n),
    // Base's 2 s blocks from a fixed genesis time.
    timestamp: numberToHex(1_686_789_347n + 2n * n),
    baseFeePerGas: '0x3b9aca0',
    gasLimit: '0x7735940',
    gasUsed: '0x0',
    miner: '0x4200000000000000000000000000000000000011',
    difficulty: '0x0',
    totalDifficulty: '0x0',
    extraData: '0x',
    logsBloom: pad('0x0', { size: 256 }),
    mixHash: pad('0x0'),
    nonce: '0x0000000000000000',
    receiptsRoot: pad('0x0'),
    sha3Uncles: pad('0x0'),
    stateRoot: pad('0x0'),
    transactionsRoot: pad('0x0'),
    size: '0x220',
    transactions: [],
    uncles: [],
  })

  /** One getter's answer, or undefined when no contract here answers it. */
  function answer(target: string, data: Hex): Hex | undefined {
    const selector = slice(data, 0, 4)
    const pair = chain.pairAt.get(target.toLowerCase())
    if (pair) {
      if (selector === SELECTORS.getReserves)
        return encodeAbiParameters(
          [{ type: 'uint112' }, { type: 'uint112' }, { type: 'uint32' }],
          [pair.reserve0, pair.reserve1, Number(1_686_789_347n + 2n * pair.block) >>> 0],
        )
      if (selector === SELECTORS.token0) return encodeAbiParameters([{ type: 'address' }], [pair.token0])
      if (selector === SELECTORS.token1) return encodeAbiParameters([{ type: 'address' }], [pair.token1])
      if (selector === SELECTORS.factory) return encodeAbiParameters([{ type: 'address' }], [SYNTHETIC_FACTORY])
    }
    const token = chain.tokenAt.get(target.toLowerCase())
    if (token !== undefined) {
      if (selector === SELECTORS.decimals) return encodeAbiParameters([{ type: 'uint8' }], [18])
      if (selector === SELECTORS.symbol) return encodeAbiParameters([{ type: 'string' }], [`PS${token}`])
      if (selector === SELECTORS.name) return encodeAbiParameters([{ type: 'string' }], [`Pair Set ${token}`])
      if (selector === SELECTORS.totalSupply) return encodeAbiParameters([{ type: 'uint256' }], [10n ** 36n])
      if (selector === SELECTORS.balanceOf) {
        const holder = chain.pairAt.get(`0x${data.slice(34, 74)}`)
        const held =
          holder?.token0 === chain.tokens[token] ? holder.reserve0 : holder?.token1 === chain.tokens[token] ? holder.reserve1 : 0n
        return encodeAbiParameters([{ type: 'uint256' }], [held])
      }
    }
    if (target.toLowerCase() === SYNTHETIC_MULTICALL3.toLowerCase() && selector === SELECTORS.getEthBalance)
      return encodeAbiParameters([{ type: 'uint256' }], [0n])
    unknown.set(`call ${selector}`, (unknown.get(`call ${selector}`) ?? 0) + 1)
    return undefined
  }

  function ethCall([call, tag, override]: [{ to: string; data?: Hex; input?: Hex }, unknown, unknown]): Hex {
    if (override !== undefined && override !== null) throw new RpcError(-32602, 'invalid params: state override is not supported')
    blockOf(tag)
    const data = call.data ?? call.input ?? '0x'
    if (call.to.toLowerCase() === SYNTHETIC_MULTICALL3.toLowerCase() && slice(data, 0, 4) === SELECTORS.aggregate3) {
      const { args } = decodeFunctionData({ abi: multicall3Abi, data })
      const results = (args[0] as readonly { target: Address; allowFailure: boolean; callData: Hex }[]).map(
        ({ target, allowFailure, callData }) => {
          const returnData = answer(target, callData)
          if (returnData === undefined && !allowFailure) throw new RpcError(3, 'execution reverted: Multicall3: call failed')
          return { success: returnData !== undefined, returnData: returnData ?? '0x' }
        },
      )
      return encodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', result: results })
    }
    const returnData = answer(call.to, data)
    // A call to an address without code returns nothing, as the EVM does.
    return returnData ?? '0x'
  }

  function getLogs([filter]: [
    { address?: string | string[]; topics?: (string | string[] | null)[]; fromBlock?: string; toBlock?: string; blockHash?: string },
  ]) {
    if (filter.blockHash !== undefined) return []
    const fromBlock = blockOf(filter.fromBlock ?? 'latest')
    const toBlock = blockOf(filter.toBlock ?? 'latest')
    if (toBlock - fromBlock + 1n > maxLogRange) {
      refusedRanges++
      throw new RpcError(-32600, `eth_getLogs is limited to a ${maxLogRange} block range`)
    }
    const addresses = filter.address === undefined ? undefined : [filter.address].flat().map((a) => a.toLowerCase())
    if (addresses !== undefined && !addresses.includes(SYNTHETIC_FACTORY.toLowerCase())) return []
    const topic0 = filter.topics?.[0]
    const created = chain.pairsCreatedIn(fromBlock, toBlock).map(chain.pairCreatedLog)
    if (topic0 === undefined || topic0 === null) return created
    return created.filter((log) => [topic0].flat().includes((log.topics as string[])[0]))
  }

  function handle(call: { method: string; params?: unknown[] }): unknown {
    const params = (call.params ?? []) as never
    switch (call.method) {
      case 'eth_chainId':
        return numberToHex(SYNTHETIC_CHAIN_ID)
      case 'net_version':
        return String(SYNTHETIC_CHAIN_ID)
      case 'eth_blockNumber':
        return numberToHex(head())
      case 'eth_getBlockByNumber':
        return block(blockOf((params as unknown[])[0]))
      case 'eth_gasPrice':
        return '0x3b9aca0'
      case 'eth_maxPriorityFeePerGas':
        return '0xf4240'
      case 'eth_getBalance':
        blockOf((params as unknown[])[1])
        return '0x0'
      case 'eth_getCode': {
        const [target, tag] = params as [string, unknown]
        blockOf(tag)
        const known = chain.pairAt.has(target.toLowerCase()) || chain.tokenAt.has(target.toLowerCase())
        const system = [SYNTHETIC_FACTORY, SYNTHETIC_MULTICALL3].some((a) => a.toLowerCase() === target.toLowerCase())
        // Stand-in code: nonempty where the generated chain has a contract.
        return known || system ? stringToHex('synthetic') : '0x'
      }
      case 'eth_call':
        return ethCall(params)
      case 'eth_getLogs':
        return getLogs(params)
      default:
        unknown.set(call.method, (unknown.get(call.method) ?? 0) + 1)
        throw new RpcError(-32601, `the method ${call.method} does not exist/is not available`)
    }
  }

  const peakMb = () => Math.round(Number(readFileSync('/proc/self/status', 'utf8').match(/VmHWM:\s+(\d+) kB/)?.[1]) / 1024)

  const server = createServer(async (req, res) => {
    if (req.method === 'GET' && req.url === '/stats') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          calls: Object.fromEntries([...calls].sort()),
          unknown: Object.fromEntries(unknown),
          refusedRanges,
          throttled,
          head: head().toString(),
          peakRssMb: peakMb(),
        }),
      )
      return
    }
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    let parsed: unknown
    try {
      parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    } catch {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } }))
      return
    }
    const list = (Array.isArray(parsed) ? parsed : [parsed]) as { id: unknown; method: string; params?: unknown[] }[]
    const logCalls = list.filter((c) => c.method === 'eth_getLogs').length
    if (logCalls > 0 && throttleEvery > 0) {
      logsAsked += logCalls
      if (logsAsked % throttleEvery < logCalls) {
        throttled++
        res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': retryAfterSec })
        res.end('Too Many Requests')
        return
      }
    }
    const answers = list.map((call) => {
      calls.set(call.method, (calls.get(call.method) ?? 0) + 1)
      try {
        return { jsonrpc: '2.0', id: call.id, result: handle(call) }
      } catch (error) {
        const code = error instanceof RpcError ? error.code : -32603
        return { jsonrpc: '2.0', id: call.id, error: { code, message: (error as Error).message } }
      }
    })
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]))
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pools: chain.pools,
    tokens: chain.tokens.length,
    head: chain.startHead,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

// Run as a script: the bench's node, in a process of its own.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      pools: { type: 'string', default: '20000' },
      blocks: { type: 'string', default: '200000000' },
      'max-log-range': { type: 'string', default: '2000' },
      'throttle-every': { type: 'string', default: '0' },
      'retry-after-sec': { type: 'string', default: '1' },
      'block-time-ms': { type: 'string', default: '2000' },
      port: { type: 'string', default: '0' },
    },
  })
  const node = await startSyntheticChainRpc({
    pools: Number(values.pools),
    blocks: BigInt(values.blocks),
    maxLogRange: BigInt(values['max-log-range']),
    throttleEvery: Number(values['throttle-every']),
    retryAfterSec: Number(values['retry-after-sec']),
    blockTimeMs: Number(values['block-time-ms']),
    port: Number(values.port),
  })
  console.log(`synthetic chain listening on ${node.url} (${node.pools} pairs, ${node.tokens} tokens, head ${node.head})`)
  process.on('SIGTERM', () => node.close().then(() => process.exit(0)))
}
