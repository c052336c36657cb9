// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LpToken} from "../common/LpToken.sol";
import {ReentrancyLock} from "../common/ReentrancyLock.sol";
import {SafeTransfers} from "../common/SafeTransfers.sol";
import {CryptoSwapMath} from "./CryptoSwapMath.sol";

/// @title CurveTwocryptoPool (stand-in)
/// @notice A Curve twocrypto-ng pool as an integrator sees it, our own contract (Curve's sources are
/// not under a licence we may copy, and no registry package ships them; docs/dex-kinds.md): the
/// published external interface (`coins(uint256)`, `balances(uint256)`, `get_dy(uint256, uint256,
/// uint256)`, `exchange(uint256, uint256, uint256, uint256[, address])`, `price_scale()`, `D()`, `A()`,
/// `gamma()`, `mid_fee()`, `out_fee()`, `fee_gamma()`, `fee()`, `last_prices()`, `add_liquidity`, the
/// pool as its own LP token) and its published math: the CryptoSwap invariant with A and gamma
/// (`CryptoSwapMath`), balances held in internal units with coin 1 valued at `price_scale`, and the
/// dynamic fee between `mid_fee` and `out_fee` (`fee_gamma`) taken off the output.
/// **Simplified**: `price_scale` is fixed at the pool's `initial_price` (no `tweak_price`: no
/// repegging, no EMA price oracle, no admin fee, no A/gamma ramps); after each trade D is recomputed
/// from the new balances, so the fee stays in the pool. `get_dy` is `exchange`'s own computation on
/// the same state, so `exchange` pays exactly what `get_dy` said.
contract CurveTwocryptoPool is LpToken, ReentrancyLock {
    using SafeTransfers for address;

    uint256 private constant N_COINS = 2;
    uint256 private constant WAD = 1e18;

    address public immutable factory;
    address private immutable coin0;
    address private immutable coin1;
    uint256 private immutable precision0;
    uint256 private immutable precision1;
    uint256 private immutable _A;
    uint256 private immutable _gamma;
    uint256 public immutable mid_fee;
    uint256 public immutable out_fee;
    uint256 public immutable fee_gamma;
    /// Coin 1's price in coin 0 (10^18): fixed here (see the notice).
    uint256 public immutable price_scale;

    uint256[2] private _balances;
    uint256 public D;
    /// The price of the last trade (coin 1 in coin 0, 10^18).
    uint256 public last_prices;

    /// twocrypto-ng's events.
    event TokenExchange(
        address indexed buyer,
        uint256 sold_id,
        uint256 tokens_sold,
        uint256 bought_id,
        uint256 tokens_bought,
        uint256 fee,
        uint256 packed_price_scale
    );
    event AddLiquidity(
        address indexed provider,
        address indexed receiver,
        uint256[2] token_amounts,
        uint256 fee,
        uint256 token_supply,
        uint256 packed_price_scale
    );

    error BadIndexes(uint256 i, uint256 j);
    error Slippage(uint256 dy, uint256 minDy);
    error ZeroAmount();
    error Empty();

    constructor(
        address[2] memory coins_,
        uint8[2] memory decimals_,
        uint256 A_,
        uint256 gamma_,
        uint256 midFee_,
        uint256 outFee_,
        uint256 feeGamma_,
        uint256 initialPrice_,
        string memory name_,
        string memory symbol_
    ) {
        require(decimals_[0] <= 18 && decimals_[1] <= 18, "decimals above 18");
        require(midFee_ <= outFee_ && outFee_ <= CryptoSwapMath.FEE_PRECISION / 2, "fees");
        require(
            gamma_ > 0 && gamma_ < WAD && A_ > 0 && feeGamma_ > 0 && feeGamma_ <= WAD && initialPrice_ > 0,
            "params"
        );
        factory = msg.sender;
        (coin0, coin1) = (coins_[0], coins_[1]);
        (precision0, precision1) = (10 ** (18 - uint256(decimals_[0])), 10 ** (18 - uint256(decimals_[1])));
        (_A, _gamma, mid_fee, out_fee, fee_gamma, price_scale) = (
            A_,
            gamma_,
            midFee_,
            outFee_,
            feeGamma_,
            initialPrice_
        );
        last_prices = initialPrice_;
        _setNameAndSymbol(name_, symbol_);
    }

    function coins(uint256 k) external view returns (address) {
        if (k == 0) return coin0;
        if (k == 1) return coin1;
        revert BadIndexes(k, k);
    }

    function balances(uint256 k) external view returns (uint256) {
        return _balances[k];
    }

    function A() external view returns (uint256) {
        return _A;
    }

    function gamma() external view returns (uint256) {
        return _gamma;
    }

    /// When an A/gamma ramp ends: never here (no ramps), as the real pool answers with none running.
    function future_A_gamma_time() external pure returns (uint256) {
        return 0;
    }

    /// The dynamic fee at the current balances, out of 10^10.
    function fee() external view returns (uint256) {
        uint256[2] memory xp = _xp(_balances);
        return CryptoSwapMath.fee(xp[0], xp[1], mid_fee, out_fee, fee_gamma);
    }

    /// What `exchange(i, j, dx, …)` pays now: the same computation.
    function get_dy(uint256 i, uint256 j, uint256 dx) external view returns (uint256) {
        (uint256 dy, ) = _swapOut(i, j, dx);
        return dy;
    }

    function exchange(uint256 i, uint256 j, uint256 dx, uint256 minDy) external returns (uint256) {
        return _exchange(i, j, dx, minDy, msg.sender);
    }

    function exchange(uint256 i, uint256 j, uint256 dx, uint256 minDy, address receiver) external returns (uint256) {
        return _exchange(i, j, dx, minDy, receiver);
    }

    /// Deposits both coins (either may be 0, not both) and mints LP in proportion to D's growth.
    function add_liquidity(
        uint256[2] calldata amounts,
        uint256 minMintAmount
    ) external nonReentrant returns (uint256 minted) {
        if (amounts[0] == 0 && amounts[1] == 0) revert ZeroAmount();
        uint256 oldD = D;
        uint256[2] memory next = [_balances[0] + amounts[0], _balances[1] + amounts[1]];
        uint256[2] memory xp = _xp(next);
        if (xp[0] == 0 || xp[1] == 0) revert Empty();
        uint256 newD = CryptoSwapMath.getD(_A, _gamma, xp[0], xp[1]);
        minted = totalSupply == 0 ? newD : (totalSupply * (newD - oldD)) / oldD;
        require(minted >= minMintAmount, "slippage");
        if (amounts[0] > 0)
            require(coin0.trySafeTransferFrom(msg.sender, address(this), amounts[0]), "transferFrom failed");
        if (amounts[1] > 0)
            require(coin1.trySafeTransferFrom(msg.sender, address(this), amounts[1]), "transferFrom failed");
        _balances = next;
        D = newD;
        _mint(msg.sender, minted);
        emit AddLiquidity(msg.sender, msg.sender, amounts, 0, totalSupply, price_scale);
    }

    function _exchange(
        uint256 i,
        uint256 j,
        uint256 dx,
        uint256 minDy,
        address receiver
    ) private nonReentrant returns (uint256) {
        (uint256 dy, uint256 feePaid) = _swapOut(i, j, dx);
        if (dy < minDy) revert Slippage(dy, minDy);
        address coinIn = i == 0 ? coin0 : coin1;
        address coinOut = j == 0 ? coin0 : coin1;
        require(coinIn.trySafeTransferFrom(msg.sender, address(this), dx), "transferFrom failed");
        require(coinOut.trySafeTransfer(receiver, dy), "transfer failed");
        _balances[i] += dx;
        _balances[j] -= dy;
        uint256[2] memory xp = _xp(_balances);
        D = CryptoSwapMath.getD(_A, _gamma, xp[0], xp[1]);
        // Coin 1's price in coin 0 at this trade, in 10^18 (of whole units).
        (uint256 paid0, uint256 paid1) = i == 0
            ? (dx * precision0, dy * precision1)
            : (dy * precision0, dx * precision1);
        if (paid1 > 0) last_prices = (paid0 * WAD) / paid1;
        emit TokenExchange(msg.sender, i, dx, j, dy, feePaid, price_scale);
        return dy;
    }

    /// The output of `dx` of coin `i` for coin `j`, and the fee taken from it (coin `j`'s units).
    function _swapOut(uint256 i, uint256 j, uint256 dx) private view returns (uint256 dy, uint256 feePaid) {
        if (i == j || i >= N_COINS || j >= N_COINS) revert BadIndexes(i, j);
        if (dx == 0) revert ZeroAmount();
        uint256[2] memory next = [_balances[0], _balances[1]];
        if (next[0] == 0 || next[1] == 0) revert Empty();
        next[i] += dx;
        uint256[2] memory xp = _xp(next);
        uint256 y = CryptoSwapMath.getY(_A, _gamma, xp[i], D);
        if (y + 1 >= xp[j]) revert Empty();
        uint256 dyInternal = xp[j] - y - 1;
        xp[j] = y + 1;
        // Back to coin j's units (rounded down).
        dy = j == 1 ? (dyInternal * WAD) / price_scale / precision1 : dyInternal / precision0;
        feePaid =
            (CryptoSwapMath.fee(xp[0], xp[1], mid_fee, out_fee, fee_gamma) * dy + CryptoSwapMath.FEE_PRECISION - 1) /
            CryptoSwapMath.FEE_PRECISION;
        dy -= feePaid;
        if (dy == 0) revert ZeroAmount();
    }

    /// Balances in internal units: 18 decimals, coin 1 valued in coin 0 at `price_scale`.
    function _xp(uint256[2] memory raw) private view returns (uint256[2] memory xp) {
        xp[0] = raw[0] * precision0;
        xp[1] = (raw[1] * precision1 * price_scale) / WAD;
    }
}
