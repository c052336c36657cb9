"""Maverick V2's exact-input swap with exact integers: a second implementation of the published
math (Maverick's open v2-common TickMath and Math: the tick's square-root price, its liquidity
with the precision bump, the price inside it, the AMM's 18-decimal scale; and the pool's swap as
the aggregators' ports state it: the tick walk, the fee on the way in, the protocol's share kept
out of the tick), written apart from the Solidity stand-in (contracts/maverick/). Where the
pool's checked arithmetic reverts (a negative difference, a division by zero), this raises Revert.

One JSON case per stdin line:
  {"spacing", "scaleIn", "scaleOut", "feeIn", "ratioD3", "active", "tokenAIn", "amount", "limit",
   "ticks": [[tick, reserveA, reserveB], ...]}
(integers as decimal strings or numbers; tick reserves on the 18-decimal scale). One JSON answer
per line: {"amountIn", "amountOut", "active", "ticks": [[tick, reserveA, reserveB], ...]} with
every tick of the case after the swap, or {"revert": reason}.
"""

import json
import math
import sys

E18 = 10**18
E36 = 10**36
MAX_TICK = 460540
# sqrt(1.0001)^-(2^k) as Q128 fractions, k = 1..18 (the first, k = 0, is the odd-bit start).
RATIOS = [
    0xFFF97272373D41FD789C8CB37FFCAA1C,
    0xFFF2E50F5F656AC9229C67059486F389,
    0xFFE5CACA7E10E81259B3CDDC7A064941,
    0xFFCB9843D60F67B19E8887E0BD251EB7,
    0xFF973B41FA98CD2E57B660BE99EB2C4A,
    0xFF2EA16466C9838804E327CB417CAFCB,
    0xFE5DEE046A99D51E2CC356C2F617DBE0,
    0xFCBE86C7900AECF64236AB31F1F9DCB5,
    0xF987A7253AC4D9194200696907CF2E37,
    0xF3392B0822B88206F8ABE8A3B44DD9BE,
    0xE7159475A2C578EF4F1D17B2B235D480,
    0xD097F3BDFD254EE83BDD3F248E7E785E,
    0xA9F746462D8F7DD10E744D913D033333,
    0x70D869A156DDD32A39E257BC3F50AA9B,
    0x31BE135F97DA6E09A19DC367E3B6DA40,
    0x9AA508B5B7E5A9780B0CC4E25D61A56,
    0x5D6AF8DEDBCB3A6CCB7CE618D14225,
    0x2216E584F630389B2052B8DB590E,
]


class Revert(Exception):
    pass


def floor_div(x, y):
    if y <= 0:
        raise Revert("division by zero" if y == 0 else "underflow")
    return x // y


