import type { PublicClient } from 'viem'
import { GAS_PRICE_ORACLE_ADDRESS, gasPriceOracleAbi } from './gasPriceOracle.ts'
import type { L1FeeParameters } from './L1FeeParameters.ts'

/**
 * The block's L1 fee parameters, read from the `GasPriceOracle` predeploy in one multicall pinned
 * to `blockNumber`. They are what the next block's transactions pay too unless that block starts a
 * new L1 epoch (the depositor's first transaction of the block rewrites them); the market reads them
 * again every block.
 *
 * @example
 * const parameters = await readL1FeeParameters({ client, blockNumber: 123n })
 * // → { isFjord, l1BaseFee, blobBaseFee, baseFeeScalar, blobBaseFeeScalar } at block 123 (bigints)
 */
export async function readL1FeeParameters({
  client,
  blockNumber,
}: {
  client: PublicClient
  blockNumber: bigint
}): Promise<L1FeeParameters> {
  const call = (functionName: 'isFjord' | 'l1BaseFee' | 'blobBaseFee' | 'baseFeeScalar' | 'blobBaseFeeScalar') =>
    ({ address: GAS_PRICE_ORACLE_ADDRESS, abi: gasPriceOracleAbi, functionName }) as const
  const [isFjord, l1BaseFee, blobBaseFee, baseFeeScalar, blobBaseFeeScalar] = await client.multicall({
    contracts: [call('isFjord'), call('l1BaseFee'), call('blobBaseFee'), call('baseFeeScalar'), call('blobBaseFeeScalar')],
    allowFailure: false,
    blockNumber,
  })
  return {
    isFjord: isFjord as boolean,
    l1BaseFee: l1BaseFee as bigint,
    blobBaseFee: blobBaseFee as bigint,
    baseFeeScalar: BigInt(baseFeeScalar as number),
    blobBaseFeeScalar: BigInt(blobBaseFeeScalar as number),
  }
}
