// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LEG_AERODROME_V2} from "./RouterTypes.sol";
import {InvalidLegData} from "./RouterErrors.sol";
import {TokenTransfers} from "./TokenTransfers.sol";

/// One hop of an `aerodrome_v2` leg, as the spec's `routes` items and Aerodrome's Router name them.
struct AerodromeRoute {
    address from;
    address to;
    bool stable;
    address factory;
}

interface IAerodromePoolFactoryLike {
    function getPool(address tokenA, address tokenB, bool stable) external view returns (address);
}

interface IAerodromePoolLike {
    function getAmountOut(uint256 amountIn, address tokenIn) external view returns (uint256);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
}

/// @notice `aerodrome_v2` legs: Solidly pools (Aerodrome's `Pool`, stable or volatile) swapped
/// directly, hop by hop along `routes`, without Aerodrome's Router.
/// @dev Each hop's pool is `factory.getPool(from, to, stable)`. The input is sent to the first pool;
/// each pool is asked for exactly its own `getAmountOut(amount, from)` (the Solidly math with the
/// factory's current fee: the constant-product formula would overpay a stable pool and revert its
/// K check) and pays the next pool directly, the last one the router. The factories a call names
/// are untrusted like its pools: whatever they answer, `SwapRouter` counts only what arrived.
abstract contract AerodromeLegs {
    /// `data` = abi.encode(AerodromeRoute[] routes): at least one hop, routes[0].from == tokenIn,
    /// each hop's `to` the next hop's `from`, the last `to` == tokenOut.
    function _swapAerodromeV2(address tokenIn, address tokenOut, uint256 amountIn, bytes calldata data) internal {
        AerodromeRoute[] memory routes = abi.decode(data, (AerodromeRoute[]));
        uint256 n = routes.length;
        if (n == 0 || routes[0].from != tokenIn || routes[n - 1].to != tokenOut)
            revert InvalidLegData(LEG_AERODROME_V2);
        address pool = _aerodromePool(routes[0]);
        TokenTransfers.safeTransfer(tokenIn, pool, amountIn);
        uint256 amount = amountIn;
        for (uint256 i = 0; i < n; ++i) {
            AerodromeRoute memory hop = routes[i];
            address to = address(this);
            if (i + 1 < n) {
                if (routes[i + 1].from != hop.to) revert InvalidLegData(LEG_AERODROME_V2);
                to = _aerodromePool(routes[i + 1]);
            }
            amount = IAerodromePoolLike(pool).getAmountOut(amount, hop.from);
            (uint256 amount0Out, uint256 amount1Out) = hop.from < hop.to ? (uint256(0), amount) : (amount, uint256(0));
            IAerodromePoolLike(pool).swap(amount0Out, amount1Out, to, "");
            pool = to;
        }
    }

    function _aerodromePool(AerodromeRoute memory hop) private view returns (address pool) {
        if (hop.from == hop.to) revert InvalidLegData(LEG_AERODROME_V2);
        pool = IAerodromePoolFactoryLike(hop.factory).getPool(hop.from, hop.to, hop.stable);
        if (pool == address(0)) revert InvalidLegData(LEG_AERODROME_V2);
    }
}
