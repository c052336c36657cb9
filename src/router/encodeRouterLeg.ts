import { type Address, encodeAbiParameters, getAddress, type Hex, isAddress, isHex, zeroAddress } from 'viem'
import { pancakeInfinityPoolKeyAbi } from '../adapters/poolKeys/pancakeInfinityPoolId.ts'
import { hexByteLength } from './hexByteLength.ts'
import { parseUint256 } from './parseUint256.ts'
import { RouterEncodingError } from './RouterEncodingError.ts'
import type { RouteLeg } from './routePlanTypes.ts'
import { routerLegKind } from './routerLegKind.ts'

/** The router's `Leg` struct as viem encodes it. */
export type RouterLeg = { kind: number; pool: Address; tokenIn: Address; tokenOut: Address; minOut: bigint; data: Hex }

export type EncodeRouterLegParameters = {
  leg: RouteLeg
  /** Field path for errors, e.g. `routes[0].legs[1]`. */
  path?: string
}

/** `commands` of a `univ4` leg: one V4 swap (the Universal Router's number for it). */
const V4_SWAP_COMMAND = '0x10'
/** abi.encode(PoolKey): five static words. */
const POOL_KEY_BYTES = 160
/** A `prop_amm` leg's protocols, by the number the router's `PropAmmLegs.sol` decodes (`PROP_*`). */
const propAmmProtocols: readonly string[] = ['propswap', 'tessera', 'elfomofi', 'lunarbase', 'feltir']
/** A `curve` leg's coin indexes are below StableSwap-NG's MAX_COINS (`CURVE_MAX_COINS` in `CurveLegs.sol`). */
const CURVE_MAX_COINS = 8
/**
 * The index type the router calls `exchange` with (`CURVE_INDEX_INT128` and `CURVE_INDEX_UINT256` in
 * `CurveLegs.sol`), from the leg's `indexType`: StableSwap's templates (legacy plain and meta, NG
 * plain and meta) take `int128`, the default when the spec's `{pool, i, j}` says nothing;
 * CryptoSwap's (twocrypto-ng) `uint256` (docs/route-legs.md).
 */
const curveIndexTypes = { int128: 0, uint256: 1 } as const
const curveLegAbi = [{ type: 'uint8' }, { type: 'uint8' }, { type: 'uint8' }] as const
/** A `maverick_v2` leg's data as `MaverickV2Legs.sol` decodes it: the direction and the tick limit. */
const maverickLegAbi = [{ type: 'bool' }, { type: 'int32' }] as const
/** An `aerodrome_v2` leg's hops as the router decodes them. */
export const aerodromeRoutesAbi = [
  {
    type: 'tuple[]',
    components: [
      { name: 'from', type: 'address' },
      { name: 'to', type: 'address' },
      { name: 'stable', type: 'bool' },
      { name: 'factory', type: 'address' },
    ],
  },
] as const

/**
 * Maps one spec `RouteLeg` to the router's `Leg` (`docs/route-legs.md`): the kind number, the pool
 * (the spec's `router` for `prop_amm` and `woofi`, the Vault for `balancer_vault`; zero for `univ4`, `pancake_infinity_cl`, `aerodrome_v2` and the legacy path kinds, which find
 * their pools themselves) and `Leg.data`.
 * Throws `RouterEncodingError` for kinds the router cannot execute and for malformed leg data.
 *
 * @example
 * const leg = encodeRouterLeg({
 *   leg: { dex: 'UNIV2', tokenIn, tokenOut, amountIn: '1000', minOut: '990', data: { kind: 'v2_direct', pool, feeBps: 30 } },
 * })
 * // leg.kind === 0, leg.data === abi.encode(uint16 30)
 */
