// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The project's one set of ERC-20 transfers (the router, the launchpad and the stand-ins
/// use it). A transfer succeeds when the token returns `true`, or returns nothing and has code
/// (USDT style); it fails on `false`, on a short or garbled return, and on an address without code
/// (OpenZeppelin SafeERC20's rule, which Aerodrome's pools use). A token's own revert is re-thrown
/// unchanged: its reason says more than ours. Callers that name their own error use the `try*`
/// forms and revert with it.
library SafeTransfers {
    /// @notice `token` did not transfer (see the library's rule) or answer its balance; its own
    /// revert, if any, is re-thrown instead.
    error SafeTransferFailed(address token);

    /// @notice `transfer(to, amount)` on `token` failed by the library's rule (its own revert, if
    /// any, is re-thrown instead). The launchpad's contracts declared this error before they used
    /// the library, and the gateway's ABIs decode it, so its name and types must not change.
    error TransferFailed(address token, address to, uint256 amount);

    /// @notice `transfer(to, amount)` on `token`, reverting `TransferFailed(token, to, amount)` when it fails.
    function safeTransfer(address token, address to, uint256 amount) internal {
        if (!trySafeTransfer(token, to, amount)) revert TransferFailed(token, to, amount);
    }

    /// @notice Whether `transfer(to, amount)` on `token` succeeded by the library's rule.
    function trySafeTransfer(address token, address to, uint256 amount) internal returns (bool) {
        return _call(token, abi.encodeWithSelector(0xa9059cbb, to, amount));
    }

    /// @notice Whether `transferFrom(from, to, amount)` on `token` succeeded by the library's rule.
    function trySafeTransferFrom(address token, address from, address to, uint256 amount) internal returns (bool) {
        return _call(token, abi.encodeWithSelector(0x23b872dd, from, to, amount));
    }

    /// @notice Whether `approve(spender, amount)` on `token` succeeded by the library's rule.
    function trySafeApprove(address token, address spender, uint256 amount) internal returns (bool) {
        return _call(token, abi.encodeWithSelector(0x095ea7b3, spender, amount));
    }

    /// @notice `owner`'s balance of `token`; reverts `SafeTransferFailed` rather than read garbage.
    function balanceOf(address token, address owner) internal view returns (uint256) {
        (bool ok, bytes memory ret) = token.staticcall(abi.encodeWithSelector(0x70a08231, owner));
        if (!ok || ret.length < 32) revert SafeTransferFailed(token);
        return abi.decode(ret, (uint256));
    }

    function _call(address token, bytes memory data) private returns (bool) {
        (bool ok, bytes memory ret) = token.call(data);
        if (!ok) {
            if (ret.length > 0) {
                assembly ("memory-safe") {
                    revert(add(ret, 32), mload(ret))
                }
            }
            return false;
        }
        if (ret.length == 0) return token.code.length > 0;
        return ret.length >= 32 && abi.decode(ret, (uint256)) == 1;
    }
}
