import assert from 'node:assert/strict'
import { test } from 'vitest'
import { type Address, encodeFunctionData, getAddress, type Hex, maxUint256, parseEther, zeroAddress } from 'viem'
import { deployContractAndWait } from '../../../src/devnet/deployContractAndWait.ts'
import { loadNpmArtifact } from '../../../src/devnet/loadNpmArtifact.ts'
import { sendAndWait } from '../../../src/devnet/sendAndWait.ts'
import { writeContractAndWait } from '../../../src/devnet/writeContractAndWait.ts'
import { createSeedPrng } from '../../../src/devnet/seed/createSeedPrng.ts'
import { buildLaunchParams } from '../../../src/gateway/launchpad/buildLaunchParams.ts'
import { feeLockerAbi } from '../../../src/gateway/launchpad/feeLockerAbi.ts'
import { launchFactoryAbi } from '../../../src/gateway/launchpad/launchFactoryAbi.ts'
import type { LaunchParams } from '../../../src/gateway/launchpad/launchParamsType.ts'
import { loadLaunchpadArtifacts } from '../../../src/gateway/launchpad/loadLaunchpadArtifacts.ts'
import { vestingVaultAbi } from '../../../src/gateway/launchpad/vestingVaultAbi.ts'
import { sqrtRatioAtTick } from '../../fixtures/sqrtRatioAtTick.ts'
import { describeRevert, erc20Abi, type LaunchpadTestbed, v3PoolAbi } from './launchpadTestbed.ts'
import { useLaunchpadTestbed } from './useLaunchpadTestbed.ts'

// The launchpad's security rules, each against the real Uniswap V3 pool or a hostile caller.

const STARTING_TICK = -184_400
const t = useLaunchpadTestbed()

const params = (overrides: Partial<LaunchParams> = {}): LaunchParams => ({
  ...buildLaunchParams({ name: 'Safe', symbol: 'SAFE', creator: t.creator, pairedToken: t.weth, startingTick: STARTING_TICK }),
  ...overrides,
})
const simulate = (address: Address, abi: readonly unknown[], functionName: string, args: readonly unknown[], account: Address) =>
  t.devnet.publicClient
    .simulateContract({ address, abi: abi as never, functionName: functionName as never, args: args as never, account })
    .then(() => 'ok', describeRevert)

test('pool callbacks are refused from anyone but the pool a launch is creating, even with assets in the factory', async () => {
  const { pool } = await t.launch(params())
  // Assets sent to the factory by mistake are what a callback bypass would pay out.
  await writeContractAndWait({
    devnet: t.devnet,
    address: t.weth,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [t.launchpad.factory, parseEther('1')],
    from: t.traders[0],
  })
  for (const functionName of ['uniswapV3MintCallback', 'uniswapV3SwapCallback'] as const) {
    const args = [parseEther('1'), parseEther('1'), '0x'] as const
    assert.equal(await simulate(t.launchpad.factory, launchFactoryAbi, functionName, args, t.stranger), `UnexpectedCallback(${t.stranger})`)
    // The real pool of an earlier launch, outside a launch, is refused too.
    await t.devnet.testClient.impersonateAccount({ address: pool })
    await t.devnet.testClient.setBalance({ address: pool, value: parseEther('1') })
    assert.equal(await simulate(t.launchpad.factory, launchFactoryAbi, functionName, args, pool), `UnexpectedCallback(${pool})`)
    // And through a contract that forwards the call.
    const fake = await deployContractAndWait({ devnet: t.devnet, artifact: t.devnet.artifacts.FakeCallbackPool })
    const call = encodeFunctionData({ abi: launchFactoryAbi, functionName, args: args as never })
    const poke = encodeFunctionData({
      abi: t.devnet.artifacts.FakeCallbackPool.abi,
      functionName: 'poke',
      args: [t.launchpad.factory, call],
    })
    assert.equal((await sendAndWait({ devnet: t.devnet, to: fake, data: poke, throwOnRevert: false })).status, 'reverted')
  }
  assert.equal(await t.balanceOf(t.weth, t.launchpad.factory), parseEther('1'))
})

