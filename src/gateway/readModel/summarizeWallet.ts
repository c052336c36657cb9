import { type Address, getAddress } from 'viem'
import type { GatewayDependencies } from '../GatewayDependencies.ts'
import { readBalances } from '../live/readBalances.ts'
import { readClaimableFees } from '../live/readClaimableFees.ts'
import { readLiveBlock } from '../live/readLiveBlock.ts'
import { readVestingPositions } from '../live/readVestingPositions.ts'
import { withDeadline } from '../live/withDeadline.ts'

/**
 * Rows of each kind (holdings, fee positions, vesting positions) a summary reads live: anyone can
 * name any wallet as a launch's reward recipient or vesting beneficiary, so a wallet's positions
 * are unbounded; the summary reads the first 25 of each (holdings by indexed balance, positions
 * by their token's liquidity: a token nobody trades comes last) and says `truncated` when there
 * are more. The full lists are the paginated fee-claims, vesting and holder routes.
 */
export const SUMMARY_ROWS_PER_KIND = 25

/** How many rows of each kind a wallet has in the read model (the summary's cost is priced from them). */
export async function countWalletRows({ deps, wallet }: { deps: GatewayDependencies; wallet: string }) {
  const [[held], [fees], [vesting]] = await Promise.all([
    deps.db.query<{ n: number }>("SELECT COUNT(*) AS n FROM balances WHERE holder = $1 AND balance <> '0'", [wallet]),
    deps.db.query<{ n: number }>('SELECT COUNT(*) AS n FROM fee_positions WHERE recipient = $1', [wallet]),
    deps.db.query<{ n: number }>('SELECT COUNT(*) AS n FROM vesting_positions WHERE beneficiary = $1', [wallet]),
  ])
  return { holdings: Number(held.n), fees: Number(fees.n), vesting: Number(vesting.n) }
}

/** Live rows a summary of these counts reads: at most `SUMMARY_ROWS_PER_KIND` of each kind. */
export function liveRowsOf(counts: { holdings: number; fees: number; vesting: number }): number {
  return (
    Math.min(counts.holdings, SUMMARY_ROWS_PER_KIND) +
    Math.min(counts.fees, SUMMARY_ROWS_PER_KIND) +
    Math.min(counts.vesting, SUMMARY_ROWS_PER_KIND)
  )
}

type Sums = Map<string, bigint>
const add = (sums: Sums, key: string, amount: bigint) => {
  if (amount > 0n) sums.set(key, (sums.get(key) ?? 0n) + amount)
}
const listOf = (sums: Sums) =>
  [...sums].map(([key, amount]) => {
    const [chain, asset] = key.split(' ')
    return { chain_id: Number(chain), asset: getAddress(asset), amount: amount.toString() }
  })

/**
 * A wallet at a glance, on every served chain: how many tokens it launched; its holdings of
 * launched tokens (which it holds from the read model, their balances read live); and what its fee
 * and vesting positions can claim now, summed per asset, read live. Every live value of one chain
 * is read at one block (`as_of_block` when one chain is served).
 *
 * @example
 * const { data, asOfBlock } = await summarizeWallet({ deps, wallet: '0xabc…' })
 * // → data { address, created_tokens, holdings, fee_claims, vesting }; asOfBlock when one chain is served
 */
