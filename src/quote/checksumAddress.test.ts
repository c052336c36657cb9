import assert from 'node:assert/strict'
import { test } from 'vitest'
import { getAddress } from 'viem'
import { checksumAddress } from './checksumAddress.ts'

test('checksumAddress is getAddress, remembered', () => {
  const usdc = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'
  assert.equal(checksumAddress(usdc), getAddress(usdc))
  assert.equal(checksumAddress(usdc), '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913')
  assert.equal(checksumAddress(usdc.toUpperCase().replace('0X', '0x')), getAddress(usdc))
  assert.throws(() => checksumAddress('0x1234'))
})
