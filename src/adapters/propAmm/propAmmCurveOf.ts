/** One sample: the input, and the output the venue's view answered (undefined: it reverted). */
export type PropAmmSample = { amountIn: bigint; amountOut: bigint | undefined }

export type PropAmmCurve = { samples: [bigint, bigint][] } | { problem: string }

/**
 * The sampled curve of one direction, ascending inputs: leading samples that pay nothing (too
 * small to round to an output) are dropped, and the curve ends before the first sample past them
 * that pays nothing or reverts (beyond the venue's inventory or limit: it refuses there). An output
 * below the one before it is a problem: the venue is not monotone and cannot be priced.
 *
 * @example
 * propAmmCurveOf([{ amountIn: 1n, amountOut: 0n }, { amountIn: 10n, amountOut: 29n }, { amountIn: 100n, amountOut: 0n }])
 * // → { samples: [[10n, 29n]] }
 */
export function propAmmCurveOf(samples: readonly PropAmmSample[]): PropAmmCurve {
  const curve: [bigint, bigint][] = []
  for (const { amountIn, amountOut } of samples) {
    if (!amountOut) {
      if (curve.length > 0) break
      continue
    }
    const last = curve.at(-1)
    if (last && amountOut < last[1])
      return { problem: `samples not monotone: ${amountIn} in pays ${amountOut}, less than ${last[1]} for ${last[0]}` }
    curve.push([amountIn, amountOut])
  }
  return { samples: curve }
}
