import { parseAbi } from 'viem'

/** The OP-stack predeploy that prices a transaction's L1 data fee (the same address on every OP-stack chain, Base included). */
export const GAS_PRICE_ORACLE_ADDRESS = '0x420000000000000000000000000000000000000F' as const
/** The predeploy holding the L1 fee parameters, written by the depositor account at each L1 origin. */
export const L1_BLOCK_ADDRESS = '0x4200000000000000000000000000000000000015' as const
/** The system account that writes `L1Block` (OP-stack `Constants.DEPOSITOR_ACCOUNT`). */
export const DEPOSITOR_ACCOUNT = '0xDeaDDEaDDeAdDeAdDEAdDEaddeAddEAdDEAd0001' as const

/** The part of `GasPriceOracle` (Fjord, v1.3.0) the service reads. */
export const gasPriceOracleAbi = parseAbi([
  'function isEcotone() view returns (bool)',
  'function isFjord() view returns (bool)',
  'function l1BaseFee() view returns (uint256)',
  'function blobBaseFee() view returns (uint256)',
  'function baseFeeScalar() view returns (uint32)',
  'function blobBaseFeeScalar() view returns (uint32)',
  'function getL1Fee(bytes data) view returns (uint256)',
  'function getL1FeeUpperBound(uint256 unsignedTxSize) view returns (uint256)',
])
