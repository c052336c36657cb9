import assert from 'node:assert/strict'
import { beforeAll, test } from 'vitest'
import { type Hex, pad, serializeTransaction, toHex } from 'viem'
import { estimateL1Fee } from 'viem/op-stack'
import { useDevnet } from '../../../test/fixtures/useDevnet.ts'
import { createPrng } from '../../../test/differential/createPrng.ts'
import { GAS_PRICE_ORACLE_ADDRESS, gasPriceOracleAbi } from './gasPriceOracle.ts'
import { installOpStackFeePredeploys } from './installOpStackFeePredeploys.ts'
import { l1FeePerBytesWei, l1FeeUpperBoundWei, l1FeeWei } from './l1FeeWei.ts'
import { readL1FeeParameters } from './readL1FeeParameters.ts'
import { routerLegCalldataBytes } from './routerLegCalldataBytes.ts'
import { setL1FeeParameters } from './setL1FeeParameters.ts'

// Our L1 fee arithmetic against Optimism's own GasPriceOracle and L1Block bytecode (npm:
// @eth-optimism/contracts-bedrock) at the predeploy addresses, with parameters written by the
// depositor as on Base; and against viem's op-stack estimateL1Fee (getL1Fee on a serialized tx).
const devnet = useDevnet()
beforeAll(async () => {
  await installOpStackFeePredeploys({ testClient: devnet.testClient as never })
})

const oracle = (functionName: 'getL1FeeUpperBound' | 'getL1Fee', arg: bigint | Hex, blockNumber: bigint) =>
  devnet.publicClient.readContract({
    address: GAS_PRICE_ORACLE_ADDRESS,
    abi: gasPriceOracleAbi,
    functionName,
    args: [arg] as never,
    blockNumber,
  }) as Promise<bigint>

test('Fjord: getL1FeeUpperBound equals ours for every size and parameter set; the upper bound is never below getL1Fee', async () => {
  const prng = createPrng({ seed: 1155 })
  const random = prng.next
  const cases = [
    { l1BaseFee: 10n ** 9n, blobBaseFee: 1n, baseFeeScalar: 2269n, blobBaseFeeScalar: 1_055_762n },
    { l1BaseFee: 37n * 10n ** 9n, blobBaseFee: 5n * 10n ** 8n, baseFeeScalar: 1368n, blobBaseFeeScalar: 810_949n },
    { l1BaseFee: 1n, blobBaseFee: 0n, baseFeeScalar: 1n, blobBaseFeeScalar: 0n },
    // The oracle multiplies baseFeeScalar by 16 in uint32: 2^28 − 1 is the largest it prices.
    { l1BaseFee: 2n ** 100n, blobBaseFee: 2n ** 90n, baseFeeScalar: 2n ** 28n - 1n, blobBaseFeeScalar: 2n ** 32n - 1n },
  ]
  let checked = 0
  for (const parameters of cases) {
    const block = await setL1FeeParameters({
      publicClient: devnet.publicClient as never,
      testClient: devnet.testClient as never,
      parameters,
    })
    const read = await readL1FeeParameters({ client: devnet.publicClient as never, blockNumber: block })
    assert.deepEqual(read, { ...parameters, isFjord: true })
    for (const size of [0n, 1n, 31n, 32n, 100n, 254n, 255n, 700n, 1500n, 20_000n, BigInt(Math.floor(random() * 5000))]) {
      assert.equal(
        l1FeeUpperBoundWei({ parameters: read, unsignedTxSize: size }),
        await oracle('getL1FeeUpperBound', size, block),
        `size ${size}`,
      )
      checked++
    }
    for (let i = 0; i < 6; i++) {
      const data = toHex(Uint8Array.from({ length: Math.floor(random() * 1200) }, () => (random() < 0.5 ? 0 : Math.floor(random() * 256))))
      const unsignedTx = serializeTransaction({
        chainId: 8453,
        type: 'eip1559',
        to: GAS_PRICE_ORACLE_ADDRESS,
        data,
        nonce: 7,
        gas: 300_000n,
        maxFeePerGas: 10n ** 7n,
        maxPriorityFeePerGas: 10n ** 6n,
      })
      const charged = await oracle('getL1Fee', unsignedTx, block)
      assert.equal(
        l1FeeWei({ parameters: read, unsignedTx }),
        await oracle('getL1FeeUpperBound', BigInt((unsignedTx.length - 2) / 2), block),
      )
      assert.ok(l1FeeWei({ parameters: read, unsignedTx }) >= charged, 'the upper bound never understates what the chain charges')
    }
  }
  console.log(`fjord: ${checked} sizes equal the oracle's getL1FeeUpperBound`)
})

