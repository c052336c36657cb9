// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title NativeRecipient
/// @notice Router security tests only: the recipient of a native-output swap. `mode` 0 accepts
/// ETH; 1 rejects it; 2 calls `target` with `payload` from `receive` and re-throws its revert;
/// 3 makes the same call but accepts the ETH whatever happened, keeping the call's revert data in
/// `lastRevert` (so a test can read why the reentry was refused).
contract NativeRecipient {
    uint8 public mode;
    address public target;
    bytes public payload;
    bytes public lastRevert;
    uint256 public reentries;

    function arm(uint8 mode_, address target_, bytes calldata payload_) external {
        mode = mode_;
        target = target_;
        payload = payload_;
    }

    receive() external payable {
        uint8 m = mode;
        if (m == 1) revert("NativeRecipient: no ETH");
        if (m < 2) return;
        reentries += 1;
        (bool ok, bytes memory ret) = target.call(payload);
        if (ok) return;
        if (m == 2) {
            assembly ("memory-safe") {
                revert(add(ret, 32), mload(ret))
            }
        }
        lastRevert = ret;
    }
}
