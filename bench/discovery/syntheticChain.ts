import { createHash } from 'node:crypto'
import {
  type Address,
  encodeAbiParameters,
  encodeEventTopics,
  getAddress,
  type Hex,
  numberToHex,
  pad,
  parseAbi,
  toFunctionSelector,
} from 'viem'

/** Where the generated chain puts its contracts: fixed, so a run is the same every time. */
export const SYNTHETIC_FACTORY: Address = '0x00000000000000000000000000000000fac70e01'
export const SYNTHETIC_MULTICALL3: Address = '0xcA11bde05977b3631167028862bE2a173976CA11'
export const SYNTHETIC_CHAIN_ID = 84_530

const pairCreatedTopic = encodeEventTopics({
  abi: parseAbi(['event PairCreated(address indexed token0, address indexed token1, address pair, uint256 allPairsLength)']),
  eventName: 'PairCreated',
})[0]

export const SELECTORS = {
  getReserves: toFunctionSelector('getReserves()'),
  token0: toFunctionSelector('token0()'),
  token1: toFunctionSelector('token1()'),
  factory: toFunctionSelector('factory()'),
  decimals: toFunctionSelector('decimals()'),
  symbol: toFunctionSelector('symbol()'),
  name: toFunctionSelector('name()'),
  balanceOf: toFunctionSelector('balanceOf(address)'),
  totalSupply: toFunctionSelector('totalSupply()'),
  aggregate3: toFunctionSelector('aggregate3((address,bool,bytes)[])'),
  getEthBalance: toFunctionSelector('getEthBalance(address)'),
} as const

export type SyntheticPair = {
  index: number
  address: Address
  token0: Address
  token1: Address
  reserve0: bigint
  reserve1: bigint
  block: bigint
}

export type SyntheticChain = {
  pools: number
  tokens: Address[]
  /** The chain's head when the stand-in started; later heads add one empty block per `blockTimeMs`. */
  startHead: bigint
  pairs: SyntheticPair[]
  /** The pair at a lowercase address. */
  pairAt: Map<string, SyntheticPair>
  tokenAt: Map<string, number>
  /** Pairs created in [fromBlock, toBlock], in block order (a binary search over the sorted blocks). */
  pairsCreatedIn: (fromBlock: bigint, toBlock: bigint) => SyntheticPair[]
  blockHash: (n: bigint) => Hex
  /** The PairCreated log of a pair, as a node serves it. */
  pairCreatedLog: (pair: SyntheticPair) => Record<string, unknown>
}

/** Checksummed, as a node's decoded answers are. */
const address = (prefix: string, i: number): Address => getAddress(`0x${prefix}${i.toString(16).padStart(40 - prefix.length, '0')}`)

/**
 * A Uniswap V2 market generated from its size alone (deterministic: the same `pools` and
 * `blocks` give the same chain): the fewest tokens that make `pools` pairs (token 0 is the WETH),
 * pair i created at a block spread evenly over `blocks`, reserves of 1,000 to 7,000 of one side at
 * a price of 1 to 3 (as `seedPairSet` funds its pairs). Held as arrays: about 200 bytes a pair.
 *
 * @example
 * const chain = syntheticChain({ pools: 20_000, blocks: 200_000_000n })
 * // → 20,000 pairs among 201 tokens; pairsCreatedIn(0n, 10_000n) → the pairs whose PairCreated is in those blocks
 */
export function syntheticChain({ pools, blocks }: { pools: number; blocks: bigint }): SyntheticChain {
  let count = 2
  while ((count * (count - 1)) / 2 < pools) count++
  const tokens = Array.from({ length: count }, (_, i) => address('70ce0', i + 1))
  const pairs: SyntheticPair[] = []
  for (let i = 0; i < count && pairs.length < pools; i++)
    for (let j = i + 1; j < count && pairs.length < pools; j++) {
      const n = pairs.length
      const reserveA = 10n ** 21n * BigInt(1 + (n % 7))
      const reserveB = reserveA * BigInt(1 + (n % 3))
      // Token addresses grow with their index, so token i sorts before token j (Uniswap's token0 < token1).
      pairs.push({
        index: n,
        address: address('9a12', n + 1),
        token0: tokens[i],
        token1: tokens[j],
        reserve0: reserveA,
        reserve1: reserveB,
        block: 1n + (BigInt(n) * (blocks - 2n)) / BigInt(pools),
      })
    }
  const pairAt = new Map(pairs.map((p) => [p.address.toLowerCase(), p]))
  const tokenAt = new Map(tokens.map((t, i) => [t.toLowerCase(), i]))
  const firstAtOrAfter = (block: bigint) => {
    let lo = 0
    let hi = pairs.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (pairs[mid].block < block) lo = mid + 1
      else hi = mid
    }
    return lo
  }
  const blockHash = (n: bigint): Hex => `0x${createHash('sha256').update(`synthetic block ${n}`).digest('hex')}`
  return {
    pools: pairs.length,
    tokens,
    startHead: blocks - 1n,
    pairs,
    pairAt,
    tokenAt,
    pairsCreatedIn: (fromBlock, toBlock) => pairs.slice(firstAtOrAfter(fromBlock), firstAtOrAfter(toBlock + 1n)),
    blockHash,
    pairCreatedLog: (pair) => ({
      address: SYNTHETIC_FACTORY,
      topics: [pairCreatedTopic, pad(pair.token0), pad(pair.token1)],
      data: encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [pair.address, BigInt(pair.index + 1)]),
      blockNumber: numberToHex(pair.block),
      blockHash: blockHash(pair.block),
      transactionHash: `0x${createHash('sha256').update(`synthetic tx ${pair.index}`).digest('hex')}`,
      transactionIndex: '0x0',
      // Unique within any block (pairs sharing a block when `blocks` is small).
      logIndex: numberToHex(pair.index),
      removed: false,
    }),
  }
}
