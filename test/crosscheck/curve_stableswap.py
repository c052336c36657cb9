#!/usr/bin/env python3
"""A second implementation of Curve StableSwap pools' swaps, written apart from the chain's code and
from the solver, in Python's exact integers, from the published math of two templates:
- "ng": curvefi/stableswap-ng CurveStableSwapNG.vy v7.0.0 (_stored_rates, _A, get_D, get_y,
  _dynamic_fee, __exchange, _get_p/upkeep_oracles' bounds, _transfer_out) and the views contract
  CurveStableSwapNGViews v1.2.0 (get_dy) that its get_dy calls;
- "legacy": curvefi/curve-factory Plain2Basic/Plain3Basic (exchange and get_dy share one
  computation with a static fee; balances in storage, the admin's share left out of them).

Vyper checks every uint256 operation: a result outside [0, 2^256) or a division by zero reverts
(`U` from solidly_pool.py raises instead, as there). `unsafe_div` only skips the zero check of a
constant divisor, which changes nothing here.

It also asks curvesim (PyPI, Curve's simulator; only its pool math is loaded, without the package's
plotting and data imports) for the same exchange when the pool's A is whole (curvesim has no
A_PRECISION, so a ramp's fractional A is outside it): {"curvesim": "<out>"} or "skipped".

Reads JSON lines (integers as decimal strings):
  {template: ng|legacy, coins: [{decimals, kind: plain|oracle|erc4626, oracleRate?, assetsPerShare?, underlyingDecimals?}],
   balances, tokenBalanceOut, initialA, futureA, initialATime, futureATime, timestamp, viewTimestamp,
   fee, offpeg, i, j, dx}
where balances are the pool's own (stored minus admin), A values are stored ones (A x 100),
`timestamp` is the block that executes `exchange`, `viewTimestamp` the one `get_dy` is read at.
Writes one JSON line each: {"exchange": {"out"|"error"}, "get_dy": {...}, "rates": [...], "curvesim": ...}.
"""
import json
import os
import sys
import sysconfig
import types

from solidly_pool import Revert, U

PRECISION = 10**18
FEE_DENOMINATOR = 10**10
A_PRECISION = 100
ADMIN_FEE = 5 * 10**9


def stored_rates(coins):
    """rate_multipliers (10^(36 - decimals)), times the oracle's rate or the vault's share value."""
    rates = []
    for coin in coins:
        rate = 10 ** (36 - int(coin["decimals"]))
        if coin["kind"] == "oracle":
            rate = U.mul(rate, int(coin["oracleRate"])) // PRECISION
        elif coin["kind"] == "erc4626":
            call_amount = 10 ** int(coin["decimals"])
            # convertToAssets(10^decimals) of CurveRateVault: shares * assetsPerShare / 1e18.
            assets = U.mul(call_amount, int(coin["assetsPerShare"])) // PRECISION
            scale = 10 ** (18 - int(coin["underlyingDecimals"]))
            rate = U.mul(U.mul(rate, assets), scale) // PRECISION
        rates.append(rate)
    return rates


def amp_at(case, timestamp):
    """_A(): linear between (initial_A, initial_A_time) and (future_A, future_A_time)."""
    a0, a1 = int(case["initialA"]), int(case["futureA"])
    t0, t1 = int(case["initialATime"]), int(case["futureATime"])
    if timestamp < t1:
        if a1 > a0:
            return U.add(a0, U.div(U.mul(a1 - a0, timestamp - t0), t1 - t0))
        return U.sub(a0, U.div(U.mul(a0 - a1, timestamp - t0), t1 - t0))
    return a1


def converged(a, b):
    return (a - b if a > b else b - a) <= 1


