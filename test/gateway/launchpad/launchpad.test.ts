import assert from 'node:assert/strict'
import { test } from 'vitest'
import { type Address, getAddress, type Hex, parseEther, parseEventLogs, zeroAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { writeContractAndWait } from '../../../src/devnet/writeContractAndWait.ts'
import { buildLaunchParams } from '../../../src/gateway/launchpad/buildLaunchParams.ts'
import { feeLockerAbi } from '../../../src/gateway/launchpad/feeLockerAbi.ts'
import { launchFactoryAbi } from '../../../src/gateway/launchpad/launchFactoryAbi.ts'
import { launchTokenAbi } from '../../../src/gateway/launchpad/launchTokenAbi.ts'
import { LAUNCH_TOKEN_SUPPLY } from '../../../src/gateway/launchpad/startingTickForMarketCap.ts'
import { vestingVaultAbi } from '../../../src/gateway/launchpad/vestingVaultAbi.ts'
import { sqrtRatioAtTick } from '../../fixtures/sqrtRatioAtTick.ts'
import { describeRevert, saltForOrder, v3PoolAbi } from './launchpadTestbed.ts'
import { useLaunchpadTestbed } from './useLaunchpadTestbed.ts'
import { signErc2612Permit } from '../../fixtures/signErc2612Permit.ts'

// What the launchpad does, on the real Uniswap V3 pool bytecode: the launch places exactly the
// position it says, fees are split and paid as the shares say, vesting releases on schedule, and
// the token's admin, metadata and permit rules hold.

const BURN: Address = '0x000000000000000000000000000000000000dEaD'
/** 10 WETH for the whole supply. */
const STARTING_TICK = -184_400
const t = useLaunchpadTestbed()

const read = <T>(address: Address, abi: readonly unknown[], functionName: string, args: readonly unknown[] = []) =>
  t.devnet.publicClient.readContract({ address, abi: abi as never, functionName: functionName as never, args: args as never }) as Promise<T>
const now = async () => (await t.devnet.publicClient.getBlock({ blockTag: 'latest' })).timestamp

for (const tokenIsToken0 of [true, false]) {
  test(`a launch (token sorts ${tokenIsToken0 ? 'first' : 'second'}) places the whole pool supply single-sided at the starting price, owned by the locker`, async () => {
    const base = buildLaunchParams({
      name: 'Moon',
      symbol: 'MOON',
      creator: t.creator,
      pairedToken: t.weth,
      startingTick: STARTING_TICK,
      extraMetadata: 'ipfs://bafkreiexample',
    })
    const salt = await saltForOrder({ testbed: t, params: base, creator: t.creator, tokenIsToken0, pairedToken: t.weth })
    const params = { ...base, salt }
    const predicted = await read<Address>(t.launchpad.factory, launchFactoryAbi, 'predictTokenAddress', [t.creator, params])
    const { token, pool, event } = await t.launch(params)
    assert.equal(token, getAddress(predicted))
    assert.equal(await read<bigint>(token, launchTokenAbi, 'totalSupply'), LAUNCH_TOKEN_SUPPLY)
    assert.equal(await read<string>(token, launchTokenAbi, 'extraMetadata'), 'ipfs://bafkreiexample')
    assert.equal(getAddress(event.creator), t.creator)
    // The pool's own tick of the price we set is exactly the starting tick (sign flipped when the token is token1).
    const [sqrtPriceX96, tick] = await read<[bigint, number]>(pool, v3PoolAbi, 'slot0')
    const poolTick = tokenIsToken0 ? STARTING_TICK : -STARTING_TICK
    assert.equal(tick, poolTick)
    assert.equal(sqrtPriceX96, sqrtRatioAtTick(poolTick))
    assert.deepEqual([event.tickLower, event.tickUpper], tokenIsToken0 ? [STARTING_TICK, 887_200] : [-887_200, -STARTING_TICK])
    // Position owned by the locker with the liquidity announced; the pool holds only the new token.
    const positionKey = (await import('viem')).keccak256(
      (await import('viem')).encodePacked(['address', 'int24', 'int24'], [t.launchpad.feeLocker, event.tickLower, event.tickUpper]),
    )
    const [liquidity] = await read<[bigint]>(pool, v3PoolAbi, 'positions', [positionKey])
    assert.equal(liquidity, event.liquidity)
    assert.equal(await t.balanceOf(t.weth, pool), 0n)
    const inPool = await t.balanceOf(token, pool)
    const burned = await t.balanceOf(token, BURN)
    assert.equal(inPool + burned, LAUNCH_TOKEN_SUPPLY)
    // Liquidity is rounded down: what is left is less than one unit of liquidity's worth of tokens.
    assert.ok(burned >= 1n && burned <= event.poolSupply / event.liquidity + 2n, `dust burned: ${burned} (L ${event.liquidity})`)
    assert.equal(await t.balanceOf(token, t.launchpad.factory), 0n)
    // Buying moves the price into the position: the first buy gets tokens at about the starting price.
    const { amountOut } = await t.swap({ token, pool, side: 'buy', amountIn: parseEther('0.01'), from: t.traders[0] })
    const startPrice = 1.0001 ** STARTING_TICK // WETH wei per token base unit
    const paidPerToken = Number(parseEther('0.01')) / Number(amountOut)
    assert.ok(paidPerToken > startPrice && paidPerToken < startPrice * 1.02, `paid ${paidPerToken} per unit vs start ${startPrice}`)
  })
}

test('a dev buy spends the ETH sent in the new pool and pays the recipient at least its minimum', async () => {
  const params = buildLaunchParams({
    name: 'Dev',
    symbol: 'DEV',
    creator: t.creator,
    pairedToken: t.weth,
    startingTick: STARTING_TICK,
    devBuy: { recipient: t.traders[1], minAmountOut: 1n },
  })
  const { token, pool, receipt } = await t.launch(params, { value: parseEther('0.5') })
  const [bought] = parseEventLogs({ abi: launchFactoryAbi, logs: receipt.logs, eventName: 'DevBuyExecuted' })
  assert.equal(bought.args.amountIn, parseEther('0.5'))
  assert.equal(await t.balanceOf(token, t.traders[1]), bought.args.amountOut)
  assert.equal(await t.balanceOf(t.weth, pool), parseEther('0.5'))
  // Too high a minimum reverts the whole launch.
  const again = buildLaunchParams({
    name: 'Dev2',
    symbol: 'DEV2',
    salt: `0x${'11'.repeat(32)}`,
    creator: t.creator,
    pairedToken: t.weth,
    startingTick: STARTING_TICK,
    devBuy: { recipient: t.traders[1], minAmountOut: 10n ** 30n },
  })
  assert.match(await t.launchRevert(again, { value: parseEther('0.5') }), /^DevBuyBelowMinimum\(/)
})

test('fees: collected from the pool, split by bps (the rounding remainder to the first recipient), claimed in both assets, never twice', async () => {
  const [a, b] = t.traders
  const recipients = [
    { recipient: t.creator, bps: 6_000 },
    { recipient: t.stranger, bps: 3_333 },
    { recipient: b, bps: 667 },
  ]
  const { token, pool } = await t.launch(
    buildLaunchParams({
      name: 'Fee',
      symbol: 'FEE',
      creator: t.creator,
      pairedToken: t.weth,
      startingTick: STARTING_TICK,
      rewardRecipients: recipients,
    }),
  )
  let wethIn = 0n
  let tokenIn = 0n
  for (let i = 0; i < 6; i++) {
    const buy = await t.swap({ token, pool, side: 'buy', amountIn: parseEther('0.3') + BigInt(i) * 12345n, from: a })
    wethIn += buy.amountIn
    const sell = await t.swap({ token, pool, side: 'sell', amountIn: buy.amountOut / 3n, from: a })
    tokenIn += sell.amountIn
  }
  const collect = await t.collectFees(token)
  const [collected] = parseEventLogs({ abi: feeLockerAbi, logs: collect.logs, eventName: 'FeesCollected' })
  // The locker's position is the only liquidity: it earns the whole 1 % fee, less the pool's rounding down.
  const expectedPaired = wethIn / 100n
  const expectedToken = tokenIn / 100n
  assert.ok(
    collected.args.pairedAmount <= expectedPaired + 6n && collected.args.pairedAmount >= expectedPaired - 12n,
    `paired fees ${collected.args.pairedAmount} vs ${expectedPaired}`,
  )
  assert.ok(
    collected.args.tokenAmount <= expectedToken + 6n && collected.args.tokenAmount >= expectedToken - 12n,
    `token fees ${collected.args.tokenAmount} vs ${expectedToken}`,
  )
  const shares = await Promise.all(
    recipients.map((r) => read<[bigint, bigint]>(t.launchpad.feeLocker, feeLockerAbi, 'accrued', [token, r.recipient])),
  )
  for (const [i, r] of recipients.entries()) {
    if (i === 0) continue
    assert.equal(shares[i][0], (collected.args.tokenAmount * BigInt(r.bps)) / 10_000n)
    assert.equal(shares[i][1], (collected.args.pairedAmount * BigInt(r.bps)) / 10_000n)
  }
  assert.equal(
    shares.reduce((s, x) => s + x[0], 0n),
    collected.args.tokenAmount,
  )
  assert.equal(
    shares.reduce((s, x) => s + x[1], 0n),
    collected.args.pairedAmount,
  )
  // The locker holds exactly what it owes.
  assert.equal(await t.balanceOf(t.weth, t.launchpad.feeLocker), collected.args.pairedAmount)
  // A claim (sent by anyone) pays the recipient; the next one has nothing left.
  const before = await t.balanceOf(t.weth, t.stranger)
  const claim = await writeContractAndWait({
    devnet: t.devnet,
    address: t.launchpad.feeLocker,
    abi: feeLockerAbi,
    functionName: 'claim',
    args: [token, t.stranger],
    from: a,
  })
  const [claimed] = parseEventLogs({ abi: feeLockerAbi, logs: claim.logs, eventName: 'FeesClaimed' })
  assert.deepEqual([claimed.args.tokenAmount, claimed.args.pairedAmount], shares[1])
  assert.equal((await t.balanceOf(t.weth, t.stranger)) - before, shares[1][1])
  assert.equal(await t.balanceOf(token, t.stranger), shares[1][0])
  const again = await t.devnet.publicClient
    .simulateContract({ address: t.launchpad.feeLocker, abi: feeLockerAbi, functionName: 'claim', args: [token, t.stranger], account: a })
    .catch(describeRevert)
  assert.equal(again, `NothingToClaim(${token}, ${t.stranger})`)
  // Fees still in the pool show up only after a collect: a simulated collect-then-read is what a claim would pay.
  await t.swap({ token, pool, side: 'buy', amountIn: parseEther('1'), from: a })
  const { result } = await t.devnet.publicClient.simulateContract({
    address: t.launchpad.feeLocker,
    abi: feeLockerAbi,
    functionName: 'claim',
    args: [token, t.creator],
    account: a,
  })
  assert.ok(result[1] > shares[0][1], 'the claim includes the uncollected fees')
})

test('vesting: nothing before the lockup ends, linear until the end, claims pay the beneficiary whoever sends them', async () => {
  const beneficiary = t.traders[1]
  const lockup = 86_400
  const duration = 10 * 86_400
  const { token, event } = await t.launch(
    buildLaunchParams({
      name: 'Vest',
      symbol: 'VEST',
      creator: t.creator,
      pairedToken: t.weth,
      startingTick: STARTING_TICK,
      vesting: { beneficiary, bps: 2_000, lockupSeconds: lockup, vestingSeconds: duration },
    }),
  )
  const amount = LAUNCH_TOKEN_SUPPLY / 5n
  assert.equal(event.vestingSupply, amount)
  assert.equal(event.poolSupply, LAUNCH_TOKEN_SUPPLY - amount)
  assert.equal(await t.balanceOf(token, t.launchpad.vestingVault), amount)
  const id = event.vestingId
  const [, owner, total, claimedBefore, start, lockupEnd, vestingEnd] = await read<
    [Address, Address, bigint, bigint, bigint, bigint, bigint]
  >(t.launchpad.vestingVault, vestingVaultAbi, 'positions', [id])
  assert.deepEqual(
    [getAddress(owner), total, claimedBefore, lockupEnd - start, vestingEnd - lockupEnd],
    [beneficiary, amount, 0n, BigInt(lockup), BigInt(duration)],
  )
  const claimAt = async (timestamp: bigint) => {
    await t.devnet.testClient.setNextBlockTimestamp({ timestamp })
    return writeContractAndWait({
      devnet: t.devnet,
      address: t.launchpad.vestingVault,
      abi: vestingVaultAbi,
      functionName: 'claim',
      args: [id],
      from: t.stranger,
      throwOnRevert: false,
    })
  }
  assert.equal((await claimAt(lockupEnd - 1n)).status, 'reverted')
  const quarter = lockupEnd + BigInt(duration / 4)
  assert.equal((await claimAt(quarter)).status, 'success')
  assert.equal(await t.balanceOf(token, beneficiary), amount / 4n)
  assert.equal(await t.balanceOf(token, t.stranger), 0n)
  const third = lockupEnd + BigInt(duration / 3)
  assert.equal((await claimAt(third)).status, 'success')
  assert.equal(await t.balanceOf(token, beneficiary), (amount * BigInt(duration / 3)) / BigInt(duration))
  assert.equal((await claimAt(vestingEnd + 100n)).status, 'success')
  assert.equal(await t.balanceOf(token, beneficiary), amount)
  assert.equal(await t.balanceOf(token, t.launchpad.vestingVault), 0n)
  assert.equal(await read<bigint>(t.launchpad.vestingVault, vestingVaultAbi, 'claimable', [id]), 0n)
  assert.equal((await claimAt(vestingEnd + 200n)).status, 'reverted')
  assert.ok((await now()) > vestingEnd)
})

test('token admin: updates name, symbol and extra metadata (events carry all three), hands the role on or renounces it', async () => {
  const { token, receipt } = await t.launch(
    buildLaunchParams({
      name: 'Meta',
      symbol: 'META',
      creator: t.creator,
      admin: t.traders[0],
      pairedToken: t.weth,
      startingTick: STARTING_TICK,
    }),
  )
  const [deployed] = parseEventLogs({ abi: launchTokenAbi, logs: receipt.logs, eventName: 'MetadataUpdated' })
  assert.deepEqual(deployed.args, { name: 'Meta', symbol: 'META', extraMetadata: '' })
  const update = (functionName: string, args: unknown[], from: Address) =>
    writeContractAndWait({ devnet: t.devnet, address: token, abi: launchTokenAbi, functionName, args, from, throwOnRevert: false })
  assert.equal((await update('updateName', ['Nope'], t.creator)).status, 'reverted') // the creator is not the admin here
  const renamed = await update('updateName', ['Meta Two'], t.traders[0])
  assert.deepEqual(parseEventLogs({ abi: launchTokenAbi, logs: renamed.logs, eventName: 'MetadataUpdated' })[0].args, {
    name: 'Meta Two',
    symbol: 'META',
    extraMetadata: '',
  })
  await update('updateSymbol', ['MT2'], t.traders[0])
  await update('updateExtraMetadata', ['ipfs://bafkreisecond'], t.traders[0])
  assert.deepEqual(await Promise.all(['name', 'symbol', 'extraMetadata'].map((f) => read<string>(token, launchTokenAbi, f))), [
    'Meta Two',
    'MT2',
    'ipfs://bafkreisecond',
  ])
  for (const [fn, value] of [
    ['updateName', ''],
    ['updateName', 'x'.repeat(65)],
    ['updateSymbol', ''],
    ['updateSymbol', 'x'.repeat(33)],
    ['updateExtraMetadata', 'x'.repeat(4097)],
  ] as const) {
    assert.equal((await update(fn, [value], t.traders[0])).status, 'reverted', `${fn}(${value.length} bytes)`)
  }
  assert.equal((await update('setAdmin', [t.traders[1]], t.traders[0])).status, 'success')
  assert.equal((await update('updateName', ['Old admin'], t.traders[0])).status, 'reverted')
  assert.equal((await update('setAdmin', [zeroAddress], t.traders[1])).status, 'success')
  assert.equal((await update('updateName', ['Nobody'], t.traders[1])).status, 'reverted')
})

test('permit: the domain keeps the deployed name across renames; expired, replayed, foreign and high-s signatures are refused', async () => {
  const owner = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d') // anvil account 1
  assert.equal(owner.address, t.creator)
  const { token } = await t.launch(
    buildLaunchParams({ name: 'Permit', symbol: 'PRMT', creator: t.creator, pairedToken: t.weth, startingTick: STARTING_TICK }),
  )
  const separator = await read<Hex>(token, launchTokenAbi, 'DOMAIN_SEPARATOR')
  await writeContractAndWait({
    devnet: t.devnet,
    address: token,
    abi: launchTokenAbi,
    functionName: 'updateName',
    args: ['Renamed'],
    from: t.creator,
  })
  assert.equal(await read<Hex>(token, launchTokenAbi, 'DOMAIN_SEPARATOR'), separator)
  const domain = await read<readonly unknown[]>(token, launchTokenAbi, 'eip712Domain')
  assert.equal(domain[1], 'Permit')
  const chainId = await t.devnet.publicClient.getChainId()
  const deadline = (await now()) + 3600n
  const sign = async (nonce: bigint, value: bigint, signer = owner, name = 'Permit') => {
    const signature = await signErc2612Permit({
      owner,
      signedBy: signer,
      token,
      tokenName: name,
      chainId,
      spender: t.traders[0],
      value,
      nonce,
      deadline,
    })
    return {
      r: signature.slice(0, 66) as Hex,
      s: `0x${signature.slice(66, 130)}` as Hex,
      v: Number.parseInt(signature.slice(130, 132), 16),
    }
  }
  const permit = (sig: { r: Hex; s: Hex; v: number }, value: bigint, dl = deadline) =>
    t.devnet.publicClient
      .simulateContract({
        address: token,
        abi: launchTokenAbi,
        functionName: 'permit',
        args: [owner.address, t.traders[0], value, dl, sig.v, sig.r, sig.s],
        account: t.stranger,
      })
      .then(() => 'ok', describeRevert)
  const good = await sign(0n, 5n)
  assert.equal(await permit(await sign(0n, 5n, owner, 'Renamed'), 5n), 'InvalidSignature()') // the new name is not the domain
  assert.equal(await permit(good, 6n), 'InvalidSignature()') // another value than signed
  assert.equal(await permit(good, 5n, deadline - 7200n), `PermitExpired(${deadline - 7200n})`)
  const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
  const highS = { r: good.r, s: `0x${(n - BigInt(good.s)).toString(16).padStart(64, '0')}` as Hex, v: good.v === 27 ? 28 : 27 }
  assert.equal(await permit(highS, 5n), 'InvalidSignature()')
  const stranger = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a') // anvil account 2
  assert.equal(await permit(await sign(0n, 5n, stranger), 5n), 'InvalidSignature()')
  await writeContractAndWait({
    devnet: t.devnet,
    address: token,
    abi: launchTokenAbi,
    functionName: 'permit',
    args: [owner.address, t.traders[0], 5n, deadline, good.v, good.r, good.s],
    from: t.stranger,
  })
  assert.equal(await read<bigint>(token, launchTokenAbi, 'allowance', [owner.address, t.traders[0]]), 5n)
  assert.equal(await permit(good, 5n), 'InvalidSignature()') // replay: the nonce moved on
})
