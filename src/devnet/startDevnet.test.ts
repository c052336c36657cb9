import assert from 'node:assert/strict'
import { test } from 'vitest'
import { type Abi, parseAbi } from 'viem'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { deployTestToken } from './deployTestToken.ts'
import { startDevnet } from './startDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

test('startDevnet: Multicall3 at the canonical address, tokens, WETH9', async () => {
  const devnet = await startDevnet({})
  try {
    const token = await deployTestToken({ devnet, name: 'Six', symbol: 'SIX', decimals: 6 })
    const weth = await deployContractAndWait({ devnet, artifact: devnet.artifacts.WETH9 })
    const abi = devnet.artifacts.TestERC20.abi as Abi
    await writeContractAndWait({ devnet, address: token, abi, functionName: 'mint', args: [devnet.account, 123n] })
    await writeContractAndWait({ devnet, address: weth, abi: devnet.artifacts.WETH9.abi, functionName: 'deposit', value: 7n })
    const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)', 'function decimals() view returns (uint8)'])
    const [balance, decimals, wethBalance] = await devnet.publicClient.multicall({
      allowFailure: false,
      contracts: [
        { address: token, abi: erc20, functionName: 'balanceOf', args: [devnet.account] },
        { address: token, abi: erc20, functionName: 'decimals' },
        { address: weth, abi: erc20, functionName: 'balanceOf', args: [devnet.account] },
      ],
    })
    assert.equal(balance, 123n)
    assert.equal(decimals, 6)
    assert.equal(wethBalance, 7n)
  } finally {
    await devnet.stop()
  }
})
