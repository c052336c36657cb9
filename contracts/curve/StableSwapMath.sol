// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title StableSwapMath
/// @notice The StableSwap invariant as Curve's Vyper contracts compute it, for our stand-ins (the
/// legacy plain pool, the NG views contract, the original template): A in units of `aPrecision` (100,
/// or 1 in curve-contract's original 3pool-era template, which stores A itself), Newton's method to a
/// difference of at most 1 in at most 255 rounds, then a revert (`strict`) or, in the original
/// template, the last iterate; checked arithmetic as Vyper's.
library StableSwapMath {
    uint256 internal constant A_PRECISION = 100;

    /// D for the balances `xp` (18-decimal units). Pools divide D_P by x·N at each coin
    /// (`perCoinN`); the NG views contract divides by x, then once by N^N: the last unit may differ.
    function getD(uint256[] memory xp, uint256 amp, bool perCoinN) internal pure returns (uint256) {
        return getD(xp, amp, perCoinN, A_PRECISION, true);
    }

    function getD(
        uint256[] memory xp,
        uint256 amp,
        bool perCoinN,
        uint256 aPrecision,
        bool strict
    ) internal pure returns (uint256) {
        uint256 n = xp.length;
        uint256 s = 0;
        for (uint256 k = 0; k < n; k++) s += xp[k];
        if (s == 0) return 0;
        uint256 d = s;
        uint256 ann = amp * n;
        for (uint256 round = 0; round < 255; round++) {
            uint256 dP = d;
            for (uint256 k = 0; k < n; k++) dP = (dP * d) / (perCoinN ? xp[k] * n : xp[k]);
            if (!perCoinN) dP /= n ** n;
            uint256 dPrev = d;
            d = (((ann * s) / aPrecision + dP * n) * d) / (((ann - aPrecision) * d) / aPrecision + (n + 1) * dP);
            if (d > dPrev ? d - dPrev <= 1 : dPrev - d <= 1) return d;
        }
        require(!strict, "D did not converge");
        return d;
    }

    /// The balance of coin `j` when coin `i` becomes `x`, the others as in `xp`, on the invariant `d`.
    function getY(
        uint256 i,
        uint256 j,
        uint256 x,
        uint256[] memory xp,
        uint256 amp,
        uint256 d,
        uint256 aPrecision,
        bool strict
    ) internal pure returns (uint256) {
        require(i != j, "same coin");
        uint256 n = xp.length;
        uint256 ann = amp * n;
        uint256 s = 0;
        uint256 c = d;
        for (uint256 k = 0; k < n; k++) {
            uint256 xk;
            if (k == i) xk = x;
            else if (k != j) xk = xp[k];
            else continue;
            s += xk;
            c = (c * d) / (xk * n);
        }
        c = (c * d * aPrecision) / (ann * n);
        return _newtonY(s + (d * aPrecision) / ann, c, d, strict);
    }

    /// The balance of coin `i` that puts the others (as in `xp`) on the invariant `d` (get_y_D).
    function getYD(
        uint256 amp,
        uint256 i,
        uint256[] memory xp,
        uint256 d,
        uint256 aPrecision,
        bool strict
    ) internal pure returns (uint256) {
        uint256 n = xp.length;
        require(i < n, "index");
        uint256 ann = amp * n;
        uint256 s = 0;
        uint256 c = d;
        for (uint256 k = 0; k < n; k++) {
            if (k == i) continue;
            s += xp[k];
            c = (c * d) / (xp[k] * n);
        }
        c = (c * d * aPrecision) / (ann * n);
        return _newtonY((d * aPrecision) / ann + s, c, d, strict);
    }

    /// y ← (y² + c) / (2y + b − D) from y = D, to a difference of at most 1.
    function _newtonY(uint256 b, uint256 c, uint256 d, bool strict) private pure returns (uint256) {
        uint256 y = d;
        for (uint256 round = 0; round < 255; round++) {
            uint256 yPrev = y;
            y = (y * y + c) / (2 * y + b - d);
            if (y > yPrev ? y - yPrev <= 1 : yPrev - y <= 1) return y;
        }
        require(!strict, "y did not converge");
        return y;
    }
}
