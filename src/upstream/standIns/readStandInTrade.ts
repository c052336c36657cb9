import { type Address, getAddress } from 'viem'
import type { StandInTrade } from './StandInApi.ts'

const NATIVE: Address = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'

/**
 * The trade a stand-in was asked for, from the API's own fields (named in `fields` for the error),
 * with the native asset as 0xEeee…EEeE whatever the API writes (`nativeForms`: Odos uses the zero
 * address); or the first problem, worded `field: reason`, for the API's 400.
 *
 * @example
 * readStandInTrade({ tokenIn: q.sellToken, tokenOut: q.buyToken, amountIn: q.sellAmount, fields: ['sellToken', 'buyToken', 'sellAmount'] })
 * // → { trade: { tokenIn, tokenOut, amountIn: BigInt(q.sellAmount) } } or { problem: 'sellAmount: must be a positive integer string' }
 */
export function readStandInTrade({
  tokenIn,
  tokenOut,
  amountIn,
  fields,
  nativeForms = ['0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'],
}: {
  tokenIn: unknown
  tokenOut: unknown
  amountIn: unknown
  fields: [string, string, string]
  nativeForms?: string[]
}): { trade: StandInTrade; problem?: undefined } | { trade?: undefined; problem: string } {
  const token = (value: unknown, field: string): Address | string => {
    if (typeof value !== 'string' || !/^0x[a-fA-F0-9]{40}$/.test(value)) return `${field}: must be an address`
    return nativeForms.includes(value.toLowerCase()) ? NATIVE : getAddress(value)
  }
  const a = token(tokenIn, fields[0])
  if (!a.startsWith('0x')) return { problem: a }
  const b = token(tokenOut, fields[1])
  if (!b.startsWith('0x')) return { problem: b }
  if (typeof amountIn !== 'string' || !/^[0-9]{1,78}$/.test(amountIn) || BigInt(amountIn) === 0n)
    return { problem: `${fields[2]}: must be a positive integer string` }
  if (a === b) return { problem: `${fields[1]}: must differ from ${fields[0]}` }
  return { trade: { tokenIn: a as Address, tokenOut: b as Address, amountIn: BigInt(amountIn) } }
}
