import { type Address, encodeFunctionData, parseAbi } from 'viem'
import type { PropAmmDescription } from '../../src/devnet/propAmm/PropAmmDescription.ts'
import { sendAndWait } from '../../src/devnet/sendAndWait.ts'
import type { Devnet } from '../../src/devnet/startDevnet.ts'

const abi = parseAbi(['function setInventoryCap(uint16 capBps)', 'function relay((address target, bytes data)[] calls)'])

/**
 * The operator's inventory cap on one closed-curve stand-in (`OperatorPriced.setInventoryCap`):
 * past `capBps` of its inventory of the output token its quote view falls (not monotone); 0 turns
 * it off. Sent as the devnet's operator (the `OperatorRelay`'s owner, impersonated); resolves with
 * the block it took effect in.
 *
 * @example
 * const block = await setVenueInventoryCap({ devnet, propAmms, venue: propswap.address, capBps: 1_000 })
 * // from `block` on, an output above 10 % of the venue's inventory is quoted cap² / out
 */
export async function setVenueInventoryCap({
  devnet,
  propAmms,
  venue,
  capBps,
}: {
  devnet: Devnet
  propAmms: PropAmmDescription
  venue: Address
  capBps: number
}): Promise<bigint> {
  await devnet.publicClient.request({ method: 'anvil_impersonateAccount' as never, params: [propAmms.operator] as never })
  const data = encodeFunctionData({ abi, functionName: 'setInventoryCap', args: [capBps] })
  const receipt = await sendAndWait({
    devnet,
    from: propAmms.operator,
    to: propAmms.relay,
    data: encodeFunctionData({ abi, functionName: 'relay', args: [[{ target: venue, data }]] }),
    gas: 1_000_000n,
    label: `inventory cap ${capBps} bps`,
  })
  return receipt.blockNumber
}
