// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice ERC-20 transfers that accept tokens returning nothing and refuse `false` or no code
/// (OpenZeppelin SafeERC20's rule, which Aerodrome's pools use).
library SafeTransfers {
    error SafeTransferFailed(address token);

    function safeTransfer(address token, address to, uint256 amount) internal {
        (bool ok, bytes memory ret) = token.call(abi.encodeWithSelector(0xa9059cbb, to, amount));
        if (!ok || (ret.length == 0 ? token.code.length == 0 : abi.decode(ret, (uint256)) != 1)) {
            revert SafeTransferFailed(token);
        }
    }

    function balanceOf(address token, address owner) internal view returns (uint256) {
        (bool ok, bytes memory ret) = token.staticcall(abi.encodeWithSelector(0x70a08231, owner));
        if (!ok || ret.length < 32) revert SafeTransferFailed(token);
        return abi.decode(ret, (uint256));
    }
}
