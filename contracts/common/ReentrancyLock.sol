// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice A call entered a `nonReentrant` function while another was running.
error Reentrancy();

/// @notice The project's one reentrancy lock (the router, the launch factory, the fee locker and the
/// vesting vault use it): a transient flag, so it costs no storage and clears itself at the end of
/// the transaction even if a frame forgets.
abstract contract ReentrancyLock {
    bool private transient locked;

    /// @dev Reverts `Reentrancy()` when a `nonReentrant` function of this contract is already running.
    modifier nonReentrant() {
        if (locked) revert Reentrancy();
        locked = true;
        _;
        locked = false;
    }
}
