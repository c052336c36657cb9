// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LpToken} from "../common/LpToken.sol";
import {GyroECLPMath} from "./GyroECLPMath.sol";

/// @notice What the pool calls on the Balancer V2 Vault (the Vault's published interface).
interface IBalancerV2VaultForPools {
    function registerPool(uint8 specialization) external returns (bytes32);
    function registerTokens(bytes32 poolId, address[] calldata tokens, address[] calldata assetManagers) external;
}

/// @notice A rate provider as Balancer V2 pools read it: the value of one token in 18 decimals.
interface IGyroRateProvider {
    function getRate() external view returns (uint256);
}

interface IDecimals {
    function decimals() external view returns (uint8);
}

/// @title GyroECLPPool
/// @notice Our stand-in of Gyroscope's E-CLP pool on the Balancer V2 Vault (`GyroECLPPool`, the
/// two-token "TWO_TOKEN" specialization), for the devnet and tests: no registry package ships
/// Gyroscope's bytecode, while the Vault that runs it is Balancer's own (docs/dex-kinds.md,
/// "GYROSCOPE_ECLP"). The swap is the published pool's `onSwap` for a given input:
///   1. balances are upscaled: times the scaling factor 1e18·10^(18−decimals), itself times the
///      rate provider's `getRate()` (rounded down) where the token has one;
///   2. the invariant and its error give the vector (r + 2·err, r);
///   3. the fee is taken before upscaling: amount − mulUp(amount, swapFee);
///   4. `GyroECLPMath.outGivenIn` on the upscaled amounts;
///   5. the result is downscaled rounding down.
/// Kept from the real pool for its gas: the fee read from storage, the pause flag, the rate
/// providers' calls and the `SwapParams` event it emits on every swap (its swap writes no storage;
/// the Vault's writes are the Vault's own). Not kept: swaps given an output (refused), Gyroscope's
/// config contract and its protocol fees in BPT, the liquidity cap, the price oracle; the BPT minted
/// at initialisation is our own count (the upscaled amounts' sum), joins and exits are proportional.
contract GyroECLPPool is LpToken {
    uint256 private constant MINIMUM_BPT = 1e6;

    address public immutable vault;
    bytes32 public immutable poolId;
    address public immutable token0;
    address public immutable token1;
    address public immutable rateProvider0;
    address public immutable rateProvider1;
    uint256 private immutable _scalingFactor0;
    uint256 private immutable _scalingFactor1;
    address public immutable owner;

    int256 private immutable _alpha;
    int256 private immutable _beta;
    int256 private immutable _c;
    int256 private immutable _s;
    int256 private immutable _lambda;
    int256 private immutable _tauAlphaX;
    int256 private immutable _tauAlphaY;
    int256 private immutable _tauBetaX;
    int256 private immutable _tauBetaY;
    int256 private immutable _u;
    int256 private immutable _v;
    int256 private immutable _w;
    int256 private immutable _z;
    int256 private immutable _dSq;

    uint256 public swapFeePercentage;
    bool public paused;

    struct SwapRequest {
        uint8 kind;
        address tokenIn;
        address tokenOut;
        uint256 amount;
        bytes32 poolId;
        uint256 lastChangeBlock;
        address from;
        address to;
        bytes userData;
    }

    struct NewPool {
        address vault;
        string name;
        string symbol;
        address token0;
        address token1;
        address rateProvider0;
        address rateProvider1;
        uint256 swapFeePercentage;
        address owner;
    }

    event SwapParams(uint256[] balances, GyroECLPMath.Vector2 invariant, uint256 amount);
    event SwapFeePercentageChanged(uint256 swapFeePercentage);
    event PausedStateChanged(bool paused);

    error GyroCallerNotVault();
    error GyroInvalidPoolId();
    error GyroTokensNotSorted();
    error GyroUnknownToken();
    error GyroGivenOutNotSupported();
    error GyroPaused();
    error GyroNotOwner();
    error GyroSwapFeeOutOfRange(uint256 fee);
    error GyroUnhandledJoinOrExitKind(uint256 kind);
    error GyroMinimumBpt();

    modifier onlyVault(bytes32 id) {
        if (msg.sender != vault) revert GyroCallerNotVault();
        if (id != poolId) revert GyroInvalidPoolId();
        _;
    }

    constructor(NewPool memory pool, GyroECLPMath.Params memory params, GyroECLPMath.Derived memory derived) {
        if (!(uint160(pool.token0) < uint160(pool.token1))) revert GyroTokensNotSorted();
        GyroECLPMath.validate(params, derived);
        _setNameAndSymbol(pool.name, pool.symbol);
        _setSwapFee(pool.swapFeePercentage);
        vault = pool.vault;
        owner = pool.owner;
        (token0, token1) = (pool.token0, pool.token1);
        (rateProvider0, rateProvider1) = (pool.rateProvider0, pool.rateProvider1);
        _scalingFactor0 = 1e18 * 10 ** (18 - IDecimals(pool.token0).decimals());
        _scalingFactor1 = 1e18 * 10 ** (18 - IDecimals(pool.token1).decimals());
        (_alpha, _beta, _c, _s, _lambda) = (params.alpha, params.beta, params.c, params.s, params.lambda);
        (_tauAlphaX, _tauAlphaY, _tauBetaX, _tauBetaY) = (
            derived.tauAlpha.x,
            derived.tauAlpha.y,
            derived.tauBeta.x,
            derived.tauBeta.y
        );
        (_u, _v, _w, _z, _dSq) = (derived.u, derived.v, derived.w, derived.z, derived.dSq);
        // Two-token specialization (2): the Vault hands `onSwap` the two balances.
        bytes32 id = IBalancerV2VaultForPools(pool.vault).registerPool(2);
        address[] memory tokens = new address[](2);
        (tokens[0], tokens[1]) = (pool.token0, pool.token1);
        IBalancerV2VaultForPools(pool.vault).registerTokens(id, tokens, new address[](2));
        poolId = id;
    }

    function getPoolId() external view returns (bytes32) {
        return poolId;
    }

    function getSwapFeePercentage() external view returns (uint256) {
        return swapFeePercentage;
    }

    /// @notice The E-CLP parameters and the derived values, as the published pool's `getECLPParams`.
    function getECLPParams()
        external
        view
        returns (GyroECLPMath.Params memory params, GyroECLPMath.Derived memory derived)
    {
        return _params();
    }

    /// @notice The two scaling factors in use now (decimals and rates), 18-decimal fixed point.
    function getScalingFactors() external view returns (uint256[] memory factors) {
        factors = new uint256[](2);
        (factors[0], factors[1]) = (_scalingFactor(true), _scalingFactor(false));
    }

    function setSwapFeePercentage(uint256 fee) external {
        if (msg.sender != owner) revert GyroNotOwner();
        _setSwapFee(fee);
    }

    /// @notice Balancer's `BasePool.getPausedState`: the flag, and the windows it applies in (ours
    /// never end: a pause holds until the owner lifts it).
    function getPausedState()
        external
        view
        returns (bool paused_, uint256 pauseWindowEndTime, uint256 bufferPeriodEndTime)
    {
        return (paused, type(uint256).max, type(uint256).max);
    }

    function setPaused(bool paused_) external {
        if (msg.sender != owner) revert GyroNotOwner();
        paused = paused_;
        emit PausedStateChanged(paused_);
    }

    function onSwap(
        SwapRequest memory request,
        uint256 balanceTokenIn,
        uint256 balanceTokenOut
    ) external onlyVault(request.poolId) returns (uint256) {
        if (paused) revert GyroPaused();
        bool tokenInIsToken0;
        if (request.tokenIn == token0 && request.tokenOut == token1) tokenInIsToken0 = true;
        else if (!(request.tokenIn == token1 && request.tokenOut == token0)) revert GyroUnknownToken();
        if (request.kind != 0) revert GyroGivenOutNotSupported();
        uint256 scalingIn = _scalingFactor(tokenInIsToken0);
        uint256 scalingOut = _scalingFactor(!tokenInIsToken0);
        balanceTokenIn = _mulDown(balanceTokenIn, scalingIn);
        balanceTokenOut = _mulDown(balanceTokenOut, scalingOut);
        uint256[2] memory balances =
            tokenInIsToken0 ? [balanceTokenIn, balanceTokenOut] : [balanceTokenOut, balanceTokenIn];
        (GyroECLPMath.Params memory params, GyroECLPMath.Derived memory derived) = _params();
        (int256 invariant, int256 err) = GyroECLPMath.invariantWithError(balances[0], balances[1], params, derived);
        GyroECLPMath.Vector2 memory r = GyroECLPMath.Vector2(invariant + 2 * err, invariant);
        uint256 fee = _mulUp(request.amount, swapFeePercentage);
        uint256 amountIn = _mulDown(request.amount - fee, scalingIn);
        uint256 amountOut = GyroECLPMath.outGivenIn(balances, amountIn, tokenInIsToken0, params, derived, r);
        uint256[] memory logged = new uint256[](2);
        (logged[0], logged[1]) = (balances[0], balances[1]);
        emit SwapParams(logged, r, amountOut);
        return (amountOut * 1e18) / scalingOut;
    }

    /// @notice Joins: `abi.encode(0, uint256[2] amountsIn)` initialises the pool (INIT, as Balancer's
    /// weighted join kinds number it), `abi.encode(3, bptOut)` deposits both tokens in proportion.
    function onJoinPool(
        bytes32 id,
        address,
        address recipient,
        uint256[] memory balances,
        uint256,
        uint256,
        bytes memory userData
    ) external onlyVault(id) returns (uint256[] memory amountsIn, uint256[] memory dueProtocolFees) {
        if (paused) revert GyroPaused();
        dueProtocolFees = new uint256[](2);
        uint256 kind = abi.decode(userData, (uint256));
        if (totalSupply == 0) {
            if (kind != 0) revert GyroUnhandledJoinOrExitKind(kind);
            (, amountsIn) = abi.decode(userData, (uint256, uint256[]));
            (GyroECLPMath.Params memory params, GyroECLPMath.Derived memory derived) = _params();
            uint256 up0 = _mulDown(amountsIn[0], _scalingFactor(true));
            uint256 up1 = _mulDown(amountsIn[1], _scalingFactor(false));
            // Reverts beyond the math's bounds on balances and invariant.
            GyroECLPMath.invariantWithError(up0, up1, params, derived);
            uint256 bpt = up0 + up1;
            if (bpt < MINIMUM_BPT) revert GyroMinimumBpt();
            _mint(address(0xdead), MINIMUM_BPT);
            _mint(recipient, bpt - MINIMUM_BPT);
            return (amountsIn, dueProtocolFees);
        }
        if (kind != 3) revert GyroUnhandledJoinOrExitKind(kind);
        (, uint256 bptOut) = abi.decode(userData, (uint256, uint256));
        amountsIn = new uint256[](2);
        for (uint256 k = 0; k < 2; k++) amountsIn[k] = _divUp(_mulUp(balances[k], bptOut), totalSupply);
        _mint(recipient, bptOut);
    }

    /// @notice Exits: `abi.encode(1, bptIn)` withdraws both tokens in proportion.
    function onExitPool(
        bytes32 id,
        address sender,
        address,
        uint256[] memory balances,
        uint256,
        uint256,
        bytes memory userData
    ) external onlyVault(id) returns (uint256[] memory amountsOut, uint256[] memory dueProtocolFees) {
        dueProtocolFees = new uint256[](2);
        (uint256 kind, uint256 bptIn) = abi.decode(userData, (uint256, uint256));
        if (kind != 1) revert GyroUnhandledJoinOrExitKind(kind);
        amountsOut = new uint256[](2);
        for (uint256 k = 0; k < 2; k++) amountsOut[k] = (((balances[k] * bptIn) / 1e18) * 1e18) / totalSupply;
        _burn(sender, bptIn);
    }

    function _params() private view returns (GyroECLPMath.Params memory params, GyroECLPMath.Derived memory derived) {
        params = GyroECLPMath.Params(_alpha, _beta, _c, _s, _lambda);
        derived = GyroECLPMath.Derived(
            GyroECLPMath.Vector2(_tauAlphaX, _tauAlphaY),
            GyroECLPMath.Vector2(_tauBetaX, _tauBetaY),
            _u,
            _v,
            _w,
            _z,
            _dSq
        );
    }

    function _scalingFactor(bool isToken0) private view returns (uint256 factor) {
        address provider = isToken0 ? rateProvider0 : rateProvider1;
        factor = isToken0 ? _scalingFactor0 : _scalingFactor1;
        if (provider != address(0)) factor = _mulDown(factor, IGyroRateProvider(provider).getRate());
    }

    function _setSwapFee(uint256 fee) private {
        // The published bounds: 0.0001% to 10%.
        if (fee < 1e12 || fee > 1e17) revert GyroSwapFeeOutOfRange(fee);
        swapFeePercentage = fee;
        emit SwapFeePercentageChanged(fee);
    }

    function _mulDown(uint256 a, uint256 b) private pure returns (uint256) {
        return (a * b) / 1e18;
    }

    function _mulUp(uint256 a, uint256 b) private pure returns (uint256) {
        uint256 product = a * b;
        return product == 0 ? 0 : (product - 1) / 1e18 + 1;
    }

    function _divUp(uint256 a, uint256 b) private pure returns (uint256) {
        return a == 0 ? 0 : (a * 1e18 - 1) / b + 1;
    }
}

/// @title GyroRateProvider
/// @notice Tests and the devnet only: a Balancer rate provider (`getRate()`, 18 decimals) that
/// anyone may set, as a wstETH- or sDAI-style provider moves between blocks.
contract GyroRateProvider {
    uint256 public rate;

    constructor(uint256 rate_) {
        rate = rate_;
    }

    function getRate() external view returns (uint256) {
        return rate;
    }

    function setRate(uint256 rate_) external {
        rate = rate_;
    }
}