export function encodeRouterLeg({ leg, path = 'leg' }: EncodeRouterLegParameters): RouterLeg {
  const fail = (field: string, message: string): never => {
    throw new RouterEncodingError({ path: `${path}.${field}`, message })
  }
  const address = (value: unknown, field: string): Address =>
    typeof value === 'string' && isAddress(value, { strict: false }) ? getAddress(value) : fail(field, `not an address: ${String(value)}`)
  const tokenIn = address(leg.tokenIn, 'tokenIn')
  const tokenOut = address(leg.tokenOut, 'tokenOut')
  const minOut = parseUint256({ value: leg.minOut, path: `${path}.minOut` })
  const base = { tokenIn, tokenOut, minOut }
  const data = leg.data
  switch (data.kind) {
    case 'v2_direct': {
      if (!Number.isInteger(data.feeBps) || data.feeBps < 0 || data.feeBps >= 10_000)
        fail('data.feeBps', `must be an integer in 0..9999: ${data.feeBps}`)
      const encoded = encodeAbiParameters([{ type: 'uint16' }], [data.feeBps])
      return { kind: routerLegKind.v2_direct, pool: address(data.pool, 'data.pool'), data: encoded, ...base }
    }
    case 'v3_direct':
    case 'pancake_v3_direct':
    case 'algebra_direct':
      return { kind: routerLegKind[data.kind], pool: address(data.pool, 'data.pool'), data: '0x', ...base }
    case 'hydrex':
      return { kind: routerLegKind.hydrex, pool: address(leg.poolId, 'poolId'), data: '0x', ...base }
    case 'univ4': {
      if (typeof data.commands !== 'string' || data.commands.toLowerCase() !== V4_SWAP_COMMAND)
        fail('data.commands', `must be ${V4_SWAP_COMMAND} (one V4 swap): ${data.commands}`)
      if (!Array.isArray(data.inputs) || data.inputs.length !== 1)
        fail(
          'data.inputs',
          `must hold exactly one abi-encoded PoolKey, got ${Array.isArray(data.inputs) ? data.inputs.length : typeof data.inputs}`,
        )
      const poolKey = data.inputs[0]
      if (hexByteLength(poolKey) !== POOL_KEY_BYTES) fail('data.inputs[0]', 'must be abi.encode(PoolKey), 160 bytes')
      return { kind: routerLegKind.univ4, pool: zeroAddress, data: poolKey, ...base }
    }
    case 'univ2': {
      if (!Array.isArray(data.path)) fail('data.path', 'must be an array of addresses')
      const hops = data.path.map((a, i) => address(a, `data.path[${i}]`))
      if (hops.length < 2) fail('data.path', 'needs at least 2 tokens')
      if (hops[0] !== tokenIn || hops[hops.length - 1] !== tokenOut) fail('data.path', 'must start at tokenIn and end at tokenOut')
      const encoded = encodeAbiParameters([{ type: 'address[]' }], [hops])
      return { kind: routerLegKind.univ2, pool: zeroAddress, data: encoded, ...base }
    }
    case 'univ3': {
      const bytes = hexByteLength(data.path)
      if (bytes < 43 || (bytes - 20) % 23 !== 0) fail('data.path', 'must be token (fee token)+, 20 + 23·n bytes')
      const first = getAddress(`0x${data.path.slice(2, 42)}`)
      const last = getAddress(`0x${data.path.slice(-40)}`)
      if (first !== tokenIn || last !== tokenOut) fail('data.path', 'must start at tokenIn and end at tokenOut')
      return { kind: routerLegKind.univ3, pool: zeroAddress, data: data.path, ...base }
    }
    case 'aerodrome_v2': {
      if (!Array.isArray(data.routes) || data.routes.length === 0) fail('data.routes', 'must hold at least one hop')
      const hops = data.routes.map((hop, i) => ({
        from: address(hop.from, `data.routes[${i}].from`),
        to: address(hop.to, `data.routes[${i}].to`),
        stable: typeof hop.stable === 'boolean' ? hop.stable : fail(`data.routes[${i}].stable`, 'must be a boolean'),
        factory: address(hop.factory, `data.routes[${i}].factory`),
      }))
      if (hops[0].from !== tokenIn || hops[hops.length - 1].to !== tokenOut)
        fail('data.routes', 'must start at tokenIn and end at tokenOut')
      hops.forEach((hop, i) => {
        if (hop.from === hop.to) fail(`data.routes[${i}]`, 'from and to are the same token')
        if (i > 0 && hops[i - 1].to !== hop.from) fail(`data.routes[${i}].from`, "must be the previous hop's to")
      })
      return { kind: routerLegKind.aerodrome_v2, pool: zeroAddress, data: encodeAbiParameters(aerodromeRoutesAbi, [hops]), ...base }
    }
    case 'pancake_infinity_cl': {
      const key = data.poolKey
      if (typeof key !== 'object' || key === null) fail('data.poolKey', 'must be a PoolKey object')
      if (!Number.isInteger(key.fee) || key.fee < 0 || key.fee > 0xffffff) fail('data.poolKey.fee', `must be a uint24: ${key.fee}`)
      if (!isHex(key.parameters) || hexByteLength(key.parameters) !== 32) fail('data.poolKey.parameters', 'must be 32 bytes of hex')
      const poolKey = {
        currency0: address(key.currency0, 'data.poolKey.currency0'),
        currency1: address(key.currency1, 'data.poolKey.currency1'),
        hooks: address(key.hooks, 'data.poolKey.hooks'),
        poolManager: address(key.poolManager, 'data.poolKey.poolManager'),
        fee: key.fee,
        parameters: key.parameters as Hex,
      }
      return {
        kind: routerLegKind.pancake_infinity_cl,
        pool: zeroAddress,
        data: encodeAbiParameters(pancakeInfinityPoolKeyAbi, [poolKey]),
        ...base,
      }
    }
    case 'curve': {
      const index = (value: unknown, field: string): number =>
        typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < CURVE_MAX_COINS
          ? value
          : fail(field, `must be a coin index in 0..${CURVE_MAX_COINS - 1}: ${String(value)}`)
      const i = index(data.i, 'data.i')
      const j = index(data.j, 'data.j')
      if (i === j) fail('data.j', `must differ from i: ${j}`)
      const indexType = data.indexType ?? 'int128'
      if (!(indexType in curveIndexTypes)) fail('data.indexType', `must be int128 or uint256: ${String(indexType)}`)
      return {
        kind: routerLegKind.curve,
        pool: address(data.pool, 'data.pool'),
        data: encodeAbiParameters(curveLegAbi, [i, j, curveIndexTypes[indexType]]),
        ...base,
      }
    }
    case 'dodo_v2': {
      const baseToken = address(data.baseToken, 'data.baseToken')
      if (baseToken !== tokenIn && baseToken !== tokenOut) fail('data.baseToken', `must be the leg's tokenIn or tokenOut: ${baseToken}`)
      return {
        kind: routerLegKind.dodo_v2,
        pool: address(data.pool, 'data.pool'),
        data: encodeAbiParameters([{ type: 'address' }], [baseToken]),
        ...base,
      }
    }
    case 'woofi':
      return { kind: routerLegKind.woofi, pool: address(data.router, 'data.router'), data: '0x', ...base }
    case 'balancer_vault': {
      if (!isHex(data.poolId) || hexByteLength(data.poolId) !== 32 || BigInt(data.poolId) === 0n)
        fail('data.poolId', `must be a non-zero bytes32: ${String(data.poolId)}`)
      return {
        kind: routerLegKind.balancer_vault,
        pool: address(data.vault, 'data.vault'),
        data: encodeAbiParameters([{ type: 'bytes32' }], [data.poolId as Hex]),
        ...base,
      }
    }
    case 'maverick_v2': {
      if (typeof data.tokenAIn !== 'boolean') fail('data.tokenAIn', `must be a boolean: ${String(data.tokenAIn)}`)
      if (!Number.isInteger(data.tickLimit) || data.tickLimit < -(2 ** 31) || data.tickLimit >= 2 ** 31)
        fail('data.tickLimit', `must be an int32: ${String(data.tickLimit)}`)
      return {
        kind: routerLegKind.maverick_v2,
        pool: address(data.pool, 'data.pool'),
        data: encodeAbiParameters(maverickLegAbi, [data.tokenAIn, data.tickLimit]),
        ...base,
      }
    }
    case 'prop_amm': {
      const protocol = propAmmProtocols.indexOf(data.protocol)
      if (protocol < 0) fail('data.protocol', `must be one of ${propAmmProtocols.join(', ')}: ${String(data.protocol)}`)
      return {
        kind: routerLegKind.prop_amm,
        pool: address(data.router, 'data.router'),
        data: encodeAbiParameters([{ type: 'uint8' }], [protocol]),
        ...base,
      }
    }
    default:
      return fail('data.kind', `no executable router leg for kind ${(data as { kind: string }).kind}`)
  }
}
