import assert from 'node:assert/strict'
import { test } from 'vitest'
import { type Address, decodeAbiParameters, decodeFunctionData, encodePacked } from 'viem'
import { encodeSwapExactIn } from './encodeSwapExactIn.ts'
import { RouterEncodingError } from './RouterEncodingError.ts'
import type { LegData, RoutePlan } from './routePlanTypes.ts'
import { swapRouterAbi } from './swapRouterAbi.ts'

const A: Address = '0x1111111111111111111111111111111111111111'
const B: Address = '0x2222222222222222222222222222222222222222'
const C: Address = '0x3333333333333333333333333333333333333333'
const POOL: Address = '0x4444444444444444444444444444444444444444'
const USER: Address = '0x5555555555555555555555555555555555555555'
const POOL_KEY = `0x${'00'.repeat(160)}` as const

function plan(
  legs: { tokenIn: Address; tokenOut: Address; data: LegData; poolId?: string }[][],
  amounts: bigint[],
  extra: Partial<RoutePlan> = {},
): RoutePlan {
  return {
    chainId: 8453,
    tokenIn: legs[0][0].tokenIn,
    tokenOut: legs[0][legs[0].length - 1].tokenOut,
    amountIn: amounts.reduce((s, x) => s + x, 0n).toString(),
    expectedAmountOut: '0',
    minAmountOut: '123',
    slippageBps: 50,
    blockNumber: 1,
    routes: legs.map((route, r) => ({
      amountIn: amounts[r].toString(),
      legs: route.map((l) => ({ dex: 'X', amountIn: '0', minOut: '7', ...l })),
    })),
    ...extra,
  }
}

function decode(data: `0x${string}`) {
  return decodeFunctionData({ abi: swapRouterAbi, data })
}

test("maps routes and legs to the router structs, with each kind's Leg.data", () => {
  const p = plan(
    [
      [
        { tokenIn: A, tokenOut: B, data: { kind: 'v2_direct', pool: POOL, feeBps: 25 } },
        { tokenIn: B, tokenOut: C, data: { kind: 'hydrex' }, poolId: POOL },
      ],
      [
        {
          tokenIn: A,
          tokenOut: C,
          data: { kind: 'univ3', path: encodePacked(['address', 'uint24', 'address', 'uint24', 'address'], [A, 500, B, 3000, C]) },
        },
      ],
      [{ tokenIn: A, tokenOut: C, data: { kind: 'univ2', path: [A, B, C] } }],
      [{ tokenIn: A, tokenOut: C, data: { kind: 'univ4', commands: '0x10', inputs: [POOL_KEY] } }],
    ],
    [1n, 2n, 3n, 4n],
  )
  const { data, value } = encodeSwapExactIn({ plan: p, recipient: USER, feeBps: 10, feeRecipient: USER, deadline: 99n })
  assert.equal(value, 0n)
  const { functionName, args } = decode(data)
  assert.equal(functionName, 'swapExactIn')
  const params = args[0]
  assert.equal(params.amountIn, 10n)
  assert.equal(params.minAmountOut, 123n)
  assert.equal(params.feeBps, 10)
  assert.equal(params.deadline, 99n)
  const [r0, r1, r2, r3] = params.routes
  assert.deepEqual(
    r0.legs.map((l) => [l.kind, l.pool, l.minOut]),
    [
      [0, POOL, 7n],
      [4, POOL, 7n],
    ],
  )
  assert.deepEqual(decodeAbiParameters([{ type: 'uint16' }], r0.legs[0].data), [25])
  assert.equal(r0.legs[1].data, '0x')
  assert.equal(r1.legs[0].kind, 7)
  assert.equal(r1.legs[0].data.length, 2 + 2 * 66)
  assert.equal(r2.legs[0].kind, 6)
  assert.deepEqual(decodeAbiParameters([{ type: 'address[]' }], r2.legs[0].data), [[A, B, C]])
  assert.deepEqual([r3.legs[0].kind, r3.legs[0].data], [5, POOL_KEY])
})

