import { type Address, decodeErrorResult, type Hex, parseAbi, type TransactionReceipt } from 'viem'
import { sendAndWait } from '../../src/devnet/sendAndWait.ts'
import { swapRouterAbi } from '../../src/router/swapRouterAbi.ts'
import { erc20Abi, type RouterMarket } from './createRouterMarket.ts'

const extraErrors = parseAbi(['error Error(string)', 'error Panic(uint256)'])

export type RouterCallResult = {
  receipt: TransactionReceipt
  /** What `recipient` gained in `tokenOut` (native ETH when `tokenOut` is `'native'`). */
  received: bigint
}

/**
 * Sends router calldata from the devnet account (or `from`), requires success, and measures what
 * the recipient received. Also checks the router holds nothing afterwards.
 *
 * @example
 * const { received, receipt } = await sendRouterCall({ market, data, recipient, tokenOut })
 * // → received: recipient's tokenOut balance change; receipt: the mined call's, which succeeded; an assertion fails if the router kept anything
 */
export async function sendRouterCall({
  market,
  data,
  value,
  from,
  recipient,
  tokenOut,
}: {
  market: RouterMarket
  data: Hex
  value?: bigint
  from?: Address
  recipient: Address
  tokenOut: Address | 'native'
}): Promise<RouterCallResult> {
  const before = await balanceOf(market, tokenOut, recipient)
  const receipt = await sendAndWait({ devnet: market.devnet, to: market.router, data, value, from, gas: 5_000_000n, throwOnRevert: false })
  if (receipt.status !== 'success') {
    const reason = await routerRevert({ market, data, value, from }).catch(() => 'unknown')
    throw new Error(`router call reverted: ${reason}`)
  }
  const received = (await balanceOf(market, tokenOut, recipient)) - before
  await assertRouterEmpty(market)
  return { receipt, received }
}

/**
 * Runs the call with eth_call and returns the decoded revert (`Name(arg, …)`), or throws when it
 * does not revert. Errors of other contracts that the router re-throws decode as their selector.
 *
 * @example
 * assert.match(await routerRevert({ market, data }), /^DeadlineExpired/)
 * // routerRevert(…) → e.g. 'DeadlineExpired(1700000000, 1700000300)'; throws when the call succeeds
 */
export async function routerRevert({
  market,
  data,
  value,
  from,
}: {
  market: RouterMarket
  data: Hex
  value?: bigint
  from?: Address
}): Promise<string> {
  const res = await fetch(market.devnet.anvil.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_call',
      params: [
        {
          from: from ?? market.devnet.account,
          to: market.router,
          data,
          value: value ? `0x${value.toString(16)}` : undefined,
          gas: '0x4c4b40',
        },
        'latest',
      ],
    }),
  })
  const body = (await res.json()) as { result?: Hex; error?: { message: string; data?: Hex } }
  if (!body.error) throw new Error('expected a revert, the call succeeded')
  const revertData = body.error.data
  if (!revertData || revertData === '0x') return `(no data) ${body.error.message}`
  try {
    const decoded = decodeErrorResult({ abi: [...swapRouterAbi, ...extraErrors], data: revertData })
    return `${decoded.errorName}(${(decoded.args ?? []).map(String).join(', ')})`
  } catch {
    return revertData.slice(0, 10)
  }
}

export async function balanceOf(market: RouterMarket, token: Address | 'native', owner: Address): Promise<bigint> {
  if (token === 'native') return market.devnet.publicClient.getBalance({ address: owner })
  return market.devnet.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })
}

/** The router must end every call holding no tokens and no ETH. */
export async function assertRouterEmpty(market: RouterMarket): Promise<void> {
  const { a, b, c } = market.tokens
  for (const token of [a, b, c, market.weth, 'native'] as const) {
    const held = await balanceOf(market, token, market.router)
    if (held !== 0n) throw new Error(`router holds ${held} of ${token} after a call`)
  }
}
