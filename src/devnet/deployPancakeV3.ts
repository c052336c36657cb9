import { type Address, concat, getAddress, type Hex, keccak256, numberToHex, size } from 'viem'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { loadNpmArtifact } from './loadNpmArtifact.ts'
import { sendAndWait } from './sendAndWait.ts'
import type { Devnet } from './startDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

/** PancakeSwap V3's POOL_INIT_CODE_HASH on Base (and every other chain). */
export const pancakeV3PoolInitCodeHash: Hex = '0x6ce8eb472fa82df5469c6ab6d485f17c3ad13c8cd7af59b3d4a8026c5ce0f7e2'

export type DeployPancakeV3Parameters = { devnet: Devnet }
export type DeployPancakeV3ReturnType = {
  /** The published `PancakeV3Factory` (tiers 100/1, 500/10, 2500/50, 10000/200). */
  factory: Address
  /** Our `PancakeV3PoolDeployer`: pools are CREATE2'd from here, salt keccak256(abi.encode(t0, t1, fee)). */
  poolDeployer: Address
  /** Holds the published pool creation code (runtime = 0x00 ‖ creation code). */
  poolCodeStore: Address
}

/**
 * Deploys PancakeSwap V3 from `@pancakeswap/v3-core`: the published pool creation code goes into a
 * code-store contract, our `PancakeV3PoolDeployer` CREATE2s it (the package ships no deployer), then
 * the published factory is deployed on that deployer and linked back. Pool addresses follow the
 * canonical init-code hash, so `getPool` on the factory and the usual PoolAddress formula agree.
 * Create pools with `createUniswapV3Pool` (same `createPool`/`getPool`/`initialize` ABI); mint and
 * swap callbacks are `pancakeV3MintCallback`/`pancakeV3SwapCallback` (answered by `PoolHarness`).
 *
 * @example
 * const { factory, poolDeployer } = await deployPancakeV3({ devnet })
 * // → { factory, poolDeployer, poolCodeStore }: pools at Pancake's canonical init-code hash
 */
export async function deployPancakeV3({ devnet }: DeployPancakeV3Parameters): Promise<DeployPancakeV3ReturnType> {
  const poolInitCode = loadNpmArtifact({ name: 'PancakeV3Pool' }).bytecode
  if (keccak256(poolInitCode) !== pancakeV3PoolInitCodeHash) {
    throw new Error(`@pancakeswap/v3-core pool creation code hashes to ${keccak256(poolInitCode)}, not ${pancakeV3PoolInitCodeHash}`)
  }
  const storeReceipt = await sendAndWait({ devnet, data: codeStoreCreationCode({ code: poolInitCode }), label: 'Pancake pool code store' })
  if (!storeReceipt.contractAddress) throw new Error('Pancake pool code store: no contract address')
  const poolCodeStore = getAddress(storeReceipt.contractAddress)
  const poolDeployer = await deployContractAndWait({ devnet, artifact: devnet.artifacts.PancakeV3PoolDeployer, args: [poolCodeStore] })
  const factoryArtifact = loadNpmArtifact({ name: 'PancakeV3Factory' })
  const factory = await deployContractAndWait({ devnet, artifact: factoryArtifact, args: [poolDeployer] })
  await writeContractAndWait({
    devnet,
    address: poolDeployer,
    abi: devnet.artifacts.PancakeV3PoolDeployer.abi,
    functionName: 'setFactoryAddress',
    args: [factory],
  })
  return { factory, poolDeployer, poolCodeStore }
}

/**
 * Creation code that returns `0x00 ‖ code` as the runtime: PUSH2 len+1, DUP1, PUSH1 12 (this
 * prefix's length), PUSH1 0, CODECOPY, PUSH1 0, RETURN. The leading STOP makes the store inert.
 */
function codeStoreCreationCode({ code }: { code: Hex }): Hex {
  const runtime = concat(['0x00', code])
  const length = size(runtime)
  if (length > 0xffff) throw new Error(`code store runtime too large: ${length} bytes`)
  return concat(['0x61', numberToHex(length, { size: 2 }), '0x80600c6000396000f3', runtime])
}
