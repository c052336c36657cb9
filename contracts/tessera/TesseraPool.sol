// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OperatorPriced} from "../common/OperatorPriced.sol";
import {SafeTransfers} from "../common/SafeTransfers.sol";

/// @title TesseraPool (stand-in)
/// @notice One Tessera V pool behind `TesseraSwap` (research/dex-kinds.md §2.11: KyberSwap's and
/// Velora's adapters): priced by our `OperatorCurve` around the operator's price, with Tessera's
/// decaying fee: from `initialFeePips` at `startBlock` it falls linearly to `minFeePips` over
/// `decayDuration` blocks (a re-price restarts the decay), then stays. `poolState()` exposes
/// the pricing state; `isInitialised()` and `tradingEnabled()` as on Base. Tessera's two 20-level
/// order books are not modelled: the curve stands for them.
contract TesseraPool is OperatorPriced {
    address public immutable engine;
    uint32 public initialFeePips;
    uint64 public decayDuration;
    bool public tradingEnabled = true;

    error OnlyEngine();

    constructor(
        address base_,
        address quote_,
        address owner_,
        address engine_,
        uint64 blockDelay_
    ) OperatorPriced(base_, quote_, owner_, blockDelay_) {
        engine = engine_;
    }

    /// @notice The fee's decay: from `initialFeePips_` down to the price update's fee over `decayDuration_` blocks.
    function setFeeDecay(uint32 initialFeePips_, uint64 decayDuration_) external onlyOwner {
        (initialFeePips, decayDuration) = (initialFeePips_, decayDuration_);
    }

    function setTradingEnabled(bool enabled) external onlyOwner {
        tradingEnabled = enabled;
    }

    function isInitialised() external view returns (bool) {
        return priceX96 != 0;
    }

    function poolState()
        external
        view
        returns (
            uint256 priceX96_,
            uint256 currentFeePips,
            uint256 minFeePips,
            uint64 startBlock,
            uint64 decayDuration_,
            bool tradingEnabled_
        )
    {
        return (priceX96, _feePips(), feePips, lastUpdateBlock, decayDuration, tradingEnabled);
    }

    function quoteExactIn(address tokenIn, address tokenOut, uint256 amountIn) public view returns (uint256) {
        return tradingEnabled ? _quote(tokenIn, tokenOut, amountIn) : 0;
    }

    /// @notice The engine has sent the input here; pays the quote to `recipient`.
    function swapExactIn(
        address tokenIn,
        address tokenOut,
        uint256 amountIn,
        address recipient
    ) external returns (uint256 amountOut) {
        if (msg.sender != engine) revert OnlyEngine();
        amountOut = quoteExactIn(tokenIn, tokenOut, amountIn);
        if (amountOut > 0) SafeTransfers.safeTransfer(tokenOut, recipient, amountOut);
    }

    function _feePips() internal view override returns (uint256) {
        uint256 floor = feePips;
        if (initialFeePips <= floor || decayDuration == 0) return floor;
        uint256 elapsed = block.number - lastUpdateBlock;
        if (elapsed >= decayDuration) return floor;
        return initialFeePips - (uint256(initialFeePips - floor) * elapsed) / decayDuration;
    }
}
