import { type Hex, hexToBytes } from 'viem'
import type { L1FeeParameters } from './L1FeeParameters.ts'

/** `GasPriceOracle.DECIMALS`: the scalars have 6 decimals. */
const DECIMALS = 6n
/** Fjord's linear regression from the FastLZ size to the estimated Brotli size, scaled by 1e6. */
const COST_INTERCEPT = -42_585_600n
const COST_FASTLZ_COEF = 836_500n
const MIN_TRANSACTION_SIZE_SCALED = 100n * 1_000_000n
/** Bytes a signature adds to an unsigned transaction (the oracle's own allowance). */
const SIGNATURE_BYTES = 68n

/** `baseFeeScalar · 16 · l1BaseFee + blobBaseFeeScalar · blobBaseFee`: the fee per (scaled) byte of both formulas. */
function feeScaled(p: L1FeeParameters): bigint {
  return p.baseFeeScalar * 16n * p.l1BaseFee + p.blobBaseFeeScalar * p.blobBaseFee
}

/** Fjord's cost of a FastLZ size: `max(intercept + coef · size, 100e6) · feeScaled / 1e12`, floored. */
function fjordCost(p: L1FeeParameters, fastLzSize: bigint): bigint {
  let estimated = COST_INTERCEPT + COST_FASTLZ_COEF * fastLzSize
  if (estimated < MIN_TRANSACTION_SIZE_SCALED) estimated = MIN_TRANSACTION_SIZE_SCALED
  return (estimated * feeScaled(p)) / 10n ** (DECIMALS * 2n)
}

/**
 * The L1 data fee of a transaction, in wei, from its unsigned RLP encoding and the block's
 * parameters, exactly as `GasPriceOracle` (v1.3.0) computes it without compressing:
 * - Fjord: `getL1FeeUpperBound(size)`: the FastLZ size bounded by `s + s/255 + 16` with
 *   `s = size + 68`, then the regression. An upper bound: the chain charges the actual FastLZ size,
 *   which ABI calldata (many zero bytes) keeps smaller, so the quote never understates it.
 * - Ecotone: `getL1Fee(tx)`: calldata gas (4 per zero byte, 16 per other, plus 68 · 16) times
 *   `feeScaled / (16 · 1e6)`; exact.
 *
 * @example
 * l1FeeWei({ parameters, unsignedTx: serializeTransaction({ chainId: 8453, to: router, data, ... }) })
 * // → the L1 data fee in wei (bigint): Fjord's upper bound for its size, or Ecotone's exact getL1Fee
 */
export function l1FeeWei({ parameters, unsignedTx }: { parameters: L1FeeParameters; unsignedTx: Hex }): bigint {
  if (parameters.isFjord) return l1FeeUpperBoundWei({ parameters, unsignedTxSize: BigInt((unsignedTx.length - 2) / 2) })
  let calldataGas = SIGNATURE_BYTES * 16n
  for (const byte of hexToBytes(unsignedTx)) calldataGas += byte === 0 ? 4n : 16n
  return (calldataGas * feeScaled(parameters)) / (16n * 10n ** DECIMALS)
}

/**
 * Fjord's `getL1FeeUpperBound(unsignedTxSize)`, in wei.
 *
 * @example
 * const parameters = { isFjord: true, l1BaseFee: 5n * 10n ** 9n, blobBaseFee: 1n, baseFeeScalar: 2269n, blobBaseFeeScalar: 1055762n }
 * l1FeeUpperBoundWei({ parameters, unsignedTxSize: 700n }) // → 111769107298n (about 1.1e-7 ETH)
 */
export function l1FeeUpperBoundWei({ parameters, unsignedTxSize }: { parameters: L1FeeParameters; unsignedTxSize: bigint }): bigint {
  const size = unsignedTxSize + SIGNATURE_BYTES
  return fjordCost(parameters, size + size / 255n + 16n)
}

/**
 * What `extraBytes` more bytes of unsigned transaction add to its L1 fee at most, in wei (rounded
 * up): the marginal cost the solver charges a route per leg, whose calldata it adds. Fjord: the
 * regression's slope on the FastLZ bound (`coef · bytes · 256/255`); Ecotone: 16 per byte. Past
 * Fjord's minimum size (100 estimated bytes, which a swap's calldata always exceeds) both are linear.
 *
 * @example
 * const parameters = { isFjord: true, l1BaseFee: 5n * 10n ** 9n, blobBaseFee: 1n, baseFeeScalar: 2269n, blobBaseFeeScalar: 1055762n }
 * l1FeePerBytesWei({ parameters, extraBytes: 224n }) // → 34145874039n; 40660480237n with isFjord: false (Ecotone)
 */
export function l1FeePerBytesWei({ parameters, extraBytes }: { parameters: L1FeeParameters; extraBytes: bigint }): bigint {
  const denominator = parameters.isFjord ? 255n * 10n ** (DECIMALS * 2n) : 16n * 10n ** DECIMALS
  const numerator = parameters.isFjord
    ? COST_FASTLZ_COEF * extraBytes * 256n * feeScaled(parameters)
    : 16n * extraBytes * feeScaled(parameters)
  return (numerator + denominator - 1n) / denominator
}