test('only the factory registers positions and vesting; only the owner allows paired assets or hands ownership on', async () => {
  assert.equal(
    await simulate(
      t.launchpad.feeLocker,
      feeLockerAbi,
      'lock',
      [t.weth, t.weth, t.weth, 0, 200, 1n, [{ recipient: t.stranger, bps: 10_000 }]],
      t.stranger,
    ),
    `NotFactory(${t.stranger})`,
  )
  assert.equal(
    await simulate(t.launchpad.vestingVault, vestingVaultAbi, 'create', [t.weth, t.stranger, 1n, 2n ** 40n, 2n ** 41n], t.stranger),
    `NotFactory(${t.stranger})`,
  )
  assert.equal(
    await simulate(t.launchpad.factory, launchFactoryAbi, 'setPairedToken', [t.stranger, true], t.stranger),
    `NotOwner(${t.stranger})`,
  )
  assert.equal(await simulate(t.launchpad.factory, launchFactoryAbi, 'setOwner', [t.stranger], t.stranger), `NotOwner(${t.stranger})`)
})

test('locked liquidity has no way out: the locker has no function that removes it, and collecting leaves it whole', async () => {
  const { FeeLocker } = loadLaunchpadArtifacts()
  const functions = FeeLocker.abi
    .filter((item) => item.type === 'function')
    .map((item) => (item as { name: string }).name)
    .sort()
  assert.deepEqual(functions, [
    'BPS',
    'accrued',
    'accruedPaired',
    'accruedToken',
    'claim',
    'collectFees',
    'factory',
    'lock',
    'positions',
    'rewardRecipients',
  ])
  const { token, pool, event } = await t.launch(params())
  await t.swap({ token, pool, side: 'buy', amountIn: parseEther('2'), from: t.traders[0] })
  for (let i = 0; i < 3; i++) await t.collectFees(token)
  const { keccak256, encodePacked } = await import('viem')
  const key = keccak256(encodePacked(['address', 'int24', 'int24'], [t.launchpad.feeLocker, event.tickLower, event.tickUpper]))
  const [liquidity] = (await t.devnet.publicClient.readContract({
    address: pool,
    abi: v3PoolAbi,
    functionName: 'positions',
    args: [key],
  })) as [bigint]
  assert.equal(liquidity, event.liquidity)
})

test('a salt is bound to its creator: reuse reverts, and another creator with the same salt gets another address', async () => {
  const salt = `0x${'ab'.repeat(32)}` as Hex
  const mine = await t.launch(params({ salt }))
  // CREATE2 onto the earlier token's address fails: the launch reverts (no error data of its own).
  const reused = await sendAndWait({
    devnet: t.devnet,
    to: t.launchpad.factory,
    data: encodeFunctionData({ abi: launchFactoryAbi, functionName: 'launch', args: [params({ salt })] }),
    from: t.creator,
    throwOnRevert: false,
  })
  assert.equal(reused.status, 'reverted')
  const theirs = await t.launch(params({ salt, admin: t.stranger }), { from: t.stranger })
  assert.notEqual(theirs.token, mine.token)
  const predicted = await t.devnet.publicClient.readContract({
    address: t.launchpad.factory,
    abi: launchFactoryAbi,
    functionName: 'predictTokenAddress',
    args: [t.stranger, params({ salt, admin: t.stranger })],
  })
  assert.equal(getAddress(predicted), theirs.token)
})

/** A stranger creates the launch's WETH pool (1 % tier) before it runs; the token's predicted address. */
async function createPoolAhead(launch: LaunchParams): Promise<Address> {
  const token = getAddress(
    await t.devnet.publicClient.readContract({
      address: t.launchpad.factory,
      abi: launchFactoryAbi,
      functionName: 'predictTokenAddress',
      args: [t.creator, launch],
    }),
  )
  await writeContractAndWait({
    devnet: t.devnet,
    address: t.v3Factory,
    abi: loadNpmArtifact({ name: 'UniswapV3Factory' }).abi,
    functionName: 'createPool',
    args: [token, t.weth, 10_000],
    from: t.stranger,
  })
  return token
}

