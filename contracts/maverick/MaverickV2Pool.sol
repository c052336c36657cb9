// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeTransfers} from "../common/SafeTransfers.sol";
import {MaverickV2Math} from "./MaverickV2Math.sol";

/// @notice The swapper's side of a Maverick V2 swap: pay `amountIn` of `tokenIn` to the pool.
interface IMaverickV2SwapCallback {
    function maverickV2SwapCallback(address tokenIn, uint256 amountIn, uint256 amountOut, bytes calldata data) external;
}

/// @title MaverickV2Pool
/// @notice Our stand-in of a Maverick V2 pool, for the devnet and tests (Maverick V2's pool is not
/// open source and no registry package ships its bytecode; docs/dex-kinds.md, "MAVERICK_V2"). Its
/// external face is the published one: `getState()`, `getTick(tick)`, `fee(tokenAIn)`,
/// `tokenA()`/`tokenB()`, `tokenAScale()`/`tokenBScale()`, `tickSpacing()`, and
/// `swap(recipient, {amount, tokenAIn, exactOutput, tickLimit}, data)`, which pays the output first
/// and then takes the input: by `maverickV2SwapCallback(tokenIn, amountIn, amountOut, data)` on the
/// caller when `data` is not empty (the balance must then have grown by `amountIn`), else from a
/// transfer made before the call (the balance must reach the stored reserve plus `amountIn`).
/// The swap walks the ticks in the price's direction (A in: up) until the input is spent or the
/// tick passes `tickLimit` (then the input is what was used, rounded up), each tick priced from its
/// own reserves (MaverickV2Math), the directional fee taken on the way in, the protocol's share
/// of it kept out of the tick (it stays in the pool's stored reserve, as on the real pool).
/// Events: the real pool's `PoolSwap`, `PoolAddLiquidity`, `PoolRemoveLiquidity` and
/// `PoolSetProtocolFeeRatio`, with its signatures (Maverick's published IMaverickV2Pool), so the
/// service follows the stand-in by the real topics; their `params.amounts` are what each tick's
/// supply moved by, their `binIds` empty.
/// Not kept from the real pool: the bins (liquidity is put on ticks directly by the owner with
/// `addTickLiquidity` and taken off with `removeTickLiquidity`, so there are no LP balances and no
/// bin kinds: every tick behaves as a static bin's would), the bin movement of the right, left and
/// both kinds after a swap, the TWA and its storage writes, exact output (it reverts
/// `ExactOutputUnsupported`), flash loans.
contract MaverickV2Pool {
    using SafeTransfers for address;

    struct State {
        uint128 reserveA;
        uint128 reserveB;
        int64 lastTwaD8;
        int64 lastLogPriceD8;
        uint40 lastTimestamp;
        int32 activeTick;
        bool isLocked;
        uint32 binCounter;
        uint8 protocolFeeRatioD3;
    }

    struct TickState {
        uint128 reserveA;
        uint128 reserveB;
        uint128 totalSupply;
        uint32[4] binIdsByTick;
    }

    struct SwapParams {
        uint256 amount;
        bool tokenAIn;
        bool exactOutput;
        int32 tickLimit;
    }

    error Locked();
    error NotOwner();
    error ExactOutputUnsupported();
    error BeyondSwapLimit(int32 activeTick, int32 tickLimit);
    error InsufficientInput(uint256 needed, uint256 received);
    error ZeroLiquidity();
    /// @notice A reserve would pass the uint128 the real pool stores it in.
    error ReserveOverflow();

    /// @notice The real pool's liquidity parameters (kind 0 static; `amounts` the bins' LP amounts).
    struct AddLiquidityParams {
        uint8 kind;
        int32[] ticks;
        uint128[] amounts;
    }

    struct RemoveLiquidityParams {
        uint32[] binIds;
        uint128[] amounts;
    }

    event PoolSwap(address sender, address recipient, SwapParams params, uint256 amountIn, uint256 amountOut);
    event PoolAddLiquidity(
        address sender,
        address recipient,
        uint256 subaccount,
        AddLiquidityParams params,
        uint256 tokenAAmount,
        uint256 tokenBAmount,
        uint32[] binIds
    );
    event PoolRemoveLiquidity(
        address sender,
        address recipient,
        uint256 subaccount,
        RemoveLiquidityParams params,
        uint256 tokenAOut,
        uint256 tokenBOut
    );
    event PoolSetProtocolFeeRatio(uint256 protocolFeeRatioD3);

    address public immutable tokenA;
    address public immutable tokenB;
    uint256 public immutable tokenAScale;
    uint256 public immutable tokenBScale;
    uint256 public immutable tickSpacing;
    /// @notice The fee of each direction, D18 (A in, then B in).
    uint256 public immutable feeAIn;
    uint256 public immutable feeBIn;
    address public immutable owner;

    State private state;
    mapping(int32 => TickState) private ticks;

    constructor(
        address tokenA_,
        address tokenB_,
        uint8 decimalsA,
        uint8 decimalsB,
        uint256 tickSpacing_,
        uint256 feeAIn_,
        uint256 feeBIn_,
        uint8 protocolFeeRatioD3,
        int32 activeTick,
        address owner_
    ) {
        tokenA = tokenA_;
        tokenB = tokenB_;
        tokenAScale = MaverickV2Math.scale(decimalsA);
        tokenBScale = MaverickV2Math.scale(decimalsB);
        tickSpacing = tickSpacing_;
        feeAIn = feeAIn_;
        feeBIn = feeBIn_;
        owner = owner_;
        state.activeTick = activeTick;
        state.protocolFeeRatioD3 = protocolFeeRatioD3;
        state.lastTimestamp = uint40(block.timestamp);
        state.lastTwaD8 = int64(activeTick) * 256 + 128;
        state.lastLogPriceD8 = state.lastTwaD8;
    }

    function getState() external view returns (State memory) {
        return state;
    }

    function getTick(int32 tick) external view returns (TickState memory) {
        return ticks[tick];
    }

    function fee(bool tokenAIn) external view returns (uint256) {
        return tokenAIn ? feeAIn : feeBIn;
    }

    /// @notice The owner puts `ammA[k]` and `ammB[k]` (18-decimal amounts) on `ticks[k]`, paying
    /// their token amounts, each rounded up, by `transferFrom`. The stand-in's substitute for bins
    /// and LP positions (the real pool's `addLiquidity` also takes a list of ticks and amounts).
    function addTickLiquidity(int32[] calldata ticks_, uint128[] calldata ammA, uint128[] calldata ammB) external {
        if (msg.sender != owner) revert NotOwner();
        if (state.isLocked) revert Locked();
        uint256 payA;
        uint256 payB;
        uint128[] memory supply = new uint128[](ticks_.length);
        for (uint256 k; k < ticks_.length; k++) {
            if (ammA[k] == 0 && ammB[k] == 0) revert ZeroLiquidity();
            supply[k] = ammA[k] + ammB[k];
            MaverickV2Math.tickSqrtPrice(tickSpacing, ticks_[k] + 1);
            TickState storage t = ticks[ticks_[k]];
            t.reserveA += ammA[k];
            t.reserveB += ammB[k];
            t.totalSupply += supply[k];
            payA += MaverickV2Math.ammScaleToTokenScale(ammA[k], tokenAScale, true);
            payB += MaverickV2Math.ammScaleToTokenScale(ammB[k], tokenBScale, true);
        }
        state.reserveA = _u128(state.reserveA + payA);
        state.reserveB = _u128(state.reserveB + payB);
        if (payA != 0 && !tokenA.trySafeTransferFrom(msg.sender, address(this), payA))
            revert SafeTransfers.SafeTransferFailed(tokenA);
        if (payB != 0 && !tokenB.trySafeTransferFrom(msg.sender, address(this), payB))
            revert SafeTransfers.SafeTransferFailed(tokenB);
        emit PoolAddLiquidity(
            msg.sender,
            msg.sender,
            0,
            AddLiquidityParams(0, ticks_, supply),
            payA,
            payB,
            new uint32[](0)
        );
    }

    /// @notice The owner takes `ammA[k]` and `ammB[k]` (18-decimal amounts) off `ticks[k]` to
    /// `recipient`, each token amount rounded down (the real pool's `removeLiquidity` takes bin LP
    /// amounts; this is its tick-level stand-in).
    function removeTickLiquidity(
        address recipient,
        int32[] calldata ticks_,
        uint128[] calldata ammA,
        uint128[] calldata ammB
    ) external returns (uint256 outA, uint256 outB) {
        if (msg.sender != owner) revert NotOwner();
        if (state.isLocked) revert Locked();
        uint128[] memory supply = new uint128[](ticks_.length);
        for (uint256 k; k < ticks_.length; k++) {
            TickState storage t = ticks[ticks_[k]];
            t.reserveA -= ammA[k];
            t.reserveB -= ammB[k];
            supply[k] = ammA[k] + ammB[k];
            t.totalSupply = t.totalSupply > supply[k] ? t.totalSupply - supply[k] : 0;
            outA += MaverickV2Math.ammScaleToTokenScale(ammA[k], tokenAScale, false);
            outB += MaverickV2Math.ammScaleToTokenScale(ammB[k], tokenBScale, false);
        }
        state.reserveA -= uint128(outA);
        state.reserveB -= uint128(outB);
        if (outA != 0) tokenA.safeTransfer(recipient, outA);
        if (outB != 0) tokenB.safeTransfer(recipient, outB);
        emit PoolRemoveLiquidity(msg.sender, recipient, 0, RemoveLiquidityParams(new uint32[](0), supply), outA, outB);
    }

    /// @notice Sets the protocol's share of the fee, thousandths (the real pool's factory does).
    function setProtocolFeeRatioD3(uint8 ratio) external {
        if (msg.sender != owner) revert NotOwner();
        state.protocolFeeRatioD3 = ratio;
        emit PoolSetProtocolFeeRatio(ratio);
    }

    function swap(
        address recipient,
        SwapParams calldata params,
        bytes calldata data
    ) external returns (uint256 amountIn, uint256 amountOut) {
        if (state.isLocked) revert Locked();
        if (params.exactOutput) revert ExactOutputUnsupported();
        state.isLocked = true;
        bool tokenAIn = params.tokenAIn;
        int32 activeTick = state.activeTick;
        if (tokenAIn ? activeTick > params.tickLimit : activeTick < params.tickLimit) {
            revert BeyondSwapLimit(activeTick, params.tickLimit);
        }
        (uint256 inScale, uint256 outScale) = tokenAIn ? (tokenAScale, tokenBScale) : (tokenBScale, tokenAScale);
        bool swappedToMaxPrice;
        uint256 deltaInErc;
        uint256 deltaOutErc;
        (deltaInErc, deltaOutErc, activeTick, swappedToMaxPrice) = _walk(
            MaverickV2Math.tokenScaleToAmmScale(params.amount, inScale),
            tokenAIn,
            params.tickLimit,
            activeTick
        );
        state.activeTick = activeTick;
        amountIn = MaverickV2Math.ammScaleToTokenScale(deltaInErc, inScale, swappedToMaxPrice);
        amountOut = MaverickV2Math.ammScaleToTokenScale(deltaOutErc, outScale, false);
        (address tokenIn, address tokenOut) = tokenAIn ? (tokenA, tokenB) : (tokenB, tokenA);
        if (tokenAIn) {
            state.reserveA = _u128(state.reserveA + amountIn);
            state.reserveB -= uint128(amountOut);
        } else {
            state.reserveA -= uint128(amountOut);
            state.reserveB = _u128(state.reserveB + amountIn);
        }
        if (amountOut != 0) tokenOut.safeTransfer(recipient, amountOut);
        if (data.length == 0) {
            uint256 have = tokenIn.balanceOf(address(this));
            uint256 need = tokenAIn ? state.reserveA : state.reserveB;
            if (have < need) revert InsufficientInput(need, have);
        } else {
            uint256 before = tokenIn.balanceOf(address(this));
            IMaverickV2SwapCallback(msg.sender).maverickV2SwapCallback(tokenIn, amountIn, amountOut, data);
            uint256 received = tokenIn.balanceOf(address(this)) - before;
            if (received < amountIn) revert InsufficientInput(amountIn, received);
        }
        state.isLocked = false;
        emit PoolSwap(msg.sender, recipient, params, amountIn, amountOut);
    }

    /// @dev The tick walk: from the active tick, skip ticks with no reserves, swap in the first one
    /// that has some, move on while input is left; stop past `tickLimit` with the active tick put back.
    function _walk(
        uint256 excess,
        bool tokenAIn,
        int32 tickLimit,
        int32 activeTick
    ) private returns (uint256 deltaInErc, uint256 deltaOutErc, int32, bool swappedToMaxPrice) {
        int32 step = tokenAIn ? int32(1) : int32(-1);
        uint256 fee_ = tokenAIn ? feeAIn : feeBIn;
        uint256 ratio = state.protocolFeeRatioD3;
        while (excess != 0) {
            int32 tick = activeTick;
            if (_pastLimit(tokenAIn, tick, tickLimit)) return (deltaInErc, deltaOutErc, activeTick - step, true);
            TickState storage t = ticks[tick];
            while (t.reserveA == 0 && t.reserveB == 0) {
                tick += step;
                if (_pastLimit(tokenAIn, tick, tickLimit)) return (deltaInErc, deltaOutErc, activeTick - step, true);
                t = ticks[tick];
            }
            activeTick = tick;
            MaverickV2Math.TickSwap memory d = _swapTick(t, tick, excess, tokenAIn, fee_, ratio);
            deltaInErc += d.deltaInErc;
            deltaOutErc += d.deltaOutErc;
            excess = d.excess;
            if (excess != 0) activeTick += step;
        }
        return (deltaInErc, deltaOutErc, activeTick, false);
    }

    function _swapTick(
        TickState storage t,
        int32 tick,
        uint256 amountIn,
        bool tokenAIn,
        uint256 fee_,
        uint256 ratio
    ) private returns (MaverickV2Math.TickSwap memory d) {
        uint256 reserveA = t.reserveA;
        uint256 reserveB = t.reserveB;
        uint256 sqrtLower = MaverickV2Math.tickSqrtPrice(tickSpacing, tick);
        uint256 sqrtUpper = MaverickV2Math.tickSqrtPrice(tickSpacing, tick + 1);
        uint256 liquidity = MaverickV2Math.getTickL(reserveA, reserveB, sqrtLower, sqrtUpper);
        uint256 sqrtPrice = MaverickV2Math.getSqrtPrice(reserveA, reserveB, sqrtLower, sqrtUpper, liquidity);
        d = MaverickV2Math.computeSwapExactIn(
            sqrtPrice,
            liquidity,
            reserveA,
            reserveB,
            amountIn,
            tokenAIn,
            fee_,
            ratio
        );
        if (tokenAIn) {
            t.reserveA = _u128(reserveA + d.deltaInBinInternal);
            t.reserveB = d.excess > 0 ? 0 : uint128(MaverickV2Math.clip(reserveB, d.deltaOutErc));
        } else {
            t.reserveA = d.excess > 0 ? 0 : uint128(MaverickV2Math.clip(reserveA, d.deltaOutErc));
            t.reserveB = _u128(reserveB + d.deltaInBinInternal);
        }
    }

    function _pastLimit(bool tokenAIn, int32 tick, int32 tickLimit) private pure returns (bool) {
        return tokenAIn ? tick > tickLimit : tick < tickLimit;
    }

    function _u128(uint256 x) private pure returns (uint128) {
        if (x > type(uint128).max) revert ReserveOverflow();
        return uint128(x);
    }
}
