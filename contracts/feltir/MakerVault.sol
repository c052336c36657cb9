// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeTransfers} from "../common/SafeTransfers.sol";

/// @title MakerVault (stand-in)
/// @notice Holds a Feltir maker's inventory; only the venue it serves moves it out.
contract MakerVault {
    address public immutable venue;

    error OnlyVenue();

    constructor(address venue_) {
        venue = venue_;
    }

    function pay(address token, address to, uint256 amount) external {
        if (msg.sender != venue) revert OnlyVenue();
        SafeTransfers.safeTransfer(token, to, amount);
    }
}
