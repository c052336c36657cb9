// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LEG_UNIV4} from "./RouterTypes.sol";
import {InvalidLegData, PoolManagerNotSet, UnexpectedCallback, V4DeltaMismatch} from "./RouterErrors.sol";
import {SingletonLegs} from "./SingletonLegs.sol";
import {TokenTransfers} from "./TokenTransfers.sol";
import {IWrappedNative} from "./WrappedNative.sol";
import {PriceLimits} from "./PriceLimits.sol";

/// Same ABI as v4-core's PoolKey (Currency and IHooks are addresses).
struct PoolKey {
    address currency0;
    address currency1;
    uint24 fee;
    int24 tickSpacing;
    address hooks;
}

struct PoolSwapParams {
    bool zeroForOne;
    /// Negative: exact input.
    int256 amountSpecified;
    uint160 sqrtPriceLimitX96;
}

interface IPoolManagerLike {
    function unlock(bytes calldata data) external returns (bytes memory);
    /// Returns a BalanceDelta: amount0 in the upper 128 bits, amount1 in the lower; negative = owed by us.
    function swap(PoolKey memory key, PoolSwapParams memory params, bytes calldata hookData) external returns (int256);
    function sync(address currency) external;
    function settle() external payable returns (uint256);
    function take(address currency, address to, uint256 amount) external;
}

/// @notice `univ4` legs: one exact-input swap on a PoolKey inside our own `unlock`.
/// @dev The leg's `data` is abi.encode(PoolKey). A key whose currency0 is native ETH (address 0)
/// is traded as WETH on the leg: the router unwraps before settling and wraps what it takes.
/// `unlockCallback` is accepted only from the PoolManager while our own unlock is pending.
abstract contract V4Legs is SingletonLegs {
    address public immutable POOL_MANAGER;

    bool private transient unlockPending;

    constructor(address poolManager) {
        POOL_MANAGER = poolManager;
    }

    function _swapUniV4(address tokenIn, address tokenOut, uint256 amountIn, bytes calldata data) internal {
        if (POOL_MANAGER == address(0)) revert PoolManagerNotSet();
        if (data.length != 160) revert InvalidLegData(LEG_UNIV4);
        PoolKey memory key = abi.decode(data, (PoolKey));
        bool zeroForOne = _singletonDirection(tokenIn, tokenOut, key.currency0, key.currency1, amountIn, LEG_UNIV4);
        unlockPending = true;
        IPoolManagerLike(POOL_MANAGER).unlock(abi.encode(key, zeroForOne, amountIn));
    }

    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        if (msg.sender != POOL_MANAGER || !unlockPending) revert UnexpectedCallback(msg.sender);
        unlockPending = false;
        (PoolKey memory key, bool zeroForOne, uint256 amountIn) = abi.decode(data, (PoolKey, bool, uint256));
        int256 delta = IPoolManagerLike(msg.sender).swap(
            key,
            PoolSwapParams(zeroForOne, -int256(amountIn), PriceLimits.unbounded(zeroForOne)),
            ""
        );
        int128 amount0 = int128(delta >> 128);
        int128 amount1 = int128(delta);
        (int128 paid, int128 received) = zeroForOne ? (amount0, amount1) : (amount1, amount0);
        // Exactly amountIn owed (a price-limit stop owes less) and something to take: anything
        // else would leave input in the router or a delta the PoolManager refuses.
        if (paid != -int128(int256(amountIn)) || received <= 0) revert V4DeltaMismatch(paid, received);
        (address currencyIn, address currencyOut) = zeroForOne
            ? (key.currency0, key.currency1)
            : (key.currency1, key.currency0);
        _settle(currencyIn, amountIn);
        uint256 amountOut = uint256(uint128(received));
        IPoolManagerLike(msg.sender).take(currencyOut, address(this), amountOut);
        if (currencyOut == address(0)) IWrappedNative(WETH).deposit{value: amountOut}();
        return "";
    }

    function _settle(address currency, uint256 amount) private {
        if (currency == address(0)) {
            IWrappedNative(WETH).withdraw(amount);
            IPoolManagerLike(POOL_MANAGER).settle{value: amount}();
        } else {
            IPoolManagerLike(POOL_MANAGER).sync(currency);
            TokenTransfers.safeTransfer(currency, POOL_MANAGER, amount);
            IPoolManagerLike(POOL_MANAGER).settle();
        }
    }
}
