// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import "./RouterTypes.sol";
import "./RouterErrors.sol";
import {TokenTransfers} from "./TokenTransfers.sol";
import {IWrappedNative, WrappedNative} from "./WrappedNative.sol";
import {V2Legs} from "./V2Legs.sol";
import {V3Legs} from "./V3Legs.sol";
import {V4Legs} from "./V4Legs.sol";
import {AerodromeLegs} from "./AerodromeLegs.sol";
import {InfinityLegs} from "./InfinityLegs.sol";
import {PropAmmLegs} from "./PropAmmLegs.sol";
import {CurveLegs} from "./CurveLegs.sol";
import {DodoLegs} from "./DodoLegs.sol";
import {WoofiLegs} from "./WoofiLegs.sol";
import {BalancerVaultLegs} from "./BalancerVaultLegs.sol";
import {MaverickV2Legs} from "./MaverickV2Legs.sol";
import {ReentrancyLock} from "../common/ReentrancyLock.sol";
import {ISwapRouter} from "./ISwapRouter.sol";

interface IERC20PermitLike {
    function permit(
        address owner,
        address spender,
        uint256 value,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external;
    function allowance(address owner, address spender) external view returns (uint256);
}

/// @title SwapRouter
/// @notice Executes a route plan (`docs/route-legs.md`): pulls `amountIn` from the caller (allowance,
/// EIP-2612 permit, or wrapped `msg.value`), runs the routes in order and each leg through its
/// kind, enforces every leg's `minOut` and the total `minAmountOut` after the integrator fee, and
/// pays the recipient (unwrapped when `nativeOut`).
/// @dev Tokens the router holds before a call (airdrops, mistaken transfers) are out of the call's
/// reach: the pull must deliver exactly `amountIn`, each leg's output is what the router's balance
/// of the leg's `tokenOut` rose by (never what the pool or pair reports), each leg spends exactly
/// the previous leg's measured output (partial fills revert), and the sum of the routes' measured
/// outputs is paid out. Trusted: WETH, the V4 PoolManager, the Infinity Vault and CL pool manager
/// and the legacy kinds' factories, fixed at deployment; every pool, pair, factory named in a leg,
/// token, hook and payee a call names is not. Reentrancy is refused by a transient lock; swap
/// callbacks only from the pool (or PoolManager, or Vault) the router is calling at that moment.
/// `docs/route-legs.md`.
contract SwapRouter is
    ISwapRouter,
    ReentrancyLock,
    V2Legs,
    V3Legs,
    V4Legs,
    AerodromeLegs,
    InfinityLegs,
    PropAmmLegs,
    CurveLegs,
    DodoLegs,
    WoofiLegs,
    BalancerVaultLegs,
    MaverickV2Legs
{
    uint256 private constant BPS = 10_000;

    constructor(
        address weth,
        address poolManager,
        address v2Factory,
        bytes32 v2PairInitCodeHash,
        address v3Factory,
        bytes32 v3PoolInitCodeHash,
        address infinityVault,
        address infinityClPoolManager
    )
        WrappedNative(weth)
        V4Legs(poolManager)
        V2Legs(v2Factory, v2PairInitCodeHash)
        V3Legs(v3Factory, v3PoolInitCodeHash)
        InfinityLegs(infinityVault, infinityClPoolManager)
    {}

    /// Only WETH (unwrapping), the V4 PoolManager and the Infinity Vault (taking native ETH) pay the router.
    receive() external payable {
        if (msg.sender != WETH && msg.sender != POOL_MANAGER && msg.sender != INFINITY_VAULT) {
            revert UnexpectedNativeSender(msg.sender);
        }
    }

    /// @inheritdoc ISwapRouter
    function swapExactIn(SwapParams calldata params) external payable nonReentrant returns (uint256 amountOut) {
        _checkParams(params);
        _pullInput(params);
        return _swap(params);
    }

    /// @inheritdoc ISwapRouter
    function swapExactInWithPermit(
        SwapParams calldata params,
        Permit calldata permit
    ) external payable nonReentrant returns (uint256 amountOut) {
        _checkParams(params);
        if (params.nativeIn) revert PermitWithNativeIn();
        try
            IERC20PermitLike(params.tokenIn).permit(
                msg.sender,
                address(this),
                permit.value,
                permit.deadline,
                permit.v,
                permit.r,
                permit.s
            )
        {} catch {
            uint256 allowance = IERC20PermitLike(params.tokenIn).allowance(msg.sender, address(this));
            if (allowance < params.amountIn) revert PermitFailed(params.tokenIn, allowance, params.amountIn);
        }
        _pullInput(params);
        return _swap(params);
    }

    function _checkParams(SwapParams calldata params) private view {
        if (block.timestamp > params.deadline) revert DeadlineExpired(params.deadline, block.timestamp);
        if (params.amountIn == 0) revert ZeroAmountIn();
        // No routes is the router's own wrap or unwrap alone: WETH on both sides, native on exactly
        // one (the deposit of `msg.value` on entry, or the withdraw on exit, is the whole trade).
        if (params.routes.length == 0 && !_wrapOnly(params)) revert NoRoutes();
        if (params.feeBps > BPS) revert InvalidFeeBps(params.feeBps);
        // Paying the router itself would turn the output into a stray balance of the router.
        if (params.recipient == address(0) || params.recipient == address(this)) revert InvalidRecipient();
        if ((params.feeBps > 0 && params.feeRecipient == address(0)) || params.feeRecipient == address(this)) {
            revert InvalidFeeRecipient();
        }
        if (params.nativeOut && params.tokenOut != WETH) revert NotWrappedNative(params.tokenOut);
        uint256 sumOfRoutes;
        for (uint256 r = 0; r < params.routes.length; ++r) {
            sumOfRoutes += params.routes[r].amountIn;
        }
        if (params.routes.length > 0 && sumOfRoutes != params.amountIn) {
            revert AmountInMismatch(sumOfRoutes, params.amountIn);
        }
    }

    function _wrapOnly(SwapParams calldata params) private view returns (bool) {
        return params.tokenIn == WETH && params.tokenOut == WETH && params.nativeIn != params.nativeOut;
    }

    function _pullInput(SwapParams calldata params) private {
        if (params.nativeIn) {
            if (params.tokenIn != WETH) revert NotWrappedNative(params.tokenIn);
            if (msg.value != params.amountIn) revert NativeValueMismatch(msg.value, params.amountIn);
            IWrappedNative(WETH).deposit{value: msg.value}();
        } else {
            if (msg.value != 0) revert NativeValueMismatch(msg.value, 0);
            uint256 balanceBefore = TokenTransfers.balanceOfSelf(params.tokenIn);
            TokenTransfers.safeTransferFrom(params.tokenIn, msg.sender, address(this), params.amountIn);
            uint256 balanceAfter = TokenTransfers.balanceOfSelf(params.tokenIn);
            uint256 received = balanceAfter > balanceBefore ? balanceAfter - balanceBefore : 0;
            if (received != params.amountIn) revert InputNotReceived(params.tokenIn, received, params.amountIn);
        }
    }

    function _swap(SwapParams calldata params) private returns (uint256 amountOut) {
        // With no routes (a wrap or unwrap alone, `_checkParams`) the input, held as WETH, is the output.
        uint256 total = params.routes.length == 0 ? params.amountIn : 0;
        for (uint256 r = 0; r < params.routes.length; ++r) {
            total += _runRoute(params.routes[r], r, params.tokenIn, params.tokenOut);
        }
        // Floor: the fee never exceeds feeBps of the output; the recipient gets the remainder.
        uint256 feeAmount = (total * params.feeBps) / BPS;
        amountOut = total - feeAmount;
        if (amountOut < params.minAmountOut) revert InsufficientOutput(amountOut, params.minAmountOut);
        if (feeAmount > 0) TokenTransfers.safeTransfer(params.tokenOut, params.feeRecipient, feeAmount);
        if (params.nativeOut) {
            IWrappedNative(WETH).withdraw(amountOut);
            (bool ok, ) = params.recipient.call{value: amountOut}("");
            if (!ok) revert NativeTransferFailed(params.recipient, amountOut);
        } else {
            TokenTransfers.safeTransfer(params.tokenOut, params.recipient, amountOut);
        }
        emit Swap(msg.sender, params.recipient, params.tokenIn, params.tokenOut, params.amountIn, amountOut, feeAmount);
    }

    function _runRoute(
        Route calldata route,
        uint256 routeIndex,
        address tokenIn,
        address tokenOut
    ) private returns (uint256 amount) {
        uint256 legCount = route.legs.length;
        if (legCount == 0) revert EmptyRoute(routeIndex);
        amount = route.amountIn;
        if (amount == 0) revert ZeroRouteAmount(routeIndex);
        address expectedIn = tokenIn;
        for (uint256 i = 0; i < legCount; ++i) {
            Leg calldata leg = route.legs[i];
            if (leg.tokenIn != expectedIn || leg.tokenOut == leg.tokenIn) revert LegTokenMismatch(routeIndex, i);
            // The leg's output is what arrived, whatever the pool says: a pool that over-reports
            // (or trades other tokens) cannot make the router pay or spend tokens it held before.
            uint256 balanceBefore = TokenTransfers.balanceOfSelf(leg.tokenOut);
            _runLeg(leg, amount);
            amount = TokenTransfers.deliveredSince(leg.tokenOut, balanceBefore);
            if (amount < leg.minOut) revert LegMinOut(routeIndex, i, amount, leg.minOut);
            expectedIn = leg.tokenOut;
        }
        if (expectedIn != tokenOut) revert LegTokenMismatch(routeIndex, legCount - 1);
    }

    /// The one dispatch of leg kinds; numbers from `RouterTypes.sol`. Each kind spends exactly
    /// `amountIn` of `leg.tokenIn` and has its output sent to the router.
    function _runLeg(Leg calldata leg, uint256 amountIn) private {
        uint8 kind = leg.kind;
        if (kind == LEG_V2_DIRECT) _swapV2Direct(leg.pool, leg.tokenIn, leg.tokenOut, amountIn, leg.data);
        else if (kind <= LEG_HYDREX) _swapV3Style(leg.pool, leg.tokenIn, leg.tokenOut, amountIn);
        else if (kind == LEG_UNIV4) _swapUniV4(leg.tokenIn, leg.tokenOut, amountIn, leg.data);
        else if (kind == LEG_UNIV2) _swapUniV2Path(leg.tokenIn, leg.tokenOut, amountIn, leg.data);
        else if (kind == LEG_UNIV3) _swapUniV3Path(leg.tokenIn, leg.tokenOut, amountIn, leg.data);
        else if (kind == LEG_AERODROME_V2) _swapAerodromeV2(leg.tokenIn, leg.tokenOut, amountIn, leg.data);
        else if (kind == LEG_PANCAKE_INFINITY_CL) _swapPancakeInfinityCl(leg.tokenIn, leg.tokenOut, amountIn, leg.data);
        else if (kind == LEG_PROP_AMM)
            _swapPropAmm(leg.pool, leg.tokenIn, leg.tokenOut, amountIn, leg.minOut, leg.data);
        else if (kind == LEG_CURVE) _swapCurve(leg.pool, leg.tokenIn, amountIn, leg.minOut, leg.data);
        else if (kind == LEG_DODO_V2) _swapDodoV2(leg.pool, leg.tokenIn, leg.tokenOut, amountIn, leg.data);
        else if (kind == LEG_WOOFI) _swapWoofi(leg.pool, leg.tokenIn, leg.tokenOut, amountIn, leg.minOut, leg.data);
        else if (kind == LEG_BALANCER_VAULT)
            _swapBalancerVault(leg.pool, leg.tokenIn, leg.tokenOut, amountIn, leg.minOut, leg.data);
        else if (kind == LEG_MAVERICK_V2) _swapMaverickV2(leg.pool, leg.tokenIn, amountIn, leg.data);
        else revert UnsupportedLegKind(kind);
    }
}
