// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OpenMintERC20} from "./OpenMintERC20.sol";

/// @title QuirkyToken
/// @notice Router security tests only: an open-mint ERC-20 that behaves like the tokens real
/// routers meet, as `quirk` says (set after the pools are funded):
/// 0 standard; 1 `transfer`/`transferFrom`/`approve` return no value (USDT style);
/// 2 a transfer out of `account` returns false and moves nothing; 3 every transfer burns 1 % of
/// the amount on the way (fee on transfer).
contract QuirkyToken is OpenMintERC20 {
    string public constant name = "Quirky";
    string public constant symbol = "QRK";

    uint8 public quirk;
    address public account;

    function setQuirk(uint8 quirk_, address account_) external {
        quirk = quirk_;
        account = account_;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        _approve(msg.sender, spender, value);
        return _answer(true);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        return _answer(_transfer(msg.sender, to, value));
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        _spendAllowance(from, msg.sender, value);
        return _answer(_transfer(from, to, value));
    }

    function _transfer(address from, address to, uint256 value) private returns (bool) {
        if (quirk == 2 && from == account) return false;
        _move(from, to, value, quirk == 3 ? value / 100 : 0);
        return true;
    }

    /// Quirk 1 returns nothing at all, whatever the function declares.
    function _answer(bool ok) private view returns (bool) {
        if (quirk == 1) {
            assembly {
                return(0, 0)
            }
        }
        return ok;
    }
}
