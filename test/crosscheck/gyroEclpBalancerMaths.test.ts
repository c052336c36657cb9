import assert from 'node:assert/strict'
import { test } from 'vitest'
import { type Address, zeroAddress } from 'viem'
import { balancerV2VaultAbi } from '../../src/devnet/balancerV2VaultAbi.ts'
import { createGyroECLPPool } from '../../src/devnet/createGyroECLPPool.ts'
import { deployBalancerV2Vault } from '../../src/devnet/deployBalancerV2Vault.ts'
import { deployContractAndWait } from '../../src/devnet/deployContractAndWait.ts'
import { deployTestToken } from '../../src/devnet/deployTestToken.ts'
import type { GyroEclpDerived, GyroEclpParams } from '../../src/adapters/state/GyroEclpParams.ts'
import { gyroEclpParams } from '../../src/devnet/gyroEclpParams.ts'
import { loadStandInArtifacts } from '../../src/devnet/loadStandInArtifacts.ts'
import { useDevnet } from '../fixtures/useDevnet.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { createPrng, type Prng } from '../differential/createPrng.ts'
import { testTokenAbi, tokenBalanceOf } from '../differential/harnessContracts.ts'
import { gyroEclpSwapReference } from './gyroEclpReference.ts'

// GYROSCOPE_ECLP: our E-CLP stand-in (contracts/gyro/GyroECLPPool.sol) on Balancer's own V2 Vault
// (its mainnet bytecode from @balancer-labs/v2-deployments) against Balancer's own E-CLP math,
// @balancer-labs/balancer-maths (`GyroECLPMath`: the invariant with its error, calcOutGivenIn),
// wrapped in the V2 pool's scaling as the published pool does it (scaling factor 1e18·10^(18−dec),
// times the rate rounded down; the fee mulUp on the raw amount before upscaling; the output
// downscaled rounding down), computed here from the rates the test sets, not read from the pool.
// Random pools (pegs 0.001 to 10,000, ranges 0.1% to 50% either side, λ 1 to 10,000, decimals 6,
// 8 or 18, rate providers on either token), random deposits, rates moved between rounds, random
// trades in both directions from 1 wei to twice the input balance: each swap through the Vault
// must pay exactly the reference's amount, and revert exactly when the reference throws.
const SEED = Number(process.env.DIFF_SEED ?? 2209)
const POOLS = Number(process.env.DIFF_GYRO_POOLS ?? 16)
const ROUNDS = 5
const TRADES_PER_ROUND = 6
const RECIPIENT: Address = '0x000000000000000000000000000000000000e0c1'
const ONE = 10n ** 18n

const { GyroECLPPool, GyroRateProvider } = loadStandInArtifacts({ protocol: 'gyro' })
const devnet = useDevnet()

type Side = { token: Address; decimals: number; rateProvider?: Address; rate: bigint }
type Pool = { poolId: `0x${string}`; sides: [Side, Side]; params: GyroEclpParams; derived: GyroEclpDerived; fee: bigint }