def get_d(xp, amp, pool_style):
    """The invariant. pool_style: the pool divides D_P by x*N each step; the views contract divides
    by x, then once by N^N."""
    n = len(xp)
    s = 0
    for x in xp:
        s = U.add(s, x)
    if s == 0:
        return 0
    d = s
    ann = U.mul(amp, n)
    for _ in range(255):
        d_p = d
        for x in xp:
            d_p = U.div(U.mul(d_p, d), U.mul(x, n) if pool_style else x)
        if not pool_style:
            d_p = d_p // n**n
        d_prev = d
        numerator = U.mul(U.add(U.mul(ann, s) // A_PRECISION, U.mul(d_p, n)), d)
        denominator = U.add(U.mul(U.sub(ann, A_PRECISION), d) // A_PRECISION, U.mul(n + 1, d_p))
        d = U.div(numerator, denominator)
        if converged(d, d_prev):
            return d
    raise Revert("no convergence")


def get_y(i, j, x, xp, amp, d):
    n = len(xp)
    ann = U.mul(amp, n)
    s = 0
    c = d
    for k in range(n):
        if k == i:
            xk = x
        elif k != j:
            xk = xp[k]
        else:
            continue
        s = U.add(s, xk)
        c = U.div(U.mul(c, d), U.mul(xk, n))
    c = U.div(U.mul(U.mul(c, d), A_PRECISION), U.mul(ann, n))
    b = U.add(s, U.div(U.mul(d, A_PRECISION), ann))
    y = d
    for _ in range(255):
        y_prev = y
        y = U.div(U.add(U.mul(y, y), c), U.sub(U.add(U.mul(2, y), b), d))
        if converged(y, y_prev):
            return y
    raise Revert("no convergence")


def dynamic_fee(xpi, xpj, fee, multiplier):
    if multiplier <= FEE_DENOMINATOR:
        return fee
    xps2 = U.mul(U.add(xpi, xpj), U.add(xpi, xpj))
    spread = U.div(U.mul(U.mul(U.mul(multiplier - FEE_DENOMINATOR, 4), xpi), xpj), xps2)
    return U.div(U.mul(multiplier, fee), U.add(spread, FEE_DENOMINATOR))


def check_oracle_upkeep(xp, amp, d):
    """exchange ends with upkeep_oracles: _get_p's checked math and pack_2's 2^128 bounds on the
    spot prices and on D (the EMA blend itself cannot revert)."""
    n = len(xp)
    ann = amp * n
    dr = d // n**n
    for x in xp:
        dr = U.div(U.mul(dr, d), x)
    xp0_a = U.mul(ann, xp[0]) // A_PRECISION
    for k in range(1, n):
        p = U.div(U.mul(PRECISION, U.add(xp0_a, U.div(U.mul(dr, xp[0]), xp[k]))), U.add(xp0_a, dr))
        if p >= 2**128:
            raise Revert("price bound")
    if d >= 2**128:
        raise Revert("price bound")


def exchange(case, rates, balances):
    i, j, dx = int(case["i"]), int(case["j"]), int(case["dx"])
    ng = case["template"] == "ng"
    if i == j or (ng and dx == 0):
        raise Revert("refused")
    xp = [U.mul(r, b) // PRECISION for r, b in zip(rates, balances)]
    x = U.add(xp[i], U.mul(dx, rates[i]) // PRECISION)
    amp = amp_at(case, int(case["timestamp"]))
    d = get_d(xp, amp, pool_style=True)
    y = get_y(i, j, x, xp, amp, d)
    dy = U.sub(U.sub(xp[j], y), 1)
    fee_rate = dynamic_fee(U.add(xp[i], x) // 2, U.add(xp[j], y) // 2, int(case["fee"]), int(case["offpeg"])) if ng else int(case["fee"])
    dy_fee = U.mul(dy, fee_rate) // FEE_DENOMINATOR
    out = U.div(U.mul(U.sub(dy, dy_fee), PRECISION), rates[j])
    admin_out = U.div(U.mul(U.mul(dy_fee, ADMIN_FEE) // FEE_DENOMINATOR, PRECISION), rates[j])
    if ng:
        after = list(xp)
        after[i], after[j] = x, y
        check_oracle_upkeep(after, amp, d)
    else:
        # The stored balances: in grows by dx, out shrinks by what is paid and the admin's share.
        U.add(balances[i], dx)
        U.sub(U.sub(balances[j], out), admin_out)
    # The transfer out: the pool's token balance of coin j, less what it pays.
    U.sub(int(case["tokenBalanceOut"]), out)
    return out


def get_dy(case, rates, balances):
    """NG: the views contract, A from the pool's A() (whole: A_precise // 100, times 100) and its own
    get_D. Legacy: the pool's own computation, exchange's without its writes."""
    i, j, dx = int(case["i"]), int(case["j"]), int(case["dx"])
    ng = case["template"] == "ng"
    if i == j:
        raise Revert("refused")
    xp = [U.mul(r, b) // PRECISION for r, b in zip(rates, balances)]
    amp = amp_at(case, int(case["viewTimestamp"]))
    if ng:
        amp = U.mul(amp // A_PRECISION, A_PRECISION)
    d = get_d(xp, amp, pool_style=not ng)
    x = U.add(xp[i], U.mul(dx, rates[i]) // PRECISION)
    y = get_y(i, j, x, xp, amp, d)
    dy = U.sub(U.sub(xp[j], y), 1)
    fee_rate = dynamic_fee(U.add(xp[i], x) // 2, U.add(xp[j], y) // 2, int(case["fee"]), int(case["offpeg"])) if ng else int(case["fee"])
    fee = U.mul(fee_rate, dy) // FEE_DENOMINATOR
    return U.div(U.mul(U.sub(dy, fee), PRECISION), rates[j])


def load_curvesim_pool():
    """curvesim's CurvePool without its package __init__ (which imports pandas, web3, altair)."""
    try:
        root = os.path.join(sysconfig.get_paths()["purelib"], "curvesim")
        for name, path in (("curvesim", root), ("curvesim.pool", os.path.join(root, "pool")), ("curvesim.pool.stableswap", os.path.join(root, "pool", "stableswap"))):
            module = types.ModuleType(name)
            module.__path__ = [path]
            sys.modules[name] = module
        from curvesim.pool.stableswap.pool import CurvePool  # noqa: PLC0415

        return CurvePool
    except ImportError:
        return None


def curvesim_exchange(curve_pool, case, rates, balances):
    amp = amp_at(case, int(case["timestamp"]))
    if curve_pool is None or amp % A_PRECISION != 0:
        return "skipped"
    multiplier = int(case["offpeg"]) if case["template"] == "ng" else 0
    pool = curve_pool(
        A=amp // A_PRECISION,
        D=list(balances),
        n=len(balances),
        rates=list(rates),
        fee=int(case["fee"]),
        fee_mul=multiplier if multiplier > FEE_DENOMINATOR else None,
        admin_fee=ADMIN_FEE,
    )
    try:
        out, _ = pool.exchange(int(case["i"]), int(case["j"]), int(case["dx"]))
        return str(out)
    except (AssertionError, ZeroDivisionError) as error:
        return f"error: {type(error).__name__}"


def answer(run):
    try:
        return {"out": str(run())}
    except Revert as revert:
        return {"error": revert.kind}


def main():
    curve_pool = load_curvesim_pool()
    for line in sys.stdin:
        if not line.strip():
            continue
        case = json.loads(line)
        balances = [int(b) for b in case["balances"]]
        try:
            rates = stored_rates(case["coins"])
        except Revert as revert:
            sys.stdout.write(json.dumps({"rates": revert.kind}) + "\n")
            continue
        result = {
            "rates": [str(r) for r in rates],
            "exchange": answer(lambda: exchange(case, rates, balances)),
            "get_dy": answer(lambda: get_dy(case, rates, balances)),
            "curvesim": curvesim_exchange(curve_pool, case, rates, balances),
        }
        sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
