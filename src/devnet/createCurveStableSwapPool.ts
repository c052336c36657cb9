import { type Address, encodeDeployData, getAddress, toFunctionSelector } from 'viem'
import { loadCurveStableSwapNgArtifact } from './loadCurveStableSwapNgArtifact.ts'
import { loadStandInArtifacts } from './loadStandInArtifacts.ts'
import type { Devnet } from './startDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

/** One coin of a StableSwap-NG pool and how the pool rates it (`stored_rates`). */
export type CurveCoin = {
  address: Address
  /** At most 18 (NG's rate multiplier is 10^(36 − decimals)). */
  decimals: number
  /**
   * `plain` (asset type 0), `oracle` (type 1: the rate is `oracle.rate()`, 18 decimals) or
   * `erc4626` (type 3: the rate is the vault's `convertToAssets`, `address` being the vault).
   */
  kind: 'plain' | 'oracle' | 'erc4626'
  oracle?: Address
}

export type CreateCurveStableSwapPoolParameters = {
  devnet: Devnet
  factory: Address
  coins: CurveCoin[]
  /** Amplification, whole (the pool stores it times 100). */
  A: bigint
  /** Swap fee, 1e10 = 100 %; at most 5e9 is accepted by later `set_new_fee`, the constructor takes any. */
  fee: bigint
  /** 1e10 or less: no off-peg fee; above: the dynamic fee's multiplier (2e10 doubles the fee far off peg). */
  offpegFeeMultiplier: bigint
  /** EMA window of the price oracle, seconds / ln 2; default 866 (10 minutes). */
  maExpTime?: bigint
  name?: string
}
export type CreateCurveStableSwapPoolReturnType = { pool: Address }

/** `rate()`: the method the oracle coins' rate oracle answers (`CurveRateOracle`). */
const RATE_METHOD = toFunctionSelector('rate()')

/**
 * Creates a StableSwap-NG pool (Curve's own bytecode) through our factory, with the constructor
 * arguments Curve's factory passes: rate multipliers 10^(36 − decimals), asset types, oracle
 * method ids and addresses. Empty until its first `add_liquidity`.
 *
 * @example
 * const { pool } = await createCurveStableSwapPool({ devnet, factory, coins, A: 200n, fee: 1_000_000n, offpegFeeMultiplier: 20_000_000_000n })
 */
export async function createCurveStableSwapPool({
  devnet,
  factory,
  coins,
  A,
  fee,
  offpegFeeMultiplier,
  maExpTime = 866n,
  name = 'Curve NG pool',
}: CreateCurveStableSwapPoolParameters): Promise<CreateCurveStableSwapPoolReturnType> {
  const ng = await loadCurveStableSwapNgArtifact()
  const { CurveStableSwapFactory } = loadStandInArtifacts({ protocol: 'curve' })
  const initCode = encodeDeployData({
    abi: ng.abi,
    bytecode: ng.bytecode,
    args: [
      name,
      'crvNG',
      A,
      fee,
      offpegFeeMultiplier,
      maExpTime,
      coins.map((c) => c.address),
      coins.map((c) => 10n ** BigInt(36 - c.decimals)),
      coins.map((c) => ({ plain: 0, oracle: 1, erc4626: 3 })[c.kind]),
      coins.map((c) => (c.kind === 'oracle' ? RATE_METHOD : '0x00000000')),
      coins.map((c) => (c.kind === 'oracle' ? (c.oracle as Address) : '0x0000000000000000000000000000000000000000')),
    ],
  })
  const receipt = await writeContractAndWait({
    devnet,
    address: factory,
    abi: CurveStableSwapFactory.abi,
    functionName: 'deploy_pool',
    args: [initCode, coins.map((c) => c.address), A, fee],
  })
  // As on Curve's factory the event does not name the pool: it is the registry's last entry.
  const read = (functionName: string, args: readonly bigint[] = []) =>
    devnet.publicClient.readContract({
      address: factory,
      abi: CurveStableSwapFactory.abi,
      functionName,
      args,
      blockNumber: receipt.blockNumber,
    })
  const count = (await read('pool_count')) as bigint
  return { pool: getAddress((await read('pool_list', [count - 1n])) as Address) }
}
