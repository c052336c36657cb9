import { type Address, encodeFunctionData, getAddress } from 'viem'
import type { FastifyInstance } from 'fastify'
import { registerClaimPrepareRoute } from './registerClaimPrepareRoute.ts'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { feeLockerAbi } from '../../launchpad/feeLockerAbi.ts'
import { readClaimableFees } from '../../live/readClaimableFees.ts'
import { withDeadline } from '../../live/withDeadline.ts'
import { GatewayProblem } from '../../problems/GatewayProblem.ts'

/**
 * `POST /claims/fees/prepare` (3 units per position, 1 to 10; scope `claims:write`;
 * `Idempotency-Key` accepted): the wallet's LP-fee positions claimed in one transaction
 * (`FeeLocker.claim(token, wallet)`, batched through Multicall3 when there are several), read
 * live at the latest block first: a token whose fees the wallet does not share is
 * `wallet_not_authorized`, a position with nothing accrued (fees still in the pool count) is
 * `nothing_to_claim`; then simulated.
 *
 * @example
 * registerFeeClaimsPrepareRoute(fastify, deps)
 * // POST /claims/fees/prepare now answers a simulated claim plan; nothing_to_claim or wallet_not_authorized otherwise
 */
export function registerFeeClaimsPrepareRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  registerClaimPrepareRoute<{ token: string }>(fastify, deps, {
    path: '/claims/fees/prepare',
    summary: 'Prepare fee claims (1 to 10 positions) as one unsigned transaction',
    operationId: 'prepareFeeClaims',
    body: 'FeeClaimPrepareRequest',
    operation: 'claims.fees.prepare',
    kind: 'claim_fees',
    identity: { field: 'token', of: (p) => p.token.toLowerCase() },
    abis: [feeLockerAbi],
    reverts: {
      NothingToClaim: { code: 'nothing_to_claim', detail: 'A position has nothing to claim now.' },
      UnknownToken: { code: 'not_found', detail: 'A token is not launched here.' },
    },
    read: async ({ positions, chain, wallet, block }) => {
      const tokens = positions.map((p) => getAddress(p.token))
      const claimable = await withDeadline({
        dependency: 'the chain',
        timeoutMs: deps.liveReadTimeoutMs,
        run: async () => {
          const lists = await Promise.all(
            tokens.map((token) =>
              chain.client.readContract({
                address: chain.launchpad.feeLocker,
                abi: feeLockerAbi,
                functionName: 'rewardRecipients',
                args: [token],
                blockNumber: block,
              }),
            ),
          )
          const mine = tokens.map((token, i) => {
            if (lists[i].length === 0)
              throw new GatewayProblem('not_found', {
                detail: `${token} is not a token launched here.`,
                resource: 'token',
                chainId: chain.chainId,
                tokenAddress: token,
              })
            if (!lists[i].some((r) => getAddress(r.recipient) === wallet))
              throw new GatewayProblem('wallet_not_authorized', {
                detail: `${wallet} is not a reward recipient of ${token}.`,
                chainId: chain.chainId,
                tokenAddress: token,
              })
            return { token, recipient: wallet as Address }
          })
          return readClaimableFees({
            client: chain.client,
            multicall3: chain.multicall3,
            feeLocker: chain.launchpad.feeLocker,
            positions: mine,
            blockNumber: block,
          })
        },
      })
      claimable.forEach((c, i) => {
        if (c.tokenAmount === 0n && c.pairedAmount === 0n)
          throw new GatewayProblem('nothing_to_claim', {
            detail: `The fee position of ${wallet} in ${tokens[i]} has nothing to claim now.`,
            chainId: chain.chainId,
            tokenAddress: tokens[i],
          })
      })
      return {
        calls: tokens.map((token) => ({
          to: chain.launchpad.feeLocker,
          data: encodeFunctionData({ abi: feeLockerAbi, functionName: 'claim', args: [token, wallet] }),
        })),
        summary: {
          recipient: wallet,
          positions: tokens.map((token, i) => ({
            token,
            claimable_token_raw: claimable[i].tokenAmount.toString(),
            claimable_paired_raw: claimable[i].pairedAmount.toString(),
          })),
        },
      }
    },
  })
}