test('a pool created ahead of the launch is used only while uninitialized; an initialized one refuses the launch', async () => {
  const v3Factory = loadNpmArtifact({ name: 'UniswapV3Factory' }).abi
  const first = params({ salt: `0x${'01'.repeat(32)}` })
  const token = await createPoolAhead(first)
  const launched = await t.launch(first)
  assert.equal(launched.token, token)
  const second = params({ salt: `0x${'02'.repeat(32)}` })
  const token2 = await createPoolAhead(second)
  const pool = getAddress(
    (await t.devnet.publicClient.readContract({
      address: t.v3Factory,
      abi: v3Factory,
      functionName: 'getPool',
      args: [token2, t.weth, 10_000],
    })) as Address,
  )
  await writeContractAndWait({
    devnet: t.devnet,
    address: pool,
    abi: v3PoolAbi,
    functionName: 'initialize',
    args: [sqrtRatioAtTick(0)],
    from: t.stranger,
  })
  assert.equal(await t.launchRevert(second), `PoolAlreadyInitialized(${pool})`)
})

test('launch parameters outside the rules are refused, each with its own error', async () => {
  const r = (recipient: Address, bps: number) => ({ recipient, bps })
  const vest = (bps: number, lockupSeconds: number, vestingSeconds: number, beneficiary: Address = t.creator) => ({
    beneficiary,
    bps,
    lockupSeconds,
    vestingSeconds,
  })
  const cases: [string, LaunchParams, bigint | undefined, string | RegExp][] = [
    ['unknown paired asset', params({ pairedToken: t.stranger }), undefined, `PairedTokenNotAllowed(${t.stranger})`],
    ['tick off the spacing', params({ startingTick: -184_401 }), undefined, 'InvalidStartingTick(-184401)'],
    ['tick too high', params({ startingTick: 300_200 }), undefined, 'InvalidStartingTick(300200)'],
    ['tick too low', params({ startingTick: -600_200 }), undefined, 'InvalidStartingTick(-600200)'],
    ['no recipient', params({ rewardRecipients: [] }), undefined, 'InvalidRewardRecipients()'],
    [
      'eight recipients',
      params({
        rewardRecipients: Array.from({ length: 8 }, (_, i) =>
          r(getAddress(`0x${(i + 1).toString(16).padStart(40, '0')}`), i === 0 ? 3_000 : 1_000),
        ),
      }),
      undefined,
      'InvalidRewardRecipients()',
    ],
    ['shares not 100 %', params({ rewardRecipients: [r(t.creator, 9_999)] }), undefined, 'InvalidRewardRecipients()'],
    [
      'duplicate recipient',
      params({ rewardRecipients: [r(t.creator, 5_000), r(t.creator, 5_000)] }),
      undefined,
      'InvalidRewardRecipients()',
    ],
    ['zero recipient', params({ rewardRecipients: [r(zeroAddress, 10_000)] }), undefined, 'InvalidRewardRecipients()'],
    ['zero share', params({ rewardRecipients: [r(t.creator, 10_000), r(t.stranger, 0)] }), undefined, 'InvalidRewardRecipients()'],
    ['vesting above 30 %', params({ vesting: vest(3_001, 86_400, 0) }), undefined, 'InvalidVesting()'],
    ['vesting without beneficiary', params({ vesting: vest(1_000, 86_400, 0, zeroAddress) }), undefined, 'InvalidVesting()'],
    ['vesting with no schedule', params({ vesting: vest(1_000, 0, 0) }), undefined, 'InvalidVesting()'],
    ['lockup above 4 years', params({ vesting: vest(1_000, 4 * 365 * 86_400 + 1, 0) }), undefined, 'InvalidVesting()'],
    ['schedule without allocation', params({ vesting: vest(0, 86_400, 0) }), undefined, 'InvalidVesting()'],
    [
      'dev buy on a non-WETH pair',
      params({ pairedToken: t.usdc, devBuy: { recipient: t.creator, minAmountOut: 0n } }),
      parseEther('1'),
      'DevBuyNotSupported()',
    ],
    ['dev buy without recipient', params(), parseEther('1'), 'InvalidDevBuyRecipient()'],
    ['dev buy fields without ETH', params({ devBuy: { recipient: t.creator, minAmountOut: 0n } }), undefined, 'DevBuyNotSupported()'],
    ['empty name', params({ name: '' }), undefined, 'InvalidName()'],
    ['long symbol', params({ symbol: 'S'.repeat(33) }), undefined, 'InvalidSymbol()'],
  ]
  for (const [label, p, value, expected] of cases) {
    const got = await t.launchRevert(p, { value })
    if (typeof expected === 'string') assert.equal(got, expected, label)
    else assert.match(got, expected, label)
  }
  // The boundaries themselves are accepted.
  await t.launch(
    params({
      vesting: vest(3_000, 0, 4 * 365 * 86_400),
      rewardRecipients: Array.from({ length: 7 }, (_, i) =>
        r(getAddress(`0x${(i + 1).toString(16).padStart(40, '0')}`), i === 0 ? 4_000 : 1_000),
      ),
      startingTick: 300_000,
      salt: `0x${'0e'.repeat(32)}`,
    }),
  )
  await t.launch(params({ startingTick: -600_000, salt: `0x${'0f'.repeat(32)}` }))
})

