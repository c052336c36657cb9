import { type Address, getAddress, type Hex, parseAbi } from 'viem'
import { discoveryByEvent } from './discoveryByEvent.ts'
import { stateLogsOfManager } from './poolStateLogs.ts'
import { AdapterError } from './errors.ts'
import type { PoolAdapter, PoolRef } from './PoolAdapter.ts'
import { readGyroECLPPool } from './state/readGyroECLPPool.ts'

const vaultEvents = parseAbi([
  'event PoolRegistered(bytes32 indexed poolId, address indexed poolAddress, uint8 specialization)',
  'event Swap(bytes32 indexed poolId, address indexed tokenIn, address indexed tokenOut, uint256 amountIn, uint256 amountOut)',
  'event PoolBalanceChanged(bytes32 indexed poolId, address indexed liquidityProvider, address[] tokens, int256[] deltas, uint256[] protocolFeeAmounts)',
  'event PoolBalanceManaged(bytes32 indexed poolId, address indexed assetManager, address indexed token, int256 cashDelta, int256 managedDelta)',
])
/** The Vault's `PoolSpecialization.TWO_TOKEN`: how an E-CLP registers. */
const TWO_TOKEN = 2

/** A Balancer V2 pool id holds its pool's address in its first 20 bytes. */
const poolOfId = (poolId: string) => `0x${poolId.slice(2, 42)}`.toLowerCase() as Address

function refOf(poolId: string, vault: Address): PoolRef {
  const id = poolId.toLowerCase()
  const emitter = vault.toLowerCase() as Address
  return { id, dex: 'GYROSCOPE_ECLP', emitter, holder: emitter, pool: poolOfId(id) }
}

/**
 * Gyroscope E-CLP pools on a Balancer V2 Vault (the deployment's `source` is the Vault):
 * discovered from the Vault's `PoolRegistered` (two-token pools; a pool that is not an E-CLP is
 * refused at its first read, its getters missing), priced at one block from the Vault's
 * `getPoolTokens` and the pool's getters (`readGyroECLPPool`). The balances move only with the
 * Vault's logs naming the pool id in topic1 (`Swap`, `PoolBalanceChanged`, `PoolBalanceManaged`:
 * any Vault log of the pool id re-reads it whole). What moves without a Vault log, the rate
 * providers' rates in the scaling factors, the fee and the pause (set on the pool), is re-read
 * every block (`refreshEveryBlock`, `readVolatile`: one multicall of four calls per pool, the
 * immutable E-CLP parameters kept), so the pool's own logs need not be followed. Executed as
 * `balancer_vault`: our router's `Vault.swap` given in.
 *
 * @example
 * const leg = gyroscopeEclp.encodeLeg(ref) // { kind: 'balancer_vault', vault: '0xBA12…', poolId: '0x…' }
 */
export const gyroscopeEclp: PoolAdapter = {
  dex: 'GYROSCOPE_ECLP',
  legKind: 'balancer_vault',
  ...discoveryByEvent(vaultEvents[0], (args, log) => {
    const ref = refOf(args.poolId, log.address)
    if (args.specialization !== TWO_TOKEN)
      return {
        skipped: { id: ref.id, dex: 'GYROSCOPE_ECLP', reason: `specialization ${args.specialization}: an E-CLP is a two-token pool` },
      }
    return { ref }
  }),
  ...stateLogsOfManager(vaultEvents.slice(1)),
  refOfConfiguredPool: (pool, deployment) => {
    if (!deployment || !/^0x[0-9a-fA-F]{64}$/.test(pool.address))
      throw new AdapterError(
        `GYROSCOPE_ECLP pool ${pool.address}: a configured pool is its bytes32 Vault pool id, with the Vault's deployment`,
      )
    return refOf(pool.address, deployment.source)
  },
  readPool: async ({ client, ref, blockNumber, nextBlock }) => {
    const pool = ref.pool ?? poolOfId(ref.id)
    const input = await readGyroECLPPool({
      client,
      vault: ref.emitter,
      pool,
      poolId: ref.id as Hex,
      blockNumber,
      timestamp: nextBlock.timestamp,
    })
    return { ref: { ...ref, pool, holder: ref.emitter }, input, refreshEveryBlock: true }
  },
  readVolatile: async ({ client, blockNumber, nextBlock, previous }) => {
    const { ref, input } = previous
    if (input.state.model !== 'gyro_eclp' || !ref.pool) throw new AdapterError(`GYROSCOPE_ECLP pool ${ref.id}: no previous gyro_eclp read`)
    const { params, derived } = input.state
    const fresh = await readGyroECLPPool({
      client,
      vault: ref.emitter,
      pool: ref.pool,
      poolId: ref.id as Hex,
      blockNumber,
      timestamp: nextBlock.timestamp,
      known: { params, derived },
    })
    return { ...previous, input: fresh }
  },
  encodeLeg: (ref) => ({ kind: 'balancer_vault', vault: getAddress(ref.emitter), poolId: ref.id as Hex }),
}
