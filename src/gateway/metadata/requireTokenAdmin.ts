import { type Address, getAddress } from 'viem'
import type { GatewayChain } from '../GatewayChain.ts'
import { launchTokenAbi } from '../launchpad/launchTokenAbi.ts'
import { withDeadline } from '../live/withDeadline.ts'
import { GatewayProblem } from '../problems/GatewayProblem.ts'
import { readTokenRow } from '../readModel/readTokenRow.ts'
import type { SqlDatabase } from '../store/SqlDatabase.ts'

/**
 * A token launched here (`not_found` otherwise) whose admin, read live at `blockNumber`, is
 * `actor`: only the admin may change its name, symbol or metadata (`wallet_not_authorized`).
 *
 * @example
 * await requireTokenAdmin({ db, chain, token, actor, blockNumber, timeoutMs })
 * // resolves when actor is the admin; GatewayProblem 'not_found' (not launched here) or 'wallet_not_authorized' otherwise
 */
export async function requireTokenAdmin({
  db,
  chain,
  token,
  actor,
  blockNumber,
  timeoutMs,
}: {
  db: SqlDatabase
  chain: GatewayChain
  token: string
  actor: Address
  blockNumber: bigint
  timeoutMs: number
}): Promise<void> {
  await readTokenRow({ db, chainId: chain.chainId, token })
  const admin = await withDeadline({
    dependency: 'the chain',
    timeoutMs,
    run: () => chain.client.readContract({ address: token as Address, abi: launchTokenAbi, functionName: 'admin', blockNumber }),
  })
  if (getAddress(admin) !== getAddress(actor))
    throw new GatewayProblem('wallet_not_authorized', {
      detail: `${getAddress(actor)} is not the admin of ${getAddress(token)}; only its admin may update its metadata.`,
      chainId: chain.chainId,
      tokenAddress: getAddress(token),
    })
}
