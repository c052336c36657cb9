// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {PancakePair} from "./PancakePair.sol";

/// @title PancakeFactory (stand-in)
/// @notice PancakeSwap V2's factory as an integrator sees it: `createPair` deploys a `PancakePair`
/// with CREATE2, salt keccak256(abi.encodePacked(token0, token1)), and announces it with
/// `PairCreated`; `INIT_CODE_PAIR_HASH` is the hash of the pair's creation code (on Base the real
/// one is 0x57224589…4d2d; ours is our stand-in's own, so pair addresses still follow the formula).
contract PancakeFactory {
    bytes32 public immutable INIT_CODE_PAIR_HASH;

    address public feeTo;
    address public feeToSetter;

    mapping(address => mapping(address => address)) public getPair;
    address[] public allPairs;

    event PairCreated(address indexed token0, address indexed token1, address pair, uint256);

    constructor(address feeToSetter_) {
        feeToSetter = feeToSetter_;
        INIT_CODE_PAIR_HASH = keccak256(type(PancakePair).creationCode);
    }

    function allPairsLength() external view returns (uint256) {
        return allPairs.length;
    }

    function createPair(address tokenA, address tokenB) external returns (address pair) {
        require(tokenA != tokenB, "Pancake: IDENTICAL_ADDRESSES");
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        require(token0 != address(0), "Pancake: ZERO_ADDRESS");
        require(getPair[token0][token1] == address(0), "Pancake: PAIR_EXISTS");
        pair = address(new PancakePair{salt: keccak256(abi.encodePacked(token0, token1))}());
        PancakePair(pair).initialize(token0, token1);
        getPair[token0][token1] = pair;
        getPair[token1][token0] = pair;
        allPairs.push(pair);
        emit PairCreated(token0, token1, pair, allPairs.length);
    }

    function setFeeTo(address feeTo_) external {
        require(msg.sender == feeToSetter, "Pancake: FORBIDDEN");
        feeTo = feeTo_;
    }

    function setFeeToSetter(address feeToSetter_) external {
        require(msg.sender == feeToSetter, "Pancake: FORBIDDEN");
        feeToSetter = feeToSetter_;
    }
}
