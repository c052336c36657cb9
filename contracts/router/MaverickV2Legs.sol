// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LEG_MAVERICK_V2} from "./RouterTypes.sol";
import {CallbackNotCalled, InvalidLegData, PartialFill, UnexpectedCallback} from "./RouterErrors.sol";
import {TokenTransfers} from "./TokenTransfers.sol";

/// Maverick V2's pool `swap` (its published interface): exact input when `exactOutput` is false;
/// the pool pays the output first, then asks for the input through `maverickV2SwapCallback` on the
/// caller when `data` is not empty.
interface IMaverickV2Pool {
    struct SwapParams {
        uint256 amount;
        bool tokenAIn;
        bool exactOutput;
        int32 tickLimit;
    }

    function swap(
        address recipient,
        SwapParams calldata params,
        bytes calldata data
    ) external returns (uint256 amountIn, uint256 amountOut);
}

/// @notice `maverick_v2` legs: one exact-input `swap(router, {amountIn, tokenAIn, false, tickLimit},
/// data)` on a Maverick V2 pool, paid in its callback.
/// @dev `leg.pool` is untrusted like any pool. Before the swap the router stores the pool, the
/// input token and the exact input in transient storage; `maverickV2SwapCallback` is accepted only
/// from that pool, once, and only when it asks for exactly that input of exactly that token (a walk
/// stopped at `tickLimit` asks for less: `PartialFill`, so no input is left in the router). The
/// output is measured by `SwapRouter` as for every leg, and held to the leg's `minOut` there (the
/// pool's `swap` takes no minimum).
abstract contract MaverickV2Legs {
    address private transient maverickPool;
    address private transient maverickTokenIn;
    uint256 private transient maverickAmountIn;

    /// The pool's callback: pays it `amountIn` of `tokenIn` when it is the pool being swapped and
    /// asks for exactly the leg's input.
    function maverickV2SwapCallback(address tokenIn, uint256 amountIn, uint256, bytes calldata) external {
        address pool = maverickPool;
        if (msg.sender != pool || pool == address(0)) revert UnexpectedCallback(msg.sender);
        maverickPool = address(0);
        uint256 expected = maverickAmountIn;
        if (tokenIn != maverickTokenIn || amountIn != expected) revert PartialFill(pool, amountIn, expected);
        TokenTransfers.safeTransfer(tokenIn, pool, amountIn);
    }

    /// `data` = abi.encode(bool tokenAIn, int32 tickLimit): the direction (`tokenIn` is the pool's
    /// token A) and the furthest tick the walk may swap in; anything else `InvalidLegData(15)`.
    function _swapMaverickV2(address pool, address tokenIn, uint256 amountIn, bytes calldata data) internal {
        if (data.length != 64 || pool == address(0)) revert InvalidLegData(LEG_MAVERICK_V2);
        // Decoded as words and range-checked, so a malformed word is our error, not the decoder's.
        (uint256 aIn, int256 limit) = abi.decode(data, (uint256, int256));
        if (aIn > 1 || limit < type(int32).min || limit > type(int32).max) revert InvalidLegData(LEG_MAVERICK_V2);
        maverickPool = pool;
        maverickTokenIn = tokenIn;
        maverickAmountIn = amountIn;
        (uint256 paid, ) = IMaverickV2Pool(pool).swap(
            address(this),
            IMaverickV2Pool.SwapParams(amountIn, aIn == 1, false, int32(limit)),
            hex"01"
        );
        // The callback clears the pool; still set means the pool was never paid through us.
        if (maverickPool != address(0)) revert CallbackNotCalled(pool);
        if (paid != amountIn) revert PartialFill(pool, paid, amountIn);
    }
}
