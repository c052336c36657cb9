// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeTransfers} from "../common/SafeTransfers.sol";
import {PropPool} from "./PropPool.sol";

/// @title PropSwapRouter (stand-in)
/// @notice Wasabi's PropSwap router as an integrator sees it (research/dex-kinds.md §2.11): every
/// pool is base/USDC; a trade with USDC on one side is one hop, any other is two hops through USDC.
/// `quoteExactInput(tokenIn, tokenOut, amountIn)` and
/// `swapExactInput(tokenIn, tokenOut, amountIn, minOut, recipient, deadline)`, which pulls the
/// input from the caller and reverts `InsufficientOutput` below `minOut`. The pool registry
/// (`getPropPool`, `getListedTokens`) is the factory's on Base; here the router keeps it.
contract PropSwapRouter {
    address public immutable usdc;
    address public owner;
    mapping(address => address) public getPropPool;
    address[] private _listed;

    event PoolListed(address indexed token, address pool);

    error NotOwner();
    error NoPool(address token);
    error DeadlineExpired();
    error InsufficientOutput(uint256 amountOut, uint256 minOut);
    error QuoteUnavailable();

    constructor(address usdc_, address owner_) {
        usdc = usdc_;
        owner = owner_;
    }

    function listPool(PropPool pool) external {
        if (msg.sender != owner) revert NotOwner();
        address token = pool.base();
        if (getPropPool[token] == address(0)) _listed.push(token);
        getPropPool[token] = address(pool);
        emit PoolListed(token, address(pool));
    }

    function getListedTokens() external view returns (address[] memory) {
        return _listed;
    }

    function quoteExactInput(
        address tokenIn,
        address tokenOut,
        uint256 amountIn
    ) public view returns (uint256 amountOut) {
        if (tokenIn == usdc) return _pool(tokenOut).quoteExactInput(usdc, amountIn);
        uint256 viaUsdc = _pool(tokenIn).quoteExactInput(tokenIn, amountIn);
        if (tokenOut == usdc || viaUsdc == 0) return viaUsdc;
        return _pool(tokenOut).quoteExactInput(usdc, viaUsdc);
    }

    function swapExactInput(
        address tokenIn,
        address tokenOut,
        uint256 amountIn,
        uint256 minOut,
        address recipient,
        uint256 deadline
    ) external returns (uint256 amountOut) {
        if (block.timestamp > deadline) revert DeadlineExpired();
        if (tokenIn == usdc) {
            amountOut = _hop(_pool(tokenOut), usdc, amountIn, msg.sender, recipient);
        } else if (tokenOut == usdc) {
            amountOut = _hop(_pool(tokenIn), tokenIn, amountIn, msg.sender, recipient);
        } else {
            PropPool second = _pool(tokenOut);
            uint256 viaUsdc = _hop(_pool(tokenIn), tokenIn, amountIn, msg.sender, address(second));
            amountOut = second.swapExactInput(usdc, viaUsdc, recipient);
        }
        if (amountOut < minOut) revert InsufficientOutput(amountOut, minOut);
    }

    function _hop(
        PropPool pool,
        address tokenIn,
        uint256 amountIn,
        address payer,
        address recipient
    ) private returns (uint256) {
        if (!SafeTransfers.trySafeTransferFrom(tokenIn, payer, address(pool), amountIn))
            revert SafeTransfers.SafeTransferFailed(tokenIn);
        return pool.swapExactInput(tokenIn, amountIn, recipient);
    }

    function _pool(address token) private view returns (PropPool pool) {
        pool = PropPool(getPropPool[token]);
        if (address(pool) == address(0)) revert NoPool(token);
    }
}