test('a curve leg: the pool, and abi.encode(uint8 i, uint8 j, uint8 0) for StableSwap int128 indexes', () => {
  const p = plan([[{ tokenIn: A, tokenOut: B, data: { kind: 'curve', pool: POOL, i: 3, j: 0 } }]], [5n])
  const params = decode(encodeSwapExactIn({ plan: p, recipient: USER, deadline: 1n }).data).args[0] as {
    routes: readonly { legs: readonly { kind: number; pool: Address; minOut: bigint; data: `0x${string}` }[] }[]
  }
  const [leg] = params.routes[0].legs
  assert.deepEqual([leg.kind, leg.pool, leg.minOut], [8, POOL, 7n])
  assert.deepEqual(decodeAbiParameters([{ type: 'uint8' }, { type: 'uint8' }, { type: 'uint8' }], leg.data), [3, 0, 0])
  // A meta pool's exchange_underlying (`underlying: true`): word 2.
  const meta = plan([[{ tokenIn: A, tokenOut: B, data: { kind: 'curve', pool: POOL, i: 0, j: 2, underlying: true } }]], [5n])
  const metaParams = decode(encodeSwapExactIn({ plan: meta, recipient: USER, deadline: 1n }).data).args[0] as typeof params
  assert.deepEqual(
    decodeAbiParameters([{ type: 'uint8' }, { type: 'uint8' }, { type: 'uint8' }], metaParams.routes[0].legs[0].data),
    [0, 2, 2],
  )
})

test('a dodo_v2 leg: the pool, and abi.encode(address baseToken); a baseToken that is neither leg token is refused', () => {
  const p = plan([[{ tokenIn: A, tokenOut: B, data: { kind: 'dodo_v2', pool: POOL, baseToken: B } }]], [5n])
  const params = decode(encodeSwapExactIn({ plan: p, recipient: USER, deadline: 1n }).data).args[0] as {
    routes: readonly { legs: readonly { kind: number; pool: Address; data: `0x${string}` }[] }[]
  }
  const [leg] = params.routes[0].legs
  assert.deepEqual([leg.kind, leg.pool], [10, POOL])
  assert.deepEqual(decodeAbiParameters([{ type: 'address' }], leg.data), [B])
  const wrong = plan([[{ tokenIn: A, tokenOut: B, data: { kind: 'dodo_v2', pool: POOL, baseToken: C } }]], [5n])
  assert.throws(
    () => encodeSwapExactIn({ plan: wrong, recipient: USER, deadline: 1n }),
    (e: unknown) => e instanceof RouterEncodingError && e.path === 'routes[0].legs[0].data.baseToken',
  )
})

test('native in: tokenIn is the first leg token (the plan may carry the native sentinel) and value is amountIn', () => {
  const p = plan([[{ tokenIn: A, tokenOut: B, data: { kind: 'v3_direct', pool: POOL } }]], [5n], {
    tokenIn: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
    nativeIn: true,
  })
  const { data, value } = encodeSwapExactIn({ plan: p, recipient: USER, deadline: 1n })
  assert.equal(value, 5n)
  const params = decode(data).args[0] as { tokenIn: string; nativeIn: boolean }
  assert.equal(params.tokenIn, A)
  assert.equal(params.nativeIn, true)
})

