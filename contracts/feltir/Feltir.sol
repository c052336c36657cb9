// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OperatorPriced} from "../common/OperatorPriced.sol";
import {SafeTransfers} from "../common/SafeTransfers.sol";
import {MakerVault} from "./MakerVault.sol";

/// @title Feltir (stand-in)
/// @notice A Feltir venue as an integrator sees it (research/dex-kinds.md §2.11; KyberSwap's
/// adapter): `getPools()` (pool id, token0, token1), `getAmountOut(tokenIn, tokenOut, amountIn)`,
/// `swap(tokenIn, tokenOut, int256 specifiedAmount, limit, recipient)` (exact input when positive;
/// an output below `limit` reverts `LimitNotMet`), the operator's `setOracle`, the inventory in a
/// maker vault (its balances are the reserves), and a cumulative input limit per direction
/// (`remainingIn(tokenIn, tokenOut)`, set by the owner, spent by every swap): a quote beyond it
/// reverts `SwapLimitExceeded`, as quoting the full reserve does on Base. One pool per deployment,
/// priced by our `OperatorCurve` around the oracle price (Feltir's own curve is not published).
contract Feltir is OperatorPriced {
    MakerVault public immutable vault;
    mapping(address => mapping(address => uint256)) public remainingIn;

    error ExactOutputUnsupported();
    error NoLiquidity();
    error LimitNotMet(uint256 amountOut, uint256 limit);
    error SwapLimitExceeded(uint256 amountIn, uint256 remaining);

    constructor(
        address token0,
        address token1,
        address owner_,
        uint64 blockDelay_
    ) OperatorPriced(token0, token1, owner_, blockDelay_) {
        vault = new MakerVault(address(this));
    }

    /// @notice Feltir's name for the operator's re-pricing.
    function setOracle(uint256 priceX96_, uint128 depth0, uint128 depth1, uint32 feePips_) external {
        _updatePrice(priceX96_, depth0, depth1, feePips_);
    }

    function setSwapLimit(address tokenIn, address tokenOut, uint256 limit) external onlyOwner {
        remainingIn[tokenIn][tokenOut] = limit;
    }

    function getPools()
        external
        view
        returns (bytes32[] memory poolIds, address[] memory token0, address[] memory token1)
    {
        (poolIds, token0, token1) = (new bytes32[](1), new address[](1), new address[](1));
        (poolIds[0], token0[0], token1[0]) = (keccak256(abi.encode(address(this), base, quote)), base, quote);
    }

    function getAmountOut(address tokenIn, address tokenOut, uint256 amountIn) public view returns (uint256) {
        uint256 remaining = remainingIn[tokenIn][tokenOut];
        if (amountIn > remaining) revert SwapLimitExceeded(amountIn, remaining);
        return _quote(tokenIn, tokenOut, amountIn);
    }

    function swap(
        address tokenIn,
        address tokenOut,
        int256 specifiedAmount,
        uint256 limit,
        address recipient
    ) external returns (uint256 amountOut) {
        if (specifiedAmount <= 0) revert ExactOutputUnsupported();
        uint256 amountIn = uint256(specifiedAmount);
        amountOut = getAmountOut(tokenIn, tokenOut, amountIn);
        if (amountOut == 0) revert NoLiquidity();
        if (amountOut < limit) revert LimitNotMet(amountOut, limit);
        remainingIn[tokenIn][tokenOut] -= amountIn;
        if (!SafeTransfers.trySafeTransferFrom(tokenIn, msg.sender, address(vault), amountIn))
            revert SafeTransfers.SafeTransferFailed(tokenIn);
        vault.pay(tokenOut, recipient, amountOut);
    }

    function _reserveOf(address token) internal view override returns (uint256) {
        return SafeTransfers.balanceOf(token, address(vault));
    }
}
