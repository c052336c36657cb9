#!/usr/bin/env python3
"""A second implementation of WOOFi's vault (WooPPV2 priced by WooracleV2_2), written apart from
the stand-in contracts (contracts/woofi/) in Python's exact integers, from the published source's
formulas: sPMM sell base, sell quote and base to base through the quote token, the fee in the quote
token, the max notional and max gamma guards, the Wooracle's freshness, Chainlink bound, fallback
and guardian range, and the spread a posted price widens. The whole vault is one state: every
trade moves the shared quote reserve and fee, and the oracle state of the bases it touches.

Solidity 0.8 reverts on overflow, underflow and division by zero, and truncates explicit casts:
every step that could goes through the helpers below, which raise what the EVM would.

Reads one JSON line per vault state (integers as decimal strings; token 0 is the quote token,
1..3 the bases):
  {decimals: [dq, d1, d2, d3],
   pool: {balances[4], reserves[4], feeRates[4], maxGamma[4], maxNotional[4], unclaimedFee, paused},
   oracle: {infos: [[price, coeff, spread] x3], timestamp, staleDuration, bound,
            ranges: [[min, max] x3], answers[4], feedDecimals[4], cloPreferred[3]},
   ops: [...]}
with ops run in order:
  {op: "postState", base, price, spread, coeff, ts}     admin postState(base, p, s, k, ts)
  {op: "postPrice", base, price, blockTs}              admin postPrice(base, p) in a block at blockTs
  {op: "donate", token, amount}                        tokens sent to the pool outside a swap
  {op: "query", from, to, amount, blockTs}             the router's querySwap and tryQuerySwap
  {op: "swap", from, to, amount, minOut, viaRouter, blockTs}
Writes one JSON line per state: {"results": [R per query or swap op]} where a query's R is
{"query": O, "tryQuery": O} with O = {"out"} or {"error"}, and a swap's R is {"error"} or
{"out", "reserves"[4], "unclaimedFee", "infos"[[price, coeff, spread] x3]}.
Errors are the revert string, or "panic 0x11" (arithmetic) / "panic 0x12" (division by zero).
"""
import copy
import json
import sys

WORD = 1 << 256
E18 = 10**18


class Revert(Exception):
    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def need(cond, reason):
    if not cond:
        raise Revert(reason)


def add(a, b):
    r = a + b
    if r >= WORD:
        raise Revert("panic 0x11")
    return r


def sub(a, b):
    if b > a:
        raise Revert("panic 0x11")
    return a - b


def mul(*xs):
    r = 1
    for x in xs:
        r *= x
        if r >= WORD:
            raise Revert("panic 0x11")
    return r


def div(a, b):
    if b == 0:
        raise Revert("panic 0x12")
    return a // b


def pow_u64(base, exp):
    r = base**exp
    if r >= 1 << 64:
        raise Revert("panic 0x11")
    return r


def trunc(x, bits):
    return x % (1 << bits)


