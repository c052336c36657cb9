// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LEG_DODO_V2} from "./RouterTypes.sol";
import {InvalidLegData} from "./RouterErrors.sol";
import {TokenTransfers} from "./TokenTransfers.sol";

// No return value is read: the router counts the output by its balance, as for every leg.
interface IDodoV2Pool {
    function sellBase(address to) external;
    function sellQuote(address to) external;
}

/// @notice `dodo_v2` legs: DODO V2's PMM pools (DVM, DSP, DPP) trade by transfer then call: the
/// router sends exactly `amountIn` of `tokenIn` to the pool, then calls `sellBase(router)` when
/// `tokenIn` is the leg's `baseToken`, `sellQuote(router)` when `tokenOut` is. The pool takes as
/// input its balance above its stored reserve and pays the router; `SwapRouter` measures the
/// output and enforces the leg's `minOut` (the pools take no minimum of their own).
/// @dev `leg.pool` is untrusted like any pool. The pools charge their maintainer fee at the rate
/// their fee-rate model gives `tx.origin` (the transaction's sender, not the router): the service
/// quotes at the rate docs/dex-kinds.md, "DODO_V2", says. A `baseToken` that is the pool's quote
/// token makes the pool see no input: it pays nothing and `SwapRouter` reverts `NothingDelivered`.
abstract contract DodoLegs {
    /// `data` = abi.encode(address baseToken): the pool's base token, one of the leg's two tokens;
    /// anything else `InvalidLegData(10)`.
    function _swapDodoV2(
        address pool,
        address tokenIn,
        address tokenOut,
        uint256 amountIn,
        bytes calldata data
    ) internal {
        if (data.length != 32 || pool == address(0)) revert InvalidLegData(LEG_DODO_V2);
        // Decoded as a word and range-checked, so a malformed word is our error, not the decoder's.
        uint256 word = abi.decode(data, (uint256));
        if (word >> 160 != 0) revert InvalidLegData(LEG_DODO_V2);
        address baseToken = address(uint160(word));
        if (baseToken != tokenIn && baseToken != tokenOut) revert InvalidLegData(LEG_DODO_V2);
        TokenTransfers.safeTransfer(tokenIn, pool, amountIn);
        if (baseToken == tokenIn) IDodoV2Pool(pool).sellBase(address(this));
        else IDodoV2Pool(pool).sellQuote(address(this));
    }
}
