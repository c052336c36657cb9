#!/usr/bin/env python3
"""A second implementation of a LunarBase PMM pool's exact-input quote and swap, written apart from
the stand-in contract (contracts/lunarbase/LunarPool.sol) in Python's exact integers, from the
published math: the current pool (Q64.96 uint160 anchor, directional Q24 fees, the punishment a
swap adds to its direction's fee, the caller's fee multiplier), as LunarBase's `lunarbase-pmm-math`
0.4.x packages and KyberSwap's Go port describe it, and the trading ABI's reverts.

Solidity reverts where a result does not fit 256 bits or a divisor is zero; Python integers never
overflow, so every step that could goes through `mul_div`, which raises instead.

Reads one JSON line per pool state:
  {anchor, feeAsk, feeBid, maxPunishment, reserveX, reserveY, latestUpdateBlock, blockDelay,
   multiplier, trades: [{xToY, amountIn, minOut, quoteBlock, swapBlock}]}
(integers as decimal strings). The trades run in order, each on the state the previous swap left.
Writes one JSON line per state: {"trades": [{"quote": Q, "swap": S}]} where Q is
{"out", "fee"} or {"error"} and S is {"out", "fee", "feeAsk", "feeBid", "reserveX", "reserveY"}
or {"error": "StalePrice" | "SwapImpossible" | "InsufficientOutput" | "SafeCastOverflowedUintDowncast" | "overflow"}.
"""
import json
import sys

Q24 = 1 << 24
Q96 = 1 << 96
MAX_U24 = Q24 - 1
MAX_U112 = (1 << 112) - 1
WORD = 1 << 256


class Revert(Exception):
    def __init__(self, kind):
        super().__init__(kind)
        self.kind = kind


def mul_div(a, b, d, up=False):
    """floor (or ceil) of a*b/d, reverting as a 512-bit mulDiv does: d = 0 or a result >= 2^256."""
    if d == 0:
        raise Revert("overflow")
    q, r = divmod(a * b, d)
    if up and r:
        q += 1
    if q >= WORD:
        raise Revert("overflow")
    return q


def value_in_y(amount_x, anchor):
    return mul_div(mul_div(amount_x, anchor, Q96), anchor, Q96)


def value_in_x(amount_y, anchor):
    return mul_div(mul_div(amount_y, Q96, anchor), Q96, anchor)


class Pool:
    def __init__(self, s):
        self.anchor = int(s["anchor"])
        self.fee_ask = int(s["feeAsk"])
        self.fee_bid = int(s["feeBid"])
        self.max_punishment = int(s["maxPunishment"])
        self.rx = int(s["reserveX"])
        self.ry = int(s["reserveY"])
        self.updated = int(s["latestUpdateBlock"])
        self.delay = int(s["blockDelay"])
        self.multiplier = int(s["multiplier"])

    def fresh(self, block):
        return block < self.updated + self.delay

    def punishment(self, x_to_y, amount):
        """The fee increment (Q24) this input adds; the stored sentinel 0xffffff means a full 2^24."""
        if amount == 0 or self.max_punishment == 0 or self.anchor == 0:
            return 0
        inventory = value_in_y(self.rx, self.anchor) + self.ry
        if inventory >= WORD:
            raise Revert("overflow")
        if inventory == 0:
            return 0
        swap_value = value_in_y(amount, self.anchor) if x_to_y else amount
        if swap_value == 0:
            return 0
        top = Q24 if self.max_punishment == MAX_U24 else self.max_punishment
        wanted = top if swap_value >= inventory else mul_div(top, swap_value, inventory, up=True)
        return MAX_U24 if wanted >= Q24 else wanted

    def price(self, x_to_y, amount):
        """(net out, fee, the direction's fee after this swap); out 0 when the pool refuses."""
        stored = self.fee_bid if x_to_y else self.fee_ask
        effective = min(stored + self.punishment(x_to_y, amount), MAX_U24)
        if x_to_y:
            gross, limit = value_in_y(amount, self.anchor), self.ry
        else:
            if self.anchor == 0:
                return 0, 0, effective
            gross, limit = value_in_x(amount, self.anchor), self.rx
        if gross == 0 or gross > limit:
            return 0, 0, effective
        if effective == MAX_U24:
            return 0, gross, effective
        fee = gross * effective // Q24
        if self.multiplier > 1 and fee > 0:
            fee *= self.multiplier
            if fee >= WORD or fee >= gross:
                return 0, gross, effective
        return gross - fee, fee, effective

    def quote(self, x_to_y, amount, block):
        if not self.fresh(block):
            return {"out": "0", "fee": "0"}
        try:
            out, fee, _ = self.price(x_to_y, amount)
        except Revert as r:
            return {"error": r.kind}
        return {"out": str(out), "fee": str(fee)}

    def swap(self, x_to_y, amount, min_out, block):
        if not self.fresh(block):
            return {"error": "StalePrice"}
        try:
            out, fee, effective = self.price(x_to_y, amount)
        except Revert as r:
            return {"error": r.kind}
        if out == 0:
            return {"error": "SwapImpossible"}
        if out < min_out:
            return {"error": "InsufficientOutput"}
        reserve_in = (self.rx if x_to_y else self.ry) + amount
        if reserve_in > MAX_U112:
            return {"error": "SafeCastOverflowedUintDowncast"}
        if x_to_y:
            self.rx, self.ry, self.fee_bid = reserve_in, self.ry - out - fee, effective
        else:
            self.ry, self.rx, self.fee_ask = reserve_in, self.rx - out - fee, effective
        return {
            "out": str(out),
            "fee": str(fee),
            "feeAsk": str(self.fee_ask),
            "feeBid": str(self.fee_bid),
            "reserveX": str(self.rx),
            "reserveY": str(self.ry),
        }


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        s = json.loads(line)
        pool = Pool(s)
        answers = []
        for t in s["trades"]:
            x_to_y, amount = bool(t["xToY"]), int(t["amountIn"])
            quote = pool.quote(x_to_y, amount, int(t["quoteBlock"]))
            swap = pool.swap(x_to_y, amount, int(t["minOut"]), int(t["swapBlock"]))
            answers.append({"quote": quote, "swap": swap})
        sys.stdout.write(json.dumps({"trades": answers}) + "\n")


if __name__ == "__main__":
    main()
