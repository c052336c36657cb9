// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title OperatorRelay (devnet keeper)
/// @notice The operator of every prop AMM stand-in on the devnet: the keeper re-prices all of them
/// in one transaction (so one block per re-pricing, however many venues), and only its owner can.
/// A call that reverts reverts the whole re-pricing with the venue's error.
contract OperatorRelay {
    struct Call {
        address target;
        bytes data;
    }

    address public immutable owner;

    error NotOwner();

    constructor(address owner_) {
        owner = owner_;
    }

    function relay(Call[] calldata calls) external {
        if (msg.sender != owner) revert NotOwner();
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory reason) = calls[i].target.call(calls[i].data);
            if (!ok) {
                assembly {
                    revert(add(reason, 32), mload(reason))
                }
            }
        }
    }
}
