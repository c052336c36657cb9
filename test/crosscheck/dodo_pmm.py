"""DODO V2's PMM (DVM, DSP, DPP) with exact integers: a second implementation of the published
math (DODOEX/contractV2: DecimalMath, DODOMath, PMMPricing and the pools' querySellBase and
querySellQuote), written apart from the Solidity stand-in. Every uint256 operation that SafeMath
checks raises Revert here (overflow, underflow, division by zero), as the pool reverts.

One JSON case per stdin line:
  {"kind": 0|1|2, "i", "K", "B", "Q", "B0", "Q0", "R", "lpFee", "mtFee", "side": "base"|"quote", "pay"}
(integers as decimal strings; B0, Q0 and R are the stored targets and state, ignored for a DVM).
One JSON answer per line: {"receive", "mtFee", "newR", "newTarget"} or {"revert": reason}.
"""

import json
import sys

ONE = 10**18
ONE2 = 10**36
UINT_MAX = 2**256 - 1
R_ONE, R_ABOVE, R_BELOW = 0, 1, 2


class Revert(Exception):
    pass


def add(a, b):
    if a + b > UINT_MAX:
        raise Revert("ADD_ERROR")
    return a + b


def sub(a, b):
    if b > a:
        raise Revert("SUB_ERROR")
    return a - b


def mul(a, b):
    if a * b > UINT_MAX:
        raise Revert("MUL_ERROR")
    return a * b


def div(a, b):
    if b == 0:
        raise Revert("DIVIDING_ERROR")
    return a // b


def div_ceil(a, b):
    q = div(a, b)
    return q + 1 if a - q * b > 0 else q


def mul_floor(x, d):
    return div(mul(x, d), ONE)


def div_floor(x, d):
    return div(mul(x, ONE), d)


def decimal_div_ceil(x, d):
    return div_ceil(mul(x, ONE), d)


def reciprocal_floor(x):
    return div(ONE2, x)


def babylonian_sqrt(x):
    # DODO's loop: y from x, z from x // 2 + 1, until z stops shrinking.
    y, z = x, x // 2 + 1
    while z < y:
        y = z
        z = (x // z + z) // 2
    return y


def integrate(v0, v1, v2, i, k):
    """i (v1 - v2) (1 - k + k v0^2 / (v1 v2)), rounded down."""
    if v0 == 0:
        raise Revert("TARGET_IS_ZERO")
    fair = mul(i, sub(v1, v2))
    if k == 0:
        return div(fair, ONE)
    ratio = div_floor(div(mul(v0, v0), v1), v2)
    return div(mul(add(sub(ONE, k), mul_floor(k, ratio)), fair), ONE2)


def target_of(v1, delta, i, k):
    """The target v0 with v1 left after delta at price i: v1 (1 + (sqrt(1 + 4 k i delta / v1) - 1) / 2k)."""
    if k == 0:
        return add(v1, mul_floor(i, delta))
    if v1 == 0:
        return 0
    ki = mul(4 * k, i)
    if ki == 0:
        root = ONE
    elif ki * delta <= UINT_MAX:
        root = babylonian_sqrt(add(div(ki * delta, v1), ONE2))
    else:
        root = babylonian_sqrt(add(mul(div(ki, v1), delta), ONE2))
    premium = add(div_floor(sub(root, ONE), k * 2), ONE)
    return mul_floor(v1, premium)


def trade(v0, v1, delta, i, k):
    """What selling delta at price i takes out of a side at v1 with target v0."""
    if v0 == 0:
        raise Revert("TARGET_IS_ZERO")
    if delta == 0:
        return 0
    if k == 0:
        return min(mul_floor(i, delta), v1)
    if k == ONE:
        idelta = mul(i, delta)
        if idelta == 0:
            temp = 0
        elif idelta * v1 <= UINT_MAX:
            temp = div(idelta * v1, mul(v0, v0))
        else:
            temp = div(mul(div(mul(delta, v1), v0), i), v0)
        return div(mul(v1, temp), add(temp, ONE))
    part2 = add(mul(div(mul(k, v0), v1), v0), mul(i, delta))
    part1 = mul(sub(ONE, k), v1)
    b_positive = part1 < part2
    b_abs = div(part2 - part1 if b_positive else part1 - part2, ONE)
    four_ac = mul_floor(mul(sub(ONE, k), 4), mul(mul_floor(k, v0), v0))
    root = babylonian_sqrt(add(mul(b_abs, b_abs), four_ac))
    denominator = mul(sub(ONE, k), 2)
    if b_positive:
        numerator = sub(root, b_abs)
        if numerator == 0:
            raise Revert("DODOMath: should not be zero")
    else:
        numerator = add(b_abs, root)
    v2 = decimal_div_ceil(numerator, denominator)
    return 0 if v2 > v1 else v1 - v2


def sell_base(s, pay):
    i, k, b, q, b0, q0, r = s
    if r == R_ONE:
        return trade(q0, q0, pay, i, k), R_BELOW
    if r == R_ABOVE:
        back_base, back_quote = sub(b0, b), sub(q, q0)
        if pay < back_base:
            return min(integrate(b0, add(b, pay), b, i, k), back_quote), R_ABOVE
        if pay == back_base:
            return back_quote, R_ONE
        return add(back_quote, trade(q0, q0, sub(pay, back_base), i, k)), R_BELOW
    return trade(q0, q, pay, i, k), R_BELOW


def sell_quote(s, pay):
    i, k, b, q, b0, q0, r = s
    inverse = reciprocal_floor(i)
    if r == R_ONE:
        return trade(b0, b0, pay, inverse, k), R_ABOVE
    if r == R_ABOVE:
        return trade(b0, b, pay, inverse, k), R_ABOVE
    back_quote, back_base = sub(q0, q), sub(b, b0)
    if pay < back_quote:
        return min(integrate(q0, add(q, pay), q, inverse, k), back_base), R_BELOW
    if pay == back_quote:
        return back_base, R_ONE
    return add(back_base, trade(b0, b0, sub(pay, back_quote), inverse, k)), R_ABOVE


def state_of(case):
    n = lambda key: int(case[key])
    i, k, b, q = n("i"), n("K"), n("B"), n("Q")
    if case["kind"] == 0:
        b0, q0, r = 0, 0, R_ABOVE
    else:
        b0, q0, r = n("B0"), n("Q0"), n("R")
    # The implicit target: Q0 below one, B0 above one.
    if r == R_BELOW:
        q0 = target_of(q, sub(b, b0), i, k)
    elif r == R_ABOVE:
        b0 = target_of(b, sub(q, q0), reciprocal_floor(i), k)
    return (i, k, b, q, b0, q0, r)


def answer(case):
    try:
        s = state_of(case)
        pay = int(case["pay"])
        if case["side"] == "base":
            out, new_r = sell_base(s, pay)
            new_target = s[4]
        else:
            out, new_r = sell_quote(s, pay)
            new_target = s[5]
        mt_fee = mul_floor(out, int(case["mtFee"]))
        out = sub(sub(out, mul_floor(out, int(case["lpFee"]))), mt_fee)
        return {"receive": str(out), "mtFee": str(mt_fee), "newR": new_r, "newTarget": str(new_target)}
    except Revert as reason:
        return {"revert": str(reason)}


for line in sys.stdin:
    if line.strip():
        print(json.dumps(answer(json.loads(line))))
