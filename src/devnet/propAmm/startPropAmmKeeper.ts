import { type Address, encodeFunctionData, getAddress, parseAbi } from 'viem'
import { createSeedPrng } from '../seed/createSeedPrng.ts'
import { sendAndWait } from '../sendAndWait.ts'
import type { Devnet } from '../startDevnet.ts'
import type { PropAmmDescription, PropAmmVenue } from './PropAmmDescription.ts'

const Q96 = 1n << 96n
/** Each update moves a venue's offset from the reference price by at most this (parts per million). */
const STEP_PPM = 300
/** A venue's price stays within this of the reference pool's (parts per million). */
const MAX_OFFSET_PPM = 2_000

const operatorAbi = parseAbi([
  'function updatePrice(uint256 priceX96, uint128 depthBase, uint128 depthQuote, uint32 feePips)',
  'function setOracle(uint256 priceX96, uint128 depth0, uint128 depth1, uint32 feePips)',
  'function upd((uint160 anchorPrice, uint24 feeAskX24, uint24 feeBidX24) stateUpdate)',
])
/** Posts no price and sets the Wooracle's `timestamp`: WooracleV2_2's `postPriceList` over no bases. */
const wooracleAbi = parseAbi(['function postPriceList(address[] bases, uint128[] prices, uint256 ts)'])
const relayAbi = parseAbi(['function relay((address target, bytes data)[] calls)'])
const slot0Abi = parseAbi(['function slot0() view returns (uint160 sqrtPriceX96, int24 tick)'])

export type StartPropAmmKeeperParameters = {
  devnet: Pick<Devnet, 'publicClient' | 'account'>
  propAmms: PropAmmDescription
  /** Milliseconds between re-pricings (Base's block time: 2,000); 0: only when `tick` is called. */
  intervalMs: number
  /** The random walk's seed (same seed, same walk). */
  seed?: number
  /**
   * The devnet's WOOFi Wooracle, the relay one of its admins: each re-pricing also marks its posted
   * prices fresh as of the latest block (they move only by the vault's trades). Absent: not kept.
   */
  wooracle?: Address
  /** Where a failed re-pricing is reported (the keeper carries on). */
  log?: (line: string) => void
}

export type PropAmmKeeper = {
  /** Re-prices every venue now, in one transaction (one block); resolves with that block's number. */
  tick: () => Promise<bigint>
  /** Stops the timer and waits for a re-pricing under way. */
  stop: () => Promise<void>
}

/**
 * The devnet's prop AMM operator: re-prices every venue in one `OperatorRelay` transaction, each at
 * its pair's reference UNIV3 pool price moved by the venue's own random walk (steps of at most
 * `STEP_PPM`, kept within `MAX_OFFSET_PPM`), with its depth and fee; LUNARBASE gets the square root
 * of that price as its anchor and the fee both ways (which also clears the punishment swaps added).
 * Every update makes the venue fresh for its block delay; a venue the keeper stops updating goes
 * stale. Sent from the operator address, impersonated on anvil. With `wooracle`, the same
 * transaction keeps WOOFi's oracle fresh: a heartbeat that posts no price (the vault's own trades
 * move its prices, and the second quote after a trade sees that move), so the vault stays priced.
 *
 * @example
 * const keeper = await startPropAmmKeeper({ devnet, propAmms: market.propAmms, intervalMs: 2_000 })
 * // every 2 s one block re-prices the ten venues; await keeper.tick() does it now
 * await keeper.stop()
 */