export async function summarizeWallet({ deps, wallet }: { deps: GatewayDependencies; wallet: string }) {
  const db = deps.db
  const [[created], counts, holdings, fees, vesting] = await Promise.all([
    db.query<{ n: number }>('SELECT COUNT(*) AS n FROM tokens WHERE creator = $1', [wallet]),
    countWalletRows({ deps, wallet }),
    db.query<{ chain_id: number; token: string; name: string; symbol: string }>(
      `SELECT b.chain_id, b.token, t.name, t.symbol FROM balances b JOIN tokens t ON t.chain_id = b.chain_id AND t.address = b.token
        WHERE b.holder = $1 AND b.balance <> '0' ORDER BY b.balance_key DESC, b.chain_id, b.token LIMIT $2`,
      [wallet, SUMMARY_ROWS_PER_KIND],
    ),
    db.query<{ chain_id: number; token: string; paired_token: string }>(
      `SELECT p.chain_id, p.token, t.paired_token FROM fee_positions p JOIN tokens t ON t.chain_id = p.chain_id AND t.address = p.token
        WHERE p.recipient = $1 ORDER BY t.liquidity_key DESC, p.chain_id, p.token LIMIT $2`,
      [wallet, SUMMARY_ROWS_PER_KIND],
    ),
    db.query<{ chain_id: number; token: string; position_id: number }>(
      `SELECT v.chain_id, v.token, v.position_id FROM vesting_positions v JOIN tokens t ON t.chain_id = v.chain_id AND t.address = v.token
        WHERE v.beneficiary = $1 ORDER BY t.liquidity_key DESC, v.chain_id, v.position_id LIMIT $2`,
      [wallet, SUMMARY_ROWS_PER_KIND],
    ),
  ])
  const items: { chain_id: number; token: { address: Address; name: string; symbol: string }; balance: string }[] = []
  const feeSums: Sums = new Map()
  const vestingSums: Sums = new Map()
  const blocks: number[] = []
  for (const [chainId, chain] of deps.chains) {
    const mine = {
      holdings: holdings.filter((h) => h.chain_id === chainId),
      fees: fees.filter((f) => f.chain_id === chainId),
      vesting: vesting.filter((v) => v.chain_id === chainId),
    }
    if (!mine.holdings.length && !mine.fees.length && !mine.vesting.length) continue
    const block = await readLiveBlock({ chain, timeoutMs: deps.liveReadTimeoutMs })
    blocks.push(Number(block))
    const [balances, claimable, vested] = await withDeadline({
      run: () =>
        Promise.all([
          readBalances({
            client: chain.client,
            multicall3: chain.multicall3,
            pairs: mine.holdings.map((h) => ({ token: h.token as Address, holder: wallet as Address })),
            blockNumber: block,
          }),
          readClaimableFees({
            client: chain.client,
            multicall3: chain.multicall3,
            feeLocker: chain.launchpad.feeLocker,
            positions: mine.fees.map((f) => ({ token: f.token as Address, recipient: wallet as Address })),
            blockNumber: block,
          }),
          readVestingPositions({
            client: chain.client,
            multicall3: chain.multicall3,
            vault: chain.launchpad.vestingVault,
            ids: mine.vesting.map((v) => BigInt(v.position_id)),
            blockNumber: block,
          }),
        ]),
      dependency: 'the chain',
      timeoutMs: deps.liveReadTimeoutMs,
    })
    mine.holdings.forEach((h, i) =>
      items.push({
        chain_id: chainId,
        token: { address: getAddress(h.token), name: h.name, symbol: h.symbol },
        balance: balances[i].toString(),
      }),
    )
    mine.fees.forEach((f, i) => {
      add(feeSums, `${chainId} ${f.token}`, claimable[i].tokenAmount)
      add(feeSums, `${chainId} ${f.paired_token}`, claimable[i].pairedAmount)
    })
    mine.vesting.forEach((v, i) => add(vestingSums, `${chainId} ${v.token}`, vested[i].claimable))
  }
  return {
    data: {
      address: getAddress(wallet),
      created_tokens: Number(created.n),
      holdings: { count: counts.holdings, truncated: counts.holdings > holdings.length, items },
      fee_claims: { positions: counts.fees, truncated: counts.fees > fees.length, claimable: listOf(feeSums) },
      vesting: { positions: counts.vesting, truncated: counts.vesting > vesting.length, claimable: listOf(vestingSums) },
    },
    asOfBlock: blocks.length === 1 ? blocks[0] : undefined,
  }
}
