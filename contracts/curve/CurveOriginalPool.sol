// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LpToken} from "../common/LpToken.sol";
import {SafeTransfers} from "../common/SafeTransfers.sol";
import {StableSwapAmpRamp} from "./StableSwapAmpRamp.sol";
import {StableSwapMath} from "./StableSwapMath.sol";

/// @title CurveOriginalPool (stand-in)
/// @notice curvefi/curve-contract's original StableSwap template (`contracts/pools/3pool/
/// StableSwap3Pool.vy`, Vyper 0.2.4: 3pool, the base pool of the pre-factory meta pools) for 2 or 3
/// plain coins, as an integrator sees it. What tells it from the legacy factory template
/// (`CurvePlainPool`): A stored as it is (`A()` answers the stored figure, there is no `A_precise()`,
/// `get_D` weighs `Ann·S` and `(Ann − 1)·D`, `get_y` `D / Ann`), `get_D` and `get_y` that end their
/// 255 rounds with the last iterate instead of reverting, `admin_fee` a stored figure (the share of
/// every fee the admin keeps out of `balances`), and `exchange`, `add_liquidity` and
/// `remove_liquidity_one_coin` that return nothing (`exchange` has no receiver form: it pays the
/// caller). `get_dy` is the template's own view, which takes dy to coin units before the fee, so it
/// may answer a unit more than `exchange` pays. Ramps by the `owner` (at most 10x, a day apart,
/// lasting a day or more), in A itself. Not kept: the LP token as a contract of its own (the pool is
/// its own token here, as `CurvePlainPool` is), 3pool's balance check around USDT's transfer
/// (`FEE_INDEX`), the admin-fee, ownership and kill timelocks, `remove_liquidity`,
/// `remove_liquidity_imbalance`; `N_COINS()` is ours (the template fixes it at compile time), for the
/// meta stand-in.
contract CurveOriginalPool is LpToken, StableSwapAmpRamp {
    using SafeTransfers for address;

    uint256 private constant PRECISION = 1e18;
    uint256 private constant FEE_DENOMINATOR = 1e10;
    uint256 private constant MAX_ADMIN_FEE = 1e10;

    uint256 public immutable N_COINS;
    address[] private _coins;
    uint256[] private _balances;
    uint256[] private _rates;
    uint256 public fee;
    uint256 public admin_fee;
    address public owner;
    bool private _locked;

    event TokenExchange(
        address indexed buyer,
        int128 sold_id,
        uint256 tokens_sold,
        int128 bought_id,
        uint256 tokens_bought
    );
    event RemoveLiquidityOne(address indexed provider, uint256 token_amount, uint256 coin_amount);

    modifier nonReentrant() {
        require(!_locked, "locked");
        _locked = true;
        _;
        _locked = false;
    }

    /// `A_` is A itself (the template's `_A` argument: not times 100).
    constructor(
        address owner_,
        address[] memory coins_,
        uint8[] memory decimals_,
        uint256 A_,
        uint256 fee_,
        uint256 adminFee_
    ) {
        require(coins_.length == 2 || coins_.length == 3, "2 or 3 coins");
        require(coins_.length == decimals_.length, "decimals");
        require(adminFee_ <= MAX_ADMIN_FEE, "admin fee");
        N_COINS = coins_.length;
        for (uint256 k = 0; k < coins_.length; k++) {
            require(decimals_[k] <= 18, "decimals above 18");
            _coins.push(coins_[k]);
            _rates.push(10 ** (36 - uint256(decimals_[k])));
            _balances.push(0);
        }
        owner = owner_;
        initial_A = A_;
        future_A = A_;
        fee = fee_;
        admin_fee = adminFee_;
        _setNameAndSymbol("Curve original pool", "crvOriginal");
    }

    function coins(uint256 i) external view returns (address) {
        return _coins[i];
    }

    function balances(uint256 i) external view returns (uint256) {
        return _balances[i];
    }

    function A() external view returns (uint256) {
        return _A();
    }

    function get_virtual_price() external view returns (uint256) {
        return (_getD(_xp(_balances), _A()) * PRECISION) / totalSupply;
    }

    function get_dy(int128 i, int128 j, uint256 dx) external view returns (uint256) {
        uint256[] memory xp = _xp(_balances);
        (uint256 ui, uint256 uj) = (_index(i), _index(j));
        uint256 y = _getY(ui, uj, xp[ui] + (dx * _rates[ui]) / PRECISION, xp);
        uint256 dy = ((xp[uj] - y - 1) * PRECISION) / _rates[uj];
        return dy - (fee * dy) / FEE_DENOMINATOR;
    }

    function exchange(int128 i, int128 j, uint256 dx, uint256 minDy) external nonReentrant {
        (uint256 ui, uint256 uj) = (_index(i), _index(j));
        uint256[] memory xp = _xp(_balances);
        require(_coins[ui].trySafeTransferFrom(msg.sender, address(this), dx), "transferFrom failed");
        uint256 y = _getY(ui, uj, xp[ui] + (dx * _rates[ui]) / PRECISION, xp);
        uint256 dy = xp[uj] - y - 1;
        uint256 dyFee = (dy * fee) / FEE_DENOMINATOR;
        dy = ((dy - dyFee) * PRECISION) / _rates[uj];
        require(dy >= minDy, "Exchange resulted in fewer coins than expected");
        uint256 adminOut = (((dyFee * admin_fee) / FEE_DENOMINATOR) * PRECISION) / _rates[uj];
        _balances[ui] += dx;
        _balances[uj] = _balances[uj] - dy - adminOut;
        require(_coins[uj].trySafeTransfer(msg.sender, dy), "transfer failed");
        emit TokenExchange(msg.sender, i, dx, j, dy);
    }

    /// The template's `add_liquidity(uint256[N_COINS], uint256)`, which returns nothing: both
    /// arities are declared, the other one reverts.
    function add_liquidity(uint256[2] calldata amounts, uint256 minMintAmount) external {
        _addLiquidity(_dynamic2(amounts), minMintAmount);
    }

    function add_liquidity(uint256[3] calldata amounts, uint256 minMintAmount) external {
        uint256[] memory dynamic = new uint256[](3);
        for (uint256 k = 0; k < 3; k++) dynamic[k] = amounts[k];
        _addLiquidity(dynamic, minMintAmount);
    }

    function calc_withdraw_one_coin(uint256 burnAmount, int128 i) external view returns (uint256 dy) {
        (dy, ) = _calcWithdrawOneCoin(burnAmount, _index(i));
    }

    /// Burns LP tokens for one coin, paying the imbalance fee on the way (`admin_fee` of it kept by
    /// the admin); returns nothing.
    function remove_liquidity_one_coin(uint256 burnAmount, int128 i, uint256 minAmount) external nonReentrant {
        uint256 ui = _index(i);
        (uint256 dy, uint256 dyFee) = _calcWithdrawOneCoin(burnAmount, ui);
        require(dy >= minAmount, "Not enough coins removed");
        _balances[ui] -= dy + (dyFee * admin_fee) / FEE_DENOMINATOR;
        _burn(msg.sender, burnAmount);
        require(_coins[ui].trySafeTransfer(msg.sender, dy), "transfer failed");
        emit RemoveLiquidityOne(msg.sender, burnAmount, dy);
    }

    function _requireRampAdmin() internal view override {
        require(msg.sender == owner, "only owner");
    }

    /// A is stored as it is.
    function _aUnit() internal pure override returns (uint256) {
        return 1;
    }

    function _addLiquidity(uint256[] memory amounts, uint256 minMintAmount) private nonReentrant {
        require(amounts.length == N_COINS, "uint256[N_COINS] amounts");
        uint256 amp = _A();
        uint256 supply = totalSupply;
        uint256[] memory old = _balances;
        uint256 d0 = supply > 0 ? _getD(_xp(old), amp) : 0;
        uint256[] memory next = new uint256[](N_COINS);
        for (uint256 k = 0; k < N_COINS; k++) {
            if (supply == 0) require(amounts[k] > 0, "initial deposit requires all coins");
            if (amounts[k] > 0)
                require(_coins[k].trySafeTransferFrom(msg.sender, address(this), amounts[k]), "transferFrom failed");
            next[k] = old[k] + amounts[k];
        }
        uint256 d1 = _getD(_xp(next), amp);
        require(d1 > d0, "D did not grow");
        uint256 minted = d1;
        if (supply > 0) {
            uint256 imbalanceFee = (fee * N_COINS) / (4 * (N_COINS - 1));
            for (uint256 k = 0; k < N_COINS; k++) {
                uint256 ideal = (d1 * old[k]) / d0;
                uint256 off = ideal > next[k] ? ideal - next[k] : next[k] - ideal;
                uint256 charged = (imbalanceFee * off) / FEE_DENOMINATOR;
                _balances[k] = next[k] - (charged * admin_fee) / FEE_DENOMINATOR;
                next[k] -= charged;
            }
            minted = (supply * (_getD(_xp(next), amp) - d0)) / d0;
        } else {
            for (uint256 k = 0; k < N_COINS; k++) _balances[k] = next[k];
        }
        require(minted >= minMintAmount, "Slippage screwed you");
        _mint(msg.sender, minted);
    }

    function _calcWithdrawOneCoin(uint256 burnAmount, uint256 i) private view returns (uint256 dy, uint256 dyFee) {
        uint256 amp = _A();
        uint256[] memory xp = _xp(_balances);
        uint256 d0 = _getD(xp, amp);
        uint256 d1 = d0 - (burnAmount * d0) / totalSupply;
        uint256 newY = StableSwapMath.getYD(amp, i, xp, d1, 1, false);
        uint256 imbalanceFee = (fee * N_COINS) / (4 * (N_COINS - 1));
        uint256[] memory reduced = new uint256[](N_COINS);
        for (uint256 k = 0; k < N_COINS; k++) {
            uint256 expected = k == i ? (xp[k] * d1) / d0 - newY : xp[k] - (xp[k] * d1) / d0;
            reduced[k] = xp[k] - (imbalanceFee * expected) / FEE_DENOMINATOR;
        }
        // The template divides by the coin's precision multiplier: the same as ×1e18 / rate.
        uint256 precisionMul = _rates[i] / PRECISION;
        uint256 dy0 = (xp[i] - newY) / precisionMul;
        dy = (reduced[i] - StableSwapMath.getYD(amp, i, reduced, d1, 1, false) - 1) / precisionMul;
        dyFee = dy0 - dy;
    }

    function _getD(uint256[] memory xp, uint256 amp) private pure returns (uint256) {
        return StableSwapMath.getD(xp, amp, true, 1, false);
    }

    function _getY(uint256 i, uint256 j, uint256 x, uint256[] memory xp) private view returns (uint256) {
        uint256 amp = _A();
        return StableSwapMath.getY(i, j, x, xp, amp, _getD(xp, amp), 1, false);
    }

    function _index(int128 i) private view returns (uint256) {
        require(i >= 0 && uint256(uint128(i)) < N_COINS, "index");
        return uint256(uint128(i));
    }

    function _xp(uint256[] memory balances_) private view returns (uint256[] memory xp) {
        xp = new uint256[](balances_.length);
        for (uint256 k = 0; k < balances_.length; k++) xp[k] = (_rates[k] * balances_[k]) / PRECISION;
    }

    function _dynamic2(uint256[2] calldata amounts) private pure returns (uint256[] memory dynamic) {
        dynamic = new uint256[](2);
        (dynamic[0], dynamic[1]) = (amounts[0], amounts[1]);
    }
}
