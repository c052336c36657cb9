// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

interface IERC20Minimal {
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

interface IV3PoolLike {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function mint(
        address recipient,
        int24 tickLower,
        int24 tickUpper,
        uint128 amount,
        bytes calldata data
    ) external returns (uint256 amount0, uint256 amount1);
    function swap(
        address recipient,
        bool zeroForOne,
        int256 amountSpecified,
        uint160 sqrtPriceLimitX96,
        bytes calldata data
    ) external returns (int256 amount0, int256 amount1);
}

interface IAlgebraPoolLike {
    function mint(
        address leftoversRecipient,
        address recipient,
        int24 bottomTick,
        int24 topTick,
        uint128 liquidityDesired,
        bytes calldata data
    ) external returns (uint256 amount0, uint256 amount1, uint128 liquidityActual);
    function swap(
        address recipient,
        bool zeroToOne,
        int256 amountRequired,
        uint160 limitSqrtPrice,
        bytes calldata data
    ) external returns (int256 amount0, int256 amount1);
}

/// @title PoolHarness
/// @notice Mints liquidity and swaps on Uniswap V3-style and Algebra Integral pools for tests, answering
/// their callbacks. Only the pool this contract is currently calling may call back, and it is paid
/// either from this contract's own balance (payer == this) or by transferFrom from the caller
/// (payer == msg.sender, who must have approved this contract).
contract PoolHarness {
    /// The pool being called in this transaction; a callback from any other address is refused.
    address transient activePool;
    /// Who pays the callback: this contract or the original caller.
    address transient activePayer;

    error UnexpectedCaller(address caller, address expected);
    error PayerNotAllowed(address payer);

    function mintV3(
        address pool,
        address recipient,
        int24 tickLower,
        int24 tickUpper,
        uint128 liquidity,
        address payer
    ) external returns (uint256 amount0, uint256 amount1) {
        _enter(pool, payer);
        (amount0, amount1) = IV3PoolLike(pool).mint(recipient, tickLower, tickUpper, liquidity, "");
        _exit();
    }

    function swapV3(
        address pool,
        address recipient,
        bool zeroForOne,
        int256 amountSpecified,
        uint160 sqrtPriceLimitX96,
        address payer
    ) external returns (int256 amount0, int256 amount1) {
        _enter(pool, payer);
        (amount0, amount1) = IV3PoolLike(pool).swap(recipient, zeroForOne, amountSpecified, sqrtPriceLimitX96, "");
        _exit();
    }

    function mintAlgebra(
        address pool,
        address recipient,
        int24 bottomTick,
        int24 topTick,
        uint128 liquidity,
        address payer
    ) external returns (uint256 amount0, uint256 amount1, uint128 liquidityActual) {
        _enter(pool, payer);
        // Leftovers (Algebra may take slightly more than needed) go back to the payer.
        address leftovers = payer == address(this) ? address(this) : msg.sender;
        (amount0, amount1, liquidityActual) = IAlgebraPoolLike(pool).mint(
            leftovers,
            recipient,
            bottomTick,
            topTick,
            liquidity,
            ""
        );
        _exit();
    }

    function swapAlgebra(
        address pool,
        address recipient,
        bool zeroToOne,
        int256 amountRequired,
        uint160 limitSqrtPrice,
        address payer
    ) external returns (int256 amount0, int256 amount1) {
        _enter(pool, payer);
        (amount0, amount1) = IAlgebraPoolLike(pool).swap(recipient, zeroToOne, amountRequired, limitSqrtPrice, "");
        _exit();
    }

    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata) external {
        _payOwed(amount0Owed, amount1Owed);
    }

    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external {
        _payDeltas(amount0Delta, amount1Delta);
    }

    function pancakeV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata) external {
        _payOwed(amount0Owed, amount1Owed);
    }

    function pancakeV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external {
        _payDeltas(amount0Delta, amount1Delta);
    }

    function algebraMintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata) external {
        _payOwed(amount0Owed, amount1Owed);
    }

    function algebraSwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external {
        _payDeltas(amount0Delta, amount1Delta);
    }

    function _enter(address pool, address payer) private {
        if (payer != address(this) && payer != msg.sender) revert PayerNotAllowed(payer);
        activePool = pool;
        activePayer = payer;
    }

    function _exit() private {
        activePool = address(0);
        activePayer = address(0);
    }

    function _payDeltas(int256 amount0Delta, int256 amount1Delta) private {
        _payOwed(amount0Delta > 0 ? uint256(amount0Delta) : 0, amount1Delta > 0 ? uint256(amount1Delta) : 0);
    }

    function _payOwed(uint256 amount0, uint256 amount1) private {
        address pool = activePool;
        if (msg.sender != pool || pool == address(0)) revert UnexpectedCaller(msg.sender, pool);
        if (amount0 > 0) _pay(IV3PoolLike(pool).token0(), pool, amount0);
        if (amount1 > 0) _pay(IV3PoolLike(pool).token1(), pool, amount1);
    }

    function _pay(address token, address to, uint256 amount) private {
        address payer = activePayer;
        bool ok =
            payer == address(this)
                ? IERC20Minimal(token).transfer(to, amount)
                : IERC20Minimal(token).transferFrom(payer, to, amount);
        require(ok, "PoolHarness: payment failed");
    }
}
