// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OperatorPriced} from "../common/OperatorPriced.sol";
import {SafeTransfers} from "../common/SafeTransfers.sol";

/// @notice What `swapWithCallback` calls on its caller to be paid: the caller must send at least
/// `amountIn` of `tokenIn` to the venue before returning (and should check that `msg.sender` is
/// the venue it called: the callback is how the venue pulls the input).
interface IElfomoFiSwapCallback {
    function elfomoFiSwapCallback(address tokenIn, uint256 amountIn, bytes calldata data) external;
}

/// @title ElfomoFi (stand-in)
/// @notice An ElfomoFi venue as an integrator sees it (research/dex-kinds.md §2.11; Uniswap's
/// v4-hooks `IElfomoFi`): `getAmountOut(from, to, amount)`, `getSupportedPairs()`, and
/// `swapWithCallback(from, to, int256 specifiedAmount, limit, receiver, partnerId, callbackData)`:
/// exact input when `specifiedAmount` is positive, the output sent first, then the caller's
/// `elfomoFiSwapCallback` must pay the input (checked by the venue's balance), and an output below
/// `limit` reverts `LimitNotMet`. Every trade emits `ElfomoTrade` with a quote id. One pair per
/// deployment (the real venue is a singleton over many pairs, its quotes streamed off-chain):
/// priced by our `OperatorCurve` around the operator's price, stale after `blockDelay` blocks,
/// pausable. The callback's name is ours (the real one is not published).
contract ElfomoFi is OperatorPriced {
    uint256 public nextQuoteId;

    event ElfomoTrade(
        uint256 indexed quoteId,
        address indexed from,
        address indexed to,
        uint256 amountIn,
        uint256 amountOut,
        uint256 partnerId
    );

    error ExactOutputUnsupported();
    error NoLiquidity();
    error LimitNotMet(uint256 amountOut, uint256 limit);
    error InputNotPaid(uint256 received, uint256 amountIn);

    constructor(
        address base_,
        address quote_,
        address owner_,
        uint64 blockDelay_
    ) OperatorPriced(base_, quote_, owner_, blockDelay_) {}

    function getAmountOut(address from, address to, uint256 amount) public view returns (uint256) {
        return _quote(from, to, amount);
    }

    function getSupportedPairs() external view returns (address[2][] memory pairs) {
        pairs = new address[2][](1);
        pairs[0] = [base, quote];
    }

    function swapWithCallback(
        address from,
        address to,
        int256 specifiedAmount,
        uint256 limit,
        address receiver,
        uint256 partnerId,
        bytes calldata callbackData
    ) external returns (uint256 amountOut) {
        if (specifiedAmount <= 0) revert ExactOutputUnsupported();
        uint256 amountIn = uint256(specifiedAmount);
        amountOut = getAmountOut(from, to, amountIn);
        if (amountOut == 0) revert NoLiquidity();
        if (amountOut < limit) revert LimitNotMet(amountOut, limit);
        uint256 before = SafeTransfers.balanceOf(from, address(this));
        SafeTransfers.safeTransfer(to, receiver, amountOut);
        IElfomoFiSwapCallback(msg.sender).elfomoFiSwapCallback(from, amountIn, callbackData);
        uint256 received = SafeTransfers.balanceOf(from, address(this)) - before;
        if (received < amountIn) revert InputNotPaid(received, amountIn);
        emit ElfomoTrade(nextQuoteId++, from, to, amountIn, amountOut, partnerId);
    }
}
