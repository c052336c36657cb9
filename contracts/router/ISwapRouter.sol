// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Permit, SwapParams} from "./RouterTypes.sol";

/// @title ISwapRouter
/// @notice The swap router's interface for its callers: execute a route plan (`docs/route-legs.md`)
/// with the input pulled by allowance, by an EIP-2612 permit, or wrapped from `msg.value`.
/// @dev The pools' callbacks (`uniswapV3SwapCallback`, `unlockCallback`, `lockAcquired`, …) are
/// part of each leg kind's contract, not of this interface: only the pool being called may use them.
interface ISwapRouter {
    /// @notice Emitted once per swap, after the recipient and the fee recipient were paid.
    /// @param sender the caller, who paid `amountIn`
    /// @param recipient who received `amountOut` of `tokenOut` (unwrapped to native when `nativeOut`)
    /// @param tokenIn the token the caller paid (WETH when `nativeIn`)
    /// @param tokenOut the token the routes delivered
    /// @param amountIn what the caller paid, in `tokenIn`'s smallest unit
    /// @param amountOut what the recipient received, after the integrator fee
    /// @param feeAmount what went to `feeRecipient`: floor(total output · feeBps / 10_000)
    event Swap(
        address indexed sender,
        address indexed recipient,
        address indexed tokenIn,
        address tokenOut,
        uint256 amountIn,
        uint256 amountOut,
        uint256 feeAmount
    );

    /// @notice Swaps exactly `params.amountIn` of `params.tokenIn` along `params.routes` and pays the
    /// recipient at least `params.minAmountOut` of `params.tokenOut`, after the integrator fee.
    /// @dev The input is pulled by allowance (`transferFrom` the caller) or, when `nativeIn`, wrapped
    /// from `msg.value`, which must equal `amountIn`. Each leg spends exactly the previous leg's
    /// measured output and must deliver at least its `minOut`. Reverts with one of
    /// `RouterErrors.sol`'s errors (e.g. `DeadlineExpired`, `InsufficientOutput`, `LegMinOut`) or
    /// `Reentrancy()`; a token's or pool's own revert is passed through unchanged.
    /// @param params the plan: tokens, amounts, recipient, fee, native flags, deadline and routes
    /// (`RouterTypes.sol`); the routes' `amountIn` must sum to `params.amountIn`. No routes is the
    /// wrap or unwrap alone (WETH both sides, exactly one native flag: the output is the input);
    /// otherwise `NoRoutes()`
    /// @return amountOut what the recipient received, in `tokenOut`'s smallest unit
    function swapExactIn(SwapParams calldata params) external payable returns (uint256 amountOut);

    /// @notice As `swapExactIn`, after an EIP-2612 permit of the caller for `tokenIn`, spender the
    /// router. A permit that fails (already used, front-run) does not block the swap when the
    /// caller's allowance already covers `amountIn`.
    /// @dev Reverts `PermitWithNativeIn()` when `params.nativeIn` (a permit cannot pay native value)
    /// and `PermitFailed(token, allowance, amountIn)` when the permit failed and the allowance is short.
    /// @param params the plan, as for `swapExactIn`
    /// @param permit the caller's EIP-2612 signature: value, deadline, v, r, s
    /// @return amountOut what the recipient received, in `tokenOut`'s smallest unit
    function swapExactInWithPermit(
        SwapParams calldata params,
        Permit calldata permit
    ) external payable returns (uint256 amountOut);
}
