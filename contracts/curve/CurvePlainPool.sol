// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LpToken} from "../common/LpToken.sol";
import {SafeTransfers} from "../common/SafeTransfers.sol";
import {StableSwapMath} from "./StableSwapMath.sol";

interface ICurveFactoryAdmin {
    function admin() external view returns (address);
}

/// @title CurvePlainPool (stand-in)
/// @notice Curve's legacy factory plain pool (curvefi/curve-factory `Plain2Basic.vy` and
/// `Plain3Basic.vy`, Vyper 0.2/0.3; the template of the pre-NG factories) for 2 or 3 coins, as an
/// integrator sees it: `int128` indexes in `exchange` and `get_dy`, a static fee (1e10 = 100 %),
/// half of it to the admin (`ADMIN_FEE`), balances kept in storage (`balances(i)`; the admin's share
/// is the token balance beyond them), A in units of A_PRECISION = 100 ramping linearly with the
/// block timestamp (`ramp_A`, `stop_ramp_A` by the factory's admin), rates 10^(36 − decimals).
/// The swap math is the template's: `get_D` divides D_P by x·N each step, `get_y` solves for the
/// output coin, `dy = xp[j] − y − 1`, the fee `dy · fee / 1e10`, then `· 1e18 / rate_j`; `get_dy` is
/// the same computation as `exchange` (no views contract, no dynamic fee, no oracles). Left out:
/// `remove_liquidity*`, admin-fee withdrawal, `commit_new_fee`, permits: nothing that changes a
/// price.
contract CurvePlainPool is LpToken {
    using SafeTransfers for address;

    uint256 private constant PRECISION = 1e18;
    uint256 private constant FEE_DENOMINATOR = 1e10;
    uint256 public constant ADMIN_FEE = 5e9;
    uint256 private constant A_PRECISION = StableSwapMath.A_PRECISION;
    uint256 private constant MAX_A = 1e6;
    uint256 private constant MAX_A_CHANGE = 10;
    uint256 private constant MIN_RAMP_TIME = 86400;

    uint256 public immutable N_COINS;
    address public immutable factory;
    address[] private _coins;
    uint256[] private _rateMultipliers;
    uint256[] private _balances;
    uint256 public fee;
    uint256 public initial_A;
    uint256 public future_A;
    uint256 public initial_A_time;
    uint256 public future_A_time;
    bool private _locked;

    event TokenExchange(
        address indexed buyer,
        int128 sold_id,
        uint256 tokens_sold,
        int128 bought_id,
        uint256 tokens_bought
    );
    event AddLiquidity(
        address indexed provider,
        uint256[] token_amounts,
        uint256[] fees,
        uint256 invariant,
        uint256 token_supply
    );
    event RampA(uint256 old_A, uint256 new_A, uint256 initial_time, uint256 future_time);
    event StopRampA(uint256 A, uint256 t);

    // A storage flag, as the Vyper 0.2/0.3 nonreentrant decorator keeps (its gas), not the transient ReentrancyLock.
    modifier nonReentrant() {
        require(!_locked, "locked");
        _locked = true;
        _;
        _locked = false;
    }

    constructor(address factory_, address[] memory coins_, uint8[] memory decimals_, uint256 A_, uint256 fee_) {
        require(coins_.length == 2 || coins_.length == 3, "2 or 3 coins");
        require(coins_.length == decimals_.length, "decimals");
        N_COINS = coins_.length;
        factory = factory_;
        for (uint256 k = 0; k < coins_.length; k++) {
            require(decimals_[k] <= 18, "decimals above 18");
            _coins.push(coins_[k]);
            _rateMultipliers.push(10 ** (36 - uint256(decimals_[k])));
            _balances.push(0);
        }
        initial_A = A_ * A_PRECISION;
        future_A = A_ * A_PRECISION;
        fee = fee_;
        _setNameAndSymbol("Curve plain pool", "crvPlain");
    }

    function coins(uint256 i) external view returns (address) {
        return _coins[i];
    }

    function balances(uint256 i) external view returns (uint256) {
        return _balances[i];
    }

    function admin_fee() external pure returns (uint256) {
        return ADMIN_FEE;
    }

    function A() external view returns (uint256) {
        return _A() / A_PRECISION;
    }

    function A_precise() external view returns (uint256) {
        return _A();
    }

    function get_virtual_price() external view returns (uint256) {
        return (StableSwapMath.getD(_xp(), _A(), true) * PRECISION) / totalSupply;
    }

    function get_dy(int128 i, int128 j, uint256 dx) external view returns (uint256) {
        uint256[] memory xp = _xp();
        (uint256 ui, uint256 uj) = (_index(i), _index(j));
        uint256 x = xp[ui] + (dx * _rateMultipliers[ui]) / PRECISION;
        uint256 y = _getY(ui, uj, x, xp);
        uint256 dy = xp[uj] - y - 1;
        uint256 dyFee = (fee * dy) / FEE_DENOMINATOR;
        return ((dy - dyFee) * PRECISION) / _rateMultipliers[uj];
    }

    function exchange(int128 i, int128 j, uint256 dx, uint256 minDy) external returns (uint256) {
        return _exchange(i, j, dx, minDy, msg.sender);
    }

    function exchange(int128 i, int128 j, uint256 dx, uint256 minDy, address receiver) external returns (uint256) {
        return _exchange(i, j, dx, minDy, receiver);
    }

    function _exchange(
        int128 i,
        int128 j,
        uint256 dx,
        uint256 minDy,
        address receiver
    ) private nonReentrant returns (uint256 dy) {
        (uint256 ui, uint256 uj) = (_index(i), _index(j));
        uint256[] memory oldBalances = _balances;
        uint256[] memory xp = _xpOf(oldBalances);
        uint256 x = xp[ui] + (dx * _rateMultipliers[ui]) / PRECISION;
        uint256 y = _getY(ui, uj, x, xp);
        dy = xp[uj] - y - 1;
        uint256 dyFee = (dy * fee) / FEE_DENOMINATOR;
        dy = ((dy - dyFee) * PRECISION) / _rateMultipliers[uj];
        require(dy >= minDy, "Exchange resulted in fewer coins than expected");
        uint256 dyAdminFee = (((dyFee * ADMIN_FEE) / FEE_DENOMINATOR) * PRECISION) / _rateMultipliers[uj];
        _balances[ui] = oldBalances[ui] + dx;
        _balances[uj] = oldBalances[uj] - dy - dyAdminFee;
        require(_coins[ui].trySafeTransferFrom(msg.sender, address(this), dx), "transferFrom failed");
        _coins[uj].safeTransfer(receiver, dy);
        emit TokenExchange(msg.sender, i, dx, j, dy);
    }

    /// The template's `add_liquidity(uint256[N_COINS], uint256)` (both arities are declared; the
    /// other one reverts): the first deposit needs every coin and mints D; later ones
    /// pay the imbalance fee `fee · N / (4 · (N − 1))` on each coin's distance from its ideal
    /// balance (half of it to the admin) and mint in proportion to D's growth.
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

    function _addLiquidity(
        uint256[] memory amounts,
        uint256 minMintAmount
    ) private nonReentrant returns (uint256 mintAmount) {
        require(amounts.length == N_COINS, "uint256[N_COINS] amounts");
        uint256 amp = _A();
        uint256[] memory oldBalances = _balances;
        uint256 d0 = StableSwapMath.getD(_xpOf(oldBalances), amp, true);
        uint256 tokenSupply = totalSupply;
        uint256[] memory newBalances = new uint256[](N_COINS);
        for (uint256 k = 0; k < N_COINS; k++) {
            if (tokenSupply == 0) require(amounts[k] > 0, "initial deposit requires all coins");
            newBalances[k] = oldBalances[k] + amounts[k];
        }
        uint256 d1 = StableSwapMath.getD(_xpOf(newBalances), amp, true);
        require(d1 > d0, "D did not grow");
        uint256[] memory fees = new uint256[](N_COINS);
        if (tokenSupply > 0) {
            uint256 baseFee = (fee * N_COINS) / (4 * (N_COINS - 1));
            for (uint256 k = 0; k < N_COINS; k++) {
                uint256 ideal = (d1 * oldBalances[k]) / d0;
                uint256 difference = ideal > newBalances[k] ? ideal - newBalances[k] : newBalances[k] - ideal;
                fees[k] = (baseFee * difference) / FEE_DENOMINATOR;
                _balances[k] = newBalances[k] - (fees[k] * ADMIN_FEE) / FEE_DENOMINATOR;
                newBalances[k] -= fees[k];
            }
            uint256 d2 = StableSwapMath.getD(_xpOf(newBalances), amp, true);
            mintAmount = (tokenSupply * (d2 - d0)) / d0;
        } else {
            for (uint256 k = 0; k < N_COINS; k++) _balances[k] = newBalances[k];
            mintAmount = d1;
        }
        require(mintAmount >= minMintAmount, "Slippage screwed you");
        for (uint256 k = 0; k < N_COINS; k++)
            if (amounts[k] > 0)
                require(_coins[k].trySafeTransferFrom(msg.sender, address(this), amounts[k]), "transferFrom failed");
        _mint(msg.sender, mintAmount);
        emit AddLiquidity(msg.sender, amounts, fees, d1, tokenSupply + mintAmount);
    }

    function ramp_A(uint256 futureA, uint256 futureTime) external {
        require(msg.sender == ICurveFactoryAdmin(factory).admin(), "admin only");
        require(block.timestamp >= initial_A_time + MIN_RAMP_TIME, "ramping too soon");
        require(futureTime >= block.timestamp + MIN_RAMP_TIME, "insufficient time");
        uint256 initialA = _A();
        uint256 futureAP = futureA * A_PRECISION;
        require(futureA > 0 && futureA < MAX_A, "A out of range");
        if (futureAP < initialA) require(futureAP * MAX_A_CHANGE >= initialA, "A change too large");
        else require(futureAP <= initialA * MAX_A_CHANGE, "A change too large");
        initial_A = initialA;
        future_A = futureAP;
        initial_A_time = block.timestamp;
        future_A_time = futureTime;
        emit RampA(initialA, futureAP, block.timestamp, futureTime);
    }

    function stop_ramp_A() external {
        require(msg.sender == ICurveFactoryAdmin(factory).admin(), "admin only");
        uint256 currentA = _A();
        initial_A = currentA;
        future_A = currentA;
        initial_A_time = block.timestamp;
        future_A_time = block.timestamp;
        emit StopRampA(currentA, block.timestamp);
    }

    function _index(int128 i) private view returns (uint256) {
        require(i >= 0 && uint256(uint128(i)) < N_COINS, "index");
        return uint256(uint128(i));
    }

    function _A() private view returns (uint256) {
        uint256 t1 = future_A_time;
        uint256 a1 = future_A;
        if (block.timestamp >= t1) return a1;
        uint256 a0 = initial_A;
        uint256 t0 = initial_A_time;
        if (a1 > a0) return a0 + ((a1 - a0) * (block.timestamp - t0)) / (t1 - t0);
        return a0 - ((a0 - a1) * (block.timestamp - t0)) / (t1 - t0);
    }

    function _xp() private view returns (uint256[] memory) {
        return _xpOf(_balances);
    }

    function _xpOf(uint256[] memory balances_) private view returns (uint256[] memory xp) {
        xp = new uint256[](N_COINS);
        for (uint256 k = 0; k < N_COINS; k++) xp[k] = (_rateMultipliers[k] * balances_[k]) / PRECISION;
    }

    /// x[j] when x[i] becomes `x`, D taken from `xp` at the current A (the template's get_y).
    function _getY(uint256 i, uint256 j, uint256 x, uint256[] memory xp) private view returns (uint256) {
        uint256 amp = _A();
        return StableSwapMath.getY(i, j, x, xp, amp, StableSwapMath.getD(xp, amp, true));
    }
}
