import { type Address, createWalletClient, encodeFunctionData, type Hex, http, maxUint256, parseAbi, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { SeededDevnet } from './startSeededDevnet.ts'
import { waitForReceipt } from './waitForReceipt.ts'

const erc20 = parseAbi([
  'function approve(address, uint256) returns (bool)',
  'function mint(address, uint256)',
  'function deposit() payable',
])

export type FundTraderParameters = {
  /** The chain and its clients (a running `npm start`'s chain: its `var/devnet.json` and clients over its RPC URL). */
  devnet: Pick<SeededDevnet, 'market' | 'chain' | 'publicClient' | 'testClient'>
  /** The account's private key (one of the seeded accounts). */
  privateKey: Hex
  /** Approved for every token. */
  spender: Address
  /** WETH wrapped from the trader's ETH; default 50M. */
  wethAmount?: bigint
}

/**
 * Gives a seeded account deep pockets on the embedded chain: 1e9 ETH, `wethAmount` of it wrapped,
 * 10^12 whole units of every other seeded token minted, and every token approved for `spender`
 * (the router). Transactions are sent back to back with explicit nonces and awaited together.
 *
 * @example
 * const wallet = await fundTrader({ devnet, privateKey: devnet.market.accounts[1].privateKey, spender: devnet.market.router! })
 * // → a wallet client for that account: 1e9 ETH, 50,000,000 WETH, 10^12 of every other token, all approved for the router
 */
export async function fundTrader({ devnet, privateKey, spender, wethAmount = parseEther('50000000') }: FundTraderParameters) {
  const { market: seeded, publicClient, testClient } = devnet
  const account = privateKeyToAccount(privateKey)
  const wallet = createWalletClient({ account, chain: devnet.chain, transport: http(seeded.rpcUrl, { retryCount: 0 }) })
  await testClient.setBalance({ address: account.address, value: parseEther('1000000000') })
  let nonce = await publicClient.getTransactionCount({ address: account.address })
  const fees = { maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 0n }
  const sent: Hex[] = []
  for (const [symbol, token] of Object.entries(seeded.tokens)) {
    const mintOrWrap =
      symbol === 'WETH'
        ? { to: token.address, data: encodeFunctionData({ abi: erc20, functionName: 'deposit' }), value: wethAmount }
        : {
            to: token.address,
            data: encodeFunctionData({ abi: erc20, functionName: 'mint', args: [account.address, 10n ** BigInt(token.decimals + 12)] }),
            value: 0n,
          }
    sent.push(await wallet.sendTransaction({ ...mintOrWrap, nonce: nonce++, gas: 200_000n, ...fees }))
    sent.push(
      await wallet.sendTransaction({
        to: token.address,
        data: encodeFunctionData({ abi: erc20, functionName: 'approve', args: [spender, maxUint256] }),
        nonce: nonce++,
        gas: 100_000n,
        ...fees,
      }),
    )
  }
  for (const hash of sent) {
    const receipt = await waitForReceipt({ publicClient, hash })
    if (receipt.status !== 'success') throw new Error(`funding ${account.address}: transaction ${hash} reverted`)
  }
  return wallet
}
