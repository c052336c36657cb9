// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {MaverickV2Pool} from "./MaverickV2Pool.sol";

/// @title MaverickV2Factory
/// @notice Tests and the devnet only: stands in for Maverick V2's factory as far as discovery
/// needs, announcing each pool with the real factory's `PoolCreated` and its signature (Maverick's
/// published IMaverickV2Factory: the pool, the protocol's fee ratio, both fees, the spacing, the
/// lookback, the active tick, the tokens, the kinds, the accessor; none indexed), so the service
/// reads the real topic. Tokens must come ordered (A below B), as the real factory orders them. The
/// stand-in pool has no TWA and no bin kinds: the event says lookback 0, kinds 1 (static), accessor
/// zero (permissionless). The caller owns the pool (its tick-level liquidity functions).
contract MaverickV2Factory {
    event PoolCreated(
        address poolAddress,
        uint8 protocolFeeRatio,
        uint256 feeAIn,
        uint256 feeBIn,
        uint256 tickSpacing,
        uint256 lookback,
        int32 activeTick,
        address tokenA,
        address tokenB,
        uint8 kinds,
        address accessor
    );

    error TokensNotOrdered(address tokenA, address tokenB);

    function create(
        address tokenA,
        address tokenB,
        uint8 decimalsA,
        uint8 decimalsB,
        uint256 tickSpacing,
        uint256 feeAIn,
        uint256 feeBIn,
        uint8 protocolFeeRatioD3,
        int32 activeTick
    ) external returns (address pool) {
        if (tokenA >= tokenB) revert TokensNotOrdered(tokenA, tokenB);
        pool = address(
            new MaverickV2Pool(
                tokenA,
                tokenB,
                decimalsA,
                decimalsB,
                tickSpacing,
                feeAIn,
                feeBIn,
                protocolFeeRatioD3,
                activeTick,
                msg.sender
            )
        );
        emit PoolCreated(
            pool,
            protocolFeeRatioD3,
            feeAIn,
            feeBIn,
            tickSpacing,
            0,
            activeTick,
            tokenA,
            tokenB,
            1,
            address(0)
        );
    }
}
