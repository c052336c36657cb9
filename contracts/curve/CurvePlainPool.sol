// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeTransfers} from "../common/SafeTransfers.sol";
import {StableSwapMath} from "./StableSwapMath.sol";
import {StableSwapPoolBase} from "./StableSwapPoolBase.sol";

/// @title CurvePlainPool (stand-in)
/// @notice Curve's legacy factory plain pool (curvefi/curve-factory `Plain2Basic.vy` and
/// `Plain3Basic.vy`, Vyper 0.2/0.3; the template of the pre-NG factories) for 2 or 3 coins, as an
/// integrator sees it: `int128` indexes in `exchange` and `get_dy`, a static fee, rates
/// 10^(36 − decimals) (what it shares with the meta template: `StableSwapPoolBase`), and
/// `add_liquidity(uint256[N], min)`, `calc_withdraw_one_coin`, `remove_liquidity_one_coin` and
/// `get_virtual_price`, which a meta pool over it calls. Its `get_dy` is `exchange`'s computation
/// (no views contract, no dynamic fee, no oracles). Left out: `remove_liquidity`,
/// `remove_liquidity_imbalance`, admin-fee withdrawal, `commit_new_fee`, permits: nothing that
/// changes a price.
contract CurvePlainPool is StableSwapPoolBase {
    using SafeTransfers for address;

    uint256 public immutable N_COINS;
    uint256[] private _rateMultipliers;

    constructor(
        address factory_,
        address[] memory coins_,
        uint8[] memory decimals_,
        uint256 A_,
        uint256 fee_
    ) StableSwapPoolBase(factory_, A_, fee_, "Curve plain pool", "crvPlain") {
        require(coins_.length == 2 || coins_.length == 3, "2 or 3 coins");
        require(coins_.length == decimals_.length, "decimals");
        N_COINS = coins_.length;
        for (uint256 k = 0; k < coins_.length; k++) {
            require(decimals_[k] <= 18, "decimals above 18");
            _coins.push(coins_[k]);
            _rateMultipliers.push(10 ** (36 - uint256(decimals_[k])));
            _balances.push(0);
        }
    }

    function admin_fee() external pure returns (uint256) {
        return ADMIN_FEE;
    }

    function get_virtual_price() external view returns (uint256) {
        return (StableSwapMath.getD(_xpOf(_rateMultipliers, _balances), _A(), true) * PRECISION) / totalSupply;
    }

    /// The template's `add_liquidity(uint256[N_COINS], uint256)`: both arities are declared, the
    /// other one reverts.
    function add_liquidity(uint256[2] calldata amounts, uint256 minMintAmount) external returns (uint256) {
        uint256[] memory dynamic = new uint256[](2);
        for (uint256 k = 0; k < 2; k++) dynamic[k] = amounts[k];
        return _addLiquidity(dynamic, minMintAmount);
    }

    function add_liquidity(uint256[3] calldata amounts, uint256 minMintAmount) external returns (uint256) {
        uint256[] memory dynamic = new uint256[](3);
        for (uint256 k = 0; k < 3; k++) dynamic[k] = amounts[k];
        return _addLiquidity(dynamic, minMintAmount);
    }

    function calc_withdraw_one_coin(uint256 burnAmount, int128 i) external view returns (uint256 dy) {
        (dy, ) = _calcWithdrawOneCoin(burnAmount, _index(i, N_COINS));
    }

    /// The template's `remove_liquidity_one_coin`: burn LP tokens for one coin, paying the imbalance
    /// fee on the way (half of it stays with the admin).
    function remove_liquidity_one_coin(
        uint256 burnAmount,
        int128 i,
        uint256 minReceived
    ) external nonReentrant returns (uint256 dy) {
        uint256 ui = _index(i, N_COINS);
        uint256 dyFee;
        (dy, dyFee) = _calcWithdrawOneCoin(burnAmount, ui);
        require(dy >= minReceived, "Not enough coins removed");
        _balances[ui] -= dy + (dyFee * ADMIN_FEE) / FEE_DENOMINATOR;
        _burn(msg.sender, burnAmount);
        require(_coins[ui].trySafeTransfer(msg.sender, dy), "transfer failed");
    }

    function _rates() internal view override returns (uint256[] memory) {
        return _rateMultipliers;
    }

    function _calcWithdrawOneCoin(uint256 burnAmount, uint256 i) private view returns (uint256 dy, uint256 dyFee) {
        uint256 amp = _A();
        uint256[] memory xp = _xpOf(_rateMultipliers, _balances);
        uint256 d0 = StableSwapMath.getD(xp, amp, true);
        uint256 d1 = d0 - (burnAmount * d0) / totalSupply;
        uint256 newY = StableSwapMath.getYD(amp, i, xp, d1, A_PRECISION, true);
        uint256 baseFee = (fee * N_COINS) / (4 * (N_COINS - 1));
        uint256[] memory xpReduced = new uint256[](N_COINS);
        for (uint256 k = 0; k < N_COINS; k++) {
            uint256 expected = k == i ? (xp[k] * d1) / d0 - newY : xp[k] - (xp[k] * d1) / d0;
            xpReduced[k] = xp[k] - (baseFee * expected) / FEE_DENOMINATOR;
        }
        dy = xpReduced[i] - StableSwapMath.getYD(amp, i, xpReduced, d1, A_PRECISION, true);
        uint256 dy0 = ((xp[i] - newY) * PRECISION) / _rateMultipliers[i];
        dy = ((dy - 1) * PRECISION) / _rateMultipliers[i];
        dyFee = dy0 - dy;
    }
}
