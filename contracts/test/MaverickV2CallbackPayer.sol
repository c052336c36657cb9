// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IMaverickV2Pool} from "../router/MaverickV2Legs.sol";

interface IERC20TransferFrom {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @notice Test caller of the Maverick V2 stand-in: swaps with a non-empty `data`, so the pool asks
/// for its input through `maverickV2SwapCallback`, and pays in the callback only the pool it called
/// (the authentication an integrator's callback needs), from the caller's allowance, `shortBy` less
/// than asked (0 pays in full; more tests the pool's check of what it received).
contract MaverickV2CallbackPayer {
    address private _pool;
    address private _payer;
    uint256 private _shortBy;

    error UnexpectedCallback(address caller);

    function swap(
        address pool,
        address recipient,
        uint256 amount,
        bool tokenAIn,
        int32 tickLimit,
        uint256 shortBy
    ) external returns (uint256 amountIn, uint256 amountOut) {
        (_pool, _payer, _shortBy) = (pool, msg.sender, shortBy);
        (amountIn, amountOut) = IMaverickV2Pool(pool).swap(
            recipient,
            IMaverickV2Pool.SwapParams(amount, tokenAIn, false, tickLimit),
            abi.encode(msg.sender)
        );
        (_pool, _payer, _shortBy) = (address(0), address(0), 0);
    }

    function maverickV2SwapCallback(address tokenIn, uint256 amountIn, uint256, bytes calldata) external {
        if (msg.sender != _pool || _pool == address(0)) revert UnexpectedCallback(msg.sender);
        IERC20TransferFrom(tokenIn).transferFrom(_payer, msg.sender, amountIn - _shortBy);
    }
}