test("no routes is the router's wrap or unwrap alone: WETH on both sides (the plan's non-native side); refused with no native end", () => {
  const weth = A
  const wrap = { ...plan([[{ tokenIn: A, tokenOut: B, data: { kind: 'v3_direct', pool: POOL } }]], [5n]), routes: [] }
  const wrapped = encodeSwapExactIn({
    plan: { ...wrap, tokenIn: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', tokenOut: weth, nativeIn: true },
    recipient: USER,
    deadline: 1n,
  })
  const params = decode(wrapped.data).args[0] as { tokenIn: string; tokenOut: string; nativeIn: boolean; routes: readonly unknown[] }
  assert.deepEqual([params.tokenIn, params.tokenOut, params.nativeIn, params.routes, wrapped.value], [weth, weth, true, [], 5n])
  const unwrapped = encodeSwapExactIn({
    plan: { ...wrap, tokenIn: weth, tokenOut: '0x0000000000000000000000000000000000000000', nativeOut: true },
    recipient: USER,
    deadline: 1n,
  })
  const back = decode(unwrapped.data).args[0] as { tokenIn: string; tokenOut: string; nativeOut: boolean }
  assert.deepEqual([back.tokenIn, back.tokenOut, back.nativeOut, unwrapped.value], [weth, weth, true, 0n])
  assert.throws(
    () => encodeSwapExactIn({ plan: wrap, recipient: USER, deadline: 1n }),
    (e: unknown) => e instanceof RouterEncodingError && e.path === 'routes',
  )
})

test('a permit selects swapExactInWithPermit', () => {
  const p = plan([[{ tokenIn: A, tokenOut: B, data: { kind: 'algebra_direct', pool: POOL } }]], [5n])
  const permit = { value: '5', deadline: 100, v: 27, r: `0x${'ab'.repeat(32)}`, s: `0x${'cd'.repeat(32)}` } as const
  const { functionName, args } = decode(encodeSwapExactIn({ plan: p, recipient: USER, deadline: 1n, permit }).data)
  assert.equal(functionName, 'swapExactInWithPermit')
  assert.deepEqual(args[1], { value: 5n, deadline: 100n, v: 27, r: permit.r, s: permit.s })
})

test('a balancer_vault leg: the Vault as the pool, and abi.encode(bytes32 poolId)', () => {
  const poolId = `${POOL.toLowerCase()}000200000000000000000007` as `0x${string}`
  const p = plan([[{ tokenIn: A, tokenOut: B, data: { kind: 'balancer_vault', vault: POOL, poolId } }]], [5n])
  const params = decode(encodeSwapExactIn({ plan: p, recipient: USER, deadline: 1n }).data).args[0] as {
    routes: readonly { legs: readonly { kind: number; pool: Address; minOut: bigint; data: `0x${string}` }[] }[]
  }
  const [leg] = params.routes[0].legs
  assert.deepEqual([leg.kind, leg.pool, leg.minOut, leg.data], [14, POOL, 7n, poolId])
})

test('refuses plans the router cannot run, naming the field', () => {
  const ok = (data: LegData, tokenIn = A, tokenOut = B) => plan([[{ tokenIn, tokenOut, data }]], [5n])
  const cases: [RoutePlan, string, Parameters<typeof encodeSwapExactIn>[0]?][] = [
    [ok({ kind: 'curve', pool: POOL, i: 1, j: 1 }), 'routes[0].legs[0].data.j'],
    [ok({ kind: 'curve', pool: POOL, i: 8, j: 1 }), 'routes[0].legs[0].data.i'],
    [ok({ kind: 'curve', pool: POOL, i: 0, j: 1.5 }), 'routes[0].legs[0].data.j'],
    [ok({ kind: 'curve', pool: POOL, i: 0, j: 1, indexType: 'uint256', underlying: true }), 'routes[0].legs[0].data.underlying'],
    [ok({ kind: 'balancer_vault', vault: POOL, poolId: `0x${'00'.repeat(32)}` }), 'routes[0].legs[0].data.poolId'],
    [ok({ kind: 'balancer_vault', vault: POOL, poolId: '0x1234' }), 'routes[0].legs[0].data.poolId'],
    [ok({ kind: 'univ4', commands: '0x00', inputs: [POOL_KEY] }), 'routes[0].legs[0].data.commands'],
    [ok({ kind: 'univ4', commands: '0x10', inputs: [] }), 'routes[0].legs[0].data.inputs'],
    [ok({ kind: 'univ2', path: [B, A] }), 'routes[0].legs[0].data.path'],
    [ok({ kind: 'v2_direct', pool: POOL, feeBps: 10_000 }), 'routes[0].legs[0].data.feeBps'],
    [ok({ kind: 'hydrex' }), 'routes[0].legs[0].poolId'],
    [{ ...ok({ kind: 'v3_direct', pool: POOL }), amountIn: '6' }, 'routes'],
    [
      plan(
        [
          [
            { tokenIn: A, tokenOut: B, data: { kind: 'v3_direct', pool: POOL } },
            { tokenIn: C, tokenOut: B, data: { kind: 'v3_direct', pool: POOL } },
          ],
        ],
        [5n],
      ),
      'routes[0].legs[1].tokenIn',
    ],
  ]
  for (const [p, path] of cases) {
    assert.throws(
      () => encodeSwapExactIn({ plan: p, recipient: USER, deadline: 1n }),
      (e: unknown) => e instanceof RouterEncodingError && e.path === path,
      path,
    )
  }
  const good = ok({ kind: 'v3_direct', pool: POOL })
  assert.throws(() => encodeSwapExactIn({ plan: good, recipient: USER, deadline: 1n, feeBps: 5 }), /feeRecipient/)
  assert.throws(() => encodeSwapExactIn({ plan: good, recipient: USER, deadline: 1n, feeBps: 10_001, feeRecipient: USER }), /feeBps/)
})

test('every value outside its ABI type is a RouterEncodingError naming the field, before viem sees it', () => {
  const good = plan([[{ tokenIn: A, tokenOut: B, data: { kind: 'v3_direct', pool: POOL } }]], [5n])
  const permit = { value: '5', deadline: 100, v: 27, r: `0x${'ab'.repeat(32)}`, s: `0x${'cd'.repeat(32)}` } as const
  const over = (2n ** 256n).toString()
  // Each of these reached viem's encoder unchecked and threw a plain error (a 500 over HTTP).
  const cases: [string, () => unknown][] = [
    ['permit.r', () => encodeSwapExactIn({ plan: good, recipient: USER, deadline: 1n, permit: { ...permit, r: '0xabcd' } })],
    ['permit.s', () => encodeSwapExactIn({ plan: good, recipient: USER, deadline: 1n, permit: { ...permit, s: `0x${'cd'.repeat(33)}` } })],
    ['permit.r', () => encodeSwapExactIn({ plan: good, recipient: USER, deadline: 1n, permit: { ...permit, r: `0x${'a'.repeat(63)}` } })],
    ['permit.deadline', () => encodeSwapExactIn({ plan: good, recipient: USER, deadline: 1n, permit: { ...permit, deadline: -1 } })],
    ['permit.deadline', () => encodeSwapExactIn({ plan: good, recipient: USER, deadline: 1n, permit: { ...permit, deadline: 1e300 } })],
    ['permit.deadline', () => encodeSwapExactIn({ plan: good, recipient: USER, deadline: 1n, permit: { ...permit, deadline: 1.5 } })],
    ['permit.value', () => encodeSwapExactIn({ plan: good, recipient: USER, deadline: 1n, permit: { ...permit, value: over } })],
    ['permit.v', () => encodeSwapExactIn({ plan: good, recipient: USER, deadline: 1n, permit: { ...permit, v: 256 } })],
    ['permit.v', () => encodeSwapExactIn({ plan: good, recipient: USER, deadline: 1n, permit: { ...permit, v: -1 } })],
    ['deadline', () => encodeSwapExactIn({ plan: good, recipient: USER, deadline: -1n })],
    ['deadline', () => encodeSwapExactIn({ plan: good, recipient: USER, deadline: 2n ** 256n })],
    [
      'amountIn',
      () =>
        encodeSwapExactIn({
          plan: { ...good, amountIn: over, routes: [{ ...good.routes[0], amountIn: over }] },
          recipient: USER,
          deadline: 1n,
        }),
    ],
    [
      'routes[0].amountIn',
      () => encodeSwapExactIn({ plan: { ...good, routes: [{ ...good.routes[0], amountIn: over }] }, recipient: USER, deadline: 1n }),
    ],
    ['minAmountOut', () => encodeSwapExactIn({ plan: { ...good, minAmountOut: over }, recipient: USER, deadline: 1n })],
    [
      'routes[0].legs[0].minOut',
      () =>
        encodeSwapExactIn({
          plan: { ...good, routes: [{ ...good.routes[0], legs: [{ ...good.routes[0].legs[0], minOut: over }] }] },
          recipient: USER,
          deadline: 1n,
        }),
    ],
    [
      'routes[0].legs[0].data.inputs[0]',
      () =>
        encodeSwapExactIn({
          plan: plan([[{ tokenIn: A, tokenOut: B, data: { kind: 'univ4', commands: '0x10', inputs: [`0x${'0'.repeat(319)}`] } }]], [5n]),
          recipient: USER,
          deadline: 1n,
        }),
    ],
    ['recipient', () => encodeSwapExactIn({ plan: good, recipient: '0x12' as Address, deadline: 1n })],
  ]
  for (const [path, call] of cases) {
    assert.throws(call, (e: unknown) => e instanceof RouterEncodingError && e.path === path && e.message.startsWith(`${path}: `), path)
  }
  // The edges pass: uint256 max amounts, a zero deadline, v 0 and 255.
  const max = (2n ** 256n - 1n).toString()
  for (const p of [
    { ...permit, value: max, deadline: 0, v: 0 },
    { ...permit, v: 255, deadline: Number.MAX_SAFE_INTEGER },
  ]) {
    assert.equal(
      decode(encodeSwapExactIn({ plan: { ...good, minAmountOut: max }, recipient: USER, deadline: 2n ** 256n - 1n, permit: p }).data)
        .functionName,
      'swapExactInWithPermit',
    )
  }
})