class Oracle:
    def __init__(self, o):
        self.infos = [[int(v) for v in info] for info in o["infos"]]  # [price, coeff, spread]
        self.timestamp = int(o["timestamp"])
        self.stale = int(o["staleDuration"])
        self.bound = int(o["bound"])
        self.ranges = [[int(v) for v in r] for r in o["ranges"]]
        self.answers = [int(a) for a in o["answers"]]
        self.feed_decimals = [int(d) for d in o["feedDecimals"]]
        self.clo_preferred = list(o["cloPreferred"])

    def clo_price(self, base):
        # Chainlink in quote units: base answer · 10^(quote feed decimals) / quote answer.
        return div(mul(self.answers[base], 10 ** self.feed_decimals[0]), self.answers[0])

    def price(self, base, now):
        """(price, feasible) of token `base` (0 the quote token, which has a feed but no Wooracle
        price and is not Chainlink-preferred), or raises as the oracle's price() does."""
        wo_price = self.infos[base - 1][0] if base else 0
        ref = self.clo_price(base)
        fresh = wo_price != 0 and now <= add(self.timestamp, self.stale)
        in_bound = ref != 0 and (
            div(mul(ref, sub(E18, self.bound)), E18) <= wo_price and wo_price <= div(mul(ref, add(E18, self.bound)), E18)
        )
        if fresh:
            out, feasible = wo_price, in_bound
        else:
            out = ref if base and self.clo_preferred[base - 1] else 0
            feasible = out != 0
        if feasible:
            lo, hi = self.ranges[base - 1]
            need(out > lo, "WooracleV2_2: !min")
            need(out < hi, "WooracleV2_2: !max")
        return out, feasible

    def state(self, base, now):
        """{price (uint128 of price()), spread, coeff, feasible} as the pool sees it."""
        p, feasible = self.price(base, now)
        if base == 0:
            return {"price": 0, "spread": 0, "coeff": 0, "feasible": feasible}
        _, coeff, spread = self.infos[base - 1]
        return {"price": trunc(p, 128), "spread": spread, "coeff": coeff, "feasible": feasible}

    def _moved_spread(self, base, new_price):
        """1e18 − antiS when the move from the stored price gives antiS < 1e18, else None."""
        pre_p, _, pre_s = self.infos[base - 1]
        hi, lo = max(new_price, pre_p), min(new_price, pre_p)
        anti = (E18 * E18 * lo) // hi // (E18 - pre_s)
        return E18 - anti if anti < E18 else None

    def post_price(self, base, new_price):
        info = self.infos[base - 1]
        if info[0] != 0 and new_price != 0 and info[2] < E18:
            moved = self._moved_spread(base, new_price)
            if moved is not None and trunc(moved, 64) > info[2]:
                info[2] = trunc(moved, 64)
        info[0] = new_price

    def post_state(self, base, new_price, spread, coeff):
        need(spread < E18, "!_spread")
        info = self.infos[base - 1]
        if info[0] == 0 or new_price == 0 or info[2] >= E18:
            info[2] = spread
        else:
            moved = self._moved_spread(base, new_price)
            info[2] = max(trunc(moved, 64), spread) if moved is not None else spread
        info[0] = new_price
        info[1] = coeff


