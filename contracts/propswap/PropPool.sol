// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OperatorPriced} from "../common/OperatorPriced.sol";
import {SafeTransfers} from "../common/SafeTransfers.sol";

/// @title PropPool (stand-in)
/// @notice A Wasabi PropSwap pool as an integrator sees it (research/dex-kinds.md §2.11; KyberSwap's
/// `wasabi-prop` adapter): one base token against USDC, `quoteExactInput(tokenIn, amountIn)`,
/// `getReserves()`, swapped only by its router. Priced by our `OperatorCurve` around the operator's
/// price (PropSwap's own curve is not published), stale after `blockDelay` blocks, pausable.
contract PropPool is OperatorPriced {
    address public immutable router;

    error OnlyRouter();
    error QuoteUnavailable();

    constructor(
        address base_,
        address usdc,
        address owner_,
        address router_,
        uint64 blockDelay_
    ) OperatorPriced(base_, usdc, owner_, blockDelay_) {
        router = router_;
    }

    function getReserves() external view returns (uint256 baseReserve, uint256 quoteReserve) {
        return (SafeTransfers.balanceOf(base, address(this)), SafeTransfers.balanceOf(quote, address(this)));
    }

    function quoteExactInput(address tokenIn, uint256 amountIn) public view returns (uint256 amountOut) {
        return _quote(tokenIn, tokenIn == base ? quote : base, amountIn);
    }

    /// @notice The router has sent `amountIn` of `tokenIn` here; pays the quote to `recipient`.
    function swapExactInput(address tokenIn, uint256 amountIn, address recipient) external returns (uint256 amountOut) {
        if (msg.sender != router) revert OnlyRouter();
        amountOut = quoteExactInput(tokenIn, amountIn);
        if (amountOut == 0) revert QuoteUnavailable();
        SafeTransfers.safeTransfer(tokenIn == base ? quote : base, recipient, amountOut);
    }
}
