// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

// Every revert of the router is one of these (and `Reentrancy()` of the shared lock,
// `contracts/common/ReentrancyLock.sol`); each carries the values that failed.

error DeadlineExpired(uint256 deadline, uint256 timestamp);
error ZeroAmountIn();
/// No routes, and the plan is not a wrap or unwrap alone (WETH both sides, one native flag).
error NoRoutes();
error EmptyRoute(uint256 routeIndex);
error ZeroRouteAmount(uint256 routeIndex);
/// The routes' inputs do not add up to `amountIn`.
error AmountInMismatch(uint256 sumOfRoutes, uint256 amountIn);
error InvalidFeeBps(uint16 feeBps);
error InvalidRecipient();
error InvalidFeeRecipient();
/// `nativeIn` needs `msg.value == amountIn`; without it `msg.value` must be 0.
error NativeValueMismatch(uint256 value, uint256 expected);
/// `nativeIn` / `nativeOut` need the wrapped native token on that side.
error NotWrappedNative(address token);
error PermitWithNativeIn();
/// The permit call failed and the allowance that is left does not cover `amountIn`.
error PermitFailed(address token, uint256 allowance, uint256 amountIn);
error UnsupportedLegKind(uint8 kind);
error InvalidLegData(uint8 kind);
/// A leg's `tokenIn` is not the previous leg's `tokenOut` (or the route does not start at
/// `tokenIn` / end at `tokenOut`).
error LegTokenMismatch(uint256 routeIndex, uint256 legIndex);
error LegMinOut(uint256 routeIndex, uint256 legIndex, uint256 amountOut, uint256 minOut);
error InsufficientOutput(uint256 amountOut, uint256 minAmountOut);
error AmountTooLarge(uint256 amount);
/// A swap callback came from an address other than the pool being swapped, or outside a swap.
error UnexpectedCallback(address caller);
/// A pool's swap did not call back (so it was not paid).
error CallbackNotCalled(address pool);
/// A V3-style pool asked for an input other than the exact amount (a partial fill at the price limit).
error PartialFill(address pool, uint256 amountInPaid, uint256 amountInExpected);
/// A V4 swap's balance delta is not exactly `-amountIn` on the input side and positive on the output.
error V4DeltaMismatch(int128 inputDelta, int128 outputDelta);
error PoolManagerNotSet();
/// A `pancake_infinity_cl` swap's balance delta is not exactly `-amountIn` on the input side and positive on the output.
error InfinityDeltaMismatch(int128 inputDelta, int128 outputDelta);
/// The router was deployed without PancakeSwap Infinity's Vault and CL pool manager.
error InfinityNotSet();
error LegacyFactoryNotSet(uint8 kind);
error TransferFailed(address token);
/// `balanceOf(router)` of a token reverted or answered no uint256 (no code, a revert, a short answer).
error BalanceReadFailed(address token);
/// Pulling `amountIn` of `tokenIn` left the router with another amount (a fee-on-transfer token):
/// spending `amountIn` would take the difference from tokens the router held before the call.
error InputNotReceived(address token, uint256 received, uint256 amountIn);
/// A leg (or a hop of a legacy path) did not raise the router's balance of its output token: the
/// pool paid nothing, paid another token, or the token's balance went down.
error NothingDelivered(address token);
error NativeTransferFailed(address to, uint256 amount);
/// Native currency was sent by someone other than the wrapped native token, the V4 PoolManager or
/// the Infinity Vault.
error UnexpectedNativeSender(address sender);
