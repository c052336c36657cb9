// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FullMath} from "@uniswap/v4-core/src/libraries/FullMath.sol";

interface ICLFactoryForModule {
    function swapFeeManager() external view returns (address);
    function isPool(address pool) external view returns (bool);
    function tickSpacingToFee(int24 tickSpacing) external view returns (uint24);
}

interface ICLPoolForModule {
    function tickSpacing() external view returns (int24);
    function slot0() external view returns (uint160, int24, uint16, uint16, uint16, bool);
    function observe(uint32[] calldata secondsAgos) external view returns (int56[] memory, uint160[] memory);
}

/// @title DynamicSwapFeeModule (stand-in)
/// @notice Slipstream's dynamic swap-fee module (aerodrome-finance/slipstream
/// `contracts/core/fees/DynamicSwapFeeModule.sol`, formula in its README): fee = min(base +
/// K·|tick − TWAP tick| / 1e6, cap), the TWAP over `secondsAgo` from the pool's oracle; base is the
/// pool's custom fee (420 meaning 0 %) or its spacing's fee; K and the cap are per pool or the
/// defaults; addresses registered as discounted (by `tx.origin`) pay less. The dynamic part is 0
/// until the pool's oracle holds `secondsAgo / 2` observations and reaches back far enough.
/// @dev Written for the devnet from the published formula and interface, not copied. The fee moves
/// with time alone (the TWAP follows the clock) and with no event: a quote must read it for the
/// block it executes in (docs/quote.md, "The block promise").
contract DynamicSwapFeeModule {
    struct DynamicFeeConfig {
        uint24 baseFee;
        uint24 feeCap;
        uint64 scalingFactor;
    }

    uint32 public constant MIN_SECONDS_AGO = 2;
    uint32 public constant MAX_SECONDS_AGO = 65535 * MIN_SECONDS_AGO;
    uint256 public constant MAX_BASE_FEE = 30_000;
    uint256 public constant MAX_DISCOUNT = 500_000;
    uint256 public constant ZERO_FEE_INDICATOR = 420;
    uint256 public constant MAX_SCALING_FACTOR = 1e18;
    uint256 public constant SCALING_PRECISION = 1e6;
    uint256 public constant MAX_FEE_CAP = 50_000;

    ICLFactoryForModule public immutable factory;
    uint256 public defaultScalingFactor;
    uint256 public defaultFeeCap;
    uint32 public secondsAgo = 600;
    mapping(address => uint24) public discounted;
    mapping(address => DynamicFeeConfig) public dynamicFeeConfig;

    event CustomFeeSet(address indexed pool, uint24 indexed fee);
    event ScalingFactorSet(address indexed pool, uint64 indexed scalingFactor);
    event FeeCapSet(address indexed pool, uint24 indexed feeCap);
    event DefaultScalingFactorSet(uint256 indexed defaultScalingFactor);
    event DefaultFeeCapSet(uint256 indexed defaultFeeCap);
    event SecondsAgoSet(uint32 indexed secondsAgo);
    event DiscountedRegistered(address indexed discountReceiver, uint24 indexed discount);

    modifier onlySwapFeeManager() {
        require(msg.sender == factory.swapFeeManager(), "NFM");
        _;
    }

    constructor(address factory_, uint256 defaultScalingFactor_, uint256 defaultFeeCap_) {
        require(defaultScalingFactor_ <= MAX_SCALING_FACTOR, "ISF");
        require(defaultFeeCap_ <= MAX_FEE_CAP, "MFC");
        factory = ICLFactoryForModule(factory_);
        defaultScalingFactor = defaultScalingFactor_;
        defaultFeeCap = defaultFeeCap_;
        emit DefaultScalingFactorSet(defaultScalingFactor_);
        emit DefaultFeeCapSet(defaultFeeCap_);
    }

    function customFee(address pool) external view returns (uint24) {
        return dynamicFeeConfig[pool].baseFee;
    }

    function setCustomFee(address pool, uint24 fee) external onlySwapFeeManager {
        require(fee <= MAX_BASE_FEE || fee == ZERO_FEE_INDICATOR, "MBF");
        require(factory.isPool(pool));
        dynamicFeeConfig[pool].baseFee = fee;
        emit CustomFeeSet(pool, fee);
    }

    function setScalingFactor(address pool, uint64 scalingFactor) external onlySwapFeeManager {
        require(factory.isPool(pool));
        require(dynamicFeeConfig[pool].feeCap != 0 && scalingFactor <= MAX_SCALING_FACTOR, "ISF");
        dynamicFeeConfig[pool].scalingFactor = scalingFactor;
        emit ScalingFactorSet(pool, scalingFactor);
    }

    function setFeeCap(address pool, uint24 feeCap) external onlySwapFeeManager {
        require(factory.isPool(pool));
        require(feeCap > 0, "FC0");
        require(feeCap <= MAX_FEE_CAP, "MFC");
        dynamicFeeConfig[pool].feeCap = feeCap;
        emit FeeCapSet(pool, feeCap);
    }

    function setDefaultScalingFactor(uint256 defaultScalingFactor_) external onlySwapFeeManager {
        require(defaultScalingFactor_ <= MAX_SCALING_FACTOR, "ISF");
        defaultScalingFactor = defaultScalingFactor_;
        emit DefaultScalingFactorSet(defaultScalingFactor_);
    }

    function setDefaultFeeCap(uint256 defaultFeeCap_) external onlySwapFeeManager {
        require(defaultFeeCap_ <= MAX_FEE_CAP, "MFC");
        defaultFeeCap = defaultFeeCap_;
        emit DefaultFeeCapSet(defaultFeeCap_);
    }

    function setSecondsAgo(uint32 secondsAgo_) external onlySwapFeeManager {
        require(secondsAgo_ >= MIN_SECONDS_AGO && secondsAgo_ < MAX_SECONDS_AGO, "ISA");
        secondsAgo = secondsAgo_;
        emit SecondsAgoSet(secondsAgo_);
    }

    function registerDiscounted(address discountReceiver, uint24 discount) external onlySwapFeeManager {
        require(discount <= MAX_DISCOUNT, "MDC");
        discounted[discountReceiver] = discount;
        emit DiscountedRegistered(discountReceiver, discount);
    }

    /// The pool's fee now, in pips.
    function getFee(address pool) external view returns (uint24) {
        DynamicFeeConfig storage config = dynamicFeeConfig[pool];
        uint256 baseFee = config.baseFee;
        uint256 scalingFactor = config.scalingFactor;
        uint256 feeCap = config.feeCap;
        if (baseFee == ZERO_FEE_INDICATOR) return 0;
        if (baseFee == 0) baseFee = factory.tickSpacingToFee(ICLPoolForModule(pool).tickSpacing());
        if (scalingFactor == 0) {
            scalingFactor = defaultScalingFactor;
            feeCap = defaultFeeCap;
        }
        uint256 totalFee = baseFee + _dynamicFee(pool, scalingFactor);
        if (totalFee > feeCap) totalFee = feeCap;
        uint24 discount = discounted[tx.origin];
        if (discount > 0) totalFee -= FullMath.mulDivRoundingUp(totalFee, discount, 1_000_000);
        return uint24(totalFee);
    }

    /// K·|tick − TWAP tick| / 1e6, or 0 while the oracle cannot answer for `secondsAgo`.
    function _dynamicFee(address pool, uint256 scalingFactor) private view returns (uint256) {
        (, int24 currentTick, , uint16 observationCardinality, , ) = ICLPoolForModule(pool).slot0();
        uint32 window = secondsAgo;
        if (observationCardinality < window / MIN_SECONDS_AGO) return 0;
        uint32[] memory ago = new uint32[](2);
        ago[0] = window;
        int24 twapTick;
        try ICLPoolForModule(pool).observe(ago) returns (int56[] memory tickCumulatives, uint160[] memory) {
            twapTick = int24((tickCumulatives[1] - tickCumulatives[0]) / int56(uint56(window)));
        } catch {
            return 0;
        }
        int24 delta = currentTick - twapTick;
        uint256 absDelta = delta < 0 ? uint256(uint24(-delta)) : uint256(uint24(delta));
        return (absDelta * scalingFactor) / SCALING_PRECISION;
    }
}
