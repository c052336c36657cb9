// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

interface IStableSwapNG {
    function N_COINS() external view returns (uint256);
    function stored_rates() external view returns (uint256[] memory);
    function get_balances() external view returns (uint256[] memory);
    function A() external view returns (uint256);
    function fee() external view returns (uint256);
    function offpeg_fee_multiplier() external view returns (uint256);
}

/// @title CurveStableSwapViews (stand-in)
/// @notice The StableSwap-NG views contract's `get_dy` and `dynamic_fee` (CurveStableSwapNGViews
/// v1.2.0), which an NG pool's own `get_dy` calls. Its math is the published views contract's, and
/// it differs from the pool's `exchange` in two ways an integrator must know (the pool's `exchange`
/// is what pays; this only quotes):
/// - A is the pool's `A()` times 100, so during a ramp the fractional part of A is dropped;
/// - `get_D` divides by each balance, then once by N^N (the pool divides by x·N each step), so
///   the last unit of D, and of the quote, may differ.
/// `get_dx` and the meta-pool views are left out.
contract CurveStableSwapViews {
    uint256 private constant A_PRECISION = 100;
    uint256 private constant PRECISION = 1e18;
    uint256 private constant FEE_DENOMINATOR = 1e10;

    function get_dy(int128 i, int128 j, uint256 dx, address pool) external view returns (uint256) {
        IStableSwapNG p = IStableSwapNG(pool);
        uint256 n = p.N_COINS();
        (uint256[] memory rates, uint256[] memory xp) = _ratesAndXp(p, n);
        uint256 amp = p.A() * A_PRECISION;
        uint256 d = _getD(xp, amp, n);
        uint256 ui = _index(i, n);
        uint256 uj = _index(j, n);
        uint256 x = xp[ui] + (dx * rates[ui]) / PRECISION;
        uint256 y = _getY(ui, uj, x, xp, amp, d, n);
        uint256 dy = xp[uj] - y - 1;
        uint256 fee =
            (_dynamicFee((xp[ui] + x) / 2, (xp[uj] + y) / 2, p.fee(), p.offpeg_fee_multiplier()) * dy) /
                FEE_DENOMINATOR;
        return ((dy - fee) * PRECISION) / rates[uj];
    }

    function dynamic_fee(int128 i, int128 j, address pool) external view returns (uint256) {
        IStableSwapNG p = IStableSwapNG(pool);
        uint256 n = p.N_COINS();
        (, uint256[] memory xp) = _ratesAndXp(p, n);
        return _dynamicFee(xp[_index(i, n)], xp[_index(j, n)], p.fee(), p.offpeg_fee_multiplier());
    }

    function _index(int128 i, uint256 n) private pure returns (uint256) {
        require(i >= 0 && uint256(uint128(i)) < n, "index");
        return uint256(uint128(i));
    }

    function _ratesAndXp(
        IStableSwapNG p,
        uint256 n
    ) private view returns (uint256[] memory rates, uint256[] memory xp) {
        rates = p.stored_rates();
        uint256[] memory balances = p.get_balances();
        xp = new uint256[](n);
        for (uint256 k = 0; k < n; k++) xp[k] = (rates[k] * balances[k]) / PRECISION;
    }

    function _dynamicFee(uint256 xpi, uint256 xpj, uint256 fee, uint256 multiplier) private pure returns (uint256) {
        if (multiplier <= FEE_DENOMINATOR) return fee;
        uint256 xps2 = (xpi + xpj) ** 2;
        return (multiplier * fee) / (((multiplier - FEE_DENOMINATOR) * 4 * xpi * xpj) / xps2 + FEE_DENOMINATOR);
    }

    function _getD(uint256[] memory xp, uint256 amp, uint256 n) private pure returns (uint256) {
        uint256 s = 0;
        for (uint256 k = 0; k < n; k++) s += xp[k];
        if (s == 0) return 0;
        uint256 d = s;
        uint256 ann = amp * n;
        uint256 nn = n ** n;
        for (uint256 round = 0; round < 255; round++) {
            uint256 dP = d;
            for (uint256 k = 0; k < n; k++) dP = (dP * d) / xp[k];
            dP /= nn;
            uint256 dPrev = d;
            d = (((ann * s) / A_PRECISION + dP * n) * d) / (((ann - A_PRECISION) * d) / A_PRECISION + (n + 1) * dP);
            if (d > dPrev ? d - dPrev <= 1 : dPrev - d <= 1) return d;
        }
        revert();
    }

    function _getY(
        uint256 i,
        uint256 j,
        uint256 x,
        uint256[] memory xp,
        uint256 amp,
        uint256 d,
        uint256 n
    ) private pure returns (uint256) {
        require(i != j, "same coin");
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
        c = (c * d * A_PRECISION) / (ann * n);
        uint256 b = s + (d * A_PRECISION) / ann;
        uint256 y = d;
        for (uint256 round = 0; round < 255; round++) {
            uint256 yPrev = y;
            y = (y * y + c) / (2 * y + b - d);
            if (y > yPrev ? y - yPrev <= 1 : yPrev - y <= 1) return y;
        }
        revert();
    }
}
