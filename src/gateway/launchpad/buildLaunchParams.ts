import { type Address, type Hex, zeroAddress, zeroHash } from 'viem'
import type { LaunchParams } from './launchParamsType.ts'

export type BuildLaunchParamsParameters = {
  name: string
  symbol: string
  /** `ipfs://<cid>` of the metadata document, or any string up to 4096 bytes; default empty. */
  extraMetadata?: string
  /** Default the creator. */
  admin?: Address
  creator: Address
  salt?: Hex
  pairedToken: Address
  /** Tick of the starting price (paired base units per token base unit), a multiple of 200. */
  startingTick: number
  /** Default: everything to the creator. */
  rewardRecipients?: readonly { recipient: Address; bps: number }[]
  vesting?: { beneficiary: Address; bps: number; lockupSeconds: number; vestingSeconds: number }
  /** With ETH sent along (`value`): who receives the bought tokens, and the least they must get. */
  devBuy?: { recipient: Address; minAmountOut: bigint }
}

/**
 * `LaunchFactory.launch` parameters with the defaults a plain launch uses: the creator as admin
 * and sole reward recipient, no vesting, no dev buy.
 *
 * @example
 * const params = buildLaunchParams({ name: 'Moon', symbol: 'MOON', creator, pairedToken: weth, startingTick: -184200 })
 * // → { name: 'Moon', symbol: 'MOON', extraMetadata: '', admin: creator, salt: zeroHash, pairedToken: weth, startingTick: -184200,
 * //     rewardRecipients: [{ recipient: creator, bps: 10_000 }], vesting: { zero address, 0 bps, … }, devBuy: { zero address, 0n } }
 */
export function buildLaunchParams({
  name,
  symbol,
  extraMetadata = '',
  creator,
  admin = creator,
  salt = zeroHash,
  pairedToken,
  startingTick,
  rewardRecipients = [{ recipient: creator, bps: 10_000 }],
  vesting,
  devBuy,
}: BuildLaunchParamsParameters): LaunchParams {
  return {
    name,
    symbol,
    extraMetadata,
    admin,
    salt,
    pairedToken,
    startingTick,
    rewardRecipients: rewardRecipients.map((r) => ({ ...r })),
    vesting: vesting ?? { beneficiary: zeroAddress, bps: 0, lockupSeconds: 0, vestingSeconds: 0 },
    devBuy: devBuy ?? { recipient: zeroAddress, minAmountOut: 0n },
  }
}
