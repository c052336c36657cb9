#!/usr/bin/env python3
"""A second implementation of Curve StableSwap pools' swaps, written apart from the chain's code and
from the solver, in Python's exact integers, from the published math of two templates:
- "ng": curvefi/stableswap-ng CurveStableSwapNG.vy v7.0.0 (_stored_rates, _A, get_D, get_y,
  _dynamic_fee, __exchange, _get_p/upkeep_oracles' bounds, _transfer_out) and the views contract
  CurveStableSwapNGViews v1.2.0 (get_dy) that its get_dy calls;
- "legacy": curvefi/curve-factory Plain2Basic/Plain3Basic (exchange and get_dy share one
  computation with a static fee; balances in storage, the admin's share left out of them);
- "original": curvefi/curve-contract's 3pool-era template (contracts/pools/3pool/StableSwap3Pool.vy,
  Vyper 0.2.4): A stored as it is (no A_PRECISION: Ann * S and (Ann - 1) * D in get_D, D / Ann in
  get_y), get_D's and get_y's loops breaking at a difference of 1 and otherwise returning their
  255th iterate (no raise), the admin's share of the fee its stored admin_fee (case "adminFee");
- "meta": curve-factory MetaUSD over such a base pool (rates: its coin's multiplier and the base
  pool's virtual price; exchange_underlying through the base pool's add_liquidity,
  remove_liquidity_one_coin and exchange, whose fees and state changes are followed), and the
  pre-factory curve-contract SwapTemplateMeta, the same swaps with the base pool's virtual price
  cached (_vp_rate: the stored base_virtual_price while block.timestamp <= base_cache_updated +
  600, else the base pool's, stored with the timestamp, before any path).

Vyper checks every uint256 operation: a result outside [0, 2^256) or a division by zero reverts
(`U` from solidly_pool.py raises instead, as there). `unsafe_div` only skips the zero check of a
constant divisor, which changes nothing here.

It also asks curvesim (PyPI, Curve's simulator; only its pool math is loaded, without the package's
plotting and data imports) for the same exchange when the pool's A is whole (curvesim has no
A_PRECISION, so a ramp's fractional A is outside it) and the exchange pays: {"curvesim": "<out>"}
or "skipped".

Reads JSON lines (integers as decimal strings):
  {template: ng|legacy|original, coins: [{decimals, kind: plain|oracle|erc4626, oracleRate?, assetsPerShare?, underlyingDecimals?}],
   balances, tokenBalanceOut, initialA, futureA, initialATime, futureATime, timestamp, viewTimestamp,
   fee, offpeg, adminFee (original), i, j, dx}
where balances are the pool's own (stored minus admin), A values are stored ones (A x 100; the
original template's A itself),
`timestamp` is the block that executes `exchange`, `viewTimestamp` the one `get_dy` is read at.
Writes one JSON line each: {"exchange": {"out"|"error"}, "get_dy": {...}, "rates": [...], "curvesim": ...}.
A meta case is {template: meta, kind: exchange|underlying, meta: {balances, decimals, fee, A..., held},
base: {coins, balances, totalSupply, fee, A..., held}, timestamp, i, j, dx, senderHeld, and for the
pre-factory template baseVirtualPrice, baseCacheUpdated; base.template "original" with base.adminFee
for a base pool of the original template, as the pre-factory meta pools' 3pool} (`held`: the pools' token balances of their
coins, `senderHeld` the sender's of its input, for the transfers' checks), answered
{"exchange": {"out"|"error"}} and, for a cached pool that paid, {"cache": {baseVirtualPrice, baseCacheUpdated}} after it.
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


# Whether an original-template loop ran to its cap in the current case (curvesim's loops have no cap:
# such a case is not asked of it).
ORIGINAL_CAPPED = [False]


def at_cap(strict, value):
    """The end of 255 rounds: NG and the legacy template raise, the original returns the last iterate."""
    if strict:
        raise Revert("no convergence")
    ORIGINAL_CAPPED[0] = True
    return value


def get_d(xp, amp, pool_style, a_precision=A_PRECISION, strict=True):
    """The invariant. pool_style: the pool divides D_P by x*N each step; the views contract divides
    by x, then once by N^N. a_precision: A's stored unit (1 in the original template)."""
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
        numerator = U.mul(U.add(U.mul(ann, s) // a_precision, U.mul(d_p, n)), d)
        denominator = U.add(U.mul(U.sub(ann, a_precision), d) // a_precision, U.mul(n + 1, d_p))
        d = U.div(numerator, denominator)
        if converged(d, d_prev):
            return d
    return at_cap(strict, d)


def newton_y(b, c, d, strict=True):
    """y <- (y^2 + c) / (2y + b - D) from y = D, to a difference of at most 1."""
    y = d
    for _ in range(255):
        y_prev = y
        y = U.div(U.add(U.mul(y, y), c), U.sub(U.add(U.mul(2, y), b), d))
        if converged(y, y_prev):
            return y
    return at_cap(strict, y)


def solve_y(others, n, amp, d, a_precision=A_PRECISION, strict=True):
    """The balance of the remaining coin of an n-coin pool on the invariant d, the other coins'
    balances being `others` (in their order): get_y's and get_y_D's common part."""
    ann = U.mul(amp, n)
    s = 0
    c = d
    for xk in others:
        s = U.add(s, xk)
        c = U.div(U.mul(c, d), U.mul(xk, n))
    c = U.div(U.mul(U.mul(c, d), a_precision), U.mul(ann, n))
    return newton_y(U.add(s, U.div(U.mul(d, a_precision), ann)), c, d, strict)


def get_y(i, j, x, xp, amp, d):
    """get_y: the balance of coin j when coin i becomes x."""
    return solve_y([x if k == i else xp[k] for k in range(len(xp)) if k != j], len(xp), amp, d)


def get_y_d(amp, i, xp, d):
    """get_y_D: the balance of coin i that puts the others on the invariant d."""
    return solve_y([xp[k] for k in range(len(xp)) if k != i], len(xp), amp, d)


def original_get_d(xp, amp):
    """StableSwap3Pool.get_D: Ann * S and (Ann - 1) * D with A as stored, the last iterate at the cap."""
    return get_d(xp, amp, pool_style=True, a_precision=1, strict=False)


def original_get_y(i, j, x, xp, amp):
    """StableSwap3Pool.get_y: D from its get_D, then y for coin j with coin i at x (D / Ann)."""
    others = [x if k == i else xp[k] for k in range(len(xp)) if k != j]
    return solve_y(others, len(xp), amp, original_get_d(xp, amp), a_precision=1, strict=False)


def original_get_y_d(amp, i, xp, d):
    """StableSwap3Pool.get_y_D: coin i's balance on the invariant d."""
    others = [xp[k] for k in range(len(xp)) if k != i]
    return solve_y(others, len(xp), amp, d, a_precision=1, strict=False)


def original_exchange(case, rates, balances):
    """StableSwap3Pool.exchange: dy = xp[j] - y - 1, the fee on it, both back to coin j's units; the
    admin's share of the fee by the stored admin_fee."""
    i, j, dx = int(case["i"]), int(case["j"]), int(case["dx"])
    if i == j:
        raise Revert("refused")
    xp = [U.mul(r, b) // PRECISION for r, b in zip(rates, balances)]
    x = U.add(xp[i], U.mul(dx, rates[i]) // PRECISION)
    y = original_get_y(i, j, x, xp, amp_at(case, int(case["timestamp"])))
    dy = U.sub(U.sub(xp[j], y), 1)
    dy_fee = U.mul(dy, int(case["fee"])) // FEE_DENOMINATOR
    out = U.div(U.mul(U.sub(dy, dy_fee), PRECISION), rates[j])
    admin_out = U.div(U.mul(U.mul(dy_fee, int(case["adminFee"])) // FEE_DENOMINATOR, PRECISION), rates[j])
    U.add(balances[i], dx)
    U.sub(U.sub(balances[j], out), admin_out)
    U.sub(int(case["tokenBalanceOut"]), out)
    return out


def original_get_dy(case, rates, balances):
    """StableSwap3Pool.get_dy: unlike exchange, dy is taken back to coin units before the fee."""
    i, j, dx = int(case["i"]), int(case["j"]), int(case["dx"])
    if i == j:
        raise Revert("refused")
    xp = [U.mul(r, b) // PRECISION for r, b in zip(rates, balances)]
    x = U.add(xp[i], U.mul(dx, rates[i]) // PRECISION)
    y = original_get_y(i, j, x, xp, amp_at(case, int(case["viewTimestamp"])))
    dy = U.div(U.mul(U.sub(U.sub(xp[j], y), 1), PRECISION), rates[j])
    return U.sub(dy, U.mul(int(case["fee"]), dy) // FEE_DENOMINATOR)


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


class LegacyPool:
    """A legacy template pool's state (plain: the base pool; meta: rates given) and what its
    functions do to it, with the template's checked arithmetic."""

    def __init__(self, state, rates, timestamp):
        self.original = state.get("template") == "original"
        self.admin_fee = int(state["adminFee"]) if self.original else ADMIN_FEE
        self.balances = [int(b) for b in state["balances"]]
        self.rates = rates
        self.fee = int(state["fee"])
        self.supply = int(state.get("totalSupply", "0"))
        self.amp = amp_at(state, timestamp)
        self.n = len(self.balances)

    def xp(self, balances=None):
        return [U.mul(r, b) // PRECISION for r, b in zip(self.rates, balances or self.balances)]

    def d(self, balances=None):
        return self.get_d(self.xp(balances))

    def get_d(self, xp):
        return original_get_d(xp, self.amp) if self.original else get_d(xp, self.amp, pool_style=True)

    def get_y_d(self, i, xp, d):
        return original_get_y_d(self.amp, i, xp, d) if self.original else get_y_d(self.amp, i, xp, d)

    def swap_math(self, i, j, x, xp):
        """dy paid and the admin's share, both in coin j's units."""
        if self.original:
            y = original_get_y(i, j, x, xp, self.amp)
        else:
            y = get_y(i, j, x, xp, self.amp, get_d(xp, self.amp, pool_style=True))
        dy = U.sub(U.sub(xp[j], y), 1)
        dy_fee = U.mul(dy, self.fee) // FEE_DENOMINATOR
        out = U.div(U.mul(U.sub(dy, dy_fee), PRECISION), self.rates[j])
        return out, U.div(U.mul(U.mul(dy_fee, self.admin_fee) // FEE_DENOMINATOR, PRECISION), self.rates[j])

    def exchange(self, i, j, dx):
        xp = self.xp()
        out, admin_out = self.swap_math(i, j, U.add(xp[i], U.mul(dx, self.rates[i]) // PRECISION), xp)
        self.balances[i] = U.add(self.balances[i], dx)
        self.balances[j] = U.sub(U.sub(self.balances[j], out), admin_out)
        return out

    def add_liquidity(self, amounts):
        """A deposit into a funded pool: the imbalance fee, then LP tokens for D's growth."""
        d0 = self.d()
        new = [U.add(b, a) for b, a in zip(self.balances, amounts)]
        d1 = self.d(new)
        if d1 <= d0:
            raise Revert("refused")
        base_fee = U.mul(self.fee, self.n) // (4 * (self.n - 1))
        stored = []
        for k in range(self.n):
            ideal = U.div(U.mul(d1, self.balances[k]), d0)
            difference = ideal - new[k] if ideal > new[k] else new[k] - ideal
            fee = U.mul(base_fee, difference) // FEE_DENOMINATOR
            stored.append(U.sub(new[k], U.mul(fee, self.admin_fee) // FEE_DENOMINATOR))
            new[k] = U.sub(new[k], fee)
        mint = U.div(U.mul(self.supply, U.sub(self.d(new), d0)), d0)
        self.balances = stored
        self.supply = U.add(self.supply, mint)
        return mint

    def remove_liquidity_one_coin(self, burn, i):
        xp = self.xp()
        d0 = self.get_d(xp)
        d1 = U.sub(d0, U.div(U.mul(burn, d0), self.supply))
        new_y = self.get_y_d(i, xp, d1)
        base_fee = U.mul(self.fee, self.n) // (4 * (self.n - 1))
        reduced = []
        for k in range(self.n):
            expected = U.sub(U.div(U.mul(xp[k], d1), d0), new_y) if k == i else U.sub(xp[k], U.div(U.mul(xp[k], d1), d0))
            reduced.append(U.sub(xp[k], U.mul(base_fee, expected) // FEE_DENOMINATOR))
        dy = U.sub(reduced[i], self.get_y_d(i, reduced, d1))
        dy_0 = U.div(U.mul(U.sub(xp[i], new_y), PRECISION), self.rates[i])
        dy = U.div(U.mul(U.sub(dy, 1), PRECISION), self.rates[i])
        self.balances[i] = U.sub(self.balances[i], U.add(dy, U.mul(U.sub(dy_0, dy), self.admin_fee) // FEE_DENOMINATOR))
        self.supply = U.sub(self.supply, burn)
        return dy


BASE_CACHE_EXPIRES = 10 * 60


def vp_rate(case, base, timestamp):
    """_vp_rate(): the stored price while fresh, else the base pool's get_virtual_price(), which a
    cached pool stores (in case["cacheAfter"]) with the block's timestamp."""
    if "baseVirtualPrice" in case:
        stored, updated = int(case["baseVirtualPrice"]), int(case["baseCacheUpdated"])
        case["cacheAfter"] = (stored, updated)
        if timestamp <= updated + BASE_CACHE_EXPIRES:
            return stored
    price = U.div(U.mul(base.d(), PRECISION), base.supply)
    if "baseVirtualPrice" in case:
        case["cacheAfter"] = (price, timestamp)
    return price


def meta_swap(case):
    """A meta pool over a legacy base pool: `exchange` between its two coins, or
    `exchange_underlying` over its coin (0) and the base pool's coins (1..)."""
    timestamp = int(case["timestamp"])
    base = LegacyPool(case["base"], stored_rates(case["base"]["coins"]), timestamp)
    virtual_price = vp_rate(case, base, timestamp)
    meta = LegacyPool(case["meta"], [10 ** (36 - int(case["meta"]["decimals"])), virtual_price], timestamp)
    i, j, dx = int(case["i"]), int(case["j"]), int(case["dx"])
    # The sender pays dx first (its token's balance check).
    U.sub(int(case["senderHeld"]), dx)
    # What the meta pool holds of its coin and of the base LP token, and the base pool of its coins.
    held = [int(h) for h in case["meta"]["held"]]
    if case["kind"] == "exchange":
        out = meta.exchange(i, j, dx)
        U.sub(held[j], out)
        return out
    if i == j:
        raise Revert("refused")
    if i > 0 and j > 0:
        out = base.exchange(i - 1, j - 1, dx)
        U.sub(int(case["base"]["held"][j - 1]), out)
        return out
    xp = meta.xp()
    if i == 0:
        dx_in = dx
        x = U.add(xp[0], U.mul(dx, meta.rates[0]) // PRECISION)
    else:
        amounts = [0] * base.n
        amounts[i - 1] = dx
        dx_in = base.add_liquidity(amounts)
        x = U.add(U.mul(dx_in, meta.rates[1]) // PRECISION, xp[1])
    meta_i, meta_j = (0, 1) if i == 0 else (1, 0)
    out, admin_out = meta.swap_math(meta_i, meta_j, x, xp)
    meta.balances[meta_i] = U.add(meta.balances[meta_i], dx_in)
    meta.balances[meta_j] = U.sub(U.sub(meta.balances[meta_j], out), admin_out)
    if j == 0:
        U.sub(held[0], out)
        return out
    U.sub(held[1], out)
    out = base.remove_liquidity_one_coin(out, j - 1)
    U.sub(int(case["base"]["held"][j - 1]), out)
    return out


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
    original = case["template"] == "original"
    if curve_pool is None or (not original and amp % A_PRECISION != 0) or (original and ORIGINAL_CAPPED[0]):
        return "skipped"
    multiplier = int(case["offpeg"]) if case["template"] == "ng" else 0
    pool = curve_pool(
        # curvesim's A is the original template's: unscaled, whatever it is along a ramp.
        A=amp if original else amp // A_PRECISION,
        D=list(balances),
        n=len(balances),
        rates=list(rates),
        fee=int(case["fee"]),
        fee_mul=multiplier if multiplier > FEE_DENOMINATOR else None,
        admin_fee=int(case["adminFee"]) if original else ADMIN_FEE,
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
        if case["template"] == "meta":
            result = {"exchange": answer(lambda: meta_swap(case))}
            if "out" in result["exchange"] and "cacheAfter" in case:
                price, updated = case["cacheAfter"]
                result["cache"] = {"baseVirtualPrice": str(price), "baseCacheUpdated": str(updated)}
            sys.stdout.write(json.dumps(result) + "\n")
            continue
        balances = [int(b) for b in case["balances"]]
        try:
            rates = stored_rates(case["coins"])
        except Revert as revert:
            sys.stdout.write(json.dumps({"rates": revert.kind}) + "\n")
            continue
        original = case["template"] == "original"
        ORIGINAL_CAPPED[0] = False
        paid = answer(lambda: (original_exchange if original else exchange)(case, rates, balances))
        result = {
            "rates": [str(r) for r in rates],
            "exchange": paid,
            "get_dy": answer(lambda: (original_get_dy if original else get_dy)(case, rates, balances)),
            # Only where the pool pays: curvesim's Newton loops have no iteration cap, so a state
            # whose D does not converge (the pool reverts) would keep it looping for ever.
            "curvesim": curvesim_exchange(curve_pool, case, rates, balances) if "out" in paid else "skipped",
        }
        sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
