// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title WooStorageLock
/// @notice The reentrancy guard WOOFi's contracts inherit (OpenZeppelin 4's `ReentrancyGuard`: a
/// storage word that goes 1 → 2 → 1 around each guarded call, reverting
/// "ReentrancyGuard: reentrant call"), kept in storage rather than in the project's transient
/// `ReentrancyLock` so that the stand-ins pay the two storage writes a deployed WooPPV2 and
/// WooRouterV2 pay per swap (docs/gas-model.md).
abstract contract WooStorageLock {
    uint256 private lockStatus = 1;

    modifier nonReentrant() {
        require(lockStatus != 2, "ReentrancyGuard: reentrant call");
        lockStatus = 2;
        _;
        lockStatus = 1;
    }
}
