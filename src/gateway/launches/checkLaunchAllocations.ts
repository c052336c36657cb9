import { type Address, getAddress, zeroAddress } from 'viem'
import { GatewayProblem } from '../problems/GatewayProblem.ts'

/** `LaunchFactory`'s bounds (contracts/launchpad/LaunchFactory.sol). */
export const LAUNCH_BOUNDS = {
  maxRewardRecipients: 7,
  maxVestingBps: 3_000,
  maxLockupSeconds: 4 * 365 * 86_400,
  maxVestingSeconds: 4 * 365 * 86_400,
} as const

export type LaunchAllocations = {
  creator: Address
  rewards: { recipient: Address; bps: number }[]
  vesting?: { beneficiary: Address; bps: number; lockup_seconds: number; vesting_seconds: number }
  referrer?: Address
  /** Addresses nobody may be referred by (the launchpad's own contracts, the burn address). */
  reserved: readonly Address[]
}

/**
 * A launch's allocations against the factory's rules, before anything is simulated, each with
 * the spec's code (§7): reward shares and the vesting share outside their bounds are
 * `invalid_allocation`; a vesting schedule whose timing breaks the rules `invalid_vesting`; a
 * referrer that is reserved, the creator or already a recipient `invalid_referrer`.
 *
 * @example
 * checkLaunchAllocations({ creator, rewards: [{ recipient: creator, bps: 10_000 }], reserved: [factory] })
 * // nothing: valid; GatewayProblem 'invalid_allocation' | 'invalid_vesting' | 'invalid_referrer' otherwise
 */
export function checkLaunchAllocations({ creator, rewards, vesting, referrer, reserved }: LaunchAllocations): void {
  const bad = (code: 'invalid_allocation' | 'invalid_vesting' | 'invalid_referrer', name: string, reason: string) =>
    new GatewayProblem(code, { detail: `${name} ${reason}.`, invalidParameters: [{ name, in: 'body', reason }] })
  if (rewards.length === 0 || rewards.length > LAUNCH_BOUNDS.maxRewardRecipients)
    throw bad('invalid_allocation', 'rewards', `must name 1 to ${LAUNCH_BOUNDS.maxRewardRecipients} recipients`)
  const seen = new Set<string>()
  rewards.forEach((r, i) => {
    if (r.bps === 0) throw bad('invalid_allocation', `rewards.${i}.bps`, 'must be more than 0')
    if (getAddress(r.recipient) === zeroAddress) throw bad('invalid_allocation', `rewards.${i}.recipient`, 'must not be the zero address')
    if (seen.has(getAddress(r.recipient))) throw bad('invalid_allocation', `rewards.${i}.recipient`, 'appears twice')
    seen.add(getAddress(r.recipient))
  })
  const total = rewards.reduce((sum, r) => sum + r.bps, 0)
  if (total !== 10_000) throw bad('invalid_allocation', 'rewards', `shares must sum to 10000 bps (they sum to ${total})`)
  if (vesting) {
    if (vesting.bps === 0 || vesting.bps > LAUNCH_BOUNDS.maxVestingBps)
      throw bad('invalid_allocation', 'vesting.bps', `must be 1 to ${LAUNCH_BOUNDS.maxVestingBps} (at most 30 % of the supply vests)`)
    if (getAddress(vesting.beneficiary) === zeroAddress) throw bad('invalid_vesting', 'vesting.beneficiary', 'must not be the zero address')
    if (vesting.lockup_seconds > LAUNCH_BOUNDS.maxLockupSeconds)
      throw bad('invalid_vesting', 'vesting.lockup_seconds', 'must be at most 4 years')
    if (vesting.vesting_seconds > LAUNCH_BOUNDS.maxVestingSeconds)
      throw bad('invalid_vesting', 'vesting.vesting_seconds', 'must be at most 4 years')
    if (vesting.lockup_seconds + vesting.vesting_seconds === 0)
      throw bad('invalid_vesting', 'vesting', 'must lock or vest for some time (lockup_seconds + vesting_seconds > 0)')
  }
  if (referrer) {
    const r = getAddress(referrer)
    if (r === zeroAddress || reserved.some((a) => getAddress(a) === r)) throw bad('invalid_referrer', 'referrer', 'is a reserved address')
    if (r === getAddress(creator)) throw bad('invalid_referrer', 'referrer', 'must not be the creator')
    if (seen.has(r)) throw bad('invalid_referrer', 'referrer', 'is already a reward recipient')
  }
}
