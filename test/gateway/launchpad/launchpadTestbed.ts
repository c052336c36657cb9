import {
  type Address,
  encodeFunctionData,
  getAddress,
  type Hex,
  maxUint256,
  parseAbi,
  parseEther,
  parseEventLogs,
  type TransactionReceipt,
} from 'viem'
import { deployContractAndWait } from '../../../src/devnet/deployContractAndWait.ts'
import { deployTestToken } from '../../../src/devnet/deployTestToken.ts'
import { deployUniswapV3 } from '../../../src/devnet/deployUniswapV3.ts'
import { loadNpmArtifact } from '../../../src/devnet/loadNpmArtifact.ts'
import { sendAndWait } from '../../../src/devnet/sendAndWait.ts'
import { type Devnet, startDevnet } from '../../../src/devnet/startDevnet.ts'
import { writeContractAndWait } from '../../../src/devnet/writeContractAndWait.ts'
import { feeLockerAbi } from '../../../src/gateway/launchpad/feeLockerAbi.ts'
import { deployLaunchpad, type LaunchpadDeployment } from '../../../src/devnet/launchpad/deployLaunchpad.ts'
import { launchFactoryAbi } from '../../../src/gateway/launchpad/launchFactoryAbi.ts'
import type { LaunchParams } from '../../../src/gateway/launchpad/launchParamsType.ts'
import { launchTokenAbi } from '../../../src/gateway/launchpad/launchTokenAbi.ts'

export const erc20Abi = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function approve(address, uint256) returns (bool)',
  'function transfer(address, uint256) returns (bool)',
  'function deposit() payable',
  'function mint(address, uint256)',
])
export const v3PoolAbi = loadNpmArtifact({ name: 'UniswapV3Pool' }).abi
const MIN_SQRT_RATIO_PLUS_ONE = 4295128740n
const MAX_SQRT_RATIO_MINUS_ONE = 1461446703485210103287273052203988822378723970341n

export type LaunchResult = {
  receipt: TransactionReceipt
  token: Address
  pool: Address
  event: {
    tickLower: number
    tickUpper: number
    liquidity: bigint
    poolSupply: bigint
    vestingSupply: bigint
    vestingId: bigint
    creator: Address
    admin: Address
  }
}

export type LaunchpadTestbed = {
  devnet: Devnet
  weth: Address
  /** A second paired asset (6 decimals), allowed by the owner. */
  usdc: Address
  harness: Address
  v3Factory: Address
  launchpad: LaunchpadDeployment
  /** anvil's unlocked accounts 1..4: a creator, two traders, a stranger. */
  creator: Address
  traders: [Address, Address]
  stranger: Address
  launch: (params: LaunchParams, options?: { from?: Address; value?: bigint }) => Promise<LaunchResult>
  /** Sends a launch that is expected to revert; returns the revert's error name and args. */
  launchRevert: (params: LaunchParams, options?: { from?: Address; value?: bigint }) => Promise<string>
  /** Swaps through the PoolHarness, paid by `from` (which approved it): `buy` pays WETH for the token. */
  swap: (args: {
    token: Address
    pool: Address
    side: 'buy' | 'sell'
    amountIn: bigint
    from: Address
    paired?: Address
  }) => Promise<{ amountIn: bigint; amountOut: bigint; receipt: TransactionReceipt }>
  balanceOf: (token: Address, account: Address) => Promise<bigint>
  /** `FeeLocker.collectFees(token)` from the devnet account: the position's fees into the locker. */
  collectFees: (token: Address) => Promise<TransactionReceipt>
  stop: () => Promise<void>
}

/**
 * A bare devnet (chain `chainId`, default 8453) with WETH9, a second paired asset, the npm Uniswap
 * V3 factory, the launchpad and the PoolHarness; traders hold WETH and approved the harness.
 */
