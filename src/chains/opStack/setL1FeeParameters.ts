import { concat, type Hex, numberToHex, type PublicClient, type TestClient, toFunctionSelector, zeroHash } from 'viem'
import { DEPOSITOR_ACCOUNT, L1_BLOCK_ADDRESS } from './gasPriceOracle.ts'
import type { L1FeeParameters } from './L1FeeParameters.ts'

export type SetL1FeeParametersParameters = {
  publicClient: PublicClient
  testClient: TestClient
  parameters: Omit<L1FeeParameters, 'isFjord'>
}

/**
 * Writes the L1 fee parameters on a local chain the way an OP-stack chain does at each L1 origin:
 * the depositor account (impersonated here) calls `L1Block.setL1BlockValuesEcotone()` with its
 * packed calldata (base fee scalar, blob base fee scalar, sequence number, L1 timestamp and number,
 * base fee, blob base fee, hash, batcher hash). Mines one block holding that call; returns it.
 *
 * @example
 * await setL1FeeParameters({ publicClient, testClient, parameters: { l1BaseFee: 5n * 10n ** 9n, blobBaseFee: 1n, baseFeeScalar: 2269n, blobBaseFeeScalar: 1055762n } })
 * // → the number of the block it mined; from it on, readL1FeeParameters answers these values
 */
export async function setL1FeeParameters({ publicClient, testClient, parameters }: SetL1FeeParametersParameters): Promise<bigint> {
  const { l1BaseFee, blobBaseFee, baseFeeScalar, blobBaseFeeScalar } = parameters
  const selector = toFunctionSelector('setL1BlockValuesEcotone()')
  const calldata = concat([
    selector,
    numberToHex(baseFeeScalar, { size: 4 }),
    numberToHex(blobBaseFeeScalar, { size: 4 }),
    numberToHex(0n, { size: 8 }), // sequence number
    numberToHex(0n, { size: 8 }), // L1 timestamp
    numberToHex(0n, { size: 8 }), // L1 block number
    numberToHex(l1BaseFee, { size: 32 }),
    numberToHex(blobBaseFee, { size: 32 }),
    zeroHash, // L1 block hash
    zeroHash, // batcher hash
  ])
  await testClient.impersonateAccount({ address: DEPOSITOR_ACCOUNT })
  await testClient.setBalance({ address: DEPOSITOR_ACCOUNT, value: 10n ** 18n })
  try {
    const hash = (await publicClient.request({
      method: 'eth_sendTransaction' as never,
      params: [{ from: DEPOSITOR_ACCOUNT, to: L1_BLOCK_ADDRESS, data: calldata, gas: numberToHex(200_000n) }] as never,
    })) as Hex
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    if (receipt.status !== 'success') throw new Error(`setL1BlockValuesEcotone reverted in block ${receipt.blockNumber}`)
    return receipt.blockNumber
  } finally {
    await testClient.stopImpersonatingAccount({ address: DEPOSITOR_ACCOUNT })
  }
}
