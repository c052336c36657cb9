// SPDX-License-Identifier: GPL-2.0-or-later
pragma solidity ^0.8.28;

/// @title PancakeV3PoolDeployer
/// @notice Stands in for PancakeSwap's pool deployer, which the published v3-core package omits. It
/// exposes the same `parameters()` the published pool constructor reads back, and CREATE2s the
/// published pool creation code with the same salt as PancakeSwap's, so pool addresses follow the
/// canonical init-code hash (0x6ce8eb47...f7e2) relative to this deployer's address.
/// The creation code (about 23.5 kB) is too large to embed here next to our own code, so it is read
/// from a code-store contract whose runtime is `0x00 || creationCode` (the leading STOP byte keeps
/// the store from executing anything when called).
contract PancakeV3PoolDeployer {
    struct Parameters {
        address factory;
        address token0;
        address token1;
        uint24 fee;
        int24 tickSpacing;
    }

    /// Read by the pool's constructor; set only for the duration of `deploy`.
    Parameters public parameters;
    /// The only caller allowed to deploy pools, set once by the owner.
    address public factoryAddress;
    /// The contract whose runtime, after one leading byte, is the pool creation code.
    address public immutable poolCodeStore;
    address private immutable owner;

    event SetFactoryAddress(address indexed factory);

    error NotOwner(address caller);
    error NotFactory(address caller);
    error FactoryAlreadySet(address factory);
    error EmptyCodeStore(address store);
    error DeployFailed();

    constructor(address codeStore) {
        if (codeStore.code.length <= 1) revert EmptyCodeStore(codeStore);
        poolCodeStore = codeStore;
        owner = msg.sender;
    }

    /// The factory takes this deployer's address in its constructor, so the link is made afterwards.
    function setFactoryAddress(address factory) external {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        if (factoryAddress != address(0)) revert FactoryAlreadySet(factoryAddress);
        factoryAddress = factory;
        emit SetFactoryAddress(factory);
    }

    function deploy(
        address factory,
        address token0,
        address token1,
        uint24 fee,
        int24 tickSpacing
    ) external returns (address pool) {
        if (msg.sender != factoryAddress) revert NotFactory(msg.sender);
        parameters = Parameters({factory: factory, token0: token0, token1: token1, fee: fee, tickSpacing: tickSpacing});
        address store = poolCodeStore;
        uint256 size = store.code.length - 1;
        bytes memory initCode = new bytes(size);
        assembly {
            extcodecopy(store, add(initCode, 32), 1, size)
        }
        // PancakeSwap's salt: keccak256(abi.encode(token0, token1, fee)).
        bytes32 salt = keccak256(abi.encode(token0, token1, fee));
        assembly {
            pool := create2(0, add(initCode, 32), mload(initCode), salt)
        }
        if (pool == address(0)) revert DeployFailed();
        delete parameters;
    }
}
