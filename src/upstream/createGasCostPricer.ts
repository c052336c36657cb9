import type { Address } from 'viem'

/** Gas costs in tokenOut for one request. */
export type GasCostInTokenOut = {
  /** False when no price of gas in tokenOut is known: costs are 0 and every net figure is gross. */
  priced: boolean
  /**
   * The cost of `gasUnits` at the request's gas price plus `extraWei` (the transaction's L1 data fee
   * on an OP-stack chain), in tokenOut's smallest unit, rounded up.
   */
  costOf: (gasUnits: bigint, extraWei?: bigint) => bigint
}

export type CreateGasCostPricerParameters = {
  /** The wrapped native token (gas is paid in the native asset, worth one WETH each). */
  weth: Address
  /** tokenOut received for `amountInWei` of WETH on our own market (throws when there is no route). */
  quoteWeth: (tokenOut: Address, amountInWei: bigint) => Promise<bigint>
  /** A rate is reused this long per tokenOut (default 10 000 ms). */
  maxAgeMs?: number
  now?: () => number
}

/** The WETH amount the rate is measured at: 0.01 ETH, small against any pool worth routing through. */
const REFERENCE_WEI = 10n ** 16n
const NATIVE = new Set(['0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', '0x0000000000000000000000000000000000000000'])

/**
 * Prices gas in tokenOut so every source is compared net of its own gas, with one price of gas
 * (ours) and one exchange rate (our market's WETH→tokenOut quote for 0.01 ETH, cached per token):
 * an upstream's own gas valuation is never mixed in. tokenOut WETH or native: 1:1. No route from
 * WETH to tokenOut on our market: unpriced (`priced: false`, costs 0), which the answers say.
 *
 * @example
 * const pricer = createGasCostPricer({ weth, quoteWeth: async (token, wei) => BigInt((await quoteService.quote({ … })).expectedAmountOut) })
 * const gas = await pricer(usdc, 5_000_000n) // gas.costOf(200_000n): 200000 × 5 gwei… in USDC units
 */
export function createGasCostPricer({
  weth,
  quoteWeth,
  maxAgeMs = 10_000,
  now = Date.now,
}: CreateGasCostPricerParameters): (tokenOut: Address, gasPriceWei: bigint) => Promise<GasCostInTokenOut> {
  const rates = new Map<string, { outPerReference: bigint | undefined; at: number }>()
  return async (tokenOut, gasPriceWei) => {
    const key = tokenOut.toLowerCase()
    if (NATIVE.has(key) || key === weth.toLowerCase())
      return { priced: true, costOf: (units, extraWei = 0n) => units * gasPriceWei + extraWei }
    let rate = rates.get(key)
    if (!rate || now() - rate.at > maxAgeMs) {
      let outPerReference: bigint | undefined
      try {
        outPerReference = await quoteWeth(tokenOut, REFERENCE_WEI)
      } catch {
        outPerReference = undefined
      }
      rate = { outPerReference, at: now() }
      rates.set(key, rate)
      if (rates.size > 10_000) rates.delete(rates.keys().next().value as string)
    }
    const perReference = rate.outPerReference
    if (perReference === undefined) return { priced: false, costOf: () => 0n }
    return {
      priced: true,
      costOf: (units, extraWei = 0n) => ((units * gasPriceWei + extraWei) * perReference + REFERENCE_WEI - 1n) / REFERENCE_WEI,
    }
  }
}
