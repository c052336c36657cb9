// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {StableSwapMath} from "./StableSwapMath.sol";

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
    uint256 private constant A_PRECISION = StableSwapMath.A_PRECISION;
    uint256 private constant PRECISION = 1e18;
    uint256 private constant FEE_DENOMINATOR = 1e10;

    function get_dy(int128 i, int128 j, uint256 dx, address pool) external view returns (uint256) {
        IStableSwapNG p = IStableSwapNG(pool);
        uint256 n = p.N_COINS();
        (uint256[] memory rates, uint256[] memory xp) = _ratesAndXp(p, n);
        uint256 amp = p.A() * A_PRECISION;
        uint256 d = StableSwapMath.getD(xp, amp, false);
        uint256 ui = _index(i, n);
        uint256 uj = _index(j, n);
        uint256 x = xp[ui] + (dx * rates[ui]) / PRECISION;
        uint256 y = StableSwapMath.getY(ui, uj, x, xp, amp, d, A_PRECISION, true);
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
}
