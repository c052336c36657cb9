// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice EIP-1167 minimal proxies deployed with CREATE2, as Aerodrome's factories deploy pools:
/// the runtime `363d3d373d3d3d363d73 <implementation> 5af43d82803e903d91602b57fd5bf3` delegates
/// every call, so the pool's address is the proxy's (a callback's `msg.sender` is the clone).
library Clones1167 {
    error CloneFailed();

    /// CREATE2 of the EIP-1167 proxy of `implementation` with `salt`.
    function cloneDeterministic(address implementation, bytes32 salt) internal returns (address instance) {
        bytes memory code = _creationCode(implementation);
        assembly ("memory-safe") {
            instance := create2(0, add(code, 0x20), mload(code), salt)
        }
        if (instance == address(0)) revert CloneFailed();
    }

    /// The address `cloneDeterministic(implementation, salt)` deploys to from `deployer`.
    function predict(address implementation, bytes32 salt, address deployer) internal pure returns (address) {
        bytes32 hash = keccak256(
            abi.encodePacked(bytes1(0xff), deployer, salt, keccak256(_creationCode(implementation)))
        );
        return address(uint160(uint256(hash)));
    }

    /// Creation code: copy the 45-byte runtime and return it (EIP-1167's published bytes).
    function _creationCode(address implementation) private pure returns (bytes memory) {
        return
            abi.encodePacked(
                hex"3d602d80600a3d3981f3363d3d373d3d3d363d73",
                implementation,
                hex"5af43d82803e903d91602b57fd5bf3"
            );
    }
}
