import type { PoolInput } from '../../../bindings/types.ts'

const Q96 = 2n ** 96n

/**
 * A pool's reserves as the price near its current state sees them, in raw units of token0 and
 * token1: a constant-product or Solidly pool's reserves; a concentrated pool's virtual reserves at
 * its active liquidity (x = L·2^96/√P, y = L·√P/2^96, floored: the depth a trade near the price
 * meets, not the tokens parked out of range); an E-CLP's Vault balances; a LunarBase pool's active
 * reserves (it prices linearly at its anchor up to them); a Maverick V2 pool's read ticks. Undefined for sampled venues (no reserves to read).
 *
 * @example
 * virtualReserves({ id, dex: 'UNIV2', tokens, state: { model: 'constant_product', reserves: ['10', '20'] } }) // [10n, 20n]
 */
export function virtualReserves(pool: PoolInput): [bigint, bigint] | undefined {
  const { state } = pool
  switch (state.model) {
    case 'constant_product':
    case 'solidly':
      return [BigInt(state.reserves[0]), BigInt(state.reserves[1])]
    case 'concentrated': {
      const sqrtPriceX96 = BigInt(state.sqrtPriceX96)
      const liquidity = BigInt(state.liquidity)
      if (sqrtPriceX96 === 0n) return [0n, 0n]
      return [(liquidity * Q96) / sqrtPriceX96, (liquidity * sqrtPriceX96) / Q96]
    }
    // An E-CLP's Vault balances: all a trade can take out (the curve holds nothing beyond them).
    case 'gyro_eclp':
      return [BigInt(state.balances[0]), BigInt(state.balances[1])]
    case 'lunarbase':
      return [BigInt(state.reserveX), BigInt(state.reserveY)]
    // A Maverick V2 pool's read ticks' reserves (18-decimal scale) in raw units: all a trade can take out.
    case 'maverick_v2': {
      const sum = (side: 1 | 2) => state.ticks.reduce((total, tick) => total + BigInt(tick[side]), 0n)
      return [sum(1) / BigInt(state.tokenScales[0]), sum(2) / BigInt(state.tokenScales[1])]
    }
    default:
      return undefined
  }
}
