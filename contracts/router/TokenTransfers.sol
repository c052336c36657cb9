// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {BalanceReadFailed, NothingDelivered, TransferFailed} from "./RouterErrors.sol";

/// @notice ERC-20 transfers that accept tokens returning nothing (USDT style) and refuse a `false`
/// return or a call to an address without code. A token's own revert is re-thrown unchanged so
/// the caller sees why (e.g. `Reentrancy()` from a reentrant token, or an allowance error).
/// `balanceOfSelf` / `deliveredSince` measure what arrived: the router pays and spends only what
/// its balance shows a call brought in, never what a pool or pair says it paid.
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
        _call(token, abi.encodeWithSelector(0xa9059cbb, to, amount));
    }

    function safeTransferFrom(address token, address from, address to, uint256 amount) internal {
        _call(token, abi.encodeWithSelector(0x23b872dd, from, to, amount));
    }

    function _call(address token, bytes memory data) private {
        (bool ok, bytes memory ret) = token.call(data);
        if (!ok) {
            if (ret.length > 0) {
                assembly ("memory-safe") {
                    revert(add(ret, 32), mload(ret))
                }
            }
            revert TransferFailed(token);
        }
        if (ret.length == 0) {
            if (token.code.length == 0) revert TransferFailed(token);
        } else if (ret.length < 32 || abi.decode(ret, (uint256)) != 1) {
            revert TransferFailed(token);
        }
    }
}