test('a paired asset that re-enters the locker during a claim is refused (Reentrancy), and nothing is paid', async () => {
  const evil = getAddress(await deployContractAndWait({ devnet: t.devnet, artifact: t.devnet.artifacts.ReentrantToken }))
  await writeContractAndWait({
    devnet: t.devnet,
    address: t.launchpad.factory,
    abi: launchFactoryAbi,
    functionName: 'setPairedToken',
    args: [evil, true],
  })
  const { token, pool } = await t.launch(params({ pairedToken: evil }))
  const trader = t.traders[0]
  await writeContractAndWait({ devnet: t.devnet, address: evil, abi: erc20Abi, functionName: 'mint', args: [trader, parseEther('100')] })
  await writeContractAndWait({
    devnet: t.devnet,
    address: evil,
    abi: erc20Abi,
    functionName: 'approve',
    args: [t.harness, maxUint256],
    from: trader,
  })
  await t.swap({ token, pool, side: 'buy', amountIn: parseEther('10'), from: trader, paired: evil })
  // Collected first, so the claim's own collect moves nothing and the locker's payment is the transfer that re-enters.
  await t.collectFees(token)
  const owed = await t.devnet.publicClient.readContract({
    address: t.launchpad.feeLocker,
    abi: feeLockerAbi,
    functionName: 'accrued',
    args: [token, t.creator],
  })
  assert.ok(owed[1] > 0n)
  const reenter = encodeFunctionData({ abi: feeLockerAbi, functionName: 'claim', args: [token, t.creator] })
  await writeContractAndWait({
    devnet: t.devnet,
    address: evil,
    abi: t.devnet.artifacts.ReentrantToken.abi,
    functionName: 'arm',
    args: [t.launchpad.feeLocker, reenter],
  })
  assert.equal(await simulate(t.launchpad.feeLocker, feeLockerAbi, 'claim', [token, t.creator], t.stranger), 'Reentrancy()')
  const receipt = await writeContractAndWait({
    devnet: t.devnet,
    address: t.launchpad.feeLocker,
    abi: feeLockerAbi,
    functionName: 'claim',
    args: [token, t.creator],
    from: t.stranger,
    throwOnRevert: false,
  })
  assert.equal(receipt.status, 'reverted')
  assert.deepEqual(
    await t.devnet.publicClient.readContract({
      address: t.launchpad.feeLocker,
      abi: feeLockerAbi,
      functionName: 'accrued',
      args: [token, t.creator],
    }),
    owed,
  )
  assert.equal(await t.balanceOf(evil, t.creator), 0n)
})

