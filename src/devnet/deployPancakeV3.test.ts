import assert from 'node:assert/strict'
import { test } from 'vitest'
import { type Abi, type Address, encodeAbiParameters, getContractAddress, keccak256, parseAbi } from 'viem'
import { createUniswapV3Pool } from './createUniswapV3Pool.ts'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { deployPancakeV3, pancakeV3PoolInitCodeHash } from './deployPancakeV3.ts'
import { deployTestToken } from './deployTestToken.ts'
import { loadNpmArtifact } from './loadNpmArtifact.ts'
import { useDevnet } from '../../test/fixtures/useDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

const MIN_SQRT_RATIO = 4295128739n
const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)', 'function mint(address, uint256)'])
const factoryAbi = parseAbi(['function feeAmountTickSpacing(uint24) view returns (int24)'])
const poolAbi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint32 feeProtocol, bool unlocked)',
  'function liquidity() view returns (uint128)',
  'function tickSpacing() view returns (int24)',
  'function fee() view returns (uint24)',
])

const devnet = useDevnet()

test('Pancake V3: pools get the canonical init-hash address, take liquidity and swap', { timeout: 60_000 }, async () => {
  const { factory, poolDeployer } = await deployPancakeV3({ devnet })
  for (const [fee, spacing] of [
    [100, 1],
    [500, 10],
    [2500, 50],
    [10000, 200],
  ] as const) {
    assert.equal(
      await devnet.publicClient.readContract({ address: factory, abi: factoryAbi, functionName: 'feeAmountTickSpacing', args: [fee] }),
      spacing,
    )
  }
  assert.equal(keccak256(loadNpmArtifact({ name: 'PancakeV3Pool' }).bytecode), pancakeV3PoolInitCodeHash)

  const harness = await deployContractAndWait({ devnet, artifact: devnet.artifacts.PoolHarness })
  const harnessAbi = devnet.artifacts.PoolHarness.abi as Abi
  const tokenA = await deployTestToken({ devnet, name: 'USD Coin', symbol: 'USDC', decimals: 6 })
  const tokenB = await deployTestToken({ devnet, name: 'Wrapped Ether', symbol: 'WETH', decimals: 18 })
  for (const token of [tokenA, tokenB]) {
    await writeContractAndWait({ devnet, address: token, abi: erc20, functionName: 'mint', args: [harness, 10n ** 40n] })
  }
  const sqrtPriceX96 = 2n ** 96n
  const { pool, token0, token1 } = await createUniswapV3Pool({ devnet, factory, tokenA, tokenB, fee: 2500, sqrtPriceX96 })

  const expected = getContractAddress({
    opcode: 'CREATE2',
    from: poolDeployer,
    salt: keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'address' }, { type: 'uint24' }], [token0, token1, 2500])),
    bytecodeHash: pancakeV3PoolInitCodeHash,
  })
  assert.equal(pool, expected, 'pool address does not follow the canonical Pancake init-code hash')
  assert.equal(await devnet.publicClient.readContract({ address: pool, abi: poolAbi, functionName: 'tickSpacing' }), 50)
  assert.equal(await devnet.publicClient.readContract({ address: pool, abi: poolAbi, functionName: 'fee' }), 2500)

  const liquidity = 10n ** 20n
  await writeContractAndWait({
    devnet,
    address: harness,
    abi: harnessAbi,
    functionName: 'mintV3',
    args: [pool, devnet.account, -1000, 1000, liquidity, harness],
  })
  assert.equal(await devnet.publicClient.readContract({ address: pool, abi: poolAbi, functionName: 'liquidity' }), liquidity)

  const recipient: Address = '0x000000000000000000000000000000000000dEaD'
  const amountIn = 10n ** 15n
  const poolBalance0Before = await devnet.publicClient.readContract({
    address: token0,
    abi: erc20,
    functionName: 'balanceOf',
    args: [pool],
  })
  await writeContractAndWait({
    devnet,
    address: harness,
    abi: harnessAbi,
    functionName: 'swapV3',
    args: [pool, recipient, true, amountIn, MIN_SQRT_RATIO + 1n, harness],
  })
  const poolBalance0After = await devnet.publicClient.readContract({ address: token0, abi: erc20, functionName: 'balanceOf', args: [pool] })
  const received = await devnet.publicClient.readContract({ address: token1, abi: erc20, functionName: 'balanceOf', args: [recipient] })
  assert.equal(poolBalance0After - poolBalance0Before, amountIn)
  // Price 1, fee 0.25 %, deep enough that slippage stays small: out ≈ in × 0.9975.
  assert.ok(received < (amountIn * 9975n) / 10000n && received > (amountIn * 9970n) / 10000n, `received ${received}`)
  const [sqrtAfter] = await devnet.publicClient.readContract({ address: pool, abi: poolAbi, functionName: 'slot0' })
  assert.ok(sqrtAfter < sqrtPriceX96)
})
