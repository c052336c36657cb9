import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Abi, Hex } from 'viem'
import type { ContractArtifact } from '../artifacts/loadContractArtifacts.ts'

/** The published artifacts we deploy, by short name → package path. */
const npmArtifacts = {
  UniswapV2Factory: '@uniswap/v2-core/build/UniswapV2Factory.json',
  UniswapV2Pair: '@uniswap/v2-core/build/UniswapV2Pair.json',
  UniswapV3Factory: '@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json',
  UniswapV3Pool: '@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json',
  PancakeV3Factory: '@pancakeswap/v3-core/artifacts/contracts/PancakeV3Factory.sol/PancakeV3Factory.json',
  PancakeV3Pool: '@pancakeswap/v3-core/artifacts/contracts/PancakeV3Pool.sol/PancakeV3Pool.json',
  PoolManager: '@uniswap/v4-core/out/PoolManager.sol/PoolManager.json',
  PoolSwapTest: '@uniswap/v4-core/out/PoolSwapTest.sol/PoolSwapTest.json',
  PoolModifyLiquidityTest: '@uniswap/v4-core/out/PoolModifyLiquidityTest.sol/PoolModifyLiquidityTest.json',
  AlgebraFactory: '@cryptoalgebra/integral-core/artifacts/contracts/AlgebraFactory.sol/AlgebraFactory.json',
  AlgebraPoolDeployer: '@cryptoalgebra/integral-core/artifacts/contracts/AlgebraPoolDeployer.sol/AlgebraPoolDeployer.json',
  AlgebraPool: '@cryptoalgebra/integral-core/artifacts/contracts/AlgebraPool.sol/AlgebraPool.json',
  BasePluginV1Factory: '@cryptoalgebra/integral-base-plugin/artifacts/contracts/BasePluginV1Factory.sol/BasePluginV1Factory.json',
  AlgebraBasePluginV1: '@cryptoalgebra/integral-base-plugin/artifacts/contracts/AlgebraBasePluginV1.sol/AlgebraBasePluginV1.json',
} as const

export type NpmArtifactName = keyof typeof npmArtifacts

export type LoadNpmArtifactParameters = { name: NpmArtifactName }

/**
 * Reads a protocol's published artifact from `node_modules`, normalising the three formats in use
 * (Waffle: top-level `bytecode` + `evm.deployedBytecode`; Hardhat: string `bytecode`/`deployedBytecode`;
 * Foundry: `bytecode.object`).
 *
 * @example
 * const pair = loadNpmArtifact({ name: 'UniswapV2Pair' })
 * // → { abi, bytecode, deployedBytecode } from @uniswap/v2-core's build, whatever its format
 */
export function loadNpmArtifact({ name }: LoadNpmArtifactParameters): ContractArtifact {
  const require = createRequire(import.meta.url)
  const json = JSON.parse(readFileSync(require.resolve(npmArtifacts[name]), 'utf8'))
  const hex = (v: unknown): Hex => {
    const s = typeof v === 'string' ? v : (v as { object?: string })?.object
    if (typeof s !== 'string' || s.length === 0) throw new Error(`artifact ${name}: no bytecode`)
    return (s.startsWith('0x') ? s : `0x${s}`) as Hex
  }
  const deployed = json.deployedBytecode ?? json.evm?.deployedBytecode
  return { abi: json.abi as Abi, bytecode: hex(json.bytecode), deployedBytecode: hex(deployed) }
}
