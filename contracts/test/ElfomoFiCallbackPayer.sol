// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

interface IERC20Min {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

interface IElfomoFiLike {
    function swapWithCallback(
        address,
        address,
        int256,
        uint256,
        address,
        uint256,
        bytes calldata
    ) external returns (uint256);
}

/// @notice Test caller of the ElfomoFi stand-in: swaps, and pays in the callback only the venue it
/// called (the authentication an integrator's callback needs), from `payer`'s allowance.
contract ElfomoFiCallbackPayer {
    address private _venue;
    address private _payer;

    error UnexpectedCallback(address caller);

    function swap(
        address venue,
        address from,
        address to,
        uint256 amountIn,
        uint256 limit,
        address receiver
    ) external returns (uint256) {
        (_venue, _payer) = (venue, msg.sender);
        uint256 out = IElfomoFiLike(venue).swapWithCallback(from, to, int256(amountIn), limit, receiver, 0, "");
        (_venue, _payer) = (address(0), address(0));
        return out;
    }

    function elfomoFiSwapCallback(address tokenIn, uint256 amountIn, bytes calldata) external {
        if (msg.sender != _venue || _venue == address(0)) revert UnexpectedCallback(msg.sender);
        IERC20Min(tokenIn).transferFrom(_payer, msg.sender, amountIn);
    }
}
