// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {GyroSignedFixedPoint as F} from "./GyroSignedFixedPoint.sol";

/// @title GyroECLPMath
/// @notice The E-CLP's swap math as Gyroscope's Balancer V2 pools compute it (the published
/// `GyroECLPMath`, "E-CLP Mathematics" in Gyroscope's technical papers): the curve is a circle of
/// radius r stretched by λ and rotated by φ (c = cos(−φ), s = sin(−φ)), bounded by the prices α
/// and β; the derived τ(α), τ(β), u, v, w, z and dSq are given in 38 decimals with the error of c,
/// s in dSq. The invariant r is an underestimate with an error bound `err`; swaps use the vector
/// (r + 2·err, r), an overestimate in x and an underestimate in y, so that each rounding favours the
/// pool. Each operation, its order and its rounding direction follow the published library, since
/// a swap must pay exactly what the deployed pools pay; the arithmetic between the fixed-point
/// operations is checked here (Solidity 0.8) where the 0.7 original wraps, which the pool's bounds
/// on balances and invariant make impossible.
library GyroECLPMath {
    using F for int256;

    int256 internal constant ONE = 1e18;
    int256 internal constant ONE_XP = 1e38;
    int256 internal constant MAX_BALANCES = 1e34;
    int256 internal constant MAX_INVARIANT = 3e37;

    error GyroAssetBoundsExceeded();
    error GyroMaxAssetsExceeded();
    error GyroMaxInvariantExceeded();
    error GyroSqrtFailed();
    error GyroParamsInvalid(uint256 check);

    struct Vector2 {
        int256 x;
        int256 y;
    }

    struct Params {
        int256 alpha;
        int256 beta;
        int256 c;
        int256 s;
        int256 lambda;
    }

    struct Derived {
        Vector2 tauAlpha;
        Vector2 tauBeta;
        int256 u;
        int256 v;
        int256 w;
        int256 z;
        int256 dSq;
    }

    /// @notice The published limits on the parameters: (c, s) a unit vector to 1e-15, 1 ≤ λ ≤ 1e8,
    /// τ(α) and τ(β) unit vectors and dSq 1 to 1e-15 in extra precision, u, v, w, z at most 1,
    /// and 1 / ((Aχ)² − 1) at most 1e5 (the invariant's denominator).
    function validate(Params memory p, Derived memory d) internal pure {
        if (!(0 <= p.s && p.s <= ONE && 0 <= p.c && p.c <= ONE)) revert GyroParamsInvalid(1);
        int256 scNorm = p.s.mulDownMag(p.s) + p.c.mulDownMag(p.c);
        if (!(ONE - 1e3 <= scNorm && scNorm <= ONE + 1e3)) revert GyroParamsInvalid(2);
        if (!(ONE <= p.lambda && p.lambda <= 1e26)) revert GyroParamsInvalid(3);
        if (!(0 < p.alpha && p.alpha < p.beta)) revert GyroParamsInvalid(4);
        int256 norm = d.tauAlpha.x.mulXp(d.tauAlpha.x) + d.tauAlpha.y.mulXp(d.tauAlpha.y);
        if (!(ONE_XP - 1e23 <= norm && norm <= ONE_XP + 1e23)) revert GyroParamsInvalid(5);
        norm = d.tauBeta.x.mulXp(d.tauBeta.x) + d.tauBeta.y.mulXp(d.tauBeta.y);
        if (!(ONE_XP - 1e23 <= norm && norm <= ONE_XP + 1e23)) revert GyroParamsInvalid(6);
        if (!(d.u <= ONE_XP && d.v <= ONE_XP && d.w <= ONE_XP && d.z <= ONE_XP)) revert GyroParamsInvalid(7);
        if (!(ONE_XP - 1e23 <= d.dSq && d.dSq <= ONE_XP + 1e23)) revert GyroParamsInvalid(8);
        if (ONE_XP.divXpU(aChiAChiXp(p, d) - ONE_XP) > 1e43) revert GyroParamsInvalid(9);
    }

    /// @notice Gyroscope's square root of an 18-decimal number: a first guess from the magnitude,
    /// seven Newton steps, and a check that the square is within `tolerance` (5 wei) of the input.
    function sqrt(uint256 input) internal pure returns (uint256 guess) {
        if (input == 0) return 0;
        guess = _initialGuess(input);
        for (uint256 k = 0; k < 7; k++) guess = (guess + (input * 1e18) / guess) / 2;
        uint256 square = (guess * guess) / 1e18;
        uint256 slack = guess * 5;
        slack = slack == 0 ? 0 : (slack - 1) / 1e18 + 1;
        if (!(square <= input + slack && square + slack >= input)) revert GyroSqrtFailed();
    }

    function _initialGuess(uint256 input) private pure returns (uint256) {
        if (input >= 1e18) {
            uint256 x = input / 1e18;
            uint256 n;
            for (uint256 shift = 128; shift >= 2; shift /= 2) {
                if (x >= 1 << shift) {
                    x >>= shift;
                    n += shift / 2;
                }
            }
            return (1 << n) * 1e18;
        }
        // √(10^−k) for k = 17, 16, …, 1 in 18 decimals, for inputs at most 10^(18−k).
        uint256[17] memory guesses = [
            uint256(3162277660),
            1e10,
            31622776601,
            1e11,
            316227766016,
            1e12,
            3162277660168,
            1e13,
            31622776601683,
            1e14,
            316227766016837,
            1e15,
            3162277660168379,
            1e16,
            31622776601683793,
            1e17,
            316227766016837933
        ];
        uint256 bound = 10;
        for (uint256 k = 0; k < 17; k++) {
            if (input <= bound) return guesses[k];
            bound *= 10;
        }
        return input;
    }

    function _sqrtSigned(int256 value) private pure returns (int256) {
        return value > 0 ? int256(sqrt(uint256(value))) : int256(0);
    }

    /// @notice a = r·(A⁻¹τ(β))_x, rounded up.
    function virtualOffset0(Params memory p, Derived memory d, Vector2 memory r) internal pure returns (int256 a) {
        int256 termXp = d.tauBeta.x.divXpU(d.dSq);
        a =
            d.tauBeta.x > 0
                ? r.x.mulUpMagU(p.lambda).mulUpMagU(p.c).mulUpXpToNpU(termXp)
                : r.y.mulDownMagU(p.lambda).mulDownMagU(p.c).mulUpXpToNpU(termXp);
        a = a + r.x.mulUpMagU(p.s).mulUpXpToNpU(d.tauBeta.y.divXpU(d.dSq));
    }

    /// @notice b = r·(A⁻¹τ(α))_y, rounded up.
    function virtualOffset1(Params memory p, Derived memory d, Vector2 memory r) internal pure returns (int256 b) {
        int256 termXp = d.tauAlpha.x.divXpU(d.dSq);
        b =
            d.tauAlpha.x < 0
                ? r.x.mulUpMagU(p.lambda).mulUpMagU(p.s).mulUpXpToNpU(-termXp)
                : (-r.y).mulDownMagU(p.lambda).mulDownMagU(p.s).mulUpXpToNpU(termXp);
        b = b + r.x.mulUpMagU(p.c).mulUpXpToNpU(d.tauAlpha.y.divXpU(d.dSq));
    }

    /// @notice The largest balance of token 0 the invariant allows (token 1 at zero), rounded down.
    function maxBalance0(Params memory p, Derived memory d, Vector2 memory r) internal pure returns (int256 xp) {
        int256 termXp1 = (d.tauBeta.x - d.tauAlpha.x).divXpU(d.dSq);
        int256 termXp2 = (d.tauBeta.y - d.tauAlpha.y).divXpU(d.dSq);
        xp = r.y.mulDownMagU(p.lambda).mulDownMagU(p.c).mulDownXpToNpU(termXp1);
        xp = xp + (termXp2 > 0 ? r.y.mulDownMagU(p.s) : r.x.mulUpMagU(p.s)).mulDownXpToNpU(termXp2);
    }

    /// @notice The largest balance of token 1 the invariant allows (token 0 at zero), rounded down.
    function maxBalance1(Params memory p, Derived memory d, Vector2 memory r) internal pure returns (int256 yp) {
        int256 termXp1 = (d.tauBeta.x - d.tauAlpha.x).divXpU(d.dSq);
        int256 termXp2 = (d.tauAlpha.y - d.tauBeta.y).divXpU(d.dSq);
        yp = r.y.mulDownMagU(p.lambda).mulDownMagU(p.s).mulDownXpToNpU(termXp1);
        yp = yp + (termXp2 > 0 ? r.y.mulDownMagU(p.c) : r.x.mulUpMagU(p.c)).mulDownXpToNpU(termXp2);
    }

    /// @notice The invariant r of the (upscaled) balances, an underestimate, and its error bound.
    function invariantWithError(
        uint256 balance0,
        uint256 balance1,
        Params memory p,
        Derived memory d
    ) internal pure returns (int256 invariant, int256 err) {
        int256 x = int256(balance0);
        int256 y = int256(balance1);
        if (x + y > MAX_BALANCES) revert GyroMaxAssetsExceeded();
        int256 atAChi = _atAChi(x, y, p, d);
        int256 root;
        (root, err) = _invariantSqrt(x, y, p, d);
        if (root > 0) err = (err + 1).divUpMagU(2 * root);
        else err = err > 0 ? int256(sqrt(uint256(err))) : int256(1e9);
        err = ((p.lambda.mulUpMagU(x + y) / ONE_XP) + err + 1) * 20;
        int256 mulDenominator = ONE_XP.divXpU(aChiAChiXp(p, d) - ONE_XP);
        invariant = (atAChi + root - err).mulDownXpToNpU(mulDenominator);
        err = err.mulUpXpToNpU(mulDenominator);
        err = err + ((invariant.mulUpXpToNpU(mulDenominator) * ((p.lambda * p.lambda) / 1e36)) * 40) / ONE_XP + 1;
        if (invariant + err > MAX_INVARIANT) revert GyroMaxInvariantExceeded();
    }

    function _atAChi(int256 x, int256 y, Params memory p, Derived memory d) private pure returns (int256 val) {
        int256 dSq2 = d.dSq.mulXpU(d.dSq);
        int256 termXp = (d.w.divDownMagU(p.lambda) + d.z).divDownMagU(p.lambda).divXpU(dSq2);
        val = (x.mulDownMagU(p.c) - y.mulDownMagU(p.s)).mulDownXpToNpU(termXp);
        int256 termNp = x.mulDownMagU(p.lambda).mulDownMagU(p.s) + y.mulDownMagU(p.lambda).mulDownMagU(p.c);
        val = val + termNp.mulDownXpToNpU(d.u.divXpU(dSq2));
        termNp = x.mulDownMagU(p.s) + y.mulDownMagU(p.c);
        val = val + termNp.mulDownXpToNpU(d.v.divXpU(dSq2));
    }

    /// @notice (Aχ)·(Aχ) in extra precision, rounded up.
    function aChiAChiXp(Params memory p, Derived memory d) internal pure returns (int256 val) {
        int256 dSq3 = d.dSq.mulXpU(d.dSq).mulXpU(d.dSq);
        val = p.lambda.mulUpMagU((2 * d.u).mulXpU(d.v).divXpU(dSq3));
        val = val + ((d.u + 1).mulXpU(d.u + 1).divXpU(dSq3)).mulUpMagU(p.lambda).mulUpMagU(p.lambda);
        val = val + d.v.mulXpU(d.v).divXpU(dSq3);
        int256 termXp = d.w.divUpMagU(p.lambda) + d.z;
        val = val + termXp.mulXpU(termXp).divXpU(dSq3);
    }

    function _dSq4(Derived memory d) private pure returns (int256) {
        return d.dSq.mulXpU(d.dSq).mulXpU(d.dSq).mulXpU(d.dSq);
    }

    function _minAtxAChiySqPlusAtxSq(
        int256 x,
        int256 y,
        Params memory p,
        Derived memory d
    ) private pure returns (int256 val) {
        int256 termNp = x.mulUpMagU(x).mulUpMagU(p.c).mulUpMagU(p.c) + y.mulUpMagU(y).mulUpMagU(p.s).mulUpMagU(p.s);
        termNp = termNp - x.mulDownMagU(y).mulDownMagU(p.c * 2).mulDownMagU(p.s);
        int256 termXp =
            d.u.mulXpU(d.u) +
                (2 * d.u).mulXpU(d.v).divDownMagU(p.lambda) +
                d.v.mulXpU(d.v).divDownMagU(p.lambda).divDownMagU(p.lambda);
        termXp = termXp.divXpU(_dSq4(d));
        val = (-termNp).mulDownXpToNpU(termXp);
        val = val + (termNp - 9).divDownMagU(p.lambda).divDownMagU(p.lambda).mulDownXpToNpU(ONE_XP.divXpU(d.dSq));
    }

    function _twoAtxAtyAChixAChiy(int256 x, int256 y, Params memory p, Derived memory d) private pure returns (int256) {
        int256 termNp = (x.mulDownMagU(x) - y.mulUpMagU(y)).mulDownMagU(2 * p.c).mulDownMagU(p.s);
        int256 xy = y.mulDownMagU(2 * x);
        termNp = termNp + xy.mulDownMagU(p.c).mulDownMagU(p.c) - xy.mulDownMagU(p.s).mulDownMagU(p.s);
        int256 termXp = d.z.mulXpU(d.u) + d.w.mulXpU(d.v).divDownMagU(p.lambda).divDownMagU(p.lambda);
        termXp = termXp + (d.w.mulXpU(d.u) + d.z.mulXpU(d.v)).divDownMagU(p.lambda);
        termXp = termXp.divXpU(_dSq4(d));
        return termNp.mulDownXpToNpU(termXp);
    }

    function _minAtyAChixSqPlusAtySq(
        int256 x,
        int256 y,
        Params memory p,
        Derived memory d
    ) private pure returns (int256 val) {
        int256 termNp = x.mulUpMagU(x).mulUpMagU(p.s).mulUpMagU(p.s) + y.mulUpMagU(y).mulUpMagU(p.c).mulUpMagU(p.c);
        termNp = termNp + x.mulUpMagU(y).mulUpMagU(p.s * 2).mulUpMagU(p.c);
        int256 termXp = d.z.mulXpU(d.z) + d.w.mulXpU(d.w).divDownMagU(p.lambda).divDownMagU(p.lambda);
        termXp = termXp + (2 * d.z).mulXpU(d.w).divDownMagU(p.lambda);
        termXp = termXp.divXpU(_dSq4(d));
        val = (-termNp).mulDownXpToNpU(termXp);
        val = val + (termNp - 9).mulDownXpToNpU(ONE_XP.divXpU(d.dSq));
    }

    function _invariantSqrt(
        int256 x,
        int256 y,
        Params memory p,
        Derived memory d
    ) private pure returns (int256 val, int256 err) {
        val = _minAtxAChiySqPlusAtxSq(x, y, p, d) + _twoAtxAtyAChixAChiy(x, y, p, d);
        val = val + _minAtyAChixSqPlusAtySq(x, y, p, d);
        err = (x.mulUpMagU(x) + y.mulUpMagU(y)) / 1e38;
        val = _sqrtSigned(val);
    }

    function _checkAssetBound(
        Params memory p,
        Derived memory d,
        Vector2 memory r,
        int256 newBalance,
        bool isToken0
    ) private pure {
        int256 bound = isToken0 ? maxBalance0(p, d, r) : maxBalance1(p, d, r);
        if (!(newBalance <= MAX_BALANCES && newBalance <= bound)) revert GyroAssetBoundsExceeded();
    }

    /// @notice What `amountIn` (upscaled, fee already taken) buys of the other token (upscaled), at
    /// the upscaled balances and the invariant vector r.
    function outGivenIn(
        uint256[2] memory balances,
        uint256 amountIn,
        bool tokenInIsToken0,
        Params memory p,
        Derived memory d,
        Vector2 memory r
    ) internal pure returns (uint256) {
        (uint256 ixIn, uint256 ixOut) = tokenInIsToken0 ? (0, 1) : (1, 0);
        int256 balanceInNew = int256(balances[ixIn] + amountIn);
        _checkAssetBound(p, d, r, balanceInNew, tokenInIsToken0);
        int256 balanceOutNew = tokenInIsToken0 ? yGivenX(balanceInNew, p, d, r) : xGivenY(balanceInNew, p, d, r);
        // Checked, as in the published pool: numerical error must never pay out more than the balance.
        return balances[ixOut] - uint256(balanceOutNew);
    }

    /// @notice An overestimate of y with (x, y) on the curve of invariant r.
    function yGivenX(int256 x, Params memory p, Derived memory d, Vector2 memory r) internal pure returns (int256) {
        Vector2 memory ab = Vector2(virtualOffset0(p, d, r), virtualOffset1(p, d, r));
        return _solveQuadraticSwap(p.lambda, x, p.s, p.c, r, ab, d.tauBeta, d.dSq);
    }

    /// @notice An overestimate of x with (x, y) on the curve of invariant r (y ↔ x, s ↔ c, a ↔ b,
    /// τ(β) → (−τ(α)_x, τ(α)_y) in `yGivenX`).
    function xGivenY(int256 y, Params memory p, Derived memory d, Vector2 memory r) internal pure returns (int256) {
        Vector2 memory ba = Vector2(virtualOffset1(p, d, r), virtualOffset0(p, d, r));
        return _solveQuadraticSwap(p.lambda, y, p.c, p.s, r, ba, Vector2(-d.tauAlpha.x, d.tauAlpha.y), d.dSq);
    }

    struct Quadratic {
        int256 a;
        int256 b;
        int256 c;
    }

    function _solveQuadraticSwap(
        int256 lambda,
        int256 x,
        int256 s,
        int256 c,
        Vector2 memory r,
        Vector2 memory ab,
        Vector2 memory tauBeta,
        int256 dSq
    ) private pure returns (int256) {
        Vector2 memory lamBar = Vector2(
            ONE_XP - ONE_XP.divDownMagU(lambda).divDownMagU(lambda),
            ONE_XP - ONE_XP.divUpMagU(lambda).divUpMagU(lambda)
        );
        Quadratic memory q;
        int256 xp = x - ab.x;
        if (xp > 0) q.b = (-xp).mulDownMagU(s).mulDownMagU(c).mulUpXpToNpU(lamBar.y.divXpU(dSq));
        else q.b = (-xp).mulUpMagU(s).mulUpMagU(c).mulUpXpToNpU(lamBar.x.divXpU(dSq) + 1);
        Vector2 memory sTerm = Vector2(
            lamBar.y.mulDownMagU(s).mulDownMagU(s).divXpU(dSq),
            lamBar.x.mulUpMagU(s).mulUpMagU(s).divXpU(dSq + 1) + 1
        );
        sTerm = Vector2(ONE_XP - sTerm.x, ONE_XP - sTerm.y);
        q.c = -_xpXpDivLambdaLambda(x, r, lambda, s, c, tauBeta, dSq);
        q.c = q.c + r.y.mulDownMagU(r.y).mulDownXpToNpU(sTerm.y);
        q.c = _sqrtSigned(q.c);
        if (q.b - q.c > 0) q.a = (q.b - q.c).mulUpXpToNpU(ONE_XP.divXpU(sTerm.y) + 1);
        else q.a = (q.b - q.c).mulUpXpToNpU(ONE_XP.divXpU(sTerm.x));
        return q.a + ab.y;
    }

    function _xpXpDivLambdaLambda(
        int256 x,
        Vector2 memory r,
        int256 lambda,
        int256 s,
        int256 c,
        Vector2 memory tauBeta,
        int256 dSq
    ) private pure returns (int256) {
        // (dSq², r_x²), each used more than once.
        Vector2 memory sq = Vector2(dSq.mulXpU(dSq), r.x.mulUpMagU(r.x));
        Quadratic memory q;
        int256 termXp = tauBeta.x.mulXpU(tauBeta.y).divXpU(sq.x);
        if (termXp > 0) {
            q.a = sq.y.mulUpMagU(2 * s);
            q.a = q.a.mulUpMagU(c).mulUpXpToNpU(termXp + 7);
        } else {
            q.a = r.y.mulDownMagU(r.y).mulDownMagU(2 * s);
            q.a = q.a.mulDownMagU(c).mulUpXpToNpU(termXp);
        }
        if (tauBeta.x < 0) q.b = r.x.mulUpMagU(x).mulUpMagU(2 * c).mulUpXpToNpU(-tauBeta.x.divXpU(dSq) + 3);
        else q.b = (-r.y).mulDownMagU(x).mulDownMagU(2 * c).mulUpXpToNpU(tauBeta.x.divXpU(dSq));
        q.a = q.a + q.b;
        termXp = tauBeta.y.mulXpU(tauBeta.y).divXpU(sq.x) + 7;
        q.b = sq.y.mulUpMagU(s);
        q.b = q.b.mulUpMagU(s).mulUpXpToNpU(termXp);
        q.c = (-r.y).mulDownMagU(x).mulDownMagU(2 * s).mulUpXpToNpU(tauBeta.y.divXpU(dSq));
        q.b = q.b + q.c + x.mulUpMagU(x);
        q.b = q.b > 0 ? q.b.divUpMagU(lambda) : q.b.divDownMagU(lambda);
        q.a = q.a + q.b;
        q.a = q.a > 0 ? q.a.divUpMagU(lambda) : q.a.divDownMagU(lambda);
        termXp = tauBeta.x.mulXpU(tauBeta.x).divXpU(sq.x) + 7;
        int256 val = sq.y.mulUpMagU(c).mulUpMagU(c);
        return val.mulUpXpToNpU(termXp) + q.a;
    }
}
