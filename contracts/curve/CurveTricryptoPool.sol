// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LpToken} from "../common/LpToken.sol";
import {ReentrancyLock} from "../common/ReentrancyLock.sol";
import {SafeTransfers} from "../common/SafeTransfers.sol";

/// tricrypto-ng's AMM math contract (`CurveCryptoMathOptimized3.vy` v2.0.0, deployed beside the
/// pools: `loadCurveCryptoMathArtifact`), the functions the pool calls.
interface ICurveCryptoMath3 {
    function newton_D(
        uint256 ANN,
        uint256 gamma,
        uint256[3] calldata x,
        uint256 K0_prev
    ) external view returns (uint256);

    function get_y(
        uint256 ANN,
        uint256 gamma,
        uint256[3] calldata x,
        uint256 D,
        uint256 i
    ) external view returns (uint256[2] memory);

    function get_p(
        uint256[3] calldata xp,
        uint256 D,
        uint256[2] calldata A_gamma
    ) external view returns (uint256[2] memory);

    function reduction_coefficient(uint256[3] calldata x, uint256 fee_gamma) external view returns (uint256);
}

/// @title CurveTricryptoPool (stand-in)
/// @notice A Curve tricrypto-ng pool as an integrator sees it, our own contract (Curve's pool source
/// is not under a licence we may copy, and no registry package ships it; docs/dex-kinds.md): the
/// published external interface (`coins`, `balances`, `get_dy(i, j, dx)`, `exchange(i, j, dx,
/// min_dy[, receiver])`, `price_scale(k)`, `price_oracle(k)`, `last_prices(k)`, `D()`, `A()`,
/// `gamma()`, `mid_fee()`, `out_fee()`, `fee_gamma()`, `fee()`, `fee_calc(xp)`, `precisions()`,
/// `MATH()`, `add_liquidity`, the pool as its own LP token, `TokenExchange` and `AddLiquidity`)
/// and the pool's published swap: balances in internal units (18 decimals, coins 1 and 2 valued
/// in coin 0 at `price_scale`), the output from the deployed math contract's `get_y` at the
/// stored D, one unit kept back, the dynamic fee `(mid_fee·f + out_fee·(10^18 − f)) / 10^18` with
/// `f = reduction_coefficient(xp, fee_gamma)` taken off the output, and D recomputed after the
/// trade by `newton_D` from `get_y`'s K0 (what the pool's `tweak_price` computes before it
/// repegs), the last prices from `get_p`.
/// **Simplified**: `price_scale` stays at the initial prices (no repegging, no EMA oracle: the
/// oracle answers the scale, no profit accounting or `Loss` check, no admin fee), no A/gamma ramps
/// (`future_A_gamma_time()` answers 0), deposits mint in proportion to D's growth without a fee.
/// `get_dy` is `exchange`'s own computation on the same state, so `exchange` pays exactly what
/// `get_dy` said.
contract CurveTricryptoPool is LpToken, ReentrancyLock {
    using SafeTransfers for address;

    uint256 private constant N_COINS = 3;
    uint256 private constant PRECISION = 1e18;
    /// `mid_fee` and `out_fee` are out of 10^10.
    uint256 private constant FEE_PRECISION = 1e10;

    ICurveCryptoMath3 public immutable MATH;
    address public immutable factory;
    address private immutable coin0;
    address private immutable coin1;
    address private immutable coin2;
    uint256 private immutable precision0;
    uint256 private immutable precision1;
    uint256 private immutable precision2;
    /// A·N^N·10,000, as the math contract takes it.
    uint256 private immutable _A;
    uint256 private immutable _gamma;
    uint256 public immutable mid_fee;
    uint256 public immutable out_fee;
    uint256 public immutable fee_gamma;
    /// Coins 1 and 2 priced in coin 0 (whole units, 10^18): fixed here (see the notice).
    uint256 private immutable priceScale1;
    uint256 private immutable priceScale2;

    uint256[3] private _balances;
    uint256 public D;
    uint256[2] private _lastPrices;

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
        uint256[3] token_amounts,
        uint256 fee,
        uint256 token_supply,
        uint256 packed_price_scale
    );

    error BadIndexes(uint256 i, uint256 j);
    error Slippage(uint256 dy, uint256 minDy);
    error ZeroAmount();
    error Empty();

    constructor(
        address[3] memory coins_,
        uint8[3] memory decimals_,
        address math_,
        uint256[5] memory params_, // A·N^N·10,000, gamma, mid_fee, out_fee, fee_gamma
        uint256[2] memory initialPrices_,
        string memory name_,
        string memory symbol_
    ) {
        require(decimals_[0] <= 18 && decimals_[1] <= 18 && decimals_[2] <= 18, "decimals above 18");
        require(params_[2] <= params_[3] && params_[3] <= FEE_PRECISION, "fees");
        require(params_[0] > 0 && params_[1] > 0 && params_[4] > 0 && params_[4] <= PRECISION, "params");
        require(initialPrices_[0] > 0 && initialPrices_[1] > 0, "prices");
        MATH = ICurveCryptoMath3(math_);
        factory = msg.sender;
        (coin0, coin1, coin2) = (coins_[0], coins_[1], coins_[2]);
        precision0 = 10 ** (18 - uint256(decimals_[0]));
        precision1 = 10 ** (18 - uint256(decimals_[1]));
        precision2 = 10 ** (18 - uint256(decimals_[2]));
        (_A, _gamma, mid_fee, out_fee, fee_gamma) = (params_[0], params_[1], params_[2], params_[3], params_[4]);
        (priceScale1, priceScale2) = (initialPrices_[0], initialPrices_[1]);
        _lastPrices = initialPrices_;
        _setNameAndSymbol(name_, symbol_);
    }

    function coins(uint256 k) public view returns (address) {
        if (k == 0) return coin0;
        if (k == 1) return coin1;
        if (k == 2) return coin2;
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

    /// Coin k + 1's price in coin 0 (10^18), k = 0 or 1.
    function price_scale(uint256 k) public view returns (uint256) {
        if (k == 0) return priceScale1;
        if (k == 1) return priceScale2;
        revert BadIndexes(k, k);
    }

    /// The EMA oracle's price: the scale itself here (no oracle, see the notice).
    function price_oracle(uint256 k) external view returns (uint256) {
        return price_scale(k);
    }

    /// Coin k + 1's price in coin 0 after the last trade (10^18).
    function last_prices(uint256 k) external view returns (uint256) {
        return _lastPrices[k];
    }

    function precisions() external view returns (uint256[3] memory) {
        return [precision0, precision1, precision2];
    }

    /// The dynamic fee at the current balances, out of 10^10.
    function fee() external view returns (uint256) {
        return _fee(_xp(_balances));
    }

    /// The dynamic fee at internal balances `xp`, out of 10^10.
    function fee_calc(uint256[3] memory xp) external view returns (uint256) {
        return _fee(xp);
    }

    /// What `exchange(i, j, dx, …)` pays now: the same computation.
    function get_dy(uint256 i, uint256 j, uint256 dx) external view returns (uint256 dy) {
        (dy, , , ) = _swapOut(i, j, dx);
    }

    function exchange(uint256 i, uint256 j, uint256 dx, uint256 minDy) external returns (uint256) {
        return _exchange(i, j, dx, minDy, msg.sender);
    }

    function exchange(uint256 i, uint256 j, uint256 dx, uint256 minDy, address receiver) external returns (uint256) {
        return _exchange(i, j, dx, minDy, receiver);
    }

    /// Deposits any of the three coins (not none) and mints LP in proportion to D's growth.
    function add_liquidity(
        uint256[3] calldata amounts,
        uint256 minMintAmount
    ) external nonReentrant returns (uint256 minted) {
        if (amounts[0] == 0 && amounts[1] == 0 && amounts[2] == 0) revert ZeroAmount();
        uint256 oldD = D;
        uint256[3] memory next;
        for (uint256 k = 0; k < N_COINS; k++) next[k] = _balances[k] + amounts[k];
        uint256[3] memory xp = _xp(next);
        if (xp[0] == 0 || xp[1] == 0 || xp[2] == 0) revert Empty();
        uint256 newD = MATH.newton_D(_A, _gamma, xp, 0);
        minted = totalSupply == 0 ? newD : (totalSupply * (newD - oldD)) / oldD;
        require(minted >= minMintAmount, "slippage");
        for (uint256 k = 0; k < N_COINS; k++)
            if (amounts[k] > 0)
                require(coins(k).trySafeTransferFrom(msg.sender, address(this), amounts[k]), "transferFrom failed");
        _balances = next;
        D = newD;
        _mint(msg.sender, minted);
        emit AddLiquidity(msg.sender, amounts, 0, totalSupply, _packedPriceScale());
    }

    function _exchange(
        uint256 i,
        uint256 j,
        uint256 dx,
        uint256 minDy,
        address receiver
    ) private nonReentrant returns (uint256) {
        (uint256 dy, uint256 feePaid, uint256[3] memory xp, uint256 K0) = _swapOut(i, j, dx);
        if (dy < minDy) revert Slippage(dy, minDy);
        require(coins(i).trySafeTransferFrom(msg.sender, address(this), dx), "transferFrom failed");
        require(coins(j).trySafeTransfer(receiver, dy), "transfer failed");
        _balances[i] += dx;
        _balances[j] -= dy;
        // tweak_price's D before any repeg, from get_y's K0 as the pool passes it.
        uint256 newD = MATH.newton_D(_A, _gamma, xp, K0);
        D = newD;
        uint256[2] memory p = MATH.get_p(xp, newD, [_A, _gamma]);
        _lastPrices = [(p[0] * priceScale1) / PRECISION, (p[1] * priceScale2) / PRECISION];
        emit TokenExchange(msg.sender, i, dx, j, dy, feePaid, _packedPriceScale());
        return dy;
    }

    /// The output of `dx` of coin `i` for coin `j`, the fee taken from it (coin `j`'s units), the
    /// internal balances after the trade and `get_y`'s K0.
    function _swapOut(
        uint256 i,
        uint256 j,
        uint256 dx
    ) private view returns (uint256 dy, uint256 feePaid, uint256[3] memory xp, uint256 K0) {
        if (i == j || i >= N_COINS || j >= N_COINS) revert BadIndexes(i, j);
        if (dx == 0) revert ZeroAmount();
        uint256[3] memory next = _balances;
        if (D == 0) revert Empty();
        uint256 y = next[j];
        next[i] += dx;
        xp = _xp(next);
        uint256[2] memory yOut = MATH.get_y(_A, _gamma, xp, D, j);
        // Checked: a y above the balance reverts, as the pool's subtraction does.
        uint256 dyInternal = xp[j] - yOut[0];
        xp[j] = yOut[0];
        dyInternal -= 1;
        dy = j == 0 ? dyInternal : (dyInternal * PRECISION) / price_scale(j - 1);
        dy /= _precision(j);
        feePaid = (_fee(xp) * dy) / FEE_PRECISION;
        dy -= feePaid;
        // The output coin at its new balance, in internal units.
        xp[j] = (y - dy) * _precision(j);
        if (j > 0) xp[j] = (xp[j] * price_scale(j - 1)) / PRECISION;
        K0 = yOut[1];
    }

    function _fee(uint256[3] memory xp) private view returns (uint256) {
        uint256 f = MATH.reduction_coefficient(xp, fee_gamma);
        return (mid_fee * f + out_fee * (PRECISION - f)) / PRECISION;
    }

    function _precision(uint256 k) private view returns (uint256) {
        return
            k == 0
                ? precision0
                : k == 1
                    ? precision1
                    : precision2;
    }

    /// Balances in internal units: 18 decimals, coins 1 and 2 valued in coin 0 at `price_scale`.
    function _xp(uint256[3] memory raw) private view returns (uint256[3] memory xp) {
        xp[0] = raw[0] * precision0;
        xp[1] = (raw[1] * priceScale1 * precision1) / PRECISION;
        xp[2] = (raw[2] * priceScale2 * precision2) / PRECISION;
    }

    /// The scale packed as tricrypto-ng packs it: coin 1's price in the low 128 bits.
    function _packedPriceScale() private view returns (uint256) {
        return (priceScale2 << 128) | priceScale1;
    }
}
