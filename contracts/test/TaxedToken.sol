// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OpenMintERC20} from "./OpenMintERC20.sol";

/// @title TaxedToken
/// @notice Discovery tests only: a fee-on-transfer token as the taxed tokens of a launch platform
/// behave: transfers to or from a pool marked with `setPool` (buys and sells) lose `feeBps` of the
/// amount on the way (burned here), wallet-to-wallet transfers are free. A detector that moved the
/// token between two fresh wallets would see nothing; one that moves it out of the pool sees the fee.
contract TaxedToken is OpenMintERC20 {
    string public constant name = "Taxed";
    string public constant symbol = "TAX";

    uint16 public immutable feeBps;
    mapping(address => bool) public isPool;

    constructor(uint16 feeBps_) {
        require(feeBps_ <= 10_000, "fee");
        feeBps = feeBps_;
    }

    function setPool(address pool, bool taxed) external {
        isPool[pool] = taxed;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        _approve(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value, _fee(msg.sender, to, value));
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        _spendAllowance(from, msg.sender, value);
        _move(from, to, value, _fee(from, to, value));
        return true;
    }

    function _fee(address from, address to, uint256 value) private view returns (uint256) {
        return isPool[from] || isPool[to] ? (value * feeBps) / 10_000 : 0;
    }
}
