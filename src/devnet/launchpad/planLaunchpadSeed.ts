import { type Hex, keccak256, toHex } from 'viem'
import { createSeedPrng } from '../seed/createSeedPrng.ts'
import { launchpadTokenNames } from './launchpadTokenNames.ts'

/** Hours of simulated history: one week. */
export const SEED_HOURS = 168
export const SEED_CREATORS = 8
export const SEED_TRADERS = 16

/** Where a vesting position stands when the simulated week ends. */
export type VestingStage = 'locked' | 'vesting' | 'partly_claimed' | 'vested' | 'claimed'

/** A reward recipient: the creator, the "interface" (a frontend's fee address), or another creator. */
export type PlannedRecipient = { who: 'creator' | 'interface' | number; bps: number }

export type PlannedLaunch = {
  index: number
  name: string
  symbol: string
  /** Index into the creators. */
  creator: number
  hour: number
  salt: Hex
  /** Starting fully diluted market cap, in ETH (it picks the starting tick only). */
  marketCapEth: number
  /** ETH the creator spends buying at launch; 0: none. */
  devBuyWei: bigint
  recipients: PlannedRecipient[]
  vesting?: { stage: VestingStage; bps: number; lockupSeconds: number; vestingSeconds: number; claimHours: number[] }
  /** How much it trades: 0.05 (quiet) to about 3 (hot). */
  popularity: number
  document?: { description: string; website?: string; socials: { platform: string; url: string }[] }
}

export type LaunchpadSeedPlan = { launches: PlannedLaunch[] }

/**
 * The launchpad's simulated week, decided up front from the seed: forty launches by eight
 * creators spread over the week (some with dev buys, reward splits and vesting), each with a
 * popularity that shapes its trading, and vesting schedules chosen so the week ends with positions
 * at every stage (locked, vesting, partly claimed, fully vested, fully claimed).
 *
 * @example
 * const { launches } = planLaunchpadSeed({ seed: 8453 })
 * // → one PlannedLaunch per launchpad token name (hour, creator, recipients, vesting, dev buy); the same for every run with seed 8453
 */
export function planLaunchpadSeed({ seed }: { seed: number }): LaunchpadSeedPlan {
  const next = createSeedPrng({ seed: seed ^ 0x1a0c4 })
  // Creators launch unevenly: a few prolific ones, a long tail.
  const creatorOf = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 0, 1, 2, 3, 4]
  const stages: VestingStage[] = ['locked', 'vesting', 'partly_claimed', 'vested', 'claimed']
  let vestingCount = 0
  const launches = launchpadTokenNames.map(({ name, symbol }, index): PlannedLaunch => {
    const hour = Math.min(SEED_HOURS - 6, Math.floor((index * 160) / launchpadTokenNames.length + next() * 3))
    const left = SEED_HOURS - hour
    const roll = next()
    const recipients: PlannedRecipient[] =
      roll < 0.6
        ? [{ who: 'creator', bps: 10_000 }]
        : roll < 0.9
          ? [
              { who: 'creator', bps: 8_000 },
              { who: 'interface', bps: 2_000 },
            ]
          : [
              { who: 'creator', bps: 6_000 },
              { who: (creatorOf[index] + 1) % SEED_CREATORS, bps: 2_500 },
              { who: 'interface', bps: 1_500 },
            ]
    let vesting: PlannedLaunch['vesting']
    if (index % 5 !== 4 && (index % 2 === 0 || next() < 0.3)) {
      // Early launches can end fully vested; late ones only locked or vesting.
      const options = left >= 60 ? stages : stages.slice(0, 3)
      const stage = options[vestingCount++ % options.length]
      vesting = vestingSchedule({ stage, hour, left, bps: 500 + Math.floor(next() * 5) * 500 })
    }
    return {
      index,
      name,
      symbol,
      creator: creatorOf[index],
      hour,
      salt: keccak256(toHex(`launchpad seed ${seed} ${index}`)),
      marketCapEth: 2 + Math.floor(next() * 38),
      devBuyWei: next() < 0.4 ? BigInt(Math.floor((0.05 + next() * 2) * 1e6)) * 10n ** 12n : 0n,
      recipients,
      vesting,
      // Heavy tail: most tokens are quiet, a few are hot.
      popularity: 0.05 + 3 * next() ** 3,
      document:
        next() < 0.75
          ? {
              description: `${name} (${symbol}) launched on the embedded Base devnet.`,
              website: next() < 0.5 ? `https://${symbol.toLowerCase()}.example` : undefined,
              socials: next() < 0.6 ? [{ platform: 'x', url: `https://x.com/${symbol.toLowerCase()}` }] : [],
            }
          : undefined,
    }
  })
  return { launches }
}

/** A schedule that leaves the position at `stage` when the week ends `left` hours after launch. */
function vestingSchedule({
  stage,
  hour,
  left,
  bps,
}: {
  stage: VestingStage
  hour: number
  left: number
  bps: number
}): NonNullable<PlannedLaunch['vesting']> {
  const h = 3600
  switch (stage) {
    case 'locked':
      return { stage, bps, lockupSeconds: (left + 48) * h, vestingSeconds: 30 * 24 * h, claimHours: [] }
    case 'vesting':
    case 'partly_claimed': {
      const lockup = Math.max(1, Math.floor(left / 4))
      const claimHours = stage === 'partly_claimed' ? [hour + lockup + Math.floor((left - lockup) / 2)] : []
      return { stage, bps, lockupSeconds: lockup * h, vestingSeconds: left * 2 * h, claimHours }
    }
    case 'vested':
    case 'claimed': {
      const lockup = Math.floor(left / 4)
      const duration = Math.floor(left / 3)
      const end = hour + lockup + duration
      const claimHours = stage === 'claimed' ? [hour + lockup + Math.floor(duration / 2), end + 2] : []
      return { stage, bps, lockupSeconds: lockup * h, vestingSeconds: duration * h, claimHours }
    }
  }
}
