// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OperatorCurve} from "./OperatorCurve.sol";
import {SafeTransfers} from "./SafeTransfers.sol";

/// @notice What our closed-curve prop AMM stand-ins share: one base/quote pair priced by an
/// operator (`updatePrice`: the base's price in quote as Q96, the curve's virtual depth per output
/// side, a fee in pips), fresh for `blockDelay` blocks after the update (fresh while
/// `block.number < lastUpdateBlock + blockDelay`), and an owner's pause. A stale or paused venue
/// quotes 0 and refuses to swap; so does an output above what the venue holds (`_reserveOf`).
/// The curve is `OperatorCurve` (ours: the venues' own curves are closed).
abstract contract OperatorPriced {
    address public immutable base;
    address public immutable quote;
    address public owner;
    address public operator;

    uint256 public priceX96;
    uint128 public depthBase;
    uint128 public depthQuote;
    uint32 public feePips;
    uint64 public lastUpdateBlock;
    uint64 public blockDelay;
    bool public paused;

    event PriceUpdated(uint256 priceX96, uint128 depthBase, uint128 depthQuote, uint32 feePips);
    event PausedSet(bool paused);

    error NotOwner();
    error NotOperator();
    error UnknownPair(address tokenIn, address tokenOut);

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    constructor(address base_, address quote_, address owner_, uint64 blockDelay_) {
        base = base_;
        quote = quote_;
        owner = owner_;
        operator = owner_;
        blockDelay = blockDelay_;
    }

    /// @notice The operator's re-pricing, fresh from this block.
    function updatePrice(uint256 priceX96_, uint128 depthBase_, uint128 depthQuote_, uint32 feePips_) external {
        _updatePrice(priceX96_, depthBase_, depthQuote_, feePips_);
    }

    function _updatePrice(uint256 priceX96_, uint128 depthBase_, uint128 depthQuote_, uint32 feePips_) internal {
        if (msg.sender != operator) revert NotOperator();
        (priceX96, depthBase, depthQuote, feePips) = (priceX96_, depthBase_, depthQuote_, feePips_);
        lastUpdateBlock = uint64(block.number);
        emit PriceUpdated(priceX96_, depthBase_, depthQuote_, feePips_);
    }

    function setOperator(address operator_) external onlyOwner {
        operator = operator_;
    }

    function setBlockDelay(uint64 blockDelay_) external onlyOwner {
        blockDelay = blockDelay_;
    }

    function setPaused(bool paused_) external onlyOwner {
        paused = paused_;
        emit PausedSet(paused_);
    }

    function isFresh() public view returns (bool) {
        return block.number < uint256(lastUpdateBlock) + blockDelay;
    }

    /// @dev The output of an exact-input trade, 0 when stale, paused or beyond what the venue holds.
    function _quote(address tokenIn, address tokenOut, uint256 amountIn) internal view returns (uint256 out) {
        bool sellBase;
        if (tokenIn == base && tokenOut == quote) sellBase = true;
        else if (!(tokenIn == quote && tokenOut == base)) revert UnknownPair(tokenIn, tokenOut);
        if (paused || !isFresh()) return 0;
        out =
            sellBase
                ? OperatorCurve.amountOut(amountIn, priceX96, depthQuote, _feePips())
                : OperatorCurve.amountOut(amountIn, OperatorCurve.inverse(priceX96), depthBase, _feePips());
        if (out > _reserveOf(tokenOut)) return 0;
    }

    /// @dev The fee now; a venue whose fee moves with time overrides it.
    function _feePips() internal view virtual returns (uint256) {
        return feePips;
    }

    /// @dev What the venue can pay out of `token`; a venue whose inventory is elsewhere overrides it.
    function _reserveOf(address token) internal view virtual returns (uint256) {
        return SafeTransfers.balanceOf(token, address(this));
    }

    /// @dev Takes `amount` of `token` from `from` (its allowance to this contract).
    function _pull(address token, address from, uint256 amount) internal {
        if (!SafeTransfers.trySafeTransferFrom(token, from, address(this), amount))
            revert SafeTransfers.SafeTransferFailed(token);
    }
}
