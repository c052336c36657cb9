import { type Abi, type Address, encodeDeployData, encodeFunctionData, getContractAddress, parseAbi } from 'viem'
import { BASE_BLOCK_TIME_SEC } from '../../src/chains/base.ts'
import type { ChainConfig } from '../../src/chains/ChainConfig.ts'
import { deployUniswapV2 } from '../../src/devnet/deployUniswapV2.ts'
import { multicall3Address } from '../../src/chains/multicall3Address.ts'
import { type BatchCall, sendBatchAndMine } from '../../src/devnet/seed/sendBatchAndMine.ts'
import type { Devnet } from '../../src/devnet/startDevnet.ts'

const tokenAbi = parseAbi(['function mint(address to, uint256 amount)', 'function transfer(address to, uint256 amount) returns (bool)'])
const factoryAbi = parseAbi([
  'function createPair(address, address) returns (address)',
  'function allPairs(uint256) view returns (address)',
])
const pairAbi = parseAbi(['function mint(address to) returns (uint256)'])

/** Calls sent per `sendBatchAndMine`, the base fee set back to 0 before each (full blocks raise it past the batch's fixed fee cap). */
const CALLS_PER_GROUP = 1500

/** `sendBatchAndMine` over `calls` in groups, each starting at a zero base fee: 20,000 pairs fill enough blocks to lift it past 10 gwei. */
async function sendInGroups({ devnet, calls, maxGasPerBlock }: { devnet: Devnet; calls: BatchCall[]; maxGasPerBlock?: bigint }) {
  for (let i = 0; i < calls.length; i += CALLS_PER_GROUP) {
    await devnet.publicClient.request({ method: 'anvil_setNextBlockBaseFeePerGas' as never, params: ['0x0'] as never })
    await sendBatchAndMine({ devnet, calls: calls.slice(i, i + CALLS_PER_GROUP), maxGasPerBlock })
  }
}

export type SeedPairSetReturnType = { chain: ChainConfig; pools: number; tokens: number }

/**
 * Bench support: `pools` Uniswap V2 pairs (the protocol's own npm bytecode) among the fewest test
 * tokens that make that many pairs, each pair funded with its own reserves, all sent in batches
 * (`sendBatchAndMine`: hundreds of transactions per block), so thousands of pools take a minute
 * rather than the seed's one-transaction-per-block pace. The chain config names the factory from
 * block 0 and the first token as the chain's WETH.
 *
 * @example
 * const { chain } = await seedPairSet({ devnet, pools: 5000 })
 * // → { chain, pools: 5000, tokens: 101 }: 5000 of the 5050 pairs of 101 tokens; chain names the factory from block 0
 */
export async function seedPairSet({ devnet, pools }: { devnet: Devnet; pools: number }): Promise<SeedPairSetReturnType> {
  let count = 2
  while ((count * (count - 1)) / 2 < pools) count++
  const { factory } = await deployUniswapV2({ devnet })
  const nonce = await devnet.publicClient.getTransactionCount({ address: devnet.account })
  const artifact = devnet.artifacts.TestERC20
  const deploys: BatchCall[] = Array.from({ length: count }, (_, i) => ({
    data: encodeDeployData({ abi: artifact.abi as Abi, bytecode: artifact.bytecode, args: [`Pair Set ${i}`, `PS${i}`, 18] }),
    gas: 3_000_000n,
    label: `deploy PS${i}`,
  }))
  await sendBatchAndMine({ devnet, calls: deploys })
  const tokens = deploys.map((_, i) => getContractAddress({ from: devnet.account, nonce: BigInt(nonce + i) }))
  await sendBatchAndMine({
    devnet,
    calls: tokens.map((token, i) => ({
      to: token,
      data: encodeFunctionData({ abi: tokenAbi, functionName: 'mint', args: [devnet.account, 10n ** 36n] }),
      gas: 100_000n,
      label: `mint PS${i}`,
    })),
  })
  const pairsOf: [Address, Address][] = []
  for (let i = 0; i < count && pairsOf.length < pools; i++)
    for (let j = i + 1; j < count && pairsOf.length < pools; j++) pairsOf.push([tokens[i], tokens[j]])
  await sendInGroups({
    devnet,
    calls: pairsOf.map(([a, b], i) => ({
      to: factory,
      data: encodeFunctionData({ abi: factoryAbi, functionName: 'createPair', args: [a, b] }),
      gas: 3_000_000n,
      label: `createPair ${i}`,
    })),
  })
  const pairs = (await devnet.publicClient.multicall({
    contracts: pairsOf.map((_, i) => ({ address: factory, abi: factoryAbi, functionName: 'allPairs', args: [BigInt(i)] })),
    allowFailure: false,
    multicallAddress: multicall3Address,
  })) as Address[]
  const funding: BatchCall[] = []
  pairsOf.forEach(([a, b], i) => {
    // Reserves differ per pair (1,000 to 7,000 of one side, a price of 1 to 3), as a long tail does.
    const reserveA = 10n ** 21n * BigInt(1 + (i % 7))
    const reserveB = reserveA * BigInt(1 + (i % 3))
    funding.push(
      {
        to: a,
        data: encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: [pairs[i], reserveA] }),
        gas: 100_000n,
        label: `fund ${i} a`,
      },
      {
        to: b,
        data: encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: [pairs[i], reserveB] }),
        gas: 100_000n,
        label: `fund ${i} b`,
      },
      {
        to: pairs[i],
        data: encodeFunctionData({ abi: pairAbi, functionName: 'mint', args: [devnet.account] }),
        gas: 300_000n,
        label: `mint ${i}`,
      },
    )
  })
  // Smaller blocks: a block's receipts are fetched whole, and viem refuses answers above 10 MB.
  await sendInGroups({ devnet, calls: funding, maxGasPerBlock: 150_000_000n })
  const chain: ChainConfig = {
    name: 'pair-set',
    chainId: devnet.chain.id,
    blockTimeSec: BASE_BLOCK_TIME_SEC,
    weth: tokens[0],
    multicall3: multicall3Address,
    deployments: { UNIV2: { source: factory, fromBlock: 0n } },
    pools: [],
  }
  return { chain, pools: pairs.length, tokens: count }
}
