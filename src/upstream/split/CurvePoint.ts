/** One point of a sampled curve: `y` (tokenOut, smallest unit, may be negative when net of gas) for input `x` (tokenIn). */
export type CurvePoint = { x: bigint; y: bigint }
