// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FullMath} from "@uniswap/v4-core/src/libraries/FullMath.sol";
import {OperatorCurve} from "./OperatorCurve.sol";
import {SafeTransfers} from "./SafeTransfers.sol";

/// @notice What our closed-curve prop AMM stand-ins share: one base/quote pair priced by an
/// operator (`updatePrice`: the base's price in quote as Q96, the curve's virtual depth per output
/// side, a fee in pips), fresh for `blockDelay` blocks after the update (fresh while
/// `block.number < lastUpdateBlock + blockDelay`), and an owner's pause. A stale or paused venue
/// quotes 0 and refuses to swap; so does an output above what the venue holds (`_reserveOf`).
/// The curve is `OperatorCurve` (ours: the venues' own curves are closed). The operator's
/// inventory cap (`setInventoryCap`, off unless set) makes the quote view *not monotone* past a
/// share of the venue's inventory, as a real venue's broken operator curve would be: the tests set
/// it to show the market leaves such a venue out (docs/prop-amms.md); the devnet never does.
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
    /// @notice 0 (off), or the share of its inventory of the output token (bps) past which the quote
    /// *falls*: an output `out` above `cap` is quoted `cap² / out` (and swapped at that). Packed
    /// into the slot of the fields above, so the other stand-ins' own fields keep their slots.
    uint16 public inventoryCapBps;

    event PriceUpdated(uint256 priceX96, uint128 depthBase, uint128 depthQuote, uint32 feePips);
    event PausedSet(bool paused);
    event InventoryCapSet(uint16 capBps);

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

    /// @notice The operator's inventory cap in bps of the output token's inventory; 0 turns it off.
    function setInventoryCap(uint16 capBps) external {
        if (msg.sender != operator) revert NotOperator();
        inventoryCapBps = capBps;
        emit InventoryCapSet(capBps);
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

    /// @dev The output of an exact-input trade, 0 when stale, paused or beyond what the venue holds;
    /// past the inventory cap (when set), falling with size.
    function _quote(address tokenIn, address tokenOut, uint256 amountIn) internal view returns (uint256 out) {
        bool sellBase;
        if (tokenIn == base && tokenOut == quote) sellBase = true;
        else if (!(tokenIn == quote && tokenOut == base)) revert UnknownPair(tokenIn, tokenOut);
        if (paused || !isFresh()) return 0;
        out =
            sellBase
                ? OperatorCurve.amountOut(amountIn, priceX96, depthQuote, _feePips())
                : OperatorCurve.amountOut(amountIn, OperatorCurve.inverse(priceX96), depthBase, _feePips());
        uint256 reserve = _reserveOf(tokenOut);
        if (out > reserve) return 0;
        uint256 capBps = inventoryCapBps;
        if (capBps == 0) return out;
        uint256 cap = (reserve * capBps) / 10_000;
        // A cap written as a division where a clamp was meant: past `cap` the quote falls.
        if (out > cap) out = FullMath.mulDiv(cap, cap, out);
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