export async function startPropAmmKeeper({
  devnet,
  propAmms,
  intervalMs,
  seed = 1,
  wooracle,
  log = () => {},
}: StartPropAmmKeeperParameters): Promise<PropAmmKeeper> {
  const client = devnet.publicClient
  await client.request({ method: 'anvil_impersonateAccount' as never, params: [propAmms.operator] as never })
  const next = createSeedPrng({ seed })
  const offsets = new Map<string, number>(propAmms.venues.map((v) => [v.address, 0]))

  const tick = async (): Promise<bigint> => {
    const references = [...new Set(propAmms.venues.map((v) => v.reference))]
    const [slots, head] = await Promise.all([
      client.multicall({
        contracts: references.map((address) => ({ address, abi: slot0Abi, functionName: 'slot0' }) as const),
        allowFailure: false,
      }),
      wooracle ? client.getBlock({ blockTag: 'latest' }) : undefined,
    ])
    const sqrtOf = new Map(references.map((r, i) => [r, slots[i][0]]))
    const calls = propAmms.venues.map((venue) => {
      const offset = walk(offsets.get(venue.address) ?? 0, next())
      offsets.set(venue.address, offset)
      const priceX96 = (basePriceX96(venue, sqrtOf.get(venue.reference) as bigint) * BigInt(1_000_000 + offset)) / 1_000_000n
      return { target: venue.address, data: updateCalldata(venue, priceX96) }
    })
    if (wooracle && head)
      calls.push({
        target: wooracle,
        data: encodeFunctionData({ abi: wooracleAbi, functionName: 'postPriceList', args: [[], [], head.timestamp] }),
      })
    const receipt = await sendAndWait({
      devnet: devnet as Devnet,
      from: propAmms.operator,
      to: propAmms.relay,
      data: encodeFunctionData({ abi: relayAbi, functionName: 'relay', args: [calls] }),
      gas: 5_000_000n,
      label: 'prop AMM re-pricing',
    })
    return receipt.blockNumber
  }

  let timer: NodeJS.Timeout | undefined
  let running: Promise<unknown> | undefined
  let stopped = false
  const loop = () => {
    if (stopped) return
    running = tick()
      .catch((error: Error) => log(`prop AMM keeper: re-pricing failed: ${error.message.split('\n')[0]}`))
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, intervalMs)
      })
  }
  if (intervalMs > 0) timer = setTimeout(loop, intervalMs)
  return {
    tick,
    stop: async () => {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}

/** One step of a venue's offset from the reference (ppm), `u` uniform in [0, 1). */
function walk(offset: number, u: number): number {
  const moved = offset + Math.round((u * 2 - 1) * STEP_PPM)
  return Math.max(-MAX_OFFSET_PPM, Math.min(MAX_OFFSET_PPM, moved))
}

/** Raw USDC per raw base unit, Q96, from the reference pool's square-root price (token1 per token0, Q96). */
function basePriceX96(venue: PropAmmVenue, sqrtPriceX96: bigint): bigint {
  const squared = sqrtPriceX96 * sqrtPriceX96
  const baseIsToken0 = BigInt(getAddress(venue.tokens[0])) < BigInt(getAddress(venue.tokens[1]))
  return baseIsToken0 ? squared / Q96 : (Q96 * Q96 * Q96) / squared
}

/** The venue's own update at `priceX96` (USDC per base, raw, Q96). */
function updateCalldata(venue: PropAmmVenue, priceX96: bigint): `0x${string}` {
  if (venue.dex === 'LUNARBASE') {
    const feeX24 = (BigInt(venue.feePips) << 24n) / 1_000_000n
    const anchorPrice = sqrt(priceX96 * Q96)
    return encodeFunctionData({
      abi: operatorAbi,
      functionName: 'upd',
      args: [{ anchorPrice, feeAskX24: Number(feeX24), feeBidX24: Number(feeX24) }],
    })
  }
  const depthQuote = BigInt(venue.depthQuote)
  const depthBase = (depthQuote * Q96) / priceX96
  const functionName = venue.dex === 'FELTIR' ? 'setOracle' : 'updatePrice'
  return encodeFunctionData({ abi: operatorAbi, functionName, args: [priceX96, depthBase, depthQuote, venue.feePips] })
}

/** Floor of the square root (Newton's method from above). */
function sqrt(value: bigint): bigint {
  if (value < 2n) return value
  let x = value
  let y = (x + 1n) >> 1n
  while (y < x) {
    x = y
    y = (x + value / x) >> 1n
  }
  return x
}
