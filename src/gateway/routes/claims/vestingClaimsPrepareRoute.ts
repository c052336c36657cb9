import { encodeFunctionData, getAddress, zeroAddress } from 'viem'
import type { FastifyInstance } from 'fastify'
import { registerClaimPrepareRoute } from './registerClaimPrepareRoute.ts'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { vestingVaultAbi } from '../../launchpad/vestingVaultAbi.ts'
import { withDeadline } from '../../live/withDeadline.ts'
import { GatewayProblem } from '../../problems/GatewayProblem.ts'

/**
 * `POST /claims/vesting/prepare` (3 units per position, 1 to 10; scope `claims:write`;
 * `Idempotency-Key` accepted): the wallet's vesting positions claimed in one transaction
 * (`VestingVault.claim(id)`, batched through Multicall3 when there are several), read live at the
 * latest block first: a position that is not the wallet's is `wallet_not_authorized`, one that
 * does not exist `not_found`, one with nothing vested and unclaimed `nothing_to_claim`; then
 * simulated.
 *
 * @example
 * registerVestingClaimsPrepareRoute(fastify, deps)
 * // POST /claims/vesting/prepare now answers a simulated claim plan; nothing_to_claim, not_found or wallet_not_authorized otherwise
 */
export function registerVestingClaimsPrepareRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  registerClaimPrepareRoute<{ position_id: number }>(fastify, deps, {
    path: '/claims/vesting/prepare',
    summary: 'Prepare vesting claims (1 to 10 positions) as one unsigned transaction',
    operationId: 'prepareVestingClaims',
    body: 'VestingClaimPrepareRequest',
    operation: 'claims.vesting.prepare',
    kind: 'claim_vesting',
    identity: { field: 'position_id', of: (p) => p.position_id },
    abis: [vestingVaultAbi],
    reverts: {
      NothingToClaim: { code: 'nothing_to_claim', detail: 'A position has nothing to claim now.' },
      UnknownPosition: { code: 'not_found', detail: 'A vesting position does not exist.' },
    },
    read: async ({ positions: requested, chain, wallet, block }) => {
      const ids = requested.map((p) => BigInt(p.position_id))
      const positions = await withDeadline({
        dependency: 'the chain',
        timeoutMs: deps.liveReadTimeoutMs,
        run: () =>
          Promise.all(
            ids.map(async (id) => {
              const [token, beneficiary] = await chain.client.readContract({
                address: chain.launchpad.vestingVault,
                abi: vestingVaultAbi,
                functionName: 'positions',
                args: [id],
                blockNumber: block,
              })
              if (getAddress(token) === zeroAddress) return { id, token, beneficiary, claimable: 0n }
              const claimable = await chain.client.readContract({
                address: chain.launchpad.vestingVault,
                abi: vestingVaultAbi,
                functionName: 'claimable',
                args: [id],
                blockNumber: block,
              })
              return { id, token, beneficiary, claimable }
            }),
          ),
      })
      for (const p of positions) {
        if (getAddress(p.token) === zeroAddress)
          throw new GatewayProblem('not_found', {
            detail: `No vesting position ${p.id} on chain ${chain.chainId}.`,
            resource: 'vesting_position',
            chainId: chain.chainId,
          })
        if (getAddress(p.beneficiary) !== wallet)
          throw new GatewayProblem('wallet_not_authorized', {
            detail: `Vesting position ${p.id} belongs to another wallet.`,
            chainId: chain.chainId,
          })
        if (p.claimable === 0n)
          throw new GatewayProblem('nothing_to_claim', {
            detail: `Vesting position ${p.id} has nothing vested and unclaimed now.`,
            chainId: chain.chainId,
            tokenAddress: getAddress(p.token),
          })
      }
      return {
        calls: ids.map((id) => ({
          to: chain.launchpad.vestingVault,
          data: encodeFunctionData({ abi: vestingVaultAbi, functionName: 'claim', args: [id] }),
        })),
        summary: {
          beneficiary: wallet,
          positions: positions.map((p) => ({
            position_id: Number(p.id),
            token: getAddress(p.token),
            claimable_raw: p.claimable.toString(),
          })),
        },
      }
    },
  })
}
