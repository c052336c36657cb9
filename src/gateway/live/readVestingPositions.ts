import type { Address, PublicClient } from 'viem'
import { vestingVaultAbi } from '../launchpad/vestingVaultAbi.ts'

export type LiveVesting = { amount: bigint; claimed: bigint; claimable: bigint; vested: bigint; timestamp: bigint }

/**
 * Each position's claimed and claimable amounts at `blockNumber` (the vault's own `positions` and
 * `claimable`, in one multicall), and what has vested (claimed + claimable).
 *
 * @example
 * const live = await readVestingPositions({ client, multicall3, vault, ids: [1n, 2n], blockNumber })
 * // → [{ amount, claimed, claimable, vested: claimed + claimable, timestamp }, …] for ids 1 and 2
 */
export async function readVestingPositions({
  client,
  multicall3,
  vault,
  ids,
  blockNumber,
}: {
  client: PublicClient
  multicall3: Address
  vault: Address
  ids: readonly bigint[]
  blockNumber: bigint
}): Promise<LiveVesting[]> {
  if (ids.length === 0) return []
  const [block, results] = await Promise.all([
    client.getBlock({ blockNumber }),
    client.multicall({
      multicallAddress: multicall3,
      allowFailure: false,
      blockNumber,
      contracts: ids.flatMap((id) => [
        { address: vault, abi: vestingVaultAbi, functionName: 'positions', args: [id] } as const,
        { address: vault, abi: vestingVaultAbi, functionName: 'claimable', args: [id] } as const,
      ]),
    }),
  ])
  return ids.map((_, i) => {
    const position = results[2 * i] as readonly [Address, Address, bigint, bigint, bigint, bigint, bigint]
    const claimable = results[2 * i + 1] as bigint
    return { amount: position[2], claimed: position[3], claimable, vested: position[3] + claimable, timestamp: block.timestamp }
  })
}
