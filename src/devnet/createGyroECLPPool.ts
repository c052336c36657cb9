import { type Address, encodeAbiParameters, parseAbi, zeroAddress } from 'viem'
import { balancerV2VaultAbi } from './balancerV2VaultAbi.ts'
import { deployContractAndWait } from './deployContractAndWait.ts'
import type { GyroEclpDerived, GyroEclpParams } from '../adapters/state/GyroEclpParams.ts'
import { loadStandInArtifacts } from './loadStandInArtifacts.ts'
import type { Devnet } from './startDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

const erc20 = parseAbi(['function mint(address, uint256)', 'function approve(address, uint256) returns (bool)'])

export type CreateGyroECLPPoolParameters = {
  devnet: Devnet
  vault: Address
  /** The two tokens, sorted (token0 < token1, as Balancer's two-token pools require). */
  tokens: readonly [Address, Address]
  /** Rate providers (`getRate()`, 18 decimals) per token; zero for none. */
  rateProviders?: readonly [Address, Address]
  params: GyroEclpParams
  derived: GyroEclpDerived
  /** The swap fee, 18 decimals (1e12 to 1e17). */
  swapFee: bigint
  /** The first deposit (INIT join) in each token's base units, from the devnet account; none when absent. */
  initialBalances?: readonly [bigint, bigint]
  /** Gives the devnet account `amount` of `token` for the deposit; default: `mint` (`TestERC20`s with open mint). */
  fund?: (token: Address, amount: bigint) => Promise<void>
  name?: string
}

/**
 * An E-CLP pool (our `GyroECLPPool` stand-in, registered on the Balancer V2 Vault it is given) and,
 * when `initialBalances` is given, its first deposit through the Vault's `joinPool`, the BPT to
 * the devnet account.
 *
 * @example
 * const { pool, poolId } = await createGyroECLPPool({ devnet, vault, tokens: [a, b], params, derived, swapFee: 10n ** 14n })
 * // pool: the stand-in's address; poolId: the Vault's id of it, the address then 0x0002 (TWO_TOKEN) then the Vault's 10-byte pool nonce
 */
export async function createGyroECLPPool({
  devnet,
  vault,
  tokens,
  rateProviders = [zeroAddress, zeroAddress],
  params,
  derived,
  swapFee,
  initialBalances,
  fund,
  name = 'Gyro E-CLP',
}: CreateGyroECLPPoolParameters): Promise<{ pool: Address; poolId: `0x${string}` }> {
  if (BigInt(tokens[0]) >= BigInt(tokens[1])) throw new Error('createGyroECLPPool: tokens must be sorted (token0 < token1)')
  const { GyroECLPPool } = loadStandInArtifacts({ protocol: 'gyro' })
  const pool = await deployContractAndWait({
    devnet,
    artifact: GyroECLPPool,
    args: [
      {
        vault,
        name,
        symbol: 'ECLP',
        token0: tokens[0],
        token1: tokens[1],
        rateProvider0: rateProviders[0],
        rateProvider1: rateProviders[1],
        swapFeePercentage: swapFee,
        owner: devnet.account,
      },
      params,
      derived,
    ],
  })
  const poolId = (await devnet.publicClient.readContract({
    address: pool,
    abi: GyroECLPPool.abi,
    functionName: 'getPoolId',
  })) as `0x${string}`
  if (initialBalances) {
    for (const [k, token] of tokens.entries()) {
      if (fund) await fund(token, initialBalances[k])
      else
        await writeContractAndWait({ devnet, address: token, abi: erc20, functionName: 'mint', args: [devnet.account, initialBalances[k]] })
      await writeContractAndWait({ devnet, address: token, abi: erc20, functionName: 'approve', args: [vault, initialBalances[k]] })
    }
    const userData = encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256[]' }], [0n, [...initialBalances]])
    await writeContractAndWait({
      devnet,
      address: vault,
      abi: balancerV2VaultAbi,
      functionName: 'joinPool',
      args: [
        poolId,
        devnet.account,
        devnet.account,
        { assets: [...tokens], maxAmountsIn: [...initialBalances], userData, fromInternalBalance: false },
      ],
    })
  }
  return { pool, poolId }
}
