// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ReentrancyLock} from "../common/ReentrancyLock.sol";
import {SafeTransfers} from "../common/SafeTransfers.sol";

/// @title VestingVault
/// @notice Holds the vesting allocations of launches. A position releases nothing before
/// `lockupEnd`, then linearly until `vestingEnd` (everything at `lockupEnd` when both are equal:
/// a cliff). `claim` pays what has vested and was not yet claimed to the beneficiary; anyone may
/// call it, the tokens only ever go to the beneficiary. Positions are created only by the factory
/// that deployed this vault, after it transferred the amount here.
contract VestingVault is ReentrancyLock {
    struct Position {
        address token;
        address beneficiary;
        uint256 amount;
        uint256 claimed;
        uint64 start;
        uint64 lockupEnd;
        uint64 vestingEnd;
    }

    address public immutable factory;
    /// Positions by id; ids start at 1.
    mapping(uint256 id => Position) public positions;
    uint256 public positionCount;

    event VestingCreated(
        uint256 indexed id,
        address indexed token,
        address indexed beneficiary,
        uint256 amount,
        uint64 start,
        uint64 lockupEnd,
        uint64 vestingEnd
    );
    event VestingClaimed(uint256 indexed id, address indexed token, address indexed beneficiary, uint256 amount);

    error NotFactory(address caller);
    error UnknownPosition(uint256 id);
    error InvalidSchedule();
    error NothingToClaim(uint256 id);

    constructor() {
        factory = msg.sender;
    }

    function create(
        address token,
        address beneficiary,
        uint256 amount,
        uint64 lockupEnd,
        uint64 vestingEnd
    ) external returns (uint256 id) {
        if (msg.sender != factory) revert NotFactory(msg.sender);
        if (beneficiary == address(0) || amount == 0 || vestingEnd < lockupEnd || lockupEnd < block.timestamp) {
            revert InvalidSchedule();
        }
        id = ++positionCount;
        positions[id] = Position(token, beneficiary, amount, 0, uint64(block.timestamp), lockupEnd, vestingEnd);
        emit VestingCreated(id, token, beneficiary, amount, uint64(block.timestamp), lockupEnd, vestingEnd);
    }

    /// What has vested by `timestamp` (claimed or not), rounded down.
    function vestedAt(uint256 id, uint256 timestamp) public view returns (uint256) {
        Position storage p = positions[id];
        if (p.token == address(0)) revert UnknownPosition(id);
        if (timestamp < p.lockupEnd) return 0;
        if (timestamp >= p.vestingEnd) return p.amount;
        return (p.amount * (timestamp - p.lockupEnd)) / (p.vestingEnd - p.lockupEnd);
    }

    /// What `claim` would pay now.
    function claimable(uint256 id) external view returns (uint256) {
        return vestedAt(id, block.timestamp) - positions[id].claimed;
    }

    function claim(uint256 id) external nonReentrant returns (uint256 amount) {
        Position storage p = positions[id];
        amount = vestedAt(id, block.timestamp) - p.claimed;
        if (amount == 0) revert NothingToClaim(id);
        p.claimed += amount;
        emit VestingClaimed(id, p.token, p.beneficiary, amount);
        SafeTransfers.safeTransfer(p.token, p.beneficiary, amount);
    }
}
