import { type Address, type Hex, maxUint256, parseAbi } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { loadConfig } from '../../../src/config/loadConfig.ts'
import { writeContractAndWait } from '../../../src/devnet/writeContractAndWait.ts'
import { type SwapService, startSwapService } from '../../../src/startSwapService.ts'
import { type GatewayTestbed, startGatewayTestbed } from './gatewayTestbed.ts'

/** A gateway whose swaps are priced by a running swap service's own solver, as `npm start` wires them. */
export type SwapTestbed = { service: SwapService; bed: GatewayTestbed; stop: () => Promise<void> }

/**
 * Starts the swap service on the embedded chain (its market polled every 250 ms, snapshots kept
 * usable for the whole test) and a gateway testbed on the same chain, serving swaps with the
 * service's quote service and router.
 *
 * @example
 * const { service, bed } = await startSwapTestbed({ apiKey: 'swap-test-key-0123456789abcdef' })
 */
export async function startSwapTestbed({ apiKey }: { apiKey: string }): Promise<SwapTestbed> {
  const service = await startSwapService({
    config: loadConfig({ API_KEYS: apiKey, MARKET_POLL_INTERVAL_MS: '250', MAX_SNAPSHOT_AGE_MS: '600000' }),
    logger: false,
  })
  const { quoteService } = service.deps
  const bed = await startGatewayTestbed({ devnet: service.devnet!, swaps: { router: quoteService.router, quote: quoteService.quote } })
  return {
    service,
    bed,
    stop: async () => {
      await bed.stop()
      await service.fastify.close()
    },
  }
}

/**
 * A fresh wallet with its own key; funded (the default) with 1 ETH and 1 WETH from a dev account.
 *
 * @example
 * const { privateKey, address } = await freshWallet(bed)
 */
export async function freshWallet(bed: GatewayTestbed, { fund = true }: { fund?: boolean } = {}) {
  const privateKey = generatePrivateKey()
  const address = privateKeyToAccount(privateKey).address
  if (fund) {
    const devnet = bed.devnet
    await writeContractAndWait({
      devnet,
      address: bed.chain.wrappedNative,
      abi: parseAbi(['function transfer(address, uint256) returns (bool)']),
      functionName: 'transfer',
      args: [address, 10n ** 18n],
      from: devnet.market.accounts[0].address,
    })
    await devnet.testClient.setBalance({ address, value: 10n ** 18n })
  }
  return { privateKey, address }
}

/**
 * `approve(spender, max)` calldata: the wallet signs it itself, as it would in its own app.
 *
 * @example
 * await signAndSend({ client, privateKey, tx: { chain_id, from, to: token, data: encodeApprove(router), value: '0', gas: '100000' } })
 */
export function encodeApprove(spender: Address): Hex {
  return `0x095ea7b3${spender.slice(2).toLowerCase().padStart(64, '0')}${'f'.repeat(64)}` as Hex
}

/**
 * A dev account (unlocked on the embedded chain) approves `spender` for all its `token`, and the
 * approval is mined: a wallet that has approved the router before it quotes.
 *
 * @example
 * await approveFromDevAccount({ bed, token: weth, spender: router, from: bed.devnet.market.accounts[3].address })
 */
export async function approveFromDevAccount({
  bed,
  token,
  spender,
  from,
}: {
  bed: GatewayTestbed
  token: Address
  spender: Address
  from: Address
}): Promise<void> {
  await writeContractAndWait({
    devnet: bed.devnet,
    address: token,
    abi: parseAbi(['function approve(address, uint256) returns (bool)']),
    functionName: 'approve',
    args: [spender, maxUint256],
    from,
  })
}
