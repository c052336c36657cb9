import { type Address, getAddress } from 'viem'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { erc20Abi, type RouterMarket } from './createRouterMarket.ts'
import { balanceOf } from './routerCall.ts'

/** What an address holds of each of the market's tokens and of ETH (`native`), by checksummed address. */
export type Holdings = Map<Address | 'native', bigint>

/** The assets a router test can leave in the router or find there: A, B, C, WETH and ETH. */
export function marketAssets(market: RouterMarket): (Address | 'native')[] {
  const { a, b, c } = market.tokens
  return [a, b, c, market.weth, 'native'].map((t) => (t === 'native' ? t : getAddress(t)))
}

/**
 * Leaves tokens and ETH in the router as airdrops and mistaken transfers would: ERC-20s sent from
 * the devnet account (which must hold them), ETH forced with `anvil_setBalance` (the router's
 * `receive` refuses ordinary senders; `selfdestruct` and block rewards do not ask).
 *
 * @example
 * await leaveStrayBalances({ market, amounts: new Map([[market.tokens.b, 10n ** 18n], ['native', 1n]]) })
 * // the router now holds 1 B (10^18) and 1 wei of ETH
 */
export async function leaveStrayBalances({ market, amounts }: { market: RouterMarket; amounts: Holdings }): Promise<void> {
  const { devnet } = market
  for (const [token, amount] of amounts) {
    if (amount === 0n) continue
    if (token === 'native') {
      const held = await devnet.publicClient.getBalance({ address: market.router })
      await devnet.testClient.setBalance({ address: market.router, value: held + amount })
    } else {
      await writeContractAndWait({ devnet, address: token, abi: erc20Abi, functionName: 'transfer', args: [market.router, amount] })
    }
  }
}

/**
 * What `owner` holds of each asset (default: the market's A, B, C, WETH and ETH).
 *
 * @example
 * const before = await holdingsOf({ market, owner: market.router })
 * // → Map(A → …, B → …, C → …, WETH → …, 'native' → …): the router's balances
 */
export async function holdingsOf({
  market,
  owner,
  assets = marketAssets(market),
}: {
  market: RouterMarket
  owner: Address
  assets?: (Address | 'native')[]
}): Promise<Holdings> {
  const amounts = await Promise.all(assets.map((asset) => balanceOf(market, asset, owner)))
  return new Map(assets.map((asset, i) => [asset, amounts[i]]))
}

/** `Holdings` as a plain object for `assert.deepEqual` messages that say which asset differs. */
export function showHoldings(holdings: Holdings): Record<string, string> {
  return Object.fromEntries([...holdings].map(([asset, amount]) => [asset, amount.toString()]))
}
