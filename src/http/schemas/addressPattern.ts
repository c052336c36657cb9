import type { Address } from 'viem'

/**
 * A regular expression matching exactly the given addresses in any letter case (the spec's
 * Address accepts any case, so `const` would miss `0xabc…` for `0xABC…`). How the document
 * states a rule about particular addresses: "user is not the router", "tokenIn is WETH or the
 * native asset". Plain syntax, read alike by ECMAScript and Python.
 *
 * @example
 * const pattern = new RegExp(addressPattern(['0x00000000000000000000000000000000000000aB']))
 * pattern.test('0x00000000000000000000000000000000000000AB') // true
 */
export function addressPattern(addresses: readonly Address[]): string {
  if (addresses.length === 0) throw new RangeError('at least one address')
  const alternatives = addresses.map((address) => {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new RangeError(`not an address: ${address}`)
    return address
      .slice(2)
      .toLowerCase()
      .replace(/[a-f]/g, (c) => `[${c}${c.toUpperCase()}]`)
  })
  return `^0x(?:${[...new Set(alternatives)].join('|')})$`
}
