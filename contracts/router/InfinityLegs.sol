// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LEG_PANCAKE_INFINITY_CL} from "./RouterTypes.sol";
import {InfinityDeltaMismatch, InfinityNotSet, InvalidLegData, UnexpectedCallback} from "./RouterErrors.sol";
import {SingletonLegs} from "./SingletonLegs.sol";
import {TokenTransfers} from "./TokenTransfers.sol";
import {IWrappedNative} from "./WrappedNative.sol";
import {PriceLimits} from "./PriceLimits.sol";

/// PancakeSwap Infinity's PoolKey (Currency, IHooks and IPoolManager are addresses).
struct InfinityPoolKey {
    address currency0;
    address currency1;
    address hooks;
    address poolManager;
    uint24 fee;
    bytes32 parameters;
}

struct InfinitySwapParams {
    bool zeroForOne;
    /// Negative: exact input.
    int256 amountSpecified;
    uint160 sqrtPriceLimitX96;
}

interface IInfinityVaultLike {
    function lock(bytes calldata data) external returns (bytes memory);
    function sync(address currency) external;
    function settle() external payable returns (uint256);
    function take(address currency, address to, uint256 amount) external;
}

interface IInfinityClPoolManagerLike {
    /// Returns a BalanceDelta: amount0 in the upper 128 bits, amount1 in the lower; negative = owed by us.
    function swap(
        InfinityPoolKey memory key,
        InfinitySwapParams memory params,
        bytes calldata hookData
    ) external returns (int256);
}

/// @notice `pancake_infinity_cl` legs: one exact-input swap on an Infinity CL PoolKey inside our own
/// lock of the Infinity Vault.
/// @dev The leg's `data` is abi.encode(PoolKey); its `poolManager` must be the CL pool manager the
/// router was deployed with (trusted, like the Vault). `lockAcquired` is accepted only from the
/// Vault while our own lock is pending. A key whose currency0 is native (address 0) trades as WETH
/// on the leg: the router unwraps before settling and wraps what it takes.
abstract contract InfinityLegs is SingletonLegs {
    address public immutable INFINITY_VAULT;
    address public immutable INFINITY_CL_POOL_MANAGER;

    bool private transient lockPending;

    constructor(address infinityVault, address infinityClPoolManager) {
        INFINITY_VAULT = infinityVault;
        INFINITY_CL_POOL_MANAGER = infinityClPoolManager;
    }

    function _swapPancakeInfinityCl(address tokenIn, address tokenOut, uint256 amountIn, bytes calldata data) internal {
        if (INFINITY_VAULT == address(0)) revert InfinityNotSet();
        if (data.length != 192) revert InvalidLegData(LEG_PANCAKE_INFINITY_CL);
        InfinityPoolKey memory key = abi.decode(data, (InfinityPoolKey));
        if (key.poolManager != INFINITY_CL_POOL_MANAGER) revert InvalidLegData(LEG_PANCAKE_INFINITY_CL);
        bool zeroForOne = _singletonDirection(
            tokenIn,
            tokenOut,
            key.currency0,
            key.currency1,
            amountIn,
            LEG_PANCAKE_INFINITY_CL
        );
        lockPending = true;
        IInfinityVaultLike(INFINITY_VAULT).lock(abi.encode(key, zeroForOne, amountIn));
    }

    function lockAcquired(bytes calldata data) external returns (bytes memory) {
        if (msg.sender != INFINITY_VAULT || !lockPending) revert UnexpectedCallback(msg.sender);
        lockPending = false;
        (InfinityPoolKey memory key, bool zeroForOne, uint256 amountIn) = abi.decode(
            data,
            (InfinityPoolKey, bool, uint256)
        );
        int256 delta = IInfinityClPoolManagerLike(INFINITY_CL_POOL_MANAGER).swap(
            key,
            InfinitySwapParams(zeroForOne, -int256(amountIn), PriceLimits.unbounded(zeroForOne)),
            ""
        );
        (int128 paid, int128 received) = zeroForOne
            ? (int128(delta >> 128), int128(delta))
            : (int128(delta), int128(delta >> 128));
        // Exactly amountIn owed (a price-limit stop owes less) and something to take.
        if (paid != -int128(int256(amountIn)) || received <= 0) revert InfinityDeltaMismatch(paid, received);
        (address currencyIn, address currencyOut) = zeroForOne
            ? (key.currency0, key.currency1)
            : (key.currency1, key.currency0);
        if (currencyIn == address(0)) {
            IWrappedNative(WETH).withdraw(amountIn);
            IInfinityVaultLike(INFINITY_VAULT).settle{value: amountIn}();
        } else {
            IInfinityVaultLike(INFINITY_VAULT).sync(currencyIn);
            TokenTransfers.safeTransfer(currencyIn, INFINITY_VAULT, amountIn);
            IInfinityVaultLike(INFINITY_VAULT).settle();
        }
        uint256 amountOut = uint256(uint128(received));
        IInfinityVaultLike(INFINITY_VAULT).take(currencyOut, address(this), amountOut);
        if (currencyOut == address(0)) IWrappedNative(WETH).deposit{value: amountOut}();
        return "";
    }
}
