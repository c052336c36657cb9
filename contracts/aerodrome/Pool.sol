// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LpToken} from "../common/LpToken.sol";
import {SafeTransfers} from "../common/SafeTransfers.sol";

interface IAerodromePoolFactory {
    function isPaused() external view returns (bool);
    function getFee(address pool, bool stable) external view returns (uint256);
}

interface IAerodromeTokenMetadata {
    function decimals() external view returns (uint8);
    function symbol() external view returns (string memory);
}

interface IPoolCallee {
    function hook(address sender, uint256 amount0, uint256 amount1, bytes calldata data) external;
}

/// @notice Holds a pool's swap fees, out of its reserves, as Aerodrome's `PoolFees` does.
contract PoolFees {
    address internal immutable pool;
    address internal immutable token0;
    address internal immutable token1;

    error NotPool();

    constructor(address token0_, address token1_) {
        pool = msg.sender;
        token0 = token0_;
        token1 = token1_;
    }

    /// Pays out accrued fees; only the pool may ask.
    function claimFeesFor(address recipient, uint256 amount0, uint256 amount1) external {
        if (msg.sender != pool) revert NotPool();
        if (amount0 > 0) SafeTransfers.safeTransfer(token0, recipient, amount0);
        if (amount1 > 0) SafeTransfers.safeTransfer(token1, recipient, amount1);
    }
}

