// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title WooChainlinkFeed
/// @notice Tests and the devnet only: a Chainlink price feed as the Wooracle reads it
/// (`AggregatorV3Interface`'s `decimals` and `latestRoundData`), its answer and update time set by
/// anyone (the tests move the reference price the Wooracle's `bound` is checked against).
contract WooChainlinkFeed {
    uint8 public immutable decimals;
    int256 public answer;
    uint256 public updatedAt;
    uint80 public roundId;

    constructor(uint8 decimals_, int256 answer_) {
        decimals = decimals_;
        setAnswer(answer_, block.timestamp);
    }

    function setAnswer(int256 answer_, uint256 updatedAt_) public {
        answer = answer_;
        updatedAt = updatedAt_;
        roundId++;
    }

    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80) {
        return (roundId, answer, updatedAt, updatedAt, roundId);
    }
}
