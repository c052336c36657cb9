import assert from 'node:assert/strict'
import { test } from 'vitest'
import { type Abi, hexToSignature, parseAbi } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { deployTestToken } from './deployTestToken.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'
import { signErc2612Permit } from '../../test/fixtures/signErc2612Permit.ts'
import { useDevnet } from '../../test/fixtures/useDevnet.ts'

// anvil's public, well-known first dev key (mnemonic "test test ... junk"): a local test key only.
const DEV_KEY_0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const devnet = useDevnet()

test('TestERC20: decimals from the constructor, and an EIP-2612 permit that works once', async () => {
  const token = await deployTestToken({ devnet, name: 'Permit Token', symbol: 'PMT', decimals: 8 })
  const abi = devnet.artifacts.TestERC20.abi as Abi
  const read = parseAbi([
    'function decimals() view returns (uint8)',
    'function nonces(address) view returns (uint256)',
    'function allowance(address, address) view returns (uint256)',
  ])
  assert.equal(await devnet.publicClient.readContract({ address: token, abi: read, functionName: 'decimals' }), 8)
  const owner = privateKeyToAccount(DEV_KEY_0)
  assert.equal(owner.address.toLowerCase(), devnet.account.toLowerCase())
  const spender = '0x000000000000000000000000000000000000bEEF'
  const deadline = 2n ** 40n
  const signature = await signErc2612Permit({ owner, token, tokenName: 'Permit Token', spender, value: 1234n, nonce: 0n, deadline })
  const { v, r, s } = hexToSignature(signature)
  const args = [owner.address, spender, 1234n, deadline, Number(v), r, s]
  await writeContractAndWait({ devnet, address: token, abi, functionName: 'permit', args })
  assert.equal(
    await devnet.publicClient.readContract({ address: token, abi: read, functionName: 'allowance', args: [owner.address, spender] }),
    1234n,
  )
  assert.equal(await devnet.publicClient.readContract({ address: token, abi: read, functionName: 'nonces', args: [owner.address] }), 1n)
  // Replaying the same signature must fail (the nonce moved on).
  const replay = await writeContractAndWait({
    devnet,
    address: token,
    abi,
    functionName: 'permit',
    args,
    throwOnRevert: false,
    gas: 200_000n,
  })
  assert.equal(replay.status, 'reverted')
})
