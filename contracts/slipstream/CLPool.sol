// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FixedPoint128} from "@uniswap/v4-core/src/libraries/FixedPoint128.sol";
import {FullMath} from "@uniswap/v4-core/src/libraries/FullMath.sol";
import {LiquidityMath} from "@uniswap/v4-core/src/libraries/LiquidityMath.sol";
import {SqrtPriceMath} from "@uniswap/v4-core/src/libraries/SqrtPriceMath.sol";
import {TickBitmap} from "@uniswap/v4-core/src/libraries/TickBitmap.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {SafeTransfers} from "../common/SafeTransfers.sol";
import {Oracle} from "./Oracle.sol";
import {PoolTicks} from "./PoolTicks.sol";
import {V3SwapMath} from "./V3SwapMath.sol";

interface ICLFactoryFees {
    function getSwapFee(address pool) external view returns (uint24);
    function getUnstakedFee(address pool) external view returns (uint24);
}

interface ICLCallbacks {
    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata data) external;
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external;
}

/// @title CLPool (stand-in)
/// @notice A Slipstream (Aerodrome CL) pool as an integrator sees it (aerodrome-finance/slipstream
/// `contracts/core/CLPool.sol`): Uniswap V3's concentrated liquidity and swap loop keyed by tick
/// spacing, with a 6-field `slot0` (no `feeProtocol`), `fee()` asked of the factory on every call
/// and at the start of every swap (the factory's swap-fee module may change it without an event),
/// the V3 callbacks by their Uniswap names, and the V3 oracle. Deployed as EIP-1167 clones by
/// `CLFactory`, initialized at creation with its price.
/// @dev Written for the devnet from the published interface and math, not copied; TickMath,
/// SqrtPriceMath, TickBitmap, FullMath and LiquidityMath are the published `v4-core` (npm `uniswap/v4-core`)
/// libraries (the same values as V3's), the swap step is V3's (`V3SwapMath`). Not here: gauges and
/// staking (`stake`, rewards, `gaugeFees`; `stakedLiquidity` is 0 and the unstaked fee split never
/// changes an output), `flash`, and the oracle values outside ticks (`snapshotCumulativesInside`).
contract CLPool {
    using PoolTicks for mapping(int24 => PoolTicks.Info);
    using TickBitmap for mapping(int16 => uint256);
    using Oracle for Oracle.Observation[65535];

    struct Slot0 {
        uint160 sqrtPriceX96;
        int24 tick;
        uint16 observationIndex;
        uint16 observationCardinality;
        uint16 observationCardinalityNext;
        bool unlocked;
    }

    address public factory;
    address public token0;
    address public token1;
    int24 public tickSpacing;
    address public factoryRegistry;
    uint128 public maxLiquidityPerTick;

    Slot0 public slot0;
    uint256 public feeGrowthGlobal0X128;
    uint256 public feeGrowthGlobal1X128;
    uint128 public liquidity;
    uint128 public stakedLiquidity;

    mapping(int24 => PoolTicks.Info) public ticks;
    mapping(int16 => uint256) public tickBitmap;
    mapping(bytes32 => PoolTicks.Position) public positions;
    Oracle.Observation[65535] public observations;

    event Initialize(uint160 sqrtPriceX96, int24 tick);
    event Mint(
        address sender,
        address indexed owner,
        int24 indexed tickLower,
        int24 indexed tickUpper,
        uint128 amount,
        uint256 amount0,
        uint256 amount1
    );
    event Collect(
        address indexed owner,
        address recipient,
        int24 indexed tickLower,
        int24 indexed tickUpper,
        uint128 amount0,
        uint128 amount1
    );
    event Burn(
        address indexed owner,
        int24 indexed tickLower,
        int24 indexed tickUpper,
        uint128 amount,
        uint256 amount0,
        uint256 amount1
    );
    event Swap(
        address indexed sender,
        address indexed recipient,
        int256 amount0,
        int256 amount1,
        uint160 sqrtPriceX96,
        uint128 liquidity,
        int24 tick
    );
    event IncreaseObservationCardinalityNext(
        uint16 observationCardinalityNextOld,
        uint16 observationCardinalityNextNew
    );

    modifier lock() {
        require(slot0.unlocked, "LOK");
        slot0.unlocked = false;
        _;
        slot0.unlocked = true;
    }

    struct SwapState {
        int256 amountSpecifiedRemaining;
        int256 amountCalculated;
        uint160 sqrtPriceX96;
        int24 tick;
        uint24 fee;
        uint256 feeGrowthGlobalX128;
        uint128 liquidity;
    }

    struct StepComputations {
        uint160 sqrtPriceStartX96;
        int24 tickNext;
        bool initialized;
        uint160 sqrtPriceNextX96;
        uint256 amountIn;
        uint256 amountOut;
        uint256 feeAmount;
    }

    /// Called once by the factory right after cloning: tokens, spacing and the starting price.
    function initialize(
        address factory_,
        address token0_,
        address token1_,
        int24 tickSpacing_,
        address factoryRegistry_,
        uint160 sqrtPriceX96
    ) external {
        require(factory == address(0) && factory_ != address(0));
        factory = factory_;
        token0 = token0_;
        token1 = token1_;
        tickSpacing = tickSpacing_;
        factoryRegistry = factoryRegistry_;
        maxLiquidityPerTick = PoolTicks.maxLiquidityPerTick(tickSpacing_, TickMath.MIN_TICK, TickMath.MAX_TICK);
        int24 tick = TickMath.getTickAtSqrtPrice(sqrtPriceX96);
        (uint16 cardinality, uint16 cardinalityNext) = observations.initialize(_blockTimestamp());
        slot0 = Slot0({
            sqrtPriceX96: sqrtPriceX96,
            tick: tick,
            observationIndex: 0,
            observationCardinality: cardinality,
            observationCardinalityNext: cardinalityNext,
            unlocked: true
        });
        emit Initialize(sqrtPriceX96, tick);
    }

    /// The swap fee in pips, as the factory says now (its fee module, else the spacing's fee).
    function fee() public view returns (uint24) {
        return ICLFactoryFees(factory).getSwapFee(address(this));
    }

    function unstakedFee() public view returns (uint24) {
        return ICLFactoryFees(factory).getUnstakedFee(address(this));
    }

    function observe(
        uint32[] calldata secondsAgos
    ) external view returns (int56[] memory tickCumulatives, uint160[] memory secondsPerLiquidityCumulativeX128s) {
        return
            observations.observe(
                _blockTimestamp(),
                secondsAgos,
                slot0.tick,
                slot0.observationIndex,
                liquidity,
                slot0.observationCardinality
            );
    }

    function increaseObservationCardinalityNext(uint16 observationCardinalityNext) external lock {
        uint16 old = slot0.observationCardinalityNext;
        uint16 next = observations.grow(old, observationCardinalityNext);
        slot0.observationCardinalityNext = next;
        if (old != next) emit IncreaseObservationCardinalityNext(old, next);
    }

    function mint(
        address recipient,
        int24 tickLower,
        int24 tickUpper,
        uint128 amount,
        bytes calldata data
    ) external lock returns (uint256 amount0, uint256 amount1) {
        require(amount > 0);
        (int256 amount0Int, int256 amount1Int) = _modifyPosition(recipient, tickLower, tickUpper, int128(amount));
        amount0 = uint256(amount0Int);
        amount1 = uint256(amount1Int);
        uint256 balance0Before = amount0 > 0 ? _balance0() : 0;
        uint256 balance1Before = amount1 > 0 ? _balance1() : 0;
        ICLCallbacks(msg.sender).uniswapV3MintCallback(amount0, amount1, data);
        if (amount0 > 0) require(balance0Before + amount0 <= _balance0(), "M0");
        if (amount1 > 0) require(balance1Before + amount1 <= _balance1(), "M1");
        emit Mint(msg.sender, recipient, tickLower, tickUpper, amount, amount0, amount1);
    }

    function burn(
        int24 tickLower,
        int24 tickUpper,
        uint128 amount
    ) external lock returns (uint256 amount0, uint256 amount1) {
        (int256 amount0Int, int256 amount1Int) = _modifyPosition(
            msg.sender,
            tickLower,
            tickUpper,
            -int128(uint128(amount))
        );
        amount0 = uint256(-amount0Int);
        amount1 = uint256(-amount1Int);
        if (amount0 > 0 || amount1 > 0) {
            PoolTicks.Position storage position = positions[_positionKey(msg.sender, tickLower, tickUpper)];
            position.tokensOwed0 += uint128(amount0);
            position.tokensOwed1 += uint128(amount1);
        }
        emit Burn(msg.sender, tickLower, tickUpper, amount, amount0, amount1);
    }

    function collect(
        address recipient,
        int24 tickLower,
        int24 tickUpper,
        uint128 amount0Requested,
        uint128 amount1Requested
    ) external lock returns (uint128 amount0, uint128 amount1) {
        PoolTicks.Position storage position = positions[_positionKey(msg.sender, tickLower, tickUpper)];
        amount0 = amount0Requested > position.tokensOwed0 ? position.tokensOwed0 : amount0Requested;
        amount1 = amount1Requested > position.tokensOwed1 ? position.tokensOwed1 : amount1Requested;
        if (amount0 > 0) {
            position.tokensOwed0 -= amount0;
            SafeTransfers.safeTransfer(token0, recipient, amount0);
        }
        if (amount1 > 0) {
            position.tokensOwed1 -= amount1;
            SafeTransfers.safeTransfer(token1, recipient, amount1);
        }
        emit Collect(msg.sender, recipient, tickLower, tickUpper, amount0, amount1);
    }

    /// V3's swap: positive `amountSpecified` is exact input. The fee is read once, before the loop.
    function swap(
        address recipient,
        bool zeroForOne,
        int256 amountSpecified,
        uint160 sqrtPriceLimitX96,
        bytes calldata data
    ) external returns (int256 amount0, int256 amount1) {
        require(amountSpecified != 0, "AS");
        Slot0 memory slot0Start = slot0;
        require(slot0Start.unlocked, "LOK");
        require(
            zeroForOne
                ? sqrtPriceLimitX96 < slot0Start.sqrtPriceX96 && sqrtPriceLimitX96 > TickMath.MIN_SQRT_PRICE
                : sqrtPriceLimitX96 > slot0Start.sqrtPriceX96 && sqrtPriceLimitX96 < TickMath.MAX_SQRT_PRICE,
            "SPL"
        );
        slot0.unlocked = false;

        uint128 liquidityStart = liquidity;
        bool exactInput = amountSpecified > 0;
        SwapState memory state = SwapState({
            amountSpecifiedRemaining: amountSpecified,
            amountCalculated: 0,
            sqrtPriceX96: slot0Start.sqrtPriceX96,
            tick: slot0Start.tick,
            fee: fee(),
            feeGrowthGlobalX128: zeroForOne ? feeGrowthGlobal0X128 : feeGrowthGlobal1X128,
            liquidity: liquidityStart
        });
        while (state.amountSpecifiedRemaining != 0 && state.sqrtPriceX96 != sqrtPriceLimitX96) {
            _step(state, zeroForOne, exactInput, sqrtPriceLimitX96);
        }

        if (state.tick != slot0Start.tick) {
            (uint16 observationIndex, uint16 observationCardinality) = observations.write(
                slot0Start.observationIndex,
                _blockTimestamp(),
                slot0Start.tick,
                liquidityStart,
                slot0Start.observationCardinality,
                slot0Start.observationCardinalityNext
            );
            (slot0.sqrtPriceX96, slot0.tick, slot0.observationIndex, slot0.observationCardinality) = (
                state.sqrtPriceX96,
                state.tick,
                observationIndex,
                observationCardinality
            );
        } else {
            slot0.sqrtPriceX96 = state.sqrtPriceX96;
        }
        if (liquidityStart != state.liquidity) liquidity = state.liquidity;
        if (zeroForOne) feeGrowthGlobal0X128 = state.feeGrowthGlobalX128;
        else feeGrowthGlobal1X128 = state.feeGrowthGlobalX128;

        (amount0, amount1) = zeroForOne == exactInput
            ? (amountSpecified - state.amountSpecifiedRemaining, state.amountCalculated)
            : (state.amountCalculated, amountSpecified - state.amountSpecifiedRemaining);
        _settleSwap(recipient, zeroForOne, amount0, amount1, data);
        emit Swap(msg.sender, recipient, amount0, amount1, state.sqrtPriceX96, state.liquidity, state.tick);
        slot0.unlocked = true;
    }

    /// One step of the loop: to the next initialized tick (or word edge), the limit, or the end of the amount.
    function _step(SwapState memory state, bool zeroForOne, bool exactInput, uint160 sqrtPriceLimitX96) private {
        StepComputations memory step;
        step.sqrtPriceStartX96 = state.sqrtPriceX96;
        (step.tickNext, step.initialized) = tickBitmap.nextInitializedTickWithinOneWord(
            state.tick,
            tickSpacing,
            zeroForOne
        );
        if (step.tickNext < TickMath.MIN_TICK) step.tickNext = TickMath.MIN_TICK;
        else if (step.tickNext > TickMath.MAX_TICK) step.tickNext = TickMath.MAX_TICK;
        step.sqrtPriceNextX96 = TickMath.getSqrtPriceAtTick(step.tickNext);
        (state.sqrtPriceX96, step.amountIn, step.amountOut, step.feeAmount) = V3SwapMath.computeSwapStep(
            state.sqrtPriceX96,
            (zeroForOne ? step.sqrtPriceNextX96 < sqrtPriceLimitX96 : step.sqrtPriceNextX96 > sqrtPriceLimitX96)
                ? sqrtPriceLimitX96
                : step.sqrtPriceNextX96,
            state.liquidity,
            state.amountSpecifiedRemaining,
            state.fee
        );
        if (exactInput) {
            state.amountSpecifiedRemaining -= int256(step.amountIn + step.feeAmount);
            state.amountCalculated -= int256(step.amountOut);
        } else {
            state.amountSpecifiedRemaining += int256(step.amountOut);
            state.amountCalculated += int256(step.amountIn + step.feeAmount);
        }
        if (state.liquidity > 0) {
            unchecked {
                state.feeGrowthGlobalX128 += FullMath.mulDiv(step.feeAmount, FixedPoint128.Q128, state.liquidity);
            }
        }
        if (state.sqrtPriceX96 == step.sqrtPriceNextX96) {
            if (step.initialized) {
                int128 liquidityNet = ticks.cross(
                    step.tickNext,
                    zeroForOne ? state.feeGrowthGlobalX128 : feeGrowthGlobal0X128,
                    zeroForOne ? feeGrowthGlobal1X128 : state.feeGrowthGlobalX128
                );
                if (zeroForOne) liquidityNet = -liquidityNet;
                state.liquidity = LiquidityMath.addDelta(state.liquidity, liquidityNet);
            }
            state.tick = zeroForOne ? step.tickNext - 1 : step.tickNext;
        } else if (state.sqrtPriceX96 != step.sqrtPriceStartX96) {
            state.tick = TickMath.getTickAtSqrtPrice(state.sqrtPriceX96);
        }
    }

    /// Pays the output, then asks the caller for the input through `uniswapV3SwapCallback`.
    function _settleSwap(
        address recipient,
        bool zeroForOne,
        int256 amount0,
        int256 amount1,
        bytes calldata data
    ) private {
        if (zeroForOne) {
            if (amount1 < 0) SafeTransfers.safeTransfer(token1, recipient, uint256(-amount1));
            uint256 balance0Before = _balance0();
            ICLCallbacks(msg.sender).uniswapV3SwapCallback(amount0, amount1, data);
            require(balance0Before + uint256(amount0) <= _balance0(), "IIA");
        } else {
            if (amount0 < 0) SafeTransfers.safeTransfer(token0, recipient, uint256(-amount0));
            uint256 balance1Before = _balance1();
            ICLCallbacks(msg.sender).uniswapV3SwapCallback(amount0, amount1, data);
            require(balance1Before + uint256(amount1) <= _balance1(), "IIA");
        }
    }

    function _modifyPosition(
        address owner,
        int24 tickLower,
        int24 tickUpper,
        int128 liquidityDelta
    ) private returns (int256 amount0, int256 amount1) {
        require(tickLower < tickUpper, "TLU");
        require(tickLower >= TickMath.MIN_TICK, "TLM");
        require(tickUpper <= TickMath.MAX_TICK, "TUM");
        Slot0 memory _slot0 = slot0;
        _updatePosition(owner, tickLower, tickUpper, liquidityDelta, _slot0.tick);
        if (liquidityDelta == 0) return (0, 0);
        uint160 sqrtLower = TickMath.getSqrtPriceAtTick(tickLower);
        uint160 sqrtUpper = TickMath.getSqrtPriceAtTick(tickUpper);
        if (_slot0.tick < tickLower) {
            amount0 = _amount0Delta(sqrtLower, sqrtUpper, liquidityDelta);
        } else if (_slot0.tick < tickUpper) {
            uint128 liquidityBefore = liquidity;
            // In-range liquidity changes the oracle's seconds per liquidity: record the state before.
            (slot0.observationIndex, slot0.observationCardinality) = observations.write(
                _slot0.observationIndex,
                _blockTimestamp(),
                _slot0.tick,
                liquidityBefore,
                _slot0.observationCardinality,
                _slot0.observationCardinalityNext
            );
            amount0 = _amount0Delta(_slot0.sqrtPriceX96, sqrtUpper, liquidityDelta);
            amount1 = _amount1Delta(sqrtLower, _slot0.sqrtPriceX96, liquidityDelta);
            liquidity = LiquidityMath.addDelta(liquidityBefore, liquidityDelta);
        } else {
            amount1 = _amount1Delta(sqrtLower, sqrtUpper, liquidityDelta);
        }
    }

    function _updatePosition(
        address owner,
        int24 tickLower,
        int24 tickUpper,
        int128 liquidityDelta,
        int24 tick
    ) private {
        (uint256 global0, uint256 global1) = (feeGrowthGlobal0X128, feeGrowthGlobal1X128);
        bool flippedLower;
        bool flippedUpper;
        if (liquidityDelta != 0) {
            uint128 maxLiquidity = maxLiquidityPerTick;
            flippedLower = ticks.update(tickLower, tick, liquidityDelta, global0, global1, false, maxLiquidity);
            flippedUpper = ticks.update(tickUpper, tick, liquidityDelta, global0, global1, true, maxLiquidity);
            if (flippedLower) tickBitmap.flipTick(tickLower, tickSpacing);
            if (flippedUpper) tickBitmap.flipTick(tickUpper, tickSpacing);
        }
        (uint256 inside0, uint256 inside1) = ticks.feeGrowthInside(tickLower, tickUpper, tick, global0, global1);
        PoolTicks.Position storage position = positions[_positionKey(owner, tickLower, tickUpper)];
        uint128 liquidityBefore = position.liquidity;
        if (liquidityDelta == 0) require(liquidityBefore > 0, "NP");
        unchecked {
            // Fees owed since the position was last touched; wrapping, as the accumulators do.
            uint128 owed0 = uint128(
                FullMath.mulDiv(inside0 - position.feeGrowthInside0LastX128, liquidityBefore, FixedPoint128.Q128)
            );
            uint128 owed1 = uint128(
                FullMath.mulDiv(inside1 - position.feeGrowthInside1LastX128, liquidityBefore, FixedPoint128.Q128)
            );
            position.tokensOwed0 += owed0;
            position.tokensOwed1 += owed1;
        }
        if (liquidityDelta != 0) position.liquidity = LiquidityMath.addDelta(liquidityBefore, liquidityDelta);
        position.feeGrowthInside0LastX128 = inside0;
        position.feeGrowthInside1LastX128 = inside1;
        if (liquidityDelta < 0) {
            if (flippedLower) ticks.clear(tickLower);
            if (flippedUpper) ticks.clear(tickUpper);
        }
    }

    /// V3's signed amount0: owed to the pool (rounded up) when adding, paid out (down) when removing.
    function _amount0Delta(uint160 a, uint160 b, int128 liquidityDelta) private pure returns (int256) {
        return
            liquidityDelta < 0
                ? -int256(SqrtPriceMath.getAmount0Delta(a, b, uint128(-liquidityDelta), false))
                : int256(SqrtPriceMath.getAmount0Delta(a, b, uint128(liquidityDelta), true));
    }

    function _amount1Delta(uint160 a, uint160 b, int128 liquidityDelta) private pure returns (int256) {
        return
            liquidityDelta < 0
                ? -int256(SqrtPriceMath.getAmount1Delta(a, b, uint128(-liquidityDelta), false))
                : int256(SqrtPriceMath.getAmount1Delta(a, b, uint128(liquidityDelta), true));
    }

    function _positionKey(address owner, int24 tickLower, int24 tickUpper) private pure returns (bytes32) {
        return keccak256(abi.encodePacked(owner, tickLower, tickUpper));
    }

    function _blockTimestamp() private view returns (uint32) {
        return uint32(block.timestamp);
    }

    function _balance0() private view returns (uint256) {
        return SafeTransfers.balanceOf(token0, address(this));
    }

    function _balance1() private view returns (uint256) {
        return SafeTransfers.balanceOf(token1, address(this));
    }
}
