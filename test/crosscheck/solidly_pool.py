#!/usr/bin/env python3
"""A second implementation of an Aerodrome (Solidly) pool's exact-input swap, written apart from the
solver (solver-rs/src/pools/solidly/) in Python's exact integers, from the pool's published
interface and math (aerodrome-finance/contracts, contracts/Pool.sol: getAmountOut, _getAmountOut,
_k, _f, _d, _get_y, and swap's checks).

Solidity 0.8 checks every operation: a result outside [0, 2^256) or a division by zero reverts.
Python integers never overflow, so every operation goes through `U`, which raises instead.

Reads JSON lines {r0, r1, dec0, dec1, stable, fee, amountIn, zeroForOne} (integers as decimal
strings), writes one JSON line per input: {"out": "<decimal>"} when swap() pays that, else
{"error": "overflow" | "division" | "no convergence" | "refused"}.
"""
import json
import sys

WORD = 1 << 256
ONE = 10**18


class Revert(Exception):
    def __init__(self, kind):
        super().__init__(kind)
        self.kind = kind


class U:
    """uint256 arithmetic with Solidity 0.8's checks."""

    @staticmethod
    def fit(x):
        if x < 0 or x >= WORD:
            raise Revert("overflow")
        return x

    @staticmethod
    def add(a, b):
        return U.fit(a + b)

    @staticmethod
    def sub(a, b):
        return U.fit(a - b)

    @staticmethod
    def mul(a, b):
        return U.fit(a * b)

    @staticmethod
    def div(a, b):
        if b == 0:
            raise Revert("division")
        return a // b


class Pool:
    def __init__(self, r0, r1, dec0, dec1, stable, fee):
        self.r0, self.r1 = r0, r1
        # The pool stores 10^decimals, not the count.
        self.scale0, self.scale1 = 10**dec0, 10**dec1
        self.stable = stable
        self.fee = fee

    def f(self, x0, y):
        a = U.div(U.mul(x0, y), ONE)
        b = U.add(U.div(U.mul(x0, x0), ONE), U.div(U.mul(y, y), ONE))
        return U.div(U.mul(a, b), ONE)

    def d(self, x0, y):
        left = U.div(U.mul(U.mul(3, x0), U.div(U.mul(y, y), ONE)), ONE)
        right = U.div(U.mul(U.div(U.mul(x0, x0), ONE), x0), ONE)
        return U.add(left, right)

    def k(self, x, y):
        if not self.stable:
            return U.mul(x, y)
        xn = U.div(U.mul(x, ONE), self.scale0)
        yn = U.div(U.mul(y, ONE), self.scale1)
        a = U.div(U.mul(xn, yn), ONE)
        b = U.add(U.div(U.mul(xn, xn), ONE), U.div(U.mul(yn, yn), ONE))
        return U.div(U.mul(a, b), ONE)

    def get_y(self, x0, xy, y):
        for _ in range(255):
            k = self.f(x0, y)
            if k < xy:
                dy = U.div(U.mul(U.sub(xy, k), ONE), self.d(x0, y))
                if dy == 0:
                    if k == xy:
                        return y
                    # The published code tests y + 1 with _k (which normalises by the decimals
                    # again), not _f: kept as published.
                    if self.k(x0, U.add(y, 1)) > xy:
                        return U.add(y, 1)
                    dy = 1
                y = U.add(y, dy)
            else:
                dy = U.div(U.mul(U.sub(k, xy), ONE), self.d(x0, y))
                if dy == 0:
                    if k == xy:
                        return y
                    if self.f(x0, U.sub(y, 1)) < xy:
                        return y
                    dy = 1
                y = U.sub(y, dy)
        raise Revert("no convergence")

    def amount_out(self, amount_in, zero_for_one):
        """getAmountOut(amountIn, tokenIn): the fee floored off the input, then the curve."""
        net = U.sub(amount_in, U.div(U.mul(amount_in, self.fee), 10_000))
        if not self.stable:
            r_in, r_out = (self.r0, self.r1) if zero_for_one else (self.r1, self.r0)
            return U.div(U.mul(net, r_out), U.add(r_in, net))
        xy = self.k(self.r0, self.r1)
        n0 = U.div(U.mul(self.r0, ONE), self.scale0)
        n1 = U.div(U.mul(self.r1, ONE), self.scale1)
        r_a, r_b = (n0, n1) if zero_for_one else (n1, n0)
        scale_in, scale_out = (self.scale0, self.scale1) if zero_for_one else (self.scale1, self.scale0)
        net_n = U.div(U.mul(net, ONE), scale_in)
        y = U.sub(r_b, self.get_y(U.add(net_n, r_a), xy, r_b))
        return U.div(U.mul(y, scale_out), ONE)

    def swap(self, amount_in, zero_for_one):
        """What swap() pays when sent `amount_in` and asked for getAmountOut: its own checks."""
        out = self.amount_out(amount_in, zero_for_one)
        r_in, r_out = (self.r0, self.r1) if zero_for_one else (self.r1, self.r0)
        if out == 0 or out >= r_out:
            raise Revert("refused")
        # The fee leaves for PoolFees before the K check on the balances.
        fee = U.div(U.mul(amount_in, self.fee), 10_000)
        new_in = U.add(r_in, U.sub(amount_in, fee))
        new_out = r_out - out
        b0, b1 = (new_in, new_out) if zero_for_one else (new_out, new_in)
        if self.k(b0, b1) < self.k(self.r0, self.r1):
            raise Revert("refused")
        return out


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        case = json.loads(line)
        pool = Pool(int(case["r0"]), int(case["r1"]), int(case["dec0"]), int(case["dec1"]), bool(case["stable"]), int(case["fee"]))
        try:
            answer = {"out": str(pool.swap(int(case["amountIn"]), bool(case["zeroForOne"])))}
        except Revert as revert:
            answer = {"error": revert.kind}
        sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
