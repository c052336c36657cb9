// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {BalanceReadFailed, NothingDelivered, TransferFailed} from "./RouterErrors.sol";
import {SafeTransfers} from "../common/SafeTransfers.sol";

/// @notice The router's transfers: `common/SafeTransfers.sol`'s rule (a token's own revert re-thrown
/// unchanged, e.g. `Reentrancy()` from a reentrant token, or an allowance error), failing with the
/// router's `TransferFailed(token)`. `balanceOfSelf` / `deliveredSince` measure what arrived: the
/// router pays and spends only what its balance shows a call brought in, never what a pool or pair
/// says it paid.
library TokenTransfers {
    /// The calling contract's balance of `token`; reverts `BalanceReadFailed` rather than read garbage.
    /// @dev Read twice per leg, so it stays in the scratch space (no memory allocated, no ABI coder):
    /// the call is `balanceOf(address(this))` from bytes 0x1c..0x40, the answer lands in 0x00..0x20.
    function balanceOfSelf(address token) internal view returns (uint256 amount) {
        bool ok;
        assembly ("memory-safe") {
            mstore(0x00, 0x70a08231)
            mstore(0x20, address())
            // Two statements: Yul evaluates arguments right to left, returndatasize before the call.
            ok := staticcall(gas(), token, 0x1c, 0x24, 0x00, 0x20)
            ok := and(ok, gt(returndatasize(), 0x1f))
            amount := mload(0x00)
        }
        if (!ok) revert BalanceReadFailed(token);
    }

    /// How much the calling contract's balance of `token` rose since it was `balanceBefore`; reverts
    /// `NothingDelivered` when it did not rise.
    function deliveredSince(address token, uint256 balanceBefore) internal view returns (uint256 amount) {
        uint256 balanceAfter = balanceOfSelf(token);
        if (balanceAfter <= balanceBefore) revert NothingDelivered(token);
        amount = balanceAfter - balanceBefore;
    }

    function safeTransfer(address token, address to, uint256 amount) internal {
        if (!SafeTransfers.trySafeTransfer(token, to, amount)) revert TransferFailed(token);
    }

    /// `approve(spender, amount)` by the library's rule (a USDT-style token that returns nothing
    /// passes); a token that refuses reverts `TransferFailed(token)`.
    function safeApprove(address token, address spender, uint256 amount) internal {
        if (!SafeTransfers.trySafeApprove(token, spender, amount)) revert TransferFailed(token);
    }

    function safeTransferFrom(address token, address from, address to, uint256 amount) internal {
        if (!SafeTransfers.trySafeTransferFrom(token, from, to, amount)) revert TransferFailed(token);
    }
}