class Vault:
    def __init__(self, case):
        self.dec = [int(d) for d in case["decimals"]]
        p = case["pool"]
        self.balances = [int(v) for v in p["balances"]]
        self.reserves = [int(v) for v in p["reserves"]]
        self.fee_rates = [int(v) for v in p["feeRates"]]
        self.max_gamma = [int(v) for v in p["maxGamma"]]
        self.max_notional = [int(v) for v in p["maxNotional"]]
        self.unclaimed = int(p["unclaimedFee"])
        self.paused = bool(p["paused"])
        self.oracle = Oracle(case["oracle"])

    # The pool's balance(): the quote token's excludes the unclaimed fee.
    def balance(self, t):
        return sub(self.balances[t], self.unclaimed) if t == 0 else self.balances[t]

    def decs(self, base):
        # priceDec: 10^wooracle.decimals(base) = 10^8; then the quote's and the base's decimals.
        return pow_u64(10, 8), pow_u64(10, self.dec[0]), pow_u64(10, self.dec[base])

    def not_paused(self):
        need(not self.paused, "Pausable: paused")

    def calc_sell_base(self, base, amount, st):
        need(st["feasible"], "WooPPV2: !ORACLE_FEASIBLE")
        need(st["price"] > 0, "WooPPV2: !ORACE_PRICE")
        price_dec, quote_dec, base_dec = self.decs(base)
        p = st["price"]
        notional = div(div(mul(amount, p, quote_dec), base_dec), price_dec)
        need(notional <= self.max_notional[base], "WooPPV2: !maxNotionalValue")
        gamma = div(div(mul(amount, p, st["coeff"]), price_dec), base_dec)
        need(gamma <= self.max_gamma[base], "WooPPV2: !gamma")
        gross = div(mul(amount, p, quote_dec), price_dec)
        quote = div(div(mul(gross, sub(sub(E18, gamma), st["spread"])), E18), base_dec)
        new_price = div(mul(sub(E18, gamma), p), E18)
        return quote, new_price

    def calc_sell_quote(self, base, quote, st):
        need(st["feasible"], "WooPPV2: !ORACLE_FEASIBLE")
        need(st["price"] > 0, "WooPPV2: !ORACE_PRICE")
        price_dec, quote_dec, base_dec = self.decs(base)
        p = st["price"]
        need(quote <= self.max_notional[base], "WooPPV2: !maxNotionalValue")
        gamma = div(mul(quote, st["coeff"]), quote_dec)
        need(gamma <= self.max_gamma[base], "WooPPV2: !gamma")
        gross = div(mul(quote, base_dec, price_dec), p)
        out = div(div(mul(gross, sub(sub(E18, gamma), st["spread"])), E18), quote_dec)
        new_price = div(mul(E18, p), sub(E18, gamma))
        return out, new_price

    def pair_states(self, b1, b2, now):
        s1 = dict(self.oracle.state(b1, now))
        s2 = dict(self.oracle.state(b2, now))
        spread = max(s1["spread"], s2["spread"]) // 2
        s1["spread"] = s2["spread"] = spread
        return s1, s2, max(self.fee_rates[b1], self.fee_rates[b2])

    # ----- views -----
    def try_query(self, frm, to, amount, now):
        """(toAmount, base-to-base swap fee or None) as tryQuery computes it."""
        self.not_paused()
        if frm == 0:
            q = sub(amount, div(mul(amount, self.fee_rates[to]), 100000))
            return self.calc_sell_quote(to, q, self.oracle.state(to, now))[0], None
        if to == 0:
            q, _ = self.calc_sell_base(frm, amount, self.oracle.state(frm, now))
            return sub(q, div(mul(q, self.fee_rates[frm]), 100000)), None
        s1, s2, fee_rate = self.pair_states(frm, to, now)
        q, _ = self.calc_sell_base(frm, amount, s1)
        fee = div(mul(q, fee_rate), 100000)
        return self.calc_sell_quote(to, sub(q, fee), s2)[0], fee

    def query(self, frm, to, amount, now):
        out, fee = self.try_query(frm, to, amount, now)
        if fee is not None:
            need(fee <= self.reserves[0], "WooPPV2: INSUFF_QUOTE_FOR_SWAPFEE")
        need(out <= self.reserves[to], "WooPPV2: INSUFF_BALANCE")
        return out

    # ----- swaps (the pool's swap, tokens already received) -----
    def swap(self, frm, to, amount, min_out, now):
        if frm == 0:
            return self.sell_quote(to, amount, min_out, now)
        if to == 0:
            return self.sell_base(frm, amount, min_out, now)
        return self.base_to_base(frm, to, amount, min_out, now)

    def sell_base(self, base, amount, min_out, now):
        self.not_paused()
        need(sub(self.balance(base), self.reserves[base]) >= amount, "WooPPV2: !BASE")
        quote, new_price = self.calc_sell_base(base, amount, self.oracle.state(base, now))
        self.oracle.post_price(base, trunc(new_price, 128))
        fee = div(mul(quote, self.fee_rates[base]), 100000)
        quote = sub(quote, fee)
        need(quote >= min_out, "WooPPV2: quoteAmount_LT_minQuoteAmount")
        self.unclaimed = add(self.unclaimed, fee)
        self.reserves[base] = trunc(add(self.reserves[base], amount), 192)
        self.reserves[0] = trunc(sub(sub(self.reserves[0], quote), fee), 192)
        self.pay(0, quote)
        return quote

    def sell_quote(self, base, amount, min_out, now):
        self.not_paused()
        need(base != 0, "WooPPV2: baseToken==quoteToken")
        need(sub(self.balance(0), self.reserves[0]) >= amount, "WooPPV2: !QUOTE")
        fee = div(mul(amount, self.fee_rates[base]), 100000)
        quote = sub(amount, fee)
        self.unclaimed = add(self.unclaimed, fee)
        out, new_price = self.calc_sell_quote(base, quote, self.oracle.state(base, now))
        self.oracle.post_price(base, trunc(new_price, 128))
        need(out >= min_out, "WooPPV2: baseAmount_LT_minBaseAmount")
        self.reserves[base] = trunc(sub(self.reserves[base], out), 192)
        self.reserves[0] = trunc(add(self.reserves[0], quote), 192)
        self.pay(base, out)
        return out

    def base_to_base(self, b1, b2, amount, min_out, now):
        self.not_paused()
        need(b1 != b2, "WooPPV2: base1==base2")
        need(sub(self.balance(b1), self.reserves[b1]) >= amount, "WooPPV2: !BASE1_BALANCE")
        s1, s2, fee_rate = self.pair_states(b1, b2, now)
        quote, new1 = self.calc_sell_base(b1, amount, s1)
        self.oracle.post_price(b1, trunc(new1, 128))
        fee = div(mul(quote, fee_rate), 100000)
        quote = sub(quote, fee)
        self.unclaimed = add(self.unclaimed, fee)
        self.reserves[0] = trunc(sub(self.reserves[0], fee), 192)
        self.reserves[b1] = trunc(add(self.reserves[b1], amount), 192)
        out, new2 = self.calc_sell_quote(b2, quote, s2)
        self.oracle.post_price(b2, trunc(new2, 128))
        need(out >= min_out, "WooPPV2: base2Amount_LT_minBase2Amount")
        self.reserves[b2] = trunc(sub(self.reserves[b2], out), 192)
        self.pay(b2, out)
        return out

    def pay(self, t, amount):
        # The ERC-20 transfer out of the pool (the test tokens revert on an insufficient balance).
        need(self.balances[t] >= amount, "transfer amount exceeds balance")
        self.balances[t] -= amount


