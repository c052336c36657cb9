import { type Address, encodeFunctionData, getAddress, maxUint256, parseAbi, parseEther, parseEventLogs, toHex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { canonicalJson } from '../../http/quotes/canonicalJson.ts'
import { computeDocumentCid } from '../../gateway/documents/computeDocumentCid.ts'
import { buildLaunchParams } from '../../gateway/launchpad/buildLaunchParams.ts'
import { feeLockerAbi } from '../../gateway/launchpad/feeLockerAbi.ts'
import { launchFactoryAbi } from '../../gateway/launchpad/launchFactoryAbi.ts'
import type { LaunchParams } from '../../gateway/launchpad/launchParamsType.ts'
import { launchTokenAbi } from '../../gateway/launchpad/launchTokenAbi.ts'
import { startingTickForMarketCap } from '../../gateway/launchpad/startingTickForMarketCap.ts'
import { vestingVaultAbi } from '../../gateway/launchpad/vestingVaultAbi.ts'
import type { DevnetDescription } from '../seed/DevnetDescription.ts'
import { createSeedPrng } from '../seed/createSeedPrng.ts'
import { type BatchCall, sendBatchAndMine } from '../seed/sendBatchAndMine.ts'
import type { Devnet } from '../startDevnet.ts'
import { deployLaunchpad } from './deployLaunchpad.ts'
import type { SeededDocument } from '../../gateway/content/LaunchpadContent.ts'
import type { LaunchpadDescription } from './LaunchpadDescription.ts'
import { type PlannedLaunch, planLaunchpadSeed, SEED_CREATORS, SEED_HOURS, SEED_TRADERS } from './planLaunchpadSeed.ts'
import { signSeedAnnouncements } from './signSeedAnnouncements.ts'

/** anvil's default mnemonic; the launchpad's actors are its accounts from index 20 on (the first 10 are the market's). */
const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk'
const FIRST_ACTOR_INDEX = 20
const MIN_SQRT_RATIO_PLUS_ONE = 4295128740n
const MAX_SQRT_RATIO_MINUS_ONE = 1461446703485210103287273052203988822378723970341n
const harnessAbi = parseAbi([
  'function swapV3(address pool, address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, address payer) returns (int256, int256)',
])
const wethAbi = parseAbi(['function deposit() payable', 'function approve(address, uint256) returns (bool)'])

export type SeedLaunchpadParameters = {
  devnet: Devnet
  /** The seeded market: its Uniswap V3 factory, WETH, USDC (optional) and PoolHarness. */
  market: Pick<DevnetDescription, 'weth' | 'helpers' | 'tokens'> & { factories: Pick<DevnetDescription['factories'], 'UNIV3'> }
  seed: number
}

/** A launched token, as the seed tracks it. */
type Launched = { plan: PlannedLaunch; token: Address; pool: Address; tokenIsToken0: boolean; vestingId: bigint; admin: Address }

/**
 * Seeds a realistic launchpad on the seeded market: deploys it on the market's Uniswap V3 factory
 * (WETH and USDC allowed as paired assets), then plays a simulated week hour by hour
 * (`planLaunchpadSeed`): forty launches by eight creators with their metadata documents, dev buys,
 * reward splits and vesting; traders buying and selling through the PoolHarness on the launched
 * pools; holders passing tokens on; daily fee collections and claims; vesting claims on schedule;
 * metadata and admin updates; and creator-signed announcements. Chain time moves forward an hour
 * per step (the chain ends a week after the market was seeded). Same seed, same launchpad.
 *
 * @example
 * const launchpad = await seedLaunchpad({ devnet, market: description, seed: 8453 })
 * // → the LaunchpadDescription: its contracts, launches, documents and announcements (a week of activity on the chain)
 */
export async function seedLaunchpad({ devnet, market, seed }: SeedLaunchpadParameters): Promise<LaunchpadDescription> {
  const request = (method: string, params: unknown[]) => devnet.publicClient.request({ method: method as never, params: params as never })
  const actor = (i: number) => mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: FIRST_ACTOR_INDEX + i })
  const creatorAccounts = Array.from({ length: SEED_CREATORS }, (_, i) => actor(i))
  const creators = creatorAccounts.map((a) => a.address)
  const traders = Array.from({ length: SEED_TRADERS }, (_, i) => actor(SEED_CREATORS + i).address)
  const interfaceRecipient = actor(SEED_CREATORS + SEED_TRADERS).address
  // Wallets that only ever receive tokens passed on by traders (no ETH, no key needed).
  const holders = Array.from({ length: 24 }, (_, i) => actor(SEED_CREATORS + SEED_TRADERS + 1 + i).address)
  for (const address of [...creators, ...traders]) {
    await request('anvil_setBalance', [address, toHex(parseEther('100000'))])
    await request('anvil_impersonateAccount', [address])
  }
  const weth = getAddress(market.weth)
  const harness = getAddress(market.helpers.poolHarness)
  const launchpad = await deployLaunchpad({ devnet, uniswapV3Factory: market.factories.UNIV3.factory, weth })
  const usdc = market.tokens.USDC?.address
  if (usdc) {
    await sendBatchAndMine({
      devnet,
      calls: [
        {
          to: launchpad.factory,
          label: 'allow USDC',
          data: encodeFunctionData({ abi: launchFactoryAbi, functionName: 'setPairedToken', args: [usdc, true] }),
        },
      ],
    })
  }
  await sendBatchAndMine({
    devnet,
    calls: traders.flatMap((trader): BatchCall[] => [
      {
        from: trader,
        to: weth,
        value: parseEther('20000'),
        label: 'trader wraps ETH',
        data: encodeFunctionData({ abi: wethAbi, functionName: 'deposit' }),
      },
      {
        from: trader,
        to: weth,
        label: 'trader approves the harness',
        data: encodeFunctionData({ abi: wethAbi, functionName: 'approve', args: [harness, maxUint256] }),
      },
    ]),
  })

  const { launches: plan } = planLaunchpadSeed({ seed })
  const next = createSeedPrng({ seed: seed ^ 0x7ade })
  const documents: SeededDocument[] = []
  const documentFor = (launch: PlannedLaunch, extra: Record<string, unknown> = {}): string => {
    if (!launch.document) return ''
    const content = canonicalJson({ name: launch.name, symbol: launch.symbol, ...launch.document, ...extra })
    const cid = computeDocumentCid(new TextEncoder().encode(content))
    if (!documents.some((d) => d.cid === cid)) documents.push({ cid, content })
    return `ipfs://${cid}`
  }
  const recipientAddress = (launch: PlannedLaunch, who: PlannedLaunch['recipients'][number]['who']) =>
    who === 'creator' ? creators[launch.creator] : who === 'interface' ? interfaceRecipient : creators[who]

  const startTimestamp = Number((await devnet.publicClient.getBlock({ blockTag: 'latest' })).timestamp) + 3600
  const launched: Launched[] = []
  const balances = new Map<Address, Map<Address, bigint>>()
  const approved = new Set<string>()
  const lastClaimHour = new Map<string, number>()
  const lastTradeHour = new Map<Address, number>()
  let lastBlock = await devnet.publicClient.getBlockNumber({ cacheTime: 0 })

  // One block's worth of calls, at the hour's chain time; Transfer logs then update the balances.
  const mine = async (hour: number, calls: BatchCall[]) => {
    if (calls.length === 0) return []
    const latest = await devnet.publicClient.getBlock({ blockTag: 'latest' })
    const at = BigInt(startTimestamp + hour * 3600)
    await request('evm_setNextBlockTimestamp', [toHex(at > latest.timestamp ? at : latest.timestamp + 1n)])
    await sendBatchAndMine({ devnet, calls })
    const to = await devnet.publicClient.getBlockNumber({ cacheTime: 0 })
    const logs = await devnet.publicClient.getLogs({ fromBlock: lastBlock + 1n, toBlock: to })
    lastBlock = to
    for (const log of parseEventLogs({ abi: launchTokenAbi, logs, eventName: 'Transfer' })) {
      const token = getAddress(log.address)
      const held = balances.get(token) ?? new Map<Address, bigint>()
      balances.set(token, held)
      held.set(getAddress(log.args.from), (held.get(getAddress(log.args.from)) ?? 0n) - log.args.value)
      held.set(getAddress(log.args.to), (held.get(getAddress(log.args.to)) ?? 0n) + log.args.value)
    }
    return logs
  }

  for (let hour = 0; hour <= SEED_HOURS; hour++) {
    // Launches of this hour, in their own block (trades need the pools to exist).
    const due = plan.filter((l) => l.hour === hour)
    const launchParams = new Map<number, LaunchParams>()
    const launchCalls = due.map((l): BatchCall => {
      const creator = creators[l.creator]
      const params = buildLaunchParams({
        name: l.name,
        symbol: l.symbol,
        extraMetadata: documentFor(l),
        creator,
        salt: l.salt,
        pairedToken: weth,
        startingTick: startingTickForMarketCap({ marketCapRaw: BigInt(l.marketCapEth) * 10n ** 18n }),
        rewardRecipients: l.recipients.map((r) => ({ recipient: recipientAddress(l, r.who), bps: r.bps })),
        vesting: l.vesting && {
          beneficiary: creator,
          bps: l.vesting.bps,
          lockupSeconds: l.vesting.lockupSeconds,
          vestingSeconds: l.vesting.vestingSeconds,
        },
        devBuy: l.devBuyWei > 0n ? { recipient: creator, minAmountOut: 1n } : undefined,
      })
      launchParams.set(l.index, params)
      return {
        from: creator,
        to: launchpad.factory,
        value: l.devBuyWei,
        gas: 15_000_000n,
        label: `launch ${l.symbol}`,
        data: encodeFunctionData({ abi: launchFactoryAbi, functionName: 'launch', args: [params] }),
      }
    })
    const launchLogs = await mine(hour, launchCalls)
    for (const log of parseEventLogs({ abi: launchFactoryAbi, logs: launchLogs, eventName: 'TokenLaunched' })) {
      const token = getAddress(log.args.token)
      const l = due.find(
        (d) => getAddress(creators[d.creator]) === getAddress(log.args.creator) && launchParams.get(d.index)!.salt === log.args.salt,
      )!
      launched.push({
        plan: l,
        token,
        pool: getAddress(log.args.pool),
        tokenIsToken0: BigInt(token) < BigInt(weth),
        vestingId: log.args.vestingId,
        admin: creators[l.creator],
      })
    }

    // Trading: each live token trades in proportion to its popularity, most in its first day.
    const calls: BatchCall[] = []
    for (const l of launched) {
      const ageHours = hour - l.plan.hour
      const rate = l.plan.popularity * (0.25 + 1.5 * Math.exp(-ageHours / 24))
      let trades = Math.floor(rate) + (next() < rate - Math.floor(rate) ? 1 : 0)
      const soldBy = new Set<Address>()
      while (trades-- > 0) {
        const trader = traders[Math.floor(next() * traders.length)]
        const held = balances.get(l.token)?.get(trader) ?? 0n
        if (held > 0n && !soldBy.has(trader) && next() < 0.4 && approved.has(`${trader}:${l.token}`)) {
          // Sell 10-60 % of what the trader held when the hour started (one sell per trader and hour).
          soldBy.add(trader)
          const amount = (held * BigInt(10 + Math.floor(next() * 50))) / 100n
          calls.push(
            swapCall({ harness, trader, pool: l.pool, zeroForOne: l.tokenIsToken0, amountIn: amount, label: `sell ${l.plan.symbol}` }),
          )
        } else {
          const amount = BigInt(Math.floor((0.005 + next() * 0.6 * l.plan.popularity) * 1e6)) * 10n ** 12n
          calls.push(
            swapCall({ harness, trader, pool: l.pool, zeroForOne: !l.tokenIsToken0, amountIn: amount, label: `buy ${l.plan.symbol}` }),
          )
          if (!approved.has(`${trader}:${l.token}`)) {
            approved.add(`${trader}:${l.token}`)
            calls.push({
              from: trader,
              to: l.token,
              label: `approve ${l.plan.symbol}`,
              data: encodeFunctionData({ abi: launchTokenAbi, functionName: 'approve', args: [harness, maxUint256] }),
            })
          }
        }
        lastTradeHour.set(l.token, hour)
      }
      // Now and then a trader passes some tokens on to a wallet that only holds.
      const held = [...(balances.get(l.token) ?? new Map()).entries()].filter(([a, b]) => traders.includes(a) && b > 0n && !soldBy.has(a))
      if (held.length > 0 && next() < 0.04 * l.plan.popularity) {
        const [from, balance] = held[Math.floor(next() * held.length)]
        const to = holders[Math.floor(next() * holders.length)]
        soldBy.add(from)
        calls.push({
          from,
          to: l.token,
          label: `pass ${l.plan.symbol} on`,
          data: encodeFunctionData({ abi: launchTokenAbi, functionName: 'transfer', args: [to, balance / 4n] }),
        })
      }
    }
    // Once a day: recipients claim fees on tokens that traded since their last claim; a keeper
    // collects on others (fees accrued, not yet claimed).
    if (hour % 24 === 23) {
      for (const l of launched) {
        for (const r of l.plan.recipients) {
          const recipient = recipientAddress(l.plan, r.who)
          const key = `${l.token}:${recipient}`
          const traded = (lastTradeHour.get(l.token) ?? -1) > (lastClaimHour.get(key) ?? l.plan.hour - 1)
          if (!traded || next() > 0.5) continue
          lastClaimHour.set(key, hour)
          const from = r.who === 'interface' ? devnet.account : recipient
          calls.push({
            from,
            to: launchpad.feeLocker,
            label: `claim ${l.plan.symbol} fees`,
            data: encodeFunctionData({ abi: feeLockerAbi, functionName: 'claim', args: [l.token, recipient] }),
          })
        }
        if ((lastTradeHour.get(l.token) ?? -1) === hour && next() < 0.3) {
          calls.push({
            to: launchpad.feeLocker,
            label: `collect ${l.plan.symbol} fees`,
            data: encodeFunctionData({ abi: feeLockerAbi, functionName: 'collectFees', args: [l.token] }),
          })
        }
      }
    }
    for (const l of launched) {
      if (l.plan.vesting?.claimHours.includes(hour)) {
        calls.push({
          from: creators[l.plan.creator],
          to: launchpad.vestingVault,
          label: `claim ${l.plan.symbol} vesting`,
          data: encodeFunctionData({ abi: vestingVaultAbi, functionName: 'claim', args: [l.vestingId] }),
        })
      }
      calls.push(...metadataUpdates({ l, hour, creators, holders, documentFor }))
    }
    await mine(hour, calls)
  }

  const endTimestamp = Number((await devnet.publicClient.getBlock({ blockTag: 'latest' })).timestamp)
  const announcements = await signSeedAnnouncements({
    chainId: devnet.chain.id,
    startTimestamp,
    endTimestamp,
    launches: launched.map((l) => ({
      token: l.token,
      symbol: l.plan.symbol,
      name: l.plan.name,
      hour: l.plan.hour,
      author: creatorAccounts[l.plan.creator],
    })),
  })
  for (const address of [...creators, ...traders]) await request('anvil_stopImpersonatingAccount', [address])
  return {
    factory: launchpad.factory,
    feeLocker: launchpad.feeLocker,
    vestingVault: launchpad.vestingVault,
    uniswapV3Factory: launchpad.uniswapV3Factory,
    weth,
    fromBlock: Number(launchpad.fromBlock),
    pairedTokens: usdc ? [weth, getAddress(usdc)] : [weth],
    creators,
    traders,
    tokens: launched.map((l) => ({ address: l.token, pool: l.pool, symbol: l.plan.symbol, creator: creators[l.plan.creator] })),
    documents,
    announcements,
    startTimestamp,
    endTimestamp,
  }
}