test('invariant over random trading, collecting and claiming: the locker holds exactly what it owes, the vault exactly what is unclaimed', async () => {
  const next = createSeedPrng({ seed: 13 })
  const recipientsOf = [[t.creator], [t.creator, t.stranger], [t.creator, t.stranger, t.traders[1]]] as const
  const launches: (Awaited<ReturnType<LaunchpadTestbed['launch']>> & { recipients: readonly Address[]; owedPaired?: bigint })[] = []
  for (const [i, recipients] of recipientsOf.entries()) {
    const shares = recipients.map((recipient, j) => ({ recipient, bps: j === 0 ? 10_000 - (recipients.length - 1) * 1_111 : 1_111 }))
    launches.push({
      recipients,
      ...(await t.launch(
        params({
          salt: `0x${(i + 1).toString(16).padStart(64, '0')}`,
          rewardRecipients: shares,
          vesting: { beneficiary: t.traders[1], bps: 500 * (i + 1), lockupSeconds: 3_600 * i, vestingSeconds: 86_400 },
        }),
      )),
    })
  }
  const bought = new Map<Address, bigint>()
  for (let step = 0; step < 60; step++) {
    const l = launches[Math.floor(next() * launches.length)]
    const action = next()
    if (action < 0.45) {
      const { amountOut } = await t.swap({
        token: l.token,
        pool: l.pool,
        side: 'buy',
        amountIn: BigInt(Math.floor(next() * 1e18)) + 1n,
        from: t.traders[0],
      })
      bought.set(l.token, (bought.get(l.token) ?? 0n) + amountOut)
    } else if (action < 0.65 && (bought.get(l.token) ?? 0n) > 10n) {
      const amountIn = ((bought.get(l.token) ?? 0n) * BigInt(Math.floor(next() * 50))) / 100n + 1n
      await t.swap({ token: l.token, pool: l.pool, side: 'sell', amountIn, from: t.traders[0] })
      bought.set(l.token, (bought.get(l.token) ?? 0n) - amountIn)
    } else if (action < 0.75) {
      await t.collectFees(l.token)
    } else if (action < 0.9) {
      const recipient = l.recipients[Math.floor(next() * l.recipients.length)]
      await writeContractAndWait({
        devnet: t.devnet,
        address: t.launchpad.feeLocker,
        abi: feeLockerAbi,
        functionName: 'claim',
        args: [l.token, recipient],
        throwOnRevert: false,
      })
    } else {
      await t.devnet.testClient.increaseTime({ seconds: Math.floor(next() * 20_000) })
      await writeContractAndWait({
        devnet: t.devnet,
        address: t.launchpad.vestingVault,
        abi: vestingVaultAbi,
        functionName: 'claim',
        args: [l.event.vestingId],
        throwOnRevert: false,
      })
    }
    for (const launch of launches) {
      let owedToken = 0n
      let owedPaired = 0n
      for (const recipient of launch.recipients) {
        const [a, b] = (await t.devnet.publicClient.readContract({
          address: t.launchpad.feeLocker,
          abi: feeLockerAbi,
          functionName: 'accrued',
          args: [launch.token, recipient],
        })) as [bigint, bigint]
        owedToken += a
        owedPaired += b
      }
      assert.equal(await t.balanceOf(launch.token, t.launchpad.feeLocker), owedToken, `step ${step}: locker token balance`)
      const [, , amount, claimed] = await t.devnet.publicClient.readContract({
        address: t.launchpad.vestingVault,
        abi: vestingVaultAbi,
        functionName: 'positions',
        args: [launch.event.vestingId],
      })
      assert.equal(await t.balanceOf(launch.token, t.launchpad.vestingVault), amount - claimed, `step ${step}: vault balance`)
      launch.owedPaired = owedPaired
    }
    const totalOwedPaired: bigint = launches.reduce((s, l) => s + (l.owedPaired ?? 0n), 0n)
    assert.equal(await t.balanceOf(t.weth, t.launchpad.feeLocker), totalOwedPaired, `step ${step}: locker WETH balance`)
  }
})
