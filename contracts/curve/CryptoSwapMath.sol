// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title CryptoSwapMath
/// @notice The two-coin CryptoSwap invariant of Curve's whitepaper ("Automatic market-making with
/// dynamic peg", M. Egorov, 2021), our own implementation for the twocrypto-ng stand-in: with N = 2,
/// balances x, y in the pool's internal units (18 decimals, coin 1 times `price_scale`) and D the
/// invariant,
///     K0 = 4·x·y / D²,   K = A·K0·γ² / (γ + 1 − K0)²,
///     K·D·(x + y) + x·y = K·D² + D²/4,
/// with A = the pool's `A()` / A_MULTIPLIER (Curve stores A·N^N·10,000) and γ = `gamma()` / 10^18.
/// Divided by D² this is `F = K·(x + y − D)/D + (K0 − 1)/4 = 0`, which `_f` evaluates in 10^18 fixed
/// point. Curve's own math contract solves it by Newton's method (and a cubic for y); ours finds the
/// same root by the Illinois variant of regula falsi inside a bracket that always holds it: for y,
/// between the constant-sum and the constant-product solutions, `D − x ≤ y ≤ D²/(4x)`; for D, between
/// `2·√(x·y)` and `x + y`. The invariant lies between those two curves, and F changes sign across
/// each bracket. The answer is the bracket's end on the pool's safe side (the larger y, the smaller
/// D) once the bracket is one unit wide, so it may differ from Curve's by the last units; what a
/// trade pays is `get_dy`'s figure either way: both call this code on the same state.
library CryptoSwapMath {
    uint256 internal constant WAD = 1e18;
    uint256 internal constant A_MULTIPLIER = 10_000;
    /// Curve's fee precision: `mid_fee` and `out_fee` are out of 10^10.
    uint256 internal constant FEE_PRECISION = 1e10;
    uint256 private constant MAX_ITERATIONS = 255;

    error MathDidNotConverge();

    /// F(x, y, D) · 10^18 (see the contract's notice); signed.
    function _f(uint256 ANN, uint256 gamma, uint256 x, uint256 y, uint256 D) private pure returns (int256) {
        // K0 = 4xy/D², in 10^18.
        uint256 K0 = (((4 * x * WAD) / D) * y) / D;
        int256 g1k0 = int256(gamma + WAD) - int256(K0);
        if (g1k0 < 0) g1k0 = -g1k0;
        uint256 g = uint256(g1k0);
        if (g == 0) g = 1;
        // K = A·K0·γ²/(γ + 1 − K0)², in 10^18 (A = ANN / A_MULTIPLIER).
        uint256 K = (((((ANN * K0) / A_MULTIPLIER) * gamma) / g) * gamma) / g;
        int256 sum = int256(x + y) - int256(D);
        return (int256(K) * sum) / int256(D) + (int256(K0) - int256(WAD)) / 4;
    }

    /// The new balance of the coin bought: y with F(x, y, D) = 0 for the other coin at `x`, rounded up
    /// (the pool keeps at least the invariant). `x` and `D` in internal units, above zero.
    function getY(uint256 ANN, uint256 gamma, uint256 x, uint256 D) internal pure returns (uint256) {
        uint256 lo = D > x ? D - x : 1; // constant sum: F ≤ 0
        uint256 hi = (D * D) / (4 * x) + 1; // constant product: F ≥ 0
        if (hi <= lo) return hi;
        int256 fLo = _f(ANN, gamma, x, lo, D);
        int256 fHi = _f(ANN, gamma, x, hi, D);
        if (fLo >= 0) return lo;
        (lo, hi) = _solve(ANN, gamma, x, lo, hi, fLo, fHi, D, true);
        return hi;
    }

    /// The invariant D of internal balances `x` and `y` (both above zero), rounded down.
    function getD(uint256 ANN, uint256 gamma, uint256 x, uint256 y) internal pure returns (uint256) {
        uint256 lo = 2 * _sqrt(x * y); // constant product: F ≥ 0
        uint256 hi = x + y; // constant sum: F ≤ 0
        if (hi <= lo) return lo;
        int256 fLo = _f(ANN, gamma, x, y, lo);
        int256 fHi = _f(ANN, gamma, x, y, hi);
        if (fHi >= 0) return hi;
        (lo, hi) = _solve(ANN, gamma, x, lo, hi, fLo, fHi, y, false);
        return lo;
    }

    /// Illinois regula falsi on [lo, hi] until it is one unit wide. `forY`: the unknown is y (F rises
    /// with it: F(lo) < 0 ≤ F(hi)) with `fixedArg` the invariant D; otherwise the unknown is D (F falls
    /// with it: F(lo) ≥ 0 > F(hi)) with `fixedArg` the balance y.
    function _solve(
        uint256 ANN,
        uint256 gamma,
        uint256 x,
        uint256 lo,
        uint256 hi,
        int256 fLo,
        int256 fHi,
        uint256 fixedArg,
        bool forY
    ) private pure returns (uint256, uint256) {
        int8 side = 0;
        for (uint256 k = 0; k < MAX_ITERATIONS; k++) {
            if (hi - lo <= 1) return (lo, hi);
            uint256 aLo = uint256(fLo < 0 ? -fLo : fLo);
            uint256 aHi = uint256(fHi < 0 ? -fHi : fHi);
            uint256 mid = lo + ((hi - lo) * aLo) / (aLo + aHi);
            if (mid <= lo || mid >= hi) mid = lo + (hi - lo) / 2;
            int256 fMid = forY ? _f(ANN, gamma, x, mid, fixedArg) : _f(ANN, gamma, x, fixedArg, mid);
            // Same sign as F(lo): the root is above mid.
            if ((fMid < 0) == (fLo < 0) && fMid != 0) {
                (lo, fLo) = (mid, fMid);
                if (side == -1) fHi /= 2;
                side = -1;
            } else {
                (hi, fHi) = (mid, fMid);
                if (side == 1) fLo /= 2;
                side = 1;
            }
            if (fMid == 0) return (mid, mid);
        }
        revert MathDidNotConverge();
    }

    /// The dynamic fee, out of 10^10, at internal balances `x`, `y`: `mid_fee` at balance, rising to
    /// `out_fee` away from it, f = fee_gamma / (fee_gamma + 1 − 4xy/(x + y)²).
    function fee(
        uint256 x,
        uint256 y,
        uint256 midFee,
        uint256 outFee,
        uint256 feeGamma
    ) internal pure returns (uint256) {
        uint256 s = x + y;
        uint256 K = (((4 * x * WAD) / s) * y) / s;
        uint256 f = (feeGamma * WAD) / (feeGamma + WAD - K);
        return (midFee * f + outFee * (WAD - f)) / WAD;
    }

    /// floor(√a), by Newton's method from a power of two above the root.
    function _sqrt(uint256 a) private pure returns (uint256 r) {
        if (a == 0) return 0;
        uint256 bits = 0;
        for (uint256 shift = 128; shift > 0; shift >>= 1) {
            if (a >> (bits + shift) > 0) bits += shift;
        }
        r = uint256(1) << ((bits >> 1) + 1);
        uint256 s = (r + a / r) >> 1;
        while (s < r) {
            r = s;
            s = (r + a / r) >> 1;
        }
    }
}