export async function startLaunchpadTestbed({ chainId }: { chainId?: number } = {}): Promise<LaunchpadTestbed> {
  const devnet = await startDevnet({ chainId })
  try {
    const accounts = (await devnet.publicClient.request({ method: 'eth_accounts' as never })) as Address[]
    const [creator, traderA, traderB, stranger] = accounts.slice(1, 5).map((a) => getAddress(a))
    const weth = getAddress(await deployContractAndWait({ devnet, artifact: devnet.artifacts.WETH9 }))
    const usdc = getAddress(await deployTestToken({ devnet, name: 'USD Coin', symbol: 'USDC', decimals: 6 }))
    const { factory: v3Factory } = await deployUniswapV3({ devnet })
    const harness = getAddress(await deployContractAndWait({ devnet, artifact: devnet.artifacts.PoolHarness }))
    const launchpad = await deployLaunchpad({ devnet, uniswapV3Factory: v3Factory, weth })
    await writeContractAndWait({
      devnet,
      address: launchpad.factory,
      abi: launchFactoryAbi,
      functionName: 'setPairedToken',
      args: [usdc, true],
    })
    for (const trader of [traderA, traderB]) {
      await writeContractAndWait({ devnet, address: weth, abi: erc20Abi, functionName: 'deposit', value: parseEther('1000'), from: trader })
      await writeContractAndWait({
        devnet,
        address: weth,
        abi: erc20Abi,
        functionName: 'approve',
        args: [harness, maxUint256],
        from: trader,
      })
    }
    const balanceOf = (token: Address, account: Address) =>
      devnet.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account] })

    const launch: LaunchpadTestbed['launch'] = async (params, { from = creator, value } = {}) => {
      const data = encodeFunctionData({ abi: launchFactoryAbi, functionName: 'launch', args: [params] })
      const receipt = await sendAndWait({ devnet, to: launchpad.factory, data, from, value, gas: 15_000_000n, label: 'launch' })
      const [launched] = parseEventLogs({ abi: launchFactoryAbi, logs: receipt.logs, eventName: 'TokenLaunched' })
      const a = launched.args
      return {
        receipt,
        token: getAddress(a.token),
        pool: getAddress(a.pool),
        event: {
          tickLower: a.tickLower,
          tickUpper: a.tickUpper,
          liquidity: a.liquidity,
          poolSupply: a.poolSupply,
          vestingSupply: a.vestingSupply,
          vestingId: a.vestingId,
          creator: a.creator,
          admin: a.admin,
        },
      }
    }
    const launchRevert: LaunchpadTestbed['launchRevert'] = async (params, { from = creator, value } = {}) => {
      try {
        // The token's constructor errors surface through the factory: decode them too.
        const abi = [...launchFactoryAbi, ...launchTokenAbi.filter((item) => item.type === 'error')]
        await devnet.publicClient.simulateContract({
          address: launchpad.factory,
          abi,
          functionName: 'launch',
          args: [params],
          account: from,
          value,
        })
      } catch (error) {
        return describeRevert(error)
      }
      throw new Error('launch did not revert')
    }
    const swap: LaunchpadTestbed['swap'] = async ({ token, pool, side, amountIn, from, paired = weth }) => {
      const tokenIsToken0 = BigInt(token) < BigInt(paired)
      // A buy pays WETH: zeroForOne exactly when WETH is token0.
      const zeroForOne = side === 'buy' ? !tokenIsToken0 : tokenIsToken0
      if (side === 'sell')
        await writeContractAndWait({ devnet, address: token, abi: erc20Abi, functionName: 'approve', args: [harness, maxUint256], from })
      const paidToken = side === 'buy' ? paired : token
      const receivedToken = side === 'buy' ? token : paired
      const [paidBefore, receivedBefore] = await Promise.all([balanceOf(paidToken, from), balanceOf(receivedToken, from)])
      const receipt = await writeContractAndWait({
        devnet,
        address: harness,
        abi: devnet.artifacts.PoolHarness.abi,
        functionName: 'swapV3',
        args: [pool, from, zeroForOne, amountIn, zeroForOne ? MIN_SQRT_RATIO_PLUS_ONE : MAX_SQRT_RATIO_MINUS_ONE, from],
        from,
      })
      const [paidAfter, receivedAfter] = await Promise.all([balanceOf(paidToken, from), balanceOf(receivedToken, from)])
      return { amountIn: paidBefore - paidAfter, amountOut: receivedAfter - receivedBefore, receipt }
    }
    return {
      devnet,
      weth,
      usdc,
      harness,
      v3Factory,
      launchpad,
      creator,
      traders: [traderA, traderB],
      stranger,
      launch,
      launchRevert,
      swap,
      balanceOf,
      collectFees: (token) =>
        writeContractAndWait({ devnet, address: launchpad.feeLocker, abi: feeLockerAbi, functionName: 'collectFees', args: [token] }),
      stop: devnet.stop,
    }
  } catch (error) {
    await devnet.stop()
    throw error
  }
}

/** `Name(arg, arg)` of a simulated revert, from viem's decoded error. */
export function describeRevert(error: unknown): string {
  let cause = error as { data?: { errorName?: string; args?: readonly unknown[] }; cause?: unknown; shortMessage?: string } | undefined
  while (cause) {
    if (cause.data?.errorName) return `${cause.data.errorName}(${(cause.data.args ?? []).map(String).join(', ')})`
    cause = cause.cause as typeof cause
  }
  return (error as Error).message.split('\n')[0]
}

/** A salt whose token sorts before (`token0`) or after the paired asset, for `creator`'s params. */
export async function saltForOrder({
  testbed,
  params,
  creator,
  tokenIsToken0,
  pairedToken,
}: {
  testbed: LaunchpadTestbed
  params: LaunchParams
  creator: Address
  tokenIsToken0: boolean
  pairedToken: Address
}): Promise<Hex> {
  for (let i = 1; ; i++) {
    const salt = `0x${i.toString(16).padStart(64, '0')}` as Hex
    const predicted = await testbed.devnet.publicClient.readContract({
      address: testbed.launchpad.factory,
      abi: launchFactoryAbi,
      functionName: 'predictTokenAddress',
      args: [creator, { ...params, salt }],
    })
    if (BigInt(predicted) < BigInt(pairedToken) === tokenIsToken0) return salt
  }
}