/// @title Pool (stand-in)
/// @notice Aerodrome's `Pool` (Velodrome V2 lineage) as an integrator sees it, from its published
/// interface and math (aerodrome-finance/contracts `contracts/Pool.sol`): volatile x·y = k or stable
/// x³y + xy³ = k on reserves normalised to 1e18 (`decimals0/1` hold 10^decimals); the factory's fee
/// in bps is floored off the input and moved out to `PoolFees` before the K check; `getAmountOut`
/// is the exact amount `swap` accepts; every reserve change emits `Sync`. Deployed as EIP-1167
/// clones by `PoolFactory`.
/// @dev Written for the devnet, not copied: every operation of `_f`, `_d`, `_k`, `_get_y` and
/// `_getAmountOut` is checked 0.8 arithmetic in the published order (their floors and overflows are
/// the model's contract), including `_get_y`'s use of `_k` (decimals-normalising) in its `y + 1`
/// test. Not here: the TWAP observations (`quote`, `sample`, `prices`), LP fee claims (`claimFees`,
/// supply indexes) and the emergency council's renaming: none of them changes a price.
contract Pool is LpToken {
    uint256 internal constant MINIMUM_LIQUIDITY = 10 ** 3;
    uint256 internal constant MINIMUM_K = 10 ** 10;

    bool public stable;
    address public token0;
    address public token1;
    address public poolFees;
    address public factory;

    uint256 internal decimals0;
    uint256 internal decimals1;

    uint256 public reserve0;
    uint256 public reserve1;
    uint256 public blockTimestampLast;

    bool private _entered;

    event Fees(address indexed sender, uint256 amount0, uint256 amount1);
    event Mint(address indexed sender, uint256 amount0, uint256 amount1);
    event Burn(address indexed sender, address indexed to, uint256 amount0, uint256 amount1);
    event Swap(
        address indexed sender,
        address indexed to,
        uint256 amount0In,
        uint256 amount1In,
        uint256 amount0Out,
        uint256 amount1Out
    );
    event Sync(uint256 reserve0, uint256 reserve1);

    error DepositsNotEqual();
    error BelowMinimumK();
    error FactoryAlreadySet();
    error InsufficientLiquidity();
    error InsufficientLiquidityMinted();
    error InsufficientLiquidityBurned();
    error InsufficientOutputAmount();
    error InsufficientInputAmount();
    error IsPaused();
    error InvalidTo();
    error K();
    error Reentrancy();

    modifier nonReentrant() {
        if (_entered) revert Reentrancy();
        _entered = true;
        _;
        _entered = false;
    }

    /// Called once by the factory right after cloning.
    function initialize(address token0_, address token1_, bool stable_) external {
        if (factory != address(0)) revert FactoryAlreadySet();
        factory = msg.sender;
        (token0, token1, stable) = (token0_, token1_, stable_);
        poolFees = address(new PoolFees(token0_, token1_));
        string memory symbol0 = IAerodromeTokenMetadata(token0_).symbol();
        string memory symbol1 = IAerodromeTokenMetadata(token1_).symbol();
        if (stable_) {
            _setNameAndSymbol(
                string.concat("Stable AMM - ", symbol0, "/", symbol1),
                string.concat("sAMM-", symbol0, "/", symbol1)
            );
        } else {
            _setNameAndSymbol(
                string.concat("Volatile AMM - ", symbol0, "/", symbol1),
                string.concat("vAMM-", symbol0, "/", symbol1)
            );
        }
        decimals0 = 10 ** IAerodromeTokenMetadata(token0_).decimals();
        decimals1 = 10 ** IAerodromeTokenMetadata(token1_).decimals();
    }

    function metadata()
        external
        view
        returns (uint256 dec0, uint256 dec1, uint256 r0, uint256 r1, bool st, address t0, address t1)
    {
        return (decimals0, decimals1, reserve0, reserve1, stable, token0, token1);
    }

    function tokens() external view returns (address, address) {
        return (token0, token1);
    }

    function getReserves() public view returns (uint256 _reserve0, uint256 _reserve1, uint256 _blockTimestampLast) {
        return (reserve0, reserve1, blockTimestampLast);
    }

    function getK() external view returns (uint256) {
        return _k(reserve0, reserve1);
    }

    function mint(address to) external nonReentrant returns (uint256 liquidity) {
        (uint256 _reserve0, uint256 _reserve1) = (reserve0, reserve1);
        uint256 _balance0 = SafeTransfers.balanceOf(token0, address(this));
        uint256 _balance1 = SafeTransfers.balanceOf(token1, address(this));
        uint256 _amount0 = _balance0 - _reserve0;
        uint256 _amount1 = _balance1 - _reserve1;
        uint256 _totalSupply = totalSupply;
        if (_totalSupply == 0) {
            liquidity = _sqrt(_amount0 * _amount1) - MINIMUM_LIQUIDITY;
            _mint(address(1), MINIMUM_LIQUIDITY);
            if (stable) {
                if ((_amount0 * 1e18) / decimals0 != (_amount1 * 1e18) / decimals1) revert DepositsNotEqual();
                if (_k(_amount0, _amount1) <= MINIMUM_K) revert BelowMinimumK();
            }
        } else {
            uint256 a = (_amount0 * _totalSupply) / _reserve0;
            uint256 b = (_amount1 * _totalSupply) / _reserve1;
            liquidity = a < b ? a : b;
        }
        if (liquidity == 0) revert InsufficientLiquidityMinted();
        _mint(to, liquidity);
        _update(_balance0, _balance1);
        emit Mint(msg.sender, _amount0, _amount1);
    }

    function burn(address to) external nonReentrant returns (uint256 amount0, uint256 amount1) {
        (address _token0, address _token1) = (token0, token1);
        uint256 _balance0 = SafeTransfers.balanceOf(_token0, address(this));
        uint256 _balance1 = SafeTransfers.balanceOf(_token1, address(this));
        uint256 _liquidity = balanceOf[address(this)];
        uint256 _totalSupply = totalSupply;
        amount0 = (_liquidity * _balance0) / _totalSupply;
        amount1 = (_liquidity * _balance1) / _totalSupply;
        if (amount0 == 0 || amount1 == 0) revert InsufficientLiquidityBurned();
        _burn(address(this), _liquidity);
        SafeTransfers.safeTransfer(_token0, to, amount0);
        SafeTransfers.safeTransfer(_token1, to, amount1);
        _update(SafeTransfers.balanceOf(_token0, address(this)), SafeTransfers.balanceOf(_token1, address(this)));
        emit Burn(msg.sender, to, amount0, amount1);
    }

    /// Pays `amount0Out`/`amount1Out` to `to`; the input must already be in the pool. The fee on
    /// each input is floor(amountIn · fee / 10 000), moved to `PoolFees` before the K check.
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external nonReentrant {
        if (IAerodromePoolFactory(factory).isPaused()) revert IsPaused();
        if (amount0Out == 0 && amount1Out == 0) revert InsufficientOutputAmount();
        (uint256 _reserve0, uint256 _reserve1) = (reserve0, reserve1);
        if (amount0Out >= _reserve0 || amount1Out >= _reserve1) revert InsufficientLiquidity();
        (address _token0, address _token1) = (token0, token1);
        if (to == _token0 || to == _token1) revert InvalidTo();
        if (amount0Out > 0) SafeTransfers.safeTransfer(_token0, to, amount0Out);
        if (amount1Out > 0) SafeTransfers.safeTransfer(_token1, to, amount1Out);
        if (data.length > 0) IPoolCallee(to).hook(msg.sender, amount0Out, amount1Out, data);
        uint256 _balance0 = SafeTransfers.balanceOf(_token0, address(this));
        uint256 _balance1 = SafeTransfers.balanceOf(_token1, address(this));
        uint256 amount0In = _balance0 > _reserve0 - amount0Out ? _balance0 - (_reserve0 - amount0Out) : 0;
        uint256 amount1In = _balance1 > _reserve1 - amount1Out ? _balance1 - (_reserve1 - amount1Out) : 0;
        if (amount0In == 0 && amount1In == 0) revert InsufficientInputAmount();
        uint256 feeBps = IAerodromePoolFactory(factory).getFee(address(this), stable);
        if (amount0In > 0) _moveFee(_token0, (amount0In * feeBps) / 10000, true);
        if (amount1In > 0) _moveFee(_token1, (amount1In * feeBps) / 10000, false);
        _balance0 = SafeTransfers.balanceOf(_token0, address(this));
        _balance1 = SafeTransfers.balanceOf(_token1, address(this));
        if (_k(_balance0, _balance1) < _k(_reserve0, _reserve1)) revert K();
        _update(_balance0, _balance1);
        emit Swap(msg.sender, to, amount0In, amount1In, amount0Out, amount1Out);
    }

    function skim(address to) external nonReentrant {
        (address _token0, address _token1) = (token0, token1);
        SafeTransfers.safeTransfer(_token0, to, SafeTransfers.balanceOf(_token0, address(this)) - reserve0);
        SafeTransfers.safeTransfer(_token1, to, SafeTransfers.balanceOf(_token1, address(this)) - reserve1);
    }

    function sync() external nonReentrant {
        _update(SafeTransfers.balanceOf(token0, address(this)), SafeTransfers.balanceOf(token1, address(this)));
    }

    /// What `swap` pays for `amountIn` of `tokenIn` at the current reserves and fee.
    function getAmountOut(uint256 amountIn, address tokenIn) external view returns (uint256) {
        (uint256 _reserve0, uint256 _reserve1) = (reserve0, reserve1);
        amountIn -= (amountIn * IAerodromePoolFactory(factory).getFee(address(this), stable)) / 10000;
        return _getAmountOut(amountIn, tokenIn, _reserve0, _reserve1);
    }

    function _moveFee(address token, uint256 amount, bool isToken0) private {
        if (amount == 0) return;
        SafeTransfers.safeTransfer(token, poolFees, amount);
        emit Fees(msg.sender, isToken0 ? amount : 0, isToken0 ? 0 : amount);
    }

    function _update(uint256 balance0, uint256 balance1) private {
        reserve0 = balance0;
        reserve1 = balance1;
        blockTimestampLast = block.timestamp;
        emit Sync(balance0, balance1);
    }

    function _getAmountOut(
        uint256 amountIn,
        address tokenIn,
        uint256 _reserve0,
        uint256 _reserve1
    ) internal view returns (uint256) {
        if (stable) {
            // xy is taken on the raw reserves, before they are normalised below.
            uint256 xy = _k(_reserve0, _reserve1);
            _reserve0 = (_reserve0 * 1e18) / decimals0;
            _reserve1 = (_reserve1 * 1e18) / decimals1;
            (uint256 reserveA, uint256 reserveB) = tokenIn == token0 ? (_reserve0, _reserve1) : (_reserve1, _reserve0);
            amountIn = tokenIn == token0 ? (amountIn * 1e18) / decimals0 : (amountIn * 1e18) / decimals1;
            uint256 y = reserveB - _get_y(amountIn + reserveA, xy, reserveB);
            return (y * (tokenIn == token0 ? decimals1 : decimals0)) / 1e18;
        }
        (uint256 reserveIn, uint256 reserveOut) = tokenIn == token0 ? (_reserve0, _reserve1) : (_reserve1, _reserve0);
        return (amountIn * reserveOut) / (reserveIn + amountIn);
    }

    function _f(uint256 x0, uint256 y) internal pure returns (uint256) {
        uint256 a = (x0 * y) / 1e18;
        uint256 b = ((x0 * x0) / 1e18 + (y * y) / 1e18);
        return (a * b) / 1e18;
    }

    function _d(uint256 x0, uint256 y) internal pure returns (uint256) {
        return (3 * x0 * ((y * y) / 1e18)) / 1e18 + ((((x0 * x0) / 1e18) * x0) / 1e18);
    }

    /// Newton's method for the y with _f(x0, y) >= xy, at most 255 rounds, with the published
    /// tie-breaks (the `y + 1` test goes through `_k`, which re-normalises by the decimals).
    function _get_y(uint256 x0, uint256 xy, uint256 y) internal view returns (uint256) {
        for (uint256 i = 0; i < 255; i++) {
            uint256 k = _f(x0, y);
            if (k < xy) {
                uint256 dy = ((xy - k) * 1e18) / _d(x0, y);
                if (dy == 0) {
                    if (k == xy) return y;
                    if (_k(x0, y + 1) > xy) return y + 1;
                    dy = 1;
                }
                y = y + dy;
            } else {
                uint256 dy = ((k - xy) * 1e18) / _d(x0, y);
                if (dy == 0) {
                    if (k == xy || _f(x0, y - 1) < xy) return y;
                    dy = 1;
                }
                y = y - dy;
            }
        }
        revert("!y");
    }

    function _k(uint256 x, uint256 y) internal view returns (uint256) {
        if (stable) {
            uint256 _x = (x * 1e18) / decimals0;
            uint256 _y = (y * 1e18) / decimals1;
            uint256 _a = (_x * _y) / 1e18;
            uint256 _b = ((_x * _x) / 1e18 + (_y * _y) / 1e18);
            return (_a * _b) / 1e18;
        }
        return x * y;
    }

    /// floor(sqrt(x)) (Babylonian method from x / 2 + 1, as OpenZeppelin's Math.sqrt rounds down).
    function _sqrt(uint256 x) private pure returns (uint256 z) {
        if (x == 0) return 0;
        z = x;
        uint256 next = x / 2 + 1;
        while (next < z) {
            z = next;
            next = (x / next + next) / 2;
        }
    }
}
