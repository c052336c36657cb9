// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

interface IWrappedNative {
    function deposit() external payable;
    function withdraw(uint256 amount) external;
}

/// @notice The chain's wrapped native token (WETH on Base), shared by the native in/out paths and
/// by V4 pools whose currency0 is native ETH.
abstract contract WrappedNative {
    address public immutable WETH;

    constructor(address weth) {
        WETH = weth;
    }
}
