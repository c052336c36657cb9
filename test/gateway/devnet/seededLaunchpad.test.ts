import assert from 'node:assert/strict'
import { test } from 'vitest'
import { type Address, getAddress, parseAbi, recoverTypedDataAddress } from 'viem'
import { useSeededDevnet } from '../../fixtures/useSeededDevnet.ts'
import { announcementTypedData } from '../../../src/gateway/announcements/announcementTypedData.ts'
import { computeDocumentCid } from '../../../src/gateway/documents/computeDocumentCid.ts'
import { feeLockerAbi } from '../../../src/gateway/launchpad/feeLockerAbi.ts'
import { launchFactoryAbi } from '../../../src/gateway/launchpad/launchFactoryAbi.ts'
import { launchTokenAbi } from '../../../src/gateway/launchpad/launchTokenAbi.ts'
import { vestingVaultAbi } from '../../../src/gateway/launchpad/vestingVaultAbi.ts'

// The embedded chain's launchpad is realistic: dozens of tokens by several creators, a week of
// trading, fees claimed and accrued, vesting positions at every stage, signed announcements and
// metadata documents whose CIDs the tokens name.

const devnet = useSeededDevnet()

const swapEvent = parseAbi([
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
])[0]

test('dozens of tokens by several creators, a week of trades on their pools, fees claimed and accrued', async () => {
  const lp = devnet.market.launchpad
  assert.ok(lp, 'the seeded devnet has a launchpad')
  assert.ok(lp.tokens.length >= 36, `${lp.tokens.length} tokens`)
  const byCreator = new Map<Address, number>()
  for (const t of lp.tokens) byCreator.set(t.creator, (byCreator.get(t.creator) ?? 0) + 1)
  assert.ok(byCreator.size >= 6 && Math.max(...byCreator.values()) >= 6, `creators: ${[...byCreator.values()]}`)
  assert.equal(lp.endTimestamp - lp.startTimestamp >= 7 * 86_400 - 3600, true)
  const client = devnet.publicClient
  const launches = await client.getContractEvents({
    address: lp.factory,
    abi: launchFactoryAbi,
    eventName: 'TokenLaunched',
    fromBlock: BigInt(lp.fromBlock),
  })
  assert.deepEqual(
    launches.map((l) => getAddress(l.args.token!)),
    lp.tokens.map((t) => t.address),
  )
  const swaps = await client.getLogs({ address: lp.tokens.map((t) => t.pool), event: swapEvent, fromBlock: BigInt(lp.fromBlock) })
  assert.ok(swaps.length >= 1000, `${swaps.length} trades`)
  // Trading is uneven: the busiest pool trades far more than the quietest.
  const perPool = new Map<string, number>()
  for (const s of swaps) perPool.set(s.address, (perPool.get(s.address) ?? 0) + 1)
  assert.ok(Math.max(...perPool.values()) >= 5 * Math.min(...perPool.values()), 'some tokens are hot, others quiet')
  // Spread over the week: trades in at least six of the seven days.
  const days = new Set<number>()
  for (const s of swaps.filter((_, i) => i % 25 === 0))
    days.add(Math.floor((Number((await client.getBlock({ blockNumber: s.blockNumber })).timestamp) - lp.startTimestamp) / 86_400))
  assert.ok(days.size >= 6, `trades on ${days.size} days`)
  const claimed = await client.getContractEvents({
    address: lp.feeLocker,
    abi: feeLockerAbi,
    eventName: 'FeesClaimed',
    fromBlock: BigInt(lp.fromBlock),
  })
  assert.ok(claimed.length >= 20, `${claimed.length} fee claims`)
  // Some fees are collected but unclaimed at the end.
  let unclaimed = 0
  for (const t of lp.tokens) {
    const [a, b] = await client.readContract({
      address: lp.feeLocker,
      abi: feeLockerAbi,
      functionName: 'accrued',
      args: [t.address, t.creator],
    })
    if (a + b > 0n) unclaimed++
  }
  assert.ok(unclaimed >= 3, `${unclaimed} tokens with accrued, unclaimed creator fees`)
})

test('vesting positions at every stage when the week ends: locked, vesting, partly claimed, vested, claimed', async () => {
  const lp = devnet.market.launchpad!
  const client = devnet.publicClient
  const now = (await client.getBlock({ blockTag: 'latest' })).timestamp
  const count = await client.readContract({ address: lp.vestingVault, abi: vestingVaultAbi, functionName: 'positionCount' })
  const stages = new Set<string>()
  for (let id = 1n; id <= count; id++) {
    const [, , amount, claimed, , lockupEnd, vestingEnd] = await client.readContract({
      address: lp.vestingVault,
      abi: vestingVaultAbi,
      functionName: 'positions',
      args: [id],
    })
    stages.add(
      now < lockupEnd
        ? 'locked'
        : now < vestingEnd
          ? claimed > 0n
            ? 'partly_claimed'
            : 'vesting'
          : claimed === amount
            ? 'claimed'
            : claimed === 0n
              ? 'vested'
              : 'vested_partly_claimed',
    )
  }
  for (const stage of ['locked', 'vesting', 'partly_claimed', 'vested', 'claimed'])
    assert.ok(stages.has(stage), `no position ${stage}: ${[...stages]}`)
})

test("metadata documents are named by their CIDs, tokens point at them, some were updated; announcements carry their creator's signature", async () => {
  const lp = devnet.market.launchpad!
  const client = devnet.publicClient
  const cids = new Set(lp.documents.map((d) => d.cid))
  for (const d of lp.documents) assert.equal(computeDocumentCid(new TextEncoder().encode(d.content)), d.cid)
  let pointing = 0
  for (const t of lp.tokens) {
    const extra = await client.readContract({ address: t.address, abi: launchTokenAbi, functionName: 'extraMetadata' })
    if (extra) {
      assert.ok(cids.has(extra.replace('ipfs://', '')), `${t.symbol}: ${extra} is a seeded document`)
      pointing++
    }
  }
  assert.ok(pointing >= 20, `${pointing} tokens with a metadata document`)
  const updates = await client.getLogs({
    address: lp.tokens.map((t) => t.address),
    event: launchTokenAbi.find((i) => i.type === 'event' && i.name === 'MetadataUpdated') as never,
    fromBlock: BigInt(lp.fromBlock),
  })
  assert.ok(updates.length > lp.tokens.length, 'metadata updated after launch')
  assert.ok(lp.announcements.length >= 8, `${lp.announcements.length} announcements`)
  for (const a of lp.announcements) {
    const token = lp.tokens.find((t) => t.address === a.token)
    assert.ok(token)
    const signer = await recoverTypedDataAddress({
      ...announcementTypedData({
        chainId: a.chainId,
        message: { id: a.id, token: a.token, title: a.title, body: a.body, issuedAt: BigInt(a.issuedAt) },
      }),
      signature: a.signature,
    })
    assert.equal(signer, token.creator)
    assert.equal(a.author, token.creator)
    assert.ok(a.issuedAt <= lp.endTimestamp)
  }
})
