import { type Address, type PublicClient, parseAbi } from 'viem'
import type { PoolInput, StableSwapState } from '../../../bindings/types.ts'
import { PoolUnusableError } from '../errors.ts'

/** StableSwap's views, NG and legacy alike (the legacy template has `balances(i)`, no `get_balances()`). */
const poolAbi = parseAbi([
  'function coins(uint256 i) view returns (address)',
  'function balances(uint256 i) view returns (uint256)',
  'function get_balances() view returns (uint256[])',
  'function stored_rates() view returns (uint256[])',
  'function offpeg_fee_multiplier() view returns (uint256)',
  'function fee() view returns (uint256)',
  'function initial_A() view returns (uint256)',
  'function future_A() view returns (uint256)',
  'function initial_A_time() view returns (uint256)',
  'function future_A_time() view returns (uint256)',
  'function base_pool() view returns (address)',
  'function BASE_POOL() view returns (address)',
  'function base_virtual_price() view returns (uint256)',
  'function base_cache_updated() view returns (uint256)',
  'function A_precise() view returns (uint256)',
  'function admin_fee() view returns (uint256)',
])
const erc20Abi = parseAbi(['function decimals() view returns (uint8)', 'function totalSupply() view returns (uint256)'])

/** StableSwap-NG's MAX_COINS is 8; the solver's model (and a plain pool) holds at most 4. */
const MAX_COINS = 4

export type ReadCurvePoolParameters = {
  client: PublicClient
  pool: Address
  /** Every call is pinned to this block. */
  blockNumber: bigint
  /** The timestamp of the block a plan executes in first: where A stands on its ramp. */
  timestamp: bigint
  /** Read as a meta pool's base pool: a meta pool is then refused (no base of a base). */
  asBase?: boolean
}

export type ReadCurvePoolReturnType = {
  input: PoolInput
  /**
   * The pool's coins in its order (lowercase): a leg's `i` and `j` are indexes in it. A meta pool's
   * are its underlying coins (its own coin, then the base pool's), what `exchange_underlying` indexes.
   */
  coins: Address[]
  /** A meta pool's base pool (lowercase): the solver's venue holds the two (docs/dex-kinds.md, *CURVE*). */
  basePool?: Address
  /**
   * Whether the state moves without an event of the pool: an NG pool's `stored_rates` call its
   * oracles and ERC-4626 vaults (the pool does not say which coins are plain), and A moves with the
   * clock while it ramps.
   */
  movesWithoutEvents: boolean
}

/**
 * Reads a Curve StableSwap pool at one block into the solver's `stableswap` input. NG pools (they
 * answer `stored_rates()` and `offpeg_fee_multiplier()`): `get_balances()` (the admin's share left
 * out), `stored_rates()`, the fee and off-peg multiplier; legacy plain pools: `balances(i)` and
 * rates 10^(36 − decimals) from the coins' `decimals()`; of these, a pool without `A_precise()` is
 * curve-contract's original template (3pool's: A stored as it is, its `admin_fee()` read and sent
 * as `adminFee`), one that answers it the legacy factory template. All: the A ramp's four fields as
 * stored (A × 100, the original template's A itself). A legacy meta pool (`base_pool()` answers):
 * its own state as a legacy pool's, with its base pool's (read the same way, at the same block: a
 * legacy or an original one), the base LP token's `totalSupply()` and the base pool's address (`base`, `baseSupply`, `basePool`: one venue of its underlying coins in the
 * solver), and, where both answer, the pre-factory template's cache of the base virtual price
 * (`base_virtual_price()`, `base_cache_updated()` → `baseVirtualPrice`, `baseCacheUpdated`; MetaUSD
 * answers neither and reads the price at every swap, one alone is unusable); re-read every block,
 * since a trade on its base pool moves its price without an event of its own. NG meta pools (`BASE_POOL()` answers, or `base_pool()` beside NG's views) are not modelled:
 * unusable, with that reason.
 *
 * @example
 * const { input, coins } = await readCurvePool({ client, pool, blockNumber, timestamp })
 * // → input.state: { model: 'stableswap', template: 'ng', balances, rates, fee, offpegFeeMultiplier, initialA, … }
 */
