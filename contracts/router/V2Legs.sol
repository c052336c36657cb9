// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LEG_V2_DIRECT, LEG_UNIV2} from "./RouterTypes.sol";
import {InvalidLegData, LegacyFactoryNotSet} from "./RouterErrors.sol";
import {TokenTransfers} from "./TokenTransfers.sol";

interface IConstantProductPair {
    function getReserves() external view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
}

/// @notice Constant-product legs: `v2_direct` (one pair, fee in bps from the leg) and the legacy
/// `univ2` path through the configured V2 factory (30 bps, pairs found by CREATE2).
/// @dev The input is sent to the pair first and the output asked for is computed from the reserves,
/// as the V2 router does; a pair holding more than its reserves only makes the pair's K check
/// easier. The reserves are the pair's word, so the amount asked for is never what the router
/// counts: `SwapRouter` measures what arrived.
abstract contract V2Legs {
    uint256 private constant BPS = 10_000;
    uint256 private constant UNIV2_FEE_BPS = 30;

    address internal immutable V2_FACTORY;
    bytes32 internal immutable V2_PAIR_INIT_CODE_HASH;

    constructor(address v2Factory, bytes32 v2PairInitCodeHash) {
        V2_FACTORY = v2Factory;
        V2_PAIR_INIT_CODE_HASH = v2PairInitCodeHash;
    }

    /// `data` = abi.encode(uint16 feeBps), feeBps < 10_000.
    function _swapV2Direct(
        address pair,
        address tokenIn,
        address tokenOut,
        uint256 amountIn,
        bytes calldata data
    ) internal {
        if (data.length != 32) revert InvalidLegData(LEG_V2_DIRECT);
        uint256 feeBps = abi.decode(data, (uint16));
        if (feeBps >= BPS) revert InvalidLegData(LEG_V2_DIRECT);
        TokenTransfers.safeTransfer(tokenIn, pair, amountIn);
        _swapPair(pair, tokenIn < tokenOut, amountIn, feeBps, address(this));
    }

    /// `data` = abi.encode(address[] path), path[0] == tokenIn, path[last] == tokenOut. Each pair
    /// pays the next pair directly (the router never holds the middle tokens); the last pays the
    /// router. The pairs are the configured factory's, found by CREATE2.
    function _swapUniV2Path(address tokenIn, address tokenOut, uint256 amountIn, bytes calldata data) internal {
        if (V2_FACTORY == address(0)) revert LegacyFactoryNotSet(LEG_UNIV2);
        address[] memory path = abi.decode(data, (address[]));
        uint256 n = path.length;
        if (n < 2 || path[0] != tokenIn || path[n - 1] != tokenOut) revert InvalidLegData(LEG_UNIV2);
        address pair = _v2Pair(path[0], path[1]);
        TokenTransfers.safeTransfer(tokenIn, pair, amountIn);
        uint256 amountOut = amountIn;
        for (uint256 i = 0; i + 1 < n; ++i) {
            address to = i + 2 < n ? _v2Pair(path[i + 1], path[i + 2]) : address(this);
            amountOut = _swapPair(pair, path[i] < path[i + 1], amountOut, UNIV2_FEE_BPS, to);
            pair = to;
        }
    }

    /// amountOut = floor(in·(10⁴−fee)·rOut / (rIn·10⁴ + in·(10⁴−fee))): with fee 30 this is the
    /// pair's own 997/1000 formula scaled by 10, so it floors to the same integer.
    function _swapPair(
        address pair,
        bool zeroForOne,
        uint256 amountIn,
        uint256 feeBps,
        address to
    ) private returns (uint256 amountOut) {
        (uint256 reserve0, uint256 reserve1, ) = IConstantProductPair(pair).getReserves();
        (uint256 reserveIn, uint256 reserveOut) = zeroForOne ? (reserve0, reserve1) : (reserve1, reserve0);
        uint256 amountInWithFee = amountIn * (BPS - feeBps);
        amountOut = (amountInWithFee * reserveOut) / (reserveIn * BPS + amountInWithFee);
        (uint256 amount0Out, uint256 amount1Out) = zeroForOne ? (uint256(0), amountOut) : (amountOut, uint256(0));
        IConstantProductPair(pair).swap(amount0Out, amount1Out, to, "");
    }

    function _v2Pair(address tokenA, address tokenB) private view returns (address) {
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        bytes32 salt = keccak256(abi.encodePacked(token0, token1));
        return
            address(uint160(uint256(keccak256(abi.encodePacked(hex"ff", V2_FACTORY, salt, V2_PAIR_INIT_CODE_HASH)))));
    }
}
