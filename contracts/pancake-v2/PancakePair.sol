// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LpToken} from "../common/LpToken.sol";
import {SafeTransfers} from "../common/SafeTransfers.sol";

interface IPancakeFactoryFeeTo {
    function feeTo() external view returns (address);
}

interface IPancakeCallee {
    function pancakeCall(address sender, uint256 amount0, uint256 amount1, bytes calldata data) external;
}

/// @title PancakePair (stand-in)
/// @notice A PancakeSwap V2 pair as an integrator sees it (the multichain build deployed on Base):
/// Uniswap V2's pair with a 0.25 % fee, i.e. the K check is on balances adjusted by 25/10 000 of
/// the input (`balance·10 000 − amountIn·25`), so the largest output for an input `a` is
/// floor(a·9975·R_out / (R_in·10 000 + a·9975)). Reserves are uint112, every change emits `Sync`,
/// flash swaps call `pancakeCall`. Created by `PancakeFactory` with CREATE2.
/// @dev Written for the devnet from the published interface and rules, not copied. The protocol's
/// share of the LP fees (`_mintFee`, when the factory's `feeTo` is set) mints 8/25 of the fee
/// growth as LP shares, as Pancake's pairs do; it never changes a price.
contract PancakePair is LpToken {
    uint256 public constant MINIMUM_LIQUIDITY = 10 ** 3;

    address public factory;
    address public token0;
    address public token1;

    uint112 private reserve0;
    uint112 private reserve1;
    uint32 private blockTimestampLast;

    uint256 public price0CumulativeLast;
    uint256 public price1CumulativeLast;
    /// reserve0 · reserve1 after the last liquidity event, while `feeTo` is set.
    uint256 public kLast;

    bool private _entered;

    event Mint(address indexed sender, uint256 amount0, uint256 amount1);
    event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to);
    event Swap(
        address indexed sender,
        uint256 amount0In,
        uint256 amount1In,
        uint256 amount0Out,
        uint256 amount1Out,
        address indexed to
    );
    event Sync(uint112 reserve0, uint112 reserve1);

    modifier lock() {
        require(!_entered, "Pancake: LOCKED");
        _entered = true;
        _;
        _entered = false;
    }

    constructor() {
        factory = msg.sender;
        _setNameAndSymbol("Pancake LPs", "Cake-LP");
    }

    function initialize(address token0_, address token1_) external {
        require(msg.sender == factory, "Pancake: FORBIDDEN");
        token0 = token0_;
        token1 = token1_;
    }

    function getReserves() public view returns (uint112 _reserve0, uint112 _reserve1, uint32 _blockTimestampLast) {
        return (reserve0, reserve1, blockTimestampLast);
    }

    function mint(address to) external lock returns (uint256 liquidity) {
        (uint112 _reserve0, uint112 _reserve1, ) = getReserves();
        uint256 balance0 = SafeTransfers.balanceOf(token0, address(this));
        uint256 balance1 = SafeTransfers.balanceOf(token1, address(this));
        uint256 amount0 = balance0 - _reserve0;
        uint256 amount1 = balance1 - _reserve1;
        bool feeOn = _mintFee(_reserve0, _reserve1);
        uint256 _totalSupply = totalSupply;
        if (_totalSupply == 0) {
            liquidity = _sqrt(amount0 * amount1) - MINIMUM_LIQUIDITY;
            _mint(address(0xdead), MINIMUM_LIQUIDITY);
        } else {
            uint256 a = (amount0 * _totalSupply) / _reserve0;
            uint256 b = (amount1 * _totalSupply) / _reserve1;
            liquidity = a < b ? a : b;
        }
        require(liquidity > 0, "Pancake: INSUFFICIENT_LIQUIDITY_MINTED");
        _mint(to, liquidity);
        _update(balance0, balance1, _reserve0, _reserve1);
        if (feeOn) kLast = uint256(reserve0) * reserve1;
        emit Mint(msg.sender, amount0, amount1);
    }

    function burn(address to) external lock returns (uint256 amount0, uint256 amount1) {
        (uint112 _reserve0, uint112 _reserve1, ) = getReserves();
        (address _token0, address _token1) = (token0, token1);
        uint256 balance0 = SafeTransfers.balanceOf(_token0, address(this));
        uint256 balance1 = SafeTransfers.balanceOf(_token1, address(this));
        uint256 liquidity = balanceOf[address(this)];
        bool feeOn = _mintFee(_reserve0, _reserve1);
        uint256 _totalSupply = totalSupply;
        amount0 = (liquidity * balance0) / _totalSupply;
        amount1 = (liquidity * balance1) / _totalSupply;
        require(amount0 > 0 && amount1 > 0, "Pancake: INSUFFICIENT_LIQUIDITY_BURNED");
        _burn(address(this), liquidity);
        SafeTransfers.safeTransfer(_token0, to, amount0);
        SafeTransfers.safeTransfer(_token1, to, amount1);
        balance0 = SafeTransfers.balanceOf(_token0, address(this));
        balance1 = SafeTransfers.balanceOf(_token1, address(this));
        _update(balance0, balance1, _reserve0, _reserve1);
        if (feeOn) kLast = uint256(reserve0) * reserve1;
        emit Burn(msg.sender, amount0, amount1, to);
    }

    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external lock {
        require(amount0Out > 0 || amount1Out > 0, "Pancake: INSUFFICIENT_OUTPUT_AMOUNT");
        (uint112 _reserve0, uint112 _reserve1, ) = getReserves();
        require(amount0Out < _reserve0 && amount1Out < _reserve1, "Pancake: INSUFFICIENT_LIQUIDITY");
        uint256 balance0;
        uint256 balance1;
        {
            (address _token0, address _token1) = (token0, token1);
            require(to != _token0 && to != _token1, "Pancake: INVALID_TO");
            if (amount0Out > 0) SafeTransfers.safeTransfer(_token0, to, amount0Out);
            if (amount1Out > 0) SafeTransfers.safeTransfer(_token1, to, amount1Out);
            if (data.length > 0) IPancakeCallee(to).pancakeCall(msg.sender, amount0Out, amount1Out, data);
            balance0 = SafeTransfers.balanceOf(_token0, address(this));
            balance1 = SafeTransfers.balanceOf(_token1, address(this));
        }
        uint256 amount0In = balance0 > _reserve0 - amount0Out ? balance0 - (_reserve0 - amount0Out) : 0;
        uint256 amount1In = balance1 > _reserve1 - amount1Out ? balance1 - (_reserve1 - amount1Out) : 0;
        require(amount0In > 0 || amount1In > 0, "Pancake: INSUFFICIENT_INPUT_AMOUNT");
        {
            // The 0.25 % fee: 25 parts in 10 000 of each input do not count towards K.
            uint256 balance0Adjusted = balance0 * 10000 - amount0In * 25;
            uint256 balance1Adjusted = balance1 * 10000 - amount1In * 25;
            require(balance0Adjusted * balance1Adjusted >= uint256(_reserve0) * _reserve1 * (10000 ** 2), "Pancake: K");
        }
        _update(balance0, balance1, _reserve0, _reserve1);
        emit Swap(msg.sender, amount0In, amount1In, amount0Out, amount1Out, to);
    }

    function skim(address to) external lock {
        (address _token0, address _token1) = (token0, token1);
        SafeTransfers.safeTransfer(_token0, to, SafeTransfers.balanceOf(_token0, address(this)) - reserve0);
        SafeTransfers.safeTransfer(_token1, to, SafeTransfers.balanceOf(_token1, address(this)) - reserve1);
    }

    function sync() external lock {
        _update(
            SafeTransfers.balanceOf(token0, address(this)),
            SafeTransfers.balanceOf(token1, address(this)),
            reserve0,
            reserve1
        );
    }

    /// Stores the balances as reserves (uint112) and advances the price accumulators once per block.
    function _update(uint256 balance0, uint256 balance1, uint112 _reserve0, uint112 _reserve1) private {
        require(balance0 <= type(uint112).max && balance1 <= type(uint112).max, "Pancake: OVERFLOW");
        uint32 blockTimestamp = uint32(block.timestamp % 2 ** 32);
        unchecked {
            // The accumulators wrap by design (UQ112x112 price · seconds).
            uint32 timeElapsed = blockTimestamp - blockTimestampLast;
            if (timeElapsed > 0 && _reserve0 != 0 && _reserve1 != 0) {
                price0CumulativeLast += ((uint256(_reserve1) << 112) / _reserve0) * timeElapsed;
                price1CumulativeLast += ((uint256(_reserve0) << 112) / _reserve1) * timeElapsed;
            }
        }
        reserve0 = uint112(balance0);
        reserve1 = uint112(balance1);
        blockTimestampLast = blockTimestamp;
        emit Sync(reserve0, reserve1);
    }

    /// The protocol's LP-fee share when the factory's `feeTo` is set: 8/25 of the growth of sqrt(k).
    function _mintFee(uint112 _reserve0, uint112 _reserve1) private returns (bool feeOn) {
        address feeTo = IPancakeFactoryFeeTo(factory).feeTo();
        feeOn = feeTo != address(0);
        uint256 _kLast = kLast;
        if (feeOn) {
            if (_kLast != 0) {
                uint256 rootK = _sqrt(uint256(_reserve0) * _reserve1);
                uint256 rootKLast = _sqrt(_kLast);
                if (rootK > rootKLast) {
                    uint256 numerator = totalSupply * (rootK - rootKLast) * 8;
                    uint256 denominator = rootK * 17 + rootKLast * 8;
                    uint256 liquidity = numerator / denominator;
                    if (liquidity > 0) _mint(feeTo, liquidity);
                }
            }
        } else if (_kLast != 0) {
            kLast = 0;
        }
    }

    function _sqrt(uint256 y) private pure returns (uint256 z) {
        if (y > 3) {
            z = y;
            uint256 x = y / 2 + 1;
            while (x < z) {
                z = x;
                x = (y / x + x) / 2;
            }
        } else if (y != 0) {
            z = 1;
        }
    }
}
