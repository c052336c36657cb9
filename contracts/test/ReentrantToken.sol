// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OpenMintERC20} from "./OpenMintERC20.sol";

/// @title ReentrantToken
/// @notice Router security tests only: an open-mint ERC-20 that, once armed, calls `target` with
/// `payload` from inside `transfer`/`transferFrom` (before moving the balance) and re-throws the
/// target's revert, so a refused reentry shows as the outer transaction's revert reason.
contract ReentrantToken is OpenMintERC20 {
    string public constant name = "Reentrant";
    string public constant symbol = "REENT";

    address public target;
    bytes public payload;
    bool private entered;

    function arm(address target_, bytes calldata payload_) external {
        target = target_;
        payload = payload_;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        _approve(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _reenter();
        _move(msg.sender, to, value, 0);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        _reenter();
        _spendAllowance(from, msg.sender, value);
        _move(from, to, value, 0);
        return true;
    }

    function _reenter() private {
        if (target == address(0) || entered) return;
        entered = true;
        (bool ok, bytes memory ret) = target.call(payload);
        entered = false;
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(ret, 32), mload(ret))
            }
        }
    }
}