export async function readCurvePool({
  client,
  pool,
  blockNumber,
  timestamp,
  asBase = false,
}: ReadCurvePoolParameters): Promise<ReadCurvePoolReturnType> {
  const unusable = (reason: string) => new PoolUnusableError({ poolId: pool.toLowerCase(), dex: 'CURVE', reason })
  const call = (functionName: string, args: readonly bigint[] = []) => ({ address: pool, abi: poolAbi, functionName, args })
  const views = [
    'get_balances',
    'stored_rates',
    'offpeg_fee_multiplier',
    'base_pool',
    'BASE_POOL',
    'base_virtual_price',
    'base_cache_updated',
    'A_precise',
    'admin_fee',
  ] as const
  const fields = ['fee', 'initial_A', 'future_A', 'initial_A_time', 'future_A_time'] as const
  const indexes = Array.from({ length: MAX_COINS + 1 }, (_, k) => BigInt(k))
  const answers = (await client.multicall({
    allowFailure: true,
    blockNumber,
    contracts: [
      ...views.map((v) => call(v)),
      ...fields.map((f) => call(f)),
      ...indexes.map((k) => call('coins', [k])),
      ...indexes.map((k) => call('balances', [k])),
    ] as never,
  })) as ({ status: 'success'; result: unknown } | { status: 'failure'; error: Error })[]
  const value = (k: number) => (answers[k].status === 'success' ? answers[k].result : undefined)
  const [balancesNg, storedRates, offpeg, basePool, basePoolNg, baseVirtualPrice, baseCacheUpdated, aPrecise, adminFee] = views.map(
    (_, k) => value(k),
  ) as [
    bigint[] | undefined,
    bigint[] | undefined,
    bigint | undefined,
    Address | undefined,
    Address | undefined,
    bigint | undefined,
    bigint | undefined,
    bigint | undefined,
    bigint | undefined,
  ]
  const ng = storedRates !== undefined && offpeg !== undefined && balancesNg !== undefined
  // NG's meta template answers `BASE_POOL()`; a pool with NG's views answering `base_pool()` is one too.
  if (basePoolNg !== undefined || (basePool !== undefined && ng))
    throw unusable('an NG meta pool: the solver models the legacy meta template only (docs/dex-kinds.md, CURVE)')
  if (basePool !== undefined && asBase) throw unusable('a meta pool as a base pool: not modelled')
  const [fee, initialA, futureA, initialATime, futureATime] = fields.map((_, k) => value(views.length + k)) as (bigint | undefined)[]
  if (fee === undefined || initialA === undefined || futureA === undefined || initialATime === undefined || futureATime === undefined)
    throw unusable('it does not answer fee() and the A ramp views of a StableSwap pool')
  const coinsAt = indexes.map((_, k) => value(views.length + fields.length + k)) as (Address | undefined)[]
  const n = coinsAt.findIndex((c) => c === undefined)
  if (n === -1) throw unusable(`more than ${MAX_COINS} coins`)
  if (n < 2) throw unusable('fewer than two coins')
  const coins = coinsAt.slice(0, n).map((c) => (c as Address).toLowerCase() as Address)
  let balances: bigint[]
  let rates: bigint[]
  if (ng) {
    balances = balancesNg
    rates = storedRates
  } else {
    balances = indexes.slice(0, n).map((_, k) => value(views.length + fields.length + indexes.length + k)) as bigint[]
    if (balances.some((b) => b === undefined)) throw unusable('neither get_balances() nor balances(i) answers')
    const decimals = (await client.multicall({
      allowFailure: false,
      blockNumber,
      contracts: coins.map((address) => ({ address, abi: erc20Abi, functionName: 'decimals' })),
    })) as number[]
    if (decimals.some((d) => d > 36)) throw unusable(`a coin has more than 36 decimals (${decimals})`)
    rates = decimals.map((d) => 10n ** BigInt(36 - d))
  }
  if (balances.length !== n || rates.length !== n) throw unusable(`${n} coins but ${balances.length} balances and ${rates.length} rates`)
  // curve-contract's original template (3pool) stores A itself and has no `A_precise()`; it stores
  // its admin fee, which the legacy factory template fixes at half (and NG too).
  const original = !ng && aPrecise === undefined
  if (original && (adminFee === undefined || adminFee > 10n ** 10n))
    throw unusable('no A_precise() (the original template) but no admin_fee() of at most 10^10')
  const state: StableSwapState = {
    model: 'stableswap',
    template: ng ? 'ng' : original ? 'original' : 'legacy',
    balances: balances.map(String),
    rates: rates.map(String),
    fee: fee.toString(),
    offpegFeeMultiplier: (ng ? (offpeg as bigint) : 0n).toString(),
    initialA: initialA.toString(),
    futureA: futureA.toString(),
    initialATime: initialATime.toString(),
    futureATime: futureATime.toString(),
    timestamp: timestamp.toString(),
    ...(original ? { adminFee: (adminFee as bigint).toString() } : {}),
  }
  if (basePool !== undefined) {
    // The meta pool's coin 1 is the base pool's LP token (the pool itself on the legacy templates).
    const [base, baseSupply] = await Promise.all([
      // A base pool the solver cannot price makes the meta pool unusable; a failed read fails the read.
      readCurvePool({ client, pool: basePool, blockNumber, timestamp, asBase: true }).catch((error: unknown) => {
        throw error instanceof PoolUnusableError
          ? unusable(`its base pool ${basePool.toLowerCase()} cannot be priced: ${error.message}`)
          : error
      }),
      client.readContract({ address: coins[1], abi: erc20Abi, functionName: 'totalSupply', blockNumber }),
    ])
    const { model: _, ...baseState } = base.input.state as StableSwapState
    const underlying = [coins[0], ...base.coins]
    // The pre-factory template's cache of the base virtual price (both getters answer); MetaUSD has
    // neither and reads the price at every swap. One without the other is no template we know.
    const cached = baseVirtualPrice !== undefined && baseCacheUpdated !== undefined
    if (!cached && (baseVirtualPrice !== undefined || baseCacheUpdated !== undefined))
      throw unusable('it answers only one of base_virtual_price() and base_cache_updated()')
    const cache = cached ? { baseVirtualPrice: baseVirtualPrice.toString(), baseCacheUpdated: baseCacheUpdated.toString() } : {}
    return {
      input: {
        id: pool.toLowerCase(),
        dex: 'CURVE',
        tokens: underlying,
        state: { ...state, base: baseState, baseSupply: baseSupply.toString(), basePool: basePool.toLowerCase(), ...cache },
      },
      coins: underlying,
      basePool: basePool.toLowerCase() as Address,
      movesWithoutEvents: true,
    }
  }
  return {
    input: { id: pool.toLowerCase(), dex: 'CURVE', tokens: coins, state },
    coins,
    movesWithoutEvents: ng || timestamp < futureATime,
  }
}
