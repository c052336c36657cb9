// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title StableSwapAmpRamp
/// @notice A and its ramp as every pre-NG StableSwap template keeps them, for our stand-ins: stored in
/// `_aUnit()` units (A_PRECISION = 100 in the legacy factory and meta templates, 1 in curve-contract's
/// original template), moving linearly with the block timestamp from (initial_A, initial_A_time) to
/// (future_A, future_A_time); `ramp_A` (at most 10x either way, a day after the last, lasting a day
/// or more; the argument in A itself) and `stop_ramp_A`, by whoever `_requireRampAdmin` lets through.
abstract contract StableSwapAmpRamp {
    uint256 private constant MAX_A = 1e6;
    uint256 private constant MAX_A_CHANGE = 10;
    uint256 private constant MIN_RAMP_TIME = 86400;

    uint256 public initial_A;
    uint256 public future_A;
    uint256 public initial_A_time;
    uint256 public future_A_time;

    event RampA(uint256 old_A, uint256 new_A, uint256 initial_time, uint256 future_time);
    event StopRampA(uint256 A, uint256 t);

    /// Reverts unless the caller may ramp A (the factory's admin, or the pool's owner).
    function _requireRampAdmin() internal view virtual;

    /// How many stored units make one A.
    function _aUnit() internal view virtual returns (uint256);

    function ramp_A(uint256 futureA, uint256 futureTime) external {
        _requireRampAdmin();
        require(block.timestamp >= initial_A_time + MIN_RAMP_TIME, "ramping too soon");
        require(futureTime >= block.timestamp + MIN_RAMP_TIME, "insufficient time");
        uint256 initialA = _A();
        uint256 futureStored = futureA * _aUnit();
        require(futureA > 0 && futureA < MAX_A, "A out of range");
        if (futureStored < initialA) require(futureStored * MAX_A_CHANGE >= initialA, "A change too large");
        else require(futureStored <= initialA * MAX_A_CHANGE, "A change too large");
        initial_A = initialA;
        future_A = futureStored;
        initial_A_time = block.timestamp;
        future_A_time = futureTime;
        emit RampA(initialA, futureStored, block.timestamp, futureTime);
    }

    function stop_ramp_A() external {
        _requireRampAdmin();
        uint256 currentA = _A();
        initial_A = currentA;
        future_A = currentA;
        initial_A_time = block.timestamp;
        future_A_time = block.timestamp;
        emit StopRampA(currentA, block.timestamp);
    }

    /// The stored A now: linear between the ramp's ends, then its end.
    function _A() internal view returns (uint256) {
        uint256 t1 = future_A_time;
        uint256 a1 = future_A;
        if (block.timestamp >= t1) return a1;
        uint256 a0 = initial_A;
        uint256 t0 = initial_A_time;
        if (a1 > a0) return a0 + ((a1 - a0) * (block.timestamp - t0)) / (t1 - t0);
        return a0 - ((a0 - a1) * (block.timestamp - t0)) / (t1 - t0);
    }
}
