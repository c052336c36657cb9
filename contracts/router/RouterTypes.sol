// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

// The router's call, exactly as `docs/route-legs.md` specifies it.

/// @notice One hop on one venue. `data` is per kind (see the leg kind constants below).
struct Leg {
    uint8 kind;
    address pool;
    address tokenIn;
    address tokenOut;
    uint256 minOut;
    bytes data;
}

/// @notice A chain of legs; the first takes `amountIn`, each later leg the previous leg's output.
struct Route {
    uint256 amountIn;
    Leg[] legs;
}

struct SwapParams {
    address tokenIn;
    address tokenOut;
    uint256 amountIn;
    /// What the recipient must receive at least, after the integrator fee.
    uint256 minAmountOut;
    address recipient;
    /// Integrator fee in basis points of the total output, floored; at most 10_000.
    uint16 feeBps;
    address feeRecipient;
    bool nativeIn;
    bool nativeOut;
    /// Unix seconds; the call reverts when `block.timestamp > deadline`.
    uint256 deadline;
    Route[] routes;
}

/// @notice An EIP-2612 signature of the caller for `tokenIn`, spender = the router.
struct Permit {
    uint256 value;
    uint256 deadline;
    uint8 v;
    bytes32 r;
    bytes32 s;
}

// Leg kind numbers. Any other number reverts `UnsupportedLegKind`. 14 balancer_vault is ours
// (API 0.2.0; the spec has no Vault leg).
uint8 constant LEG_V2_DIRECT = 0;
uint8 constant LEG_V3_DIRECT = 1;
uint8 constant LEG_PANCAKE_V3_DIRECT = 2;
uint8 constant LEG_ALGEBRA_DIRECT = 3;
uint8 constant LEG_HYDREX = 4;
uint8 constant LEG_UNIV4 = 5;
uint8 constant LEG_UNIV2 = 6;
uint8 constant LEG_UNIV3 = 7;
uint8 constant LEG_CURVE = 8;
uint8 constant LEG_PROP_AMM = 9;
uint8 constant LEG_DODO_V2 = 10;
uint8 constant LEG_WOOFI = 11;
uint8 constant LEG_AERODROME_V2 = 12;
uint8 constant LEG_PANCAKE_INFINITY_CL = 13;
uint8 constant LEG_BALANCER_VAULT = 14;
uint8 constant LEG_MAVERICK_V2 = 15;