function swapCall({
  harness,
  trader,
  pool,
  zeroForOne,
  amountIn,
  label,
}: {
  harness: Address
  trader: Address
  pool: Address
  zeroForOne: boolean
  amountIn: bigint
  label: string
}): BatchCall {
  return {
    from: trader,
    to: harness,
    label,
    data: encodeFunctionData({
      abi: harnessAbi,
      functionName: 'swapV3',
      args: [pool, trader, zeroForOne, amountIn, zeroForOne ? MIN_SQRT_RATIO_PLUS_ONE : MAX_SQRT_RATIO_MINUS_ONE, trader],
    }),
  }
}

/**
 * The few admin actions of the week, at fixed points of a token's life: every seventh launch gets
 * a new metadata document two days in, the tenth renames itself, the fifteenth changes its symbol,
 * the twentieth hands its admin role to a holder and the twenty-fifth renounces it.
 */
function metadataUpdates({
  l,
  hour,
  creators,
  holders,
  documentFor,
}: {
  l: Launched
  hour: number
  creators: Address[]
  holders: Address[]
  documentFor: (launch: PlannedLaunch, extra?: Record<string, unknown>) => string
}): BatchCall[] {
  if (hour !== l.plan.hour + 48) return []
  const from = creators[l.plan.creator]
  const call = (
    functionName: 'updateExtraMetadata' | 'updateName' | 'updateSymbol' | 'setAdmin',
    args: [string] | [Address],
  ): BatchCall => ({
    from,
    to: l.token,
    label: `${functionName} ${l.plan.symbol}`,
    data: encodeFunctionData({ abi: launchTokenAbi, functionName, args: args as never }),
  })
  const calls: BatchCall[] = []
  if (l.plan.index % 7 === 3 && l.plan.document)
    calls.push(call('updateExtraMetadata', [documentFor(l.plan, { description: `${l.plan.name}: now with a roadmap.` })]))
  if (l.plan.index === 10) calls.push(call('updateName', [`${l.plan.name} Classic`]))
  if (l.plan.index === 15) calls.push(call('updateSymbol', [`${l.plan.symbol}2`]))
  if (l.plan.index === 20) calls.push(call('setAdmin', [holders[0]]))
  if (l.plan.index === 25) calls.push(call('setAdmin', ['0x0000000000000000000000000000000000000000']))
  return calls
}
