// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

interface ISwapCallbackTarget {
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external;
}

/// @title FakeCallbackPool
/// @notice Router security tests only: a contract posing as a V3-style pool. `poke` calls any
/// router function directly (e.g. a swap callback outside a swap); as a leg's pool, `swap`
/// misbehaves as `mode` says. Reverts of the router are re-thrown unchanged.
contract FakeCallbackPool {
    /// 0: ask for half the input (partial fill); 1: never call back; 2: call back twice;
    /// 3: ask for the exact input but report a smaller input from `swap`.
    uint8 public mode;

    function setMode(uint8 mode_) external {
        mode = mode_;
    }

    function poke(address target, bytes calldata data) external {
        (bool ok, bytes memory ret) = target.call(data);
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(ret, 32), mload(ret))
            }
        }
    }

    function swap(
        address,
        bool zeroForOne,
        int256 amountSpecified,
        uint160,
        bytes calldata
    ) external returns (int256 amount0, int256 amount1) {
        uint8 m = mode;
        int256 owed = m == 0 ? amountSpecified / 2 : amountSpecified;
        (amount0, amount1) = zeroForOne ? (owed, int256(-1)) : (int256(-1), owed);
        if (m == 1) return (amount0, amount1);
        ISwapCallbackTarget(msg.sender).uniswapV3SwapCallback(amount0, amount1, "");
        if (m == 2) ISwapCallbackTarget(msg.sender).uniswapV3SwapCallback(amount0, amount1, "");
        if (m == 3) (amount0, amount1) = zeroForOne ? (owed - 1, int256(-1)) : (int256(-1), owed - 1);
    }
}
