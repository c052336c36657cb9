// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LpToken} from "../common/LpToken.sol";
import {SafeTransfers} from "../common/SafeTransfers.sol";
import {StableSwapAmpRamp} from "./StableSwapAmpRamp.sol";
import {StableSwapMath} from "./StableSwapMath.sol";

interface ICurveFactoryAdmin {
    function admin() external view returns (address);
}

/// @title StableSwapPoolBase
/// @notice What Curve's legacy StableSwap templates (plain and meta: curvefi/curve-factory
/// `Plain2Basic`/`Plain3Basic`, `MetaUSD`, Vyper 0.2/0.3) share, for our stand-ins:
/// - coins, balances kept in storage (the admin's share is the token balance beyond them), a static
///   fee (1e10 = 100 %) of which `ADMIN_FEE` (half) goes to the admin, rates given by the pool
///   (`_rates`: 10^(36 − decimals), and a meta pool's base virtual price);
/// - `get_dy` and `exchange(int128, int128, …)`: `dy = xp[j] − y − 1`, the fee `dy · fee / 1e10`,
///   both back to coin units; `get_dy` is `exchange`'s computation;
/// - `add_liquidity`'s math: the first deposit needs every coin and mints D, later ones pay the
///   imbalance fee `fee · N / (4 · (N − 1))` on each coin's distance from its ideal balance (half
///   to the admin) and mint in proportion to D's growth;
/// - A in units of A_PRECISION along its ramp (`StableSwapAmpRamp`), ramped by the factory's
///   `admin()`;
/// - the templates' reentrancy lock, a storage flag as the Vyper 0.2/0.3 decorator keeps (its gas),
///   not the transient `ReentrancyLock`.
abstract contract StableSwapPoolBase is LpToken, StableSwapAmpRamp {
    using SafeTransfers for address;

    uint256 internal constant PRECISION = 1e18;
    uint256 internal constant FEE_DENOMINATOR = 1e10;
    uint256 public constant ADMIN_FEE = 5e9;
    uint256 internal constant A_PRECISION = StableSwapMath.A_PRECISION;

    address public immutable factory;
    address[] internal _coins;
    uint256[] internal _balances;
    uint256 public fee;
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

    modifier nonReentrant() {
        require(!_locked, "locked");
        _locked = true;
        _;
        _locked = false;
    }

    constructor(address factory_, uint256 A_, uint256 fee_, string memory name_, string memory symbol_) {
        factory = factory_;
        initial_A = A_ * A_PRECISION;
        future_A = A_ * A_PRECISION;
        fee = fee_;
        _setNameAndSymbol(name_, symbol_);
    }

    /// The rates of the coins: 1e18 per 18-decimal unit of value, as the views read them.
    function _rates() internal view virtual returns (uint256[] memory);

    /// The rates a swap or a deposit prices with; a template that caches a rate (the pre-factory
    /// meta pools' base virtual price) stores it here.
    function _swapRates() internal virtual returns (uint256[] memory) {
        return _rates();
    }

    function coins(uint256 i) external view returns (address) {
        return _coins[i];
    }

    function balances(uint256 i) external view returns (uint256) {
        return _balances[i];
    }

    function A() external view returns (uint256) {
        return _A() / A_PRECISION;
    }

    function A_precise() external view returns (uint256) {
        return _A();
    }

    function get_dy(int128 i, int128 j, uint256 dx) external view returns (uint256 dy) {
        uint256[] memory rates = _rates();
        uint256[] memory xp = _xpOf(rates, _balances);
        (uint256 ui, uint256 uj) = (_index(i, _coins.length), _index(j, _coins.length));
        (dy, ) = _swapMath(ui, uj, xp[ui] + (dx * rates[ui]) / PRECISION, xp, rates);
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
        (uint256 ui, uint256 uj) = (_index(i, _coins.length), _index(j, _coins.length));
        uint256[] memory rates = _swapRates();
        uint256[] memory xp = _xpOf(rates, _balances);
        dy = _swapAndBook(ui, uj, dx, xp[ui] + (dx * rates[ui]) / PRECISION, xp, rates);
        require(dy >= minDy, "Exchange resulted in fewer coins than expected");
        require(_coins[ui].trySafeTransferFrom(msg.sender, address(this), dx), "transferFrom failed");
        require(_coins[uj].trySafeTransfer(receiver, dy), "transfer failed");
        emit TokenExchange(msg.sender, i, dx, j, dy);
    }

    /// The swap of `dx` of coin i (worth `x` in xp units once added) and its booking: balance i
    /// grows by dx, balance j shrinks by what is paid and the admin's half of the fee.
    function _swapAndBook(
        uint256 i,
        uint256 j,
        uint256 dx,
        uint256 x,
        uint256[] memory xp,
        uint256[] memory rates
    ) internal returns (uint256 dy) {
        uint256 adminOut;
        (dy, adminOut) = _swapMath(i, j, x, xp, rates);
        _balances[i] += dx;
        _balances[j] = _balances[j] - dy - adminOut;
    }

    /// What is paid and the admin's half of the fee, both in coin j's units.
    function _swapMath(
        uint256 i,
        uint256 j,
        uint256 x,
        uint256[] memory xp,
        uint256[] memory rates
    ) internal view returns (uint256 dy, uint256 adminOut) {
        uint256 amp = _A();
        uint256 y = StableSwapMath.getY(i, j, x, xp, amp, StableSwapMath.getD(xp, amp, true), A_PRECISION, true);
        dy = xp[j] - y - 1;
        uint256 dyFee = (dy * fee) / FEE_DENOMINATOR;
        dy = ((dy - dyFee) * PRECISION) / rates[j];
        adminOut = (((dyFee * ADMIN_FEE) / FEE_DENOMINATOR) * PRECISION) / rates[j];
    }

    function _addLiquidity(
        uint256[] memory amounts,
        uint256 minMintAmount
    ) internal nonReentrant returns (uint256 mintAmount) {
        uint256 n = _coins.length;
        require(amounts.length == n, "uint256[N_COINS] amounts");
        uint256 amp = _A();
        uint256[] memory rates = _swapRates();
        uint256[] memory oldBalances = _balances;
        uint256 d0 = StableSwapMath.getD(_xpOf(rates, oldBalances), amp, true);
        uint256 tokenSupply = totalSupply;
        uint256[] memory newBalances = new uint256[](n);
        for (uint256 k = 0; k < n; k++) {
            if (tokenSupply == 0) require(amounts[k] > 0, "initial deposit requires all coins");
            newBalances[k] = oldBalances[k] + amounts[k];
        }
        uint256 d1 = StableSwapMath.getD(_xpOf(rates, newBalances), amp, true);
        require(d1 > d0, "D did not grow");
        uint256[] memory fees = new uint256[](n);
        if (tokenSupply > 0) {
            uint256 baseFee = (fee * n) / (4 * (n - 1));
            for (uint256 k = 0; k < n; k++) {
                uint256 ideal = (d1 * oldBalances[k]) / d0;
                uint256 difference = ideal > newBalances[k] ? ideal - newBalances[k] : newBalances[k] - ideal;
                fees[k] = (baseFee * difference) / FEE_DENOMINATOR;
                _balances[k] = newBalances[k] - (fees[k] * ADMIN_FEE) / FEE_DENOMINATOR;
                newBalances[k] -= fees[k];
            }
            uint256 d2 = StableSwapMath.getD(_xpOf(rates, newBalances), amp, true);
            mintAmount = (tokenSupply * (d2 - d0)) / d0;
        } else {
            for (uint256 k = 0; k < n; k++) _balances[k] = newBalances[k];
            mintAmount = d1;
        }
        require(mintAmount >= minMintAmount, "Slippage screwed you");
        for (uint256 k = 0; k < n; k++)
            if (amounts[k] > 0)
                require(_coins[k].trySafeTransferFrom(msg.sender, address(this), amounts[k]), "transferFrom failed");
        _mint(msg.sender, mintAmount);
        emit AddLiquidity(msg.sender, amounts, fees, d1, tokenSupply + mintAmount);
    }

    function _requireRampAdmin() internal view override {
        require(msg.sender == ICurveFactoryAdmin(factory).admin(), "admin only");
    }

    function _aUnit() internal pure override returns (uint256) {
        return A_PRECISION;
    }

    function _index(int128 i, uint256 n) internal pure returns (uint256) {
        require(i >= 0 && uint256(uint128(i)) < n, "index");
        return uint256(uint128(i));
    }

    function _xpOf(uint256[] memory rates, uint256[] memory balances_) internal pure returns (uint256[] memory xp) {
        xp = new uint256[](balances_.length);
        for (uint256 k = 0; k < balances_.length; k++) xp[k] = (rates[k] * balances_[k]) / PRECISION;
    }
}
