// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {PoolKey} from "./CLPoolManager.sol";

interface IProtocolFeeSetter {
    function setProtocolFee(PoolKey memory key, uint24 newProtocolFee) external;
}

/// @title ProtocolFeeController (stand-in)
/// @notice The contract a PancakeSwap Infinity pool manager asks for a new pool's protocol fee
/// (`protocolFeeForPool`, at `initialize`) and the only one allowed to change a pool's protocol
/// fee later: here its owner sets a default for new pools and forwards per-pool changes.
contract ProtocolFeeController {
    address public owner;
    IProtocolFeeSetter public immutable poolManager;
    /// Packed like the manager's: 12 bits per direction, low bits zeroForOne.
    uint24 public defaultProtocolFee;

    error NotOwner();

    constructor(IProtocolFeeSetter poolManager_) {
        owner = msg.sender;
        poolManager = poolManager_;
    }

    function protocolFeeForPool(PoolKey memory) external view returns (uint24) {
        return defaultProtocolFee;
    }

    function setDefaultProtocolFee(uint24 protocolFee) external {
        if (msg.sender != owner) revert NotOwner();
        defaultProtocolFee = protocolFee;
    }

    function setProtocolFee(PoolKey memory key, uint24 newProtocolFee) external {
        if (msg.sender != owner) revert NotOwner();
        poolManager.setProtocolFee(key, newProtocolFee);
    }
}
