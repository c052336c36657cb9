/** The L1 fee parameters of one L2 block, as `GasPriceOracle` reads them from `L1Block`. */
export type L1FeeParameters = {
  /** Fjord formula (FastLZ size estimate) when true; else Ecotone (calldata gas). */
  isFjord: boolean
  /** L1 base fee, wei. */
  l1BaseFee: bigint
  /** L1 blob base fee, wei. */
  blobBaseFee: bigint
  /** Scalar on the base fee, 6 decimals. */
  baseFeeScalar: bigint
  /** Scalar on the blob base fee, 6 decimals. */
  blobBaseFeeScalar: bigint
}
