// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LEG_UNIV3} from "./RouterTypes.sol";
import {
    AmountTooLarge,
    CallbackNotCalled,
    InvalidLegData,
    LegacyFactoryNotSet,
    PartialFill,
    UnexpectedCallback
} from "./RouterErrors.sol";
import {TokenTransfers} from "./TokenTransfers.sol";
import {PriceLimits} from "./PriceLimits.sol";

/// Uniswap V3, its forks (PancakeSwap V3, Slipstream, AlienBase) and Algebra Integral share this
/// `swap` signature; Algebra names its arguments zeroToOne / amountRequired / limitSqrtPrice.
interface IV3StylePool {
    function swap(
        address recipient,
        bool zeroForOne,
        int256 amountSpecified,
        uint160 sqrtPriceLimitX96,
        bytes calldata data
    ) external returns (int256 amount0, int256 amount1);
}

/// @notice Callback-paid concentrated-liquidity legs: `v3_direct`, `pancake_v3_direct`,
/// `algebra_direct`, `hydrex` (all one pool) and the legacy `univ3` packed path.
/// @dev Before each `swap` the router stores the pool, the input token, the direction and the exact
/// input in transient storage; the callback is accepted only from that pool, once, and only when
/// the pool asks for exactly that input (a pool stopped by the price limit asks for less: revert,
/// so no input is left in the router). Positive amountSpecified is exact input for V3 and Algebra.
abstract contract V3Legs {
    address internal immutable V3_FACTORY;
    bytes32 internal immutable V3_POOL_INIT_CODE_HASH;

    address private transient callbackPool;
    address private transient callbackTokenIn;
    uint256 private transient callbackAmountIn;
    bool private transient callbackZeroForOne;

    constructor(address v3Factory, bytes32 v3PoolInitCodeHash) {
        V3_FACTORY = v3Factory;
        V3_POOL_INIT_CODE_HASH = v3PoolInitCodeHash;
    }

    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external {
        _paySwapCallback(amount0Delta, amount1Delta);
    }

    function pancakeV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external {
        _paySwapCallback(amount0Delta, amount1Delta);
    }

    function algebraSwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external {
        _paySwapCallback(amount0Delta, amount1Delta);
    }

    /// Exact-input swap of `amountIn` on one V3-style pool, output to the router. The pool's
    /// reported amounts are checked (exactly `amountIn` paid, some output claimed) but never
    /// counted: what arrived is measured by the caller.
    function _swapV3Style(address pool, address tokenIn, address tokenOut, uint256 amountIn) internal {
        if (amountIn > uint256(type(int256).max)) revert AmountTooLarge(amountIn);
        bool zeroForOne = tokenIn < tokenOut;
        callbackPool = pool;
        callbackTokenIn = tokenIn;
        callbackAmountIn = amountIn;
        callbackZeroForOne = zeroForOne;
        (int256 amount0, int256 amount1) = IV3StylePool(pool).swap(
            address(this),
            zeroForOne,
            int256(amountIn),
            PriceLimits.unbounded(zeroForOne),
            ""
        );
        // The callback clears the pool; still set means the pool was never paid through us.
        if (callbackPool != address(0)) revert CallbackNotCalled(pool);
        (int256 paid, int256 received) = zeroForOne ? (amount0, amount1) : (amount1, amount0);
        if (paid != int256(amountIn) || received >= 0) revert PartialFill(pool, paid > 0 ? uint256(paid) : 0, amountIn);
    }

    /// `path` = tokenIn ‖ fee(uint24) ‖ token ‖ fee ‖ … ‖ tokenOut; pools by CREATE2 from the
    /// configured V3 factory. Each hop pays out to the router and the next hop spends what the
    /// router's balance shows the previous hop delivered (a pool's report could be off for a token
    /// that charges on transfer; the router may hold a stray balance of a middle token).
    function _swapUniV3Path(address tokenIn, address tokenOut, uint256 amountIn, bytes calldata path) internal {
        if (V3_FACTORY == address(0)) revert LegacyFactoryNotSet(LEG_UNIV3);
        uint256 length = path.length;
        if (length < 43 || (length - 20) % 23 != 0) revert InvalidLegData(LEG_UNIV3);
        if (address(bytes20(path[0:20])) != tokenIn || address(bytes20(path[length - 20:length])) != tokenOut) {
            revert InvalidLegData(LEG_UNIV3);
        }
        uint256 amount = amountIn;
        for (uint256 i = 0; i + 20 < length; i += 23) {
            address a = address(bytes20(path[i:i + 20]));
            uint24 fee = uint24(bytes3(path[i + 20:i + 23]));
            address b = address(bytes20(path[i + 23:i + 43]));
            // The last hop's output is measured by `SwapRouter`, around the whole leg.
            bool last = i + 43 == length;
            uint256 balanceBefore = last ? 0 : TokenTransfers.balanceOfSelf(b);
            _swapV3Style(_v3Pool(a, b, fee), a, b, amount);
            if (!last) amount = TokenTransfers.deliveredSince(b, balanceBefore);
        }
    }

    function _paySwapCallback(int256 amount0Delta, int256 amount1Delta) private {
        address pool = callbackPool;
        if (msg.sender != pool || pool == address(0)) revert UnexpectedCallback(msg.sender);
        callbackPool = address(0);
        uint256 amountIn = callbackAmountIn;
        int256 owed = callbackZeroForOne ? amount0Delta : amount1Delta;
        if (owed != int256(amountIn)) revert PartialFill(pool, owed > 0 ? uint256(owed) : 0, amountIn);
        TokenTransfers.safeTransfer(callbackTokenIn, pool, amountIn);
    }

    function _v3Pool(address tokenA, address tokenB, uint24 fee) private view returns (address) {
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        bytes32 salt = keccak256(abi.encode(token0, token1, fee));
        return
            address(uint160(uint256(keccak256(abi.encodePacked(hex"ff", V3_FACTORY, salt, V3_POOL_INIT_CODE_HASH)))));
    }
}