test('GYROSCOPE_ECLP: swaps through the Balancer V2 Vault equal balancer-maths', { timeout: 900_000 }, async () => {
  const prng = createPrng({ seed: SEED })
  const weth = await deployContractAndWait({ devnet, artifact: devnet.artifacts.WETH9 })
  const { vault } = await deployBalancerV2Vault({ devnet, weth })
  const max = 2n ** 255n
  const pools: Pool[] = []
  let rejectedParams = 0
  while (pools.length < POOLS) {
    const sides = [] as unknown as [Side, Side]
    for (let k = 0; k < 2; k++) {
      const decimals = prng.pick([6, 8, 18, 18])
      const token = await deployTestToken({ devnet, name: `G${decimals}`, symbol: `G${decimals}`, decimals })
      await writeContractAndWait({ devnet, address: token, abi: testTokenAbi, functionName: 'mint', args: [devnet.account, max] })
      const rated = prng.chance(0.4)
      const rate = rated ? prng.bigint(5n * 10n ** 17n, 2n * ONE) : ONE
      const rateProvider = rated ? await deployContractAndWait({ devnet, artifact: GyroRateProvider, args: [rate] }) : undefined
      sides.push({ token, decimals, rateProvider, rate })
    }
    if (BigInt(sides[0].token) > BigInt(sides[1].token)) sides.reverse()
    const peg = prng.logBigint(10n ** 15n, 10n ** 22n)
    const below = prng.logBigint(10n ** 15n, 5n * 10n ** 17n)
    const above = prng.logBigint(10n ** 15n, 5n * 10n ** 17n)
    const lambda = prng.pick(['1', '1.5', '2', '5', '20', '100', '500', '2000', '10000'])
    const { params, derived } = gyroEclpParams({
      alpha: decimal((peg * (ONE - below)) / ONE),
      beta: decimal((peg * (ONE + above)) / ONE),
      peg: decimal(peg),
      lambda,
    })
    const fee = prng.pick([10n ** 12n, 10n ** 14n, 4n * 10n ** 14n, 3n * 10n ** 15n, 10n ** 17n])
    // Whole tokens worth about the same at the peg, one side up to 100 times lighter.
    const whole = prng.logBigint(10n, 10n ** 9n)
    const value1 = (whole * peg) / ONE + 1n
    const deposit: [bigint, bigint] = [scaleDown(whole, sides[0], prng), scaleDown(value1, sides[1], prng)]
    try {
      const { poolId } = await createGyroECLPPool({
        devnet,
        vault,
        tokens: [sides[0].token, sides[1].token],
        rateProviders: [sides[0].rateProvider ?? zeroAddress, sides[1].rateProvider ?? zeroAddress],
        params,
        derived,
        swapFee: fee,
        initialBalances: deposit,
      })
      // After the first deposit, which approves exactly its amounts.
      for (const side of sides)
        await writeContractAndWait({ devnet, address: side.token, abi: testTokenAbi, functionName: 'approve', args: [vault, max] })
      pools.push({ poolId, sides, params, derived, fee })
    } catch {
      // Parameters outside the published limits (a range too narrow for its λ): the pool refuses them.
      rejectedParams++
    }
  }

  let matched = 0
  let reverted = 0
  const mismatches: string[] = []
  for (let round = 0; round < ROUNDS; round++) {
    for (const [p, pool] of pools.entries()) {
      if (round > 0)
        for (const side of pool.sides)
          if (side.rateProvider && prng.chance(0.5)) {
            side.rate = (side.rate * prng.bigint(9n * 10n ** 17n, 11n * 10n ** 17n)) / ONE
            await writeContractAndWait({
              devnet,
              address: side.rateProvider,
              abi: GyroRateProvider.abi,
              functionName: 'setRate',
              args: [side.rate],
            })
          }
      for (let t = 0; t < TRADES_PER_ROUND; t++) {
        const [, balances] = (await devnet.publicClient.readContract({
          address: vault,
          abi: balancerV2VaultAbi,
          functionName: 'getPoolTokens',
          args: [pool.poolId],
        })) as readonly [readonly Address[], readonly bigint[], bigint]
        const tokenInIsToken0 = prng.chance(0.5)
        const ixIn = tokenInIsToken0 ? 0 : 1
        const amountIn = prng.logBigint(1n, balances[ixIn] * 2n + 1n)
        const expected = reference({ pool, balances: [balances[0], balances[1]], amountIn, tokenInIsToken0 })
        const tokenOut = pool.sides[1 - ixIn].token
        const before = await balanceOf(tokenOut, RECIPIENT)
        const receipt = await writeContractAndWait({
          devnet,
          address: vault,
          abi: balancerV2VaultAbi,
          functionName: 'swap',
          args: [
            { poolId: pool.poolId, kind: 0, assetIn: pool.sides[ixIn].token, assetOut: tokenOut, amount: amountIn, userData: '0x' },
            { sender: devnet.account, fromInternalBalance: false, recipient: RECIPIENT, toInternalBalance: false },
            0n,
            max,
          ],
          throwOnRevert: false,
        })
        const paid = receipt.status === 'success' ? (await balanceOf(tokenOut, RECIPIENT)) - before : undefined
        const label = `pool ${p} round ${round} trade ${t}: ${amountIn} of token ${ixIn} at balances ${balances.join('/')}`
        if (paid === expected) {
          matched++
          if (paid === undefined) reverted++
        } else mismatches.push(`${label}: chain ${paid ?? 'reverted'}, balancer-maths ${expected ?? 'throws'}`)
      }
    }
  }
  console.log(
    `GYROSCOPE_ECLP vs balancer-maths: ${matched} trades matched (${reverted} reverted on both), ${mismatches.length} mismatches, over ${pools.length} pools (${rejectedParams} parameter sets refused)`,
  )
  assert.deepEqual(mismatches.slice(0, 10), [])
  assert.ok(matched >= POOLS * ROUNDS * TRADES_PER_ROUND, `${matched} trades`)
  assert.ok(matched - reverted >= matched / 2, `only ${matched - reverted} of ${matched} trades paid`)

  function balanceOf(token: Address, owner: Address) {
    return tokenBalanceOf(devnet, token, owner)
  }
})

/** The V2 pool's swap given in, around balancer-maths' E-CLP math, at the rates the test set. */
function reference({
  pool,
  balances,
  amountIn,
  tokenInIsToken0,
}: {
  pool: Pool
  balances: [bigint, bigint]
  amountIn: bigint
  tokenInIsToken0: boolean
}): bigint | undefined {
  const factor = (side: Side) => (ONE * 10n ** BigInt(18 - side.decimals) * side.rate) / ONE
  const scalingFactors = [factor(pool.sides[0]), factor(pool.sides[1])] as const
  return gyroEclpSwapReference({
    balances,
    scalingFactors,
    swapFee: pool.fee,
    params: pool.params,
    derived: pool.derived,
    amountIn,
    tokenInIsToken0,
  })
}

/** `amount` whole tokens of value-units into the side's base units, at its rate, times a random 1/100 to 1. */
function scaleDown(wholeValue: bigint, side: Side, prng: Prng): bigint {
  const shrink = prng.chance(0.5) ? prng.bigint(1n, 100n) : 1n
  return (wholeValue * 10n ** BigInt(side.decimals) * ONE) / side.rate / shrink + 1n
}

function decimal(value18: bigint): string {
  const digits = value18.toString().padStart(19, '0')
  return `${digits.slice(0, -18)}.${digits.slice(-18)}`
}
