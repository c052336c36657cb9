import { type Address, erc20Abi, type PublicClient } from 'viem'

/**
 * A token's decimals read from the chain once (`decimals()`), then remembered: only Velora's API
 * needs them, so they are read only when it is configured and asked. A failed read is not
 * remembered.
 *
 * @example
 * const decimalsOf = createTokenDecimals({ client: publicClient })
 * await decimalsOf(usdc) // 6
 */
export function createTokenDecimals({ client }: { client: Pick<PublicClient, 'readContract'> }): (token: Address) => Promise<number> {
  const known = new Map<string, Promise<number>>()
  return (token) => {
    const key = token.toLowerCase()
    let decimals = known.get(key)
    if (!decimals) {
      decimals = client.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' }).then(Number)
      decimals.catch(() => known.delete(key))
      known.set(key, decimals)
    }
    return decimals
  }
}