def ceil_div(x, y):
    if y <= 0:
        raise Revert("division by zero" if y == 0 else "underflow")
    return -(-x // y)


def sqrt_price_at(spacing, tick):
    """sqrt(1.0001^(tick*spacing)) on 18 decimals, by the tick math's Q128 table."""
    n = abs(tick) * spacing
    if n > MAX_TICK:
        raise Revert("TickMaxExceeded")
    r = 0xFFFCB933BD6FAD9D3AF5F0B9F25DB4D6 if n & 1 else 1 << 128
    for k, factor in enumerate(RATIOS):
        if n >> (k + 1) & 1:
            r = r * factor >> 128
    if tick > 0:
        r = (2**256 - 1) // r
    return r * E18 >> 128


def tick_liquidity(a, b, lo, hi):
    width = hi - lo
    shift = 0
    if a >> 78 == 0 and b >> 78 == 0:
        shift = 57
        a, b = a << shift, b << shift
    if b == 0:
        return floor_div(a * E18, width) >> shift
    if a == 0:
        return floor_div((b * lo // E18) * hi, width) >> shift
    half = (floor_div(a * E18, hi) + b * lo // E18) >> 1
    inner = half * half // E18 + floor_div((b * a // E18) * width, hi)
    return floor_div((half + math.isqrt(inner) * 10**9) * hi, width) >> shift


def price_in_tick(a, b, lo, hi, liq):
    if a == 0:
        return lo
    if b == 0:
        return hi
    num = a + liq * lo // E18
    den = b + floor_div(liq * E18, hi)
    p = math.isqrt(E18 * floor_div(num * E18, den))
    return min(max(p, lo), hi)


def input_for_output(liq, out, p, a_in):
    """The net input that takes `out` out of the tick (rounded up)."""
    out_over_l = 0 if liq == 0 else ceil_div(out * E18, liq)
    if a_in:
        return ceil_div(out * p, E36 // p - out_over_l)
    return ceil_div(out * E18, (p * (p - out_over_l)) // E18 if p >= out_over_l else -1)


def one_tick(p, liq, a, b, amount, a_in, fee, ratio):
    """(spent, kept by the tick, paid out, left over) for `amount` into one tick."""
    available = b if a_in else a
    room = input_for_output(liq, available, p, a_in)
    net = amount * (E18 - fee) // E18
    if net < room:
        spent, fee_part, left, net_in = amount, amount - net, 0, net
    else:
        fee_part = ceil_div(room * fee, E18 - fee)
        spent = room + fee_part
        left = max(amount - spent, 0)
        net_in = room
    kept = spent if ratio == 0 else max(spent - ceil_div(fee_part * ratio, 1000), 0)
    if left:
        return spent, kept, available, left
    in_over_l = ceil_div(net_in * E18, liq + 1)
    if a_in:
        curve = floor_div(net_in * (E36 // p), in_over_l + p)
    else:
        curve = floor_div(net_in * p, in_over_l + ceil_div(E36, p))
    return spent, kept, min(available, curve), 0


def swap(case):
    spacing = int(case["spacing"])
    scale_in, scale_out = int(case["scaleIn"]), int(case["scaleOut"])
    fee, ratio = int(case["feeIn"]), int(case["ratioD3"])
    a_in = bool(case["tokenAIn"])
    limit = int(case["limit"])
    active = int(case["active"])
    book = {int(t): [int(x), int(y)] for t, x, y in case["ticks"]}
    beyond = (lambda t: t > limit) if a_in else (lambda t: t < limit)
    if beyond(active):
        raise Revert("BeyondSwapLimit")
    step = 1 if a_in else -1
    left = int(case["amount"]) * scale_in
    total_in = total_out = 0
    capped = False
    while left:
        t = active
        if beyond(t):
            active, capped = active - step, True
            break
        while book.get(t, [0, 0]) == [0, 0]:
            t += step
            if beyond(t):
                break
        if beyond(t):
            active, capped = active - step, True
            break
        active = t
        a, b = book[t]
        lo, hi = sqrt_price_at(spacing, t), sqrt_price_at(spacing, t + 1)
        liq = tick_liquidity(a, b, lo, hi)
        p = price_in_tick(a, b, lo, hi, liq)
        spent, kept, out, left = one_tick(p, liq, a, b, left, a_in, fee, ratio)
        total_in += spent
        total_out += out
        if a_in:
            book[t] = [a + kept, 0 if left else max(b - out, 0)]
        else:
            book[t] = [0 if left else max(a - out, 0), b + kept]
        if max(book[t]) >> 128:
            raise Revert("ReserveOverflow")
        if left:
            active += step
    amount_in = total_in if scale_in == 1 or total_in == 0 else (ceil_div(total_in, scale_in) if capped else total_in // scale_in)
    amount_out = total_out // scale_out
    return {
        "amountIn": str(amount_in),
        "amountOut": str(amount_out),
        "active": active,
        "ticks": [[t, str(book[t][0]), str(book[t][1])] for t in sorted(book)],
    }


def answer(case):
    try:
        return swap(case)
    except Revert as reason:
        return {"revert": str(reason)}


for line in sys.stdin:
    if line.strip():
        print(json.dumps(answer(json.loads(line))))
