// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title CurveStableSwapFactory (stand-in)
/// @notice What a StableSwap-NG pool asks of its factory (the pool's `Factory` interface in
/// curvefi/stableswap-ng `CurveStableSwapNG.vy`): `admin()` may ramp A and set fees,
/// `fee_receiver()` takes the admin fees, `views_implementation()` answers the pool's `get_dy`. The
/// pool takes `msg.sender` of its constructor as its factory, so pools are created here from their
/// creation code (Curve's own NG bytecode, `src/devnet/loadCurveStableSwapNgArtifact.ts`); Curve's
/// factory deploys them from a blueprint with the same constructor. Pool registration, gauges and
/// the meta-pool registry are left out: nothing here changes a price.
contract CurveStableSwapFactory {
    address public admin;
    address public fee_receiver;
    address public views_implementation;

    event PlainPoolDeployed(address pool);

    constructor(address admin_, address feeReceiver_, address views_) {
        admin = admin_;
        fee_receiver = feeReceiver_;
        views_implementation = views_;
    }

    /// Deploys a pool from its creation code with the constructor arguments appended.
    function deploy_pool(bytes memory initCode) external returns (address pool) {
        require(msg.sender == admin, "admin only");
        assembly {
            pool := create(0, add(initCode, 0x20), mload(initCode))
        }
        require(pool != address(0), "pool creation reverted");
        emit PlainPoolDeployed(pool);
    }
}
