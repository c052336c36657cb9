// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title CurveStableSwapFactory (stand-in)
/// @notice What a StableSwap-NG pool asks of its factory (the pool's `Factory` interface in
/// curvefi/stableswap-ng `CurveStableSwapNG.vy`): `admin()` may ramp A and set fees,
/// `fee_receiver()` takes the admin fees, `views_implementation()` answers the pool's `get_dy`. The
/// pool takes `msg.sender` of its constructor as its factory, so pools are created here from their
/// creation code (Curve's own NG bytecode, `src/devnet/loadCurveStableSwapNgArtifact.ts`); Curve's
/// factory deploys them from a blueprint with the same constructor. Like Curve's, it appends each
/// pool to its registry (`pool_list`, `pool_count`) and then emits `PlainPoolDeployed` with the
/// coins, A and fee but not the pool, so discovery lists the registry as it must on Base. Gauges,
/// the per-pair index and the meta-pool registry are left out: nothing here changes a price.
contract CurveStableSwapFactory {
    address public admin;
    address public fee_receiver;
    address public views_implementation;
    uint256 public pool_count;
    mapping(uint256 => address) private pools;

    event PlainPoolDeployed(address[] coins, uint256 A, uint256 fee, address deployer);

    constructor(address admin_, address feeReceiver_, address views_) {
        admin = admin_;
        fee_receiver = feeReceiver_;
        views_implementation = views_;
    }

    /// Deploys a pool from its creation code with the constructor arguments appended; `coins`, `A`
    /// and `fee` are what the event reports (Curve's factory passes the same to the constructor).
    function deploy_pool(
        bytes memory initCode,
        address[] calldata coins,
        uint256 A,
        uint256 fee
    ) external returns (address pool) {
        require(msg.sender == admin, "admin only");
        assembly {
            pool := create(0, add(initCode, 0x20), mload(initCode))
        }
        require(pool != address(0), "pool creation reverted");
        pools[pool_count] = pool;
        pool_count += 1;
        emit PlainPoolDeployed(coins, A, fee, msg.sender);
    }

    /// The `i`-th pool deployed; the zero address past `pool_count` (Curve's fixed-size list).
    function pool_list(uint256 i) external view returns (address) {
        return pools[i];
    }
}