def outcome(fn):
    try:
        return {"out": str(fn())}
    except Revert as r:
        return {"error": r.reason}


def run(case):
    vault = Vault(case)
    results = []
    for op in case["ops"]:
        kind = op["op"]
        if kind == "postState":
            # A setup step: the test only posts valid spreads, so it does not revert.
            vault.oracle.post_state(op["base"], int(op["price"]), int(op["spread"]), int(op["coeff"]))
            vault.oracle.timestamp = int(op["ts"])
        elif kind == "postPrice":
            vault.oracle.post_price(op["base"], int(op["price"]))
            vault.oracle.timestamp = int(op["blockTs"])
        elif kind == "donate":
            vault.balances[op["token"]] += int(op["amount"])
        elif kind == "query":
            now, frm, to, amount = int(op["blockTs"]), op["from"], op["to"], int(op["amount"])
            results.append(
                {
                    "query": outcome(lambda: vault.query(frm, to, amount, now)),
                    "tryQuery": outcome(lambda: vault.try_query(frm, to, amount, now)[0]),
                }
            )
        elif kind == "swap":
            now, frm, to, amount, min_out = int(op["blockTs"]), op["from"], op["to"], int(op["amount"]), int(op["minOut"])
            saved = copy.deepcopy(vault.__dict__)
            try:
                if op["viaRouter"]:
                    # The router pulls the input into the pool inside the same transaction.
                    vault.balances[frm] += amount
                out = vault.swap(frm, to, amount, min_out, now)
                results.append(
                    {
                        "out": str(out),
                        "reserves": [str(r) for r in vault.reserves],
                        "unclaimedFee": str(vault.unclaimed),
                        "infos": [[str(v) for v in info] for info in vault.oracle.infos],
                    }
                )
            except Revert as r:
                vault.__dict__.update(saved)
                results.append({"error": r.reason})
        else:
            raise ValueError(f"unknown op {kind}")
    return {"results": results}


def main():
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(run(json.loads(line))), flush=True)


if __name__ == "__main__":
    main()