test('Ecotone (isFjord off): getL1Fee equals ours exactly, byte by byte', async () => {
  const parameters = { l1BaseFee: 12n * 10n ** 9n, blobBaseFee: 3n, baseFeeScalar: 2269n, blobBaseFeeScalar: 1_055_762n }
  await setL1FeeParameters({ publicClient: devnet.publicClient as never, testClient: devnet.testClient as never, parameters })
  await devnet.testClient.setStorageAt({
    address: GAS_PRICE_ORACLE_ADDRESS,
    index: pad('0x0', { size: 32 }),
    value: pad('0x01', { size: 32 }),
  })
  await devnet.testClient.mine({ blocks: 1 })
  const block = await devnet.publicClient.getBlockNumber()
  const read = await readL1FeeParameters({ client: devnet.publicClient as never, blockNumber: block })
  assert.equal(read.isFjord, false)
  const prng = createPrng({ seed: 77 })
  const random = prng.next
  for (let i = 0; i < 10; i++) {
    const data = toHex(Uint8Array.from({ length: Math.floor(random() * 800) }, () => (random() < 0.4 ? 0 : Math.floor(random() * 256))))
    const unsignedTx = serializeTransaction({
      chainId: 8453,
      type: 'eip1559',
      to: GAS_PRICE_ORACLE_ADDRESS,
      data,
      nonce: i,
      gas: 200_000n,
      maxFeePerGas: 10n ** 7n,
      maxPriorityFeePerGas: 1n,
    })
    assert.equal(l1FeeWei({ parameters: read, unsignedTx }), await oracle('getL1Fee', unsignedTx, block))
  }
  // viem's own op-stack action (it serializes the request with its stub fields, chain id 1 without
  // a chain, and calls getL1Fee) agrees with ours on the same serialization.
  const data = '0x12345600000000ff' as Hex
  const viaViem = await estimateL1Fee(
    devnet.publicClient as never,
    { to: GAS_PRICE_ORACLE_ADDRESS, data, account: devnet.account, chain: null, blockNumber: block } as never,
  )
  const same = serializeTransaction({
    chainId: 1,
    type: 'eip1559',
    to: GAS_PRICE_ORACLE_ADDRESS,
    data,
    gas: 300_000n,
    maxFeePerGas: 5n * 10n ** 9n,
    maxPriorityFeePerGas: 10n ** 9n,
    nonce: 1,
  })
  assert.equal(l1FeeWei({ parameters: read, unsignedTx: same }), viaViem)
  await devnet.testClient.setStorageAt({
    address: GAS_PRICE_ORACLE_ADDRESS,
    index: pad('0x0', { size: 32 }),
    value: pad('0x0101', { size: 32 }),
  })
})

test('a leg costs what its calldata adds: the marginal fee of its bytes is the difference of two upper bounds, rounded up', () => {
  const parameters = { isFjord: true, l1BaseFee: 10n ** 9n, blobBaseFee: 1n, baseFeeScalar: 2269n, blobBaseFeeScalar: 1_055_762n }
  const bytes = routerLegCalldataBytes()
  assert.ok(bytes > 200n && bytes < 600n, `a v3_direct leg adds ${bytes} bytes`)
  const perLeg = l1FeePerBytesWei({ parameters, extraBytes: bytes })
  const base = 1000n
  const step =
    l1FeeUpperBoundWei({ parameters, unsignedTxSize: base + bytes * 10n }) - l1FeeUpperBoundWei({ parameters, unsignedTxSize: base })
  // Ten legs through the bound's integer steps land within one byte's worth of ten marginal fees.
  const byte = l1FeePerBytesWei({ parameters, extraBytes: 1n })
  assert.ok(step <= perLeg * 10n && step >= perLeg * 10n - 2n * byte, `${step} vs ${perLeg * 10n}`)
  assert.equal(
    l1FeePerBytesWei({ parameters: { ...parameters, isFjord: false }, extraBytes: 10n }),
    (16n * 10n * (2269n * 16n * 10n ** 9n + 1_055_762n) + 16n * 10n ** 6n - 1n) / (16n * 10n ** 6n),
  )
  console.log(`one leg: ${bytes} bytes of calldata, ${perLeg} wei of L1 fee at 1 gwei L1 base fee`)
})
