// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Pool} from "@uniswap/v4-core/src/libraries/Pool.sol";
import {Position} from "@uniswap/v4-core/src/libraries/Position.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {Slot0} from "@uniswap/v4-core/src/types/Slot0.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";

/// The pool key of PancakeSwap Infinity (6 words; the pool id is keccak256(abi.encode(key))).
/// `parameters` packs the hooks registration bitmap (bits 0–15) and the tick spacing (bits 16–39).
struct PoolKey {
    address currency0;
    address currency1;
    address hooks;
    address poolManager;
    uint24 fee;
    bytes32 parameters;
}

interface IVaultAccounting {
    function accountAppBalanceDelta(address currency0, address currency1, int256 delta, address settler) external;
    function collectFee(address currency, uint256 amount, address recipient) external;
}

interface IProtocolFeeControllerLike {
    function protocolFeeForPool(PoolKey memory key) external view returns (uint24);
}

/// @title CLPoolManager (stand-in)
/// @notice PancakeSwap Infinity's concentrated-liquidity pool manager as an integrator sees it
/// (pancakeswap/infinity-core `src/pool-cl/CLPoolManager.sol`): one contract holds every CL pool,
/// keyed by `PoolKey`; `swap` and `modifyLiquidity` work only inside the `Vault`'s lock and
/// account their balance deltas to the caller there (negative: owed to the vault); the swap fee
/// composes the LP fee with the direction's protocol fee (12 bits each, at most 4,000 pips, set by
/// the protocol-fee controller): p + l − floor(p·l / 1e6). Getters sit on the manager itself.
/// @dev Written for the devnet from the published interface, not copied. The pool math is the
/// `Pool` library of the published `v4-core` (npm `uniswap/v4-core`) package: Infinity's `CLPool` is its fork, with
/// the same swap loop, step rounding and protocol-fee split; what differs (the 4,000-pip cap, the
/// key with its packed parameters, the Vault) is here. Not here: hooks (a key naming a hook, a
/// registration bitmap or a dynamic fee is refused at `initialize`), `donate`, `extsload`.
contract CLPoolManager {
    using Pool for Pool.State;

    uint16 public constant MAX_PROTOCOL_FEE = 4000;
    uint24 private constant DYNAMIC_FEE_FLAG = 0x800000;
    uint24 private constant ONE_HUNDRED_PERCENT_FEE = 1_000_000;

    IVaultAccounting public immutable vault;
    address public owner;
    bool public paused;
    address public protocolFeeController;
    mapping(address => uint256) public protocolFeesAccrued;

    mapping(bytes32 => Pool.State) private pools;
    mapping(bytes32 => PoolKey) public poolIdToPoolKey;

    struct ModifyLiquidityParams {
        int24 tickLower;
        int24 tickUpper;
        int256 liquidityDelta;
        bytes32 salt;
    }

    struct SwapParams {
        bool zeroForOne;
        /// Negative: exact input.
        int256 amountSpecified;
        uint160 sqrtPriceLimitX96;
    }

    event Initialize(
        bytes32 indexed id,
        address indexed currency0,
        address indexed currency1,
        address hooks,
        uint24 fee,
        bytes32 parameters,
        uint160 sqrtPriceX96,
        int24 tick
    );
    event ModifyLiquidity(
        bytes32 indexed id,
        address indexed sender,
        int24 tickLower,
        int24 tickUpper,
        int256 liquidityDelta,
        bytes32 salt
    );
    event Swap(
        bytes32 indexed id,
        address indexed sender,
        int128 amount0,
        int128 amount1,
        uint160 sqrtPriceX96,
        uint128 liquidity,
        int24 tick,
        uint24 fee,
        uint16 protocolFee
    );
    event ProtocolFeeUpdated(bytes32 indexed id, uint24 protocolFee);
    event ProtocolFeeControllerUpdated(address indexed protocolFeeController);
    event Paused(address account);
    event Unpaused(address account);

    error PoolManagerMismatch();
    error TickSpacingTooLarge(int24 tickSpacing);
    error TickSpacingTooSmall(int24 tickSpacing);
    error CurrenciesInitializedOutOfOrder(address currency0, address currency1);
    error UnusedBitsNonZero();
    error HooksNotSupported(address hooks, uint16 registration);
    error LPFeeTooLarge(uint24 fee);
    error PoolPaused();
    error SwapAmountCannotBeZero();
    error ProtocolFeeTooLarge(uint24 fee);
    error InvalidCaller();
    error NotOwner();

    modifier whenNotPaused() {
        if (paused) revert PoolPaused();
        _;
    }

    constructor(IVaultAccounting vault_) {
        vault = vault_;
        owner = msg.sender;
    }

    function getSlot0(
        bytes32 id
    ) external view returns (uint160 sqrtPriceX96, int24 tick, uint24 protocolFee, uint24 lpFee) {
        Slot0 slot0 = pools[id].slot0;
        return (slot0.sqrtPriceX96(), slot0.tick(), slot0.protocolFee(), slot0.lpFee());
    }

    function getLiquidity(bytes32 id) external view returns (uint128) {
        return pools[id].liquidity;
    }

    function getLiquidity(
        bytes32 id,
        address owner_,
        int24 tickLower,
        int24 tickUpper,
        bytes32 salt
    ) external view returns (uint128) {
        return pools[id].positions[Position.calculatePositionKey(owner_, tickLower, tickUpper, salt)].liquidity;
    }

    /// (liquidityGross, liquidityNet, feeGrowthOutside0X128, feeGrowthOutside1X128).
    function getPoolTickInfo(bytes32 id, int24 tick) external view returns (Pool.TickInfo memory) {
        return pools[id].ticks[tick];
    }

    function getPoolBitmapInfo(bytes32 id, int16 word) external view returns (uint256) {
        return pools[id].tickBitmap[word];
    }

    function getFeeGrowthGlobals(bytes32 id) external view returns (uint256, uint256) {
        return (pools[id].feeGrowthGlobal0X128, pools[id].feeGrowthGlobal1X128);
    }

    function initialize(PoolKey memory key, uint160 sqrtPriceX96) external returns (int24 tick) {
        if (key.poolManager != address(this)) revert PoolManagerMismatch();
        int24 tickSpacing = _tickSpacing(key.parameters);
        if (tickSpacing > TickMath.MAX_TICK_SPACING) revert TickSpacingTooLarge(tickSpacing);
        if (tickSpacing < TickMath.MIN_TICK_SPACING) revert TickSpacingTooSmall(tickSpacing);
        if (key.currency0 >= key.currency1) revert CurrenciesInitializedOutOfOrder(key.currency0, key.currency1);
        if (uint256(key.parameters) >> 40 != 0) revert UnusedBitsNonZero();
        uint16 registration = uint16(uint256(key.parameters));
        if (key.hooks != address(0) || registration != 0 || key.fee == DYNAMIC_FEE_FLAG) {
            revert HooksNotSupported(key.hooks, registration);
        }
        if (key.fee > ONE_HUNDRED_PERCENT_FEE) revert LPFeeTooLarge(key.fee);
        bytes32 id = keccak256(abi.encode(key));
        tick = pools[id].initialize(sqrtPriceX96, key.fee);
        uint24 protocolFee = _fetchProtocolFee(key);
        if (protocolFee != 0) pools[id].setProtocolFee(protocolFee);
        poolIdToPoolKey[id] = key;
        emit Initialize(id, key.currency0, key.currency1, key.hooks, key.fee, key.parameters, sqrtPriceX96, tick);
    }

    /// Adds or removes liquidity inside the vault's lock; the caller's delta includes its fees.
    function modifyLiquidity(
        PoolKey memory key,
        ModifyLiquidityParams memory params,
        bytes calldata
    ) external returns (BalanceDelta delta, BalanceDelta feeDelta) {
        if (params.liquidityDelta > 0 && paused) revert PoolPaused();
        bytes32 id = keccak256(abi.encode(key));
        Pool.State storage pool = pools[id];
        pool.checkPoolInitialized();
        (delta, feeDelta) = pool.modifyLiquidity(
            Pool.ModifyLiquidityParams({
                owner: msg.sender,
                tickLower: params.tickLower,
                tickUpper: params.tickUpper,
                liquidityDelta: _toInt128(params.liquidityDelta),
                tickSpacing: _tickSpacing(key.parameters),
                salt: params.salt
            })
        );
        emit ModifyLiquidity(id, msg.sender, params.tickLower, params.tickUpper, params.liquidityDelta, params.salt);
        delta = delta + feeDelta;
        vault.accountAppBalanceDelta(key.currency0, key.currency1, BalanceDelta.unwrap(delta), msg.sender);
    }

    /// Swaps inside the vault's lock; the protocol's share of the fee stays in the vault for it.
    function swap(
        PoolKey memory key,
        SwapParams memory params,
        bytes calldata
    ) external whenNotPaused returns (BalanceDelta delta) {
        if (params.amountSpecified == 0) revert SwapAmountCannotBeZero();
        bytes32 id = keccak256(abi.encode(key));
        Pool.State storage pool = pools[id];
        pool.checkPoolInitialized();
        uint24 packedProtocolFee = pool.slot0.protocolFee();
        (BalanceDelta swapDelta, uint256 amountToProtocol, uint24 swapFee, Pool.SwapResult memory result) = pool.swap(
            Pool.SwapParams({
                amountSpecified: params.amountSpecified,
                tickSpacing: _tickSpacing(key.parameters),
                zeroForOne: params.zeroForOne,
                sqrtPriceLimitX96: params.sqrtPriceLimitX96,
                lpFeeOverride: 0
            })
        );
        if (amountToProtocol > 0)
            protocolFeesAccrued[params.zeroForOne ? key.currency0 : key.currency1] += amountToProtocol;
        uint16 directionalProtocolFee = uint16(params.zeroForOne ? packedProtocolFee & 0xfff : packedProtocolFee >> 12);
        emit Swap(
            id,
            msg.sender,
            swapDelta.amount0(),
            swapDelta.amount1(),
            result.sqrtPriceX96,
            result.liquidity,
            result.tick,
            swapFee,
            directionalProtocolFee
        );
        delta = swapDelta;
        vault.accountAppBalanceDelta(key.currency0, key.currency1, BalanceDelta.unwrap(delta), msg.sender);
    }

    function setProtocolFeeController(address controller) external {
        if (msg.sender != owner) revert NotOwner();
        protocolFeeController = controller;
        emit ProtocolFeeControllerUpdated(controller);
    }

    /// 12 bits per direction (low: zeroForOne), each at most 4,000 pips (0.4 %).
    function setProtocolFee(PoolKey memory key, uint24 newProtocolFee) external {
        if (msg.sender != protocolFeeController) revert InvalidCaller();
        if (!_validProtocolFee(newProtocolFee)) revert ProtocolFeeTooLarge(newProtocolFee);
        bytes32 id = keccak256(abi.encode(key));
        pools[id].setProtocolFee(newProtocolFee);
        emit ProtocolFeeUpdated(id, newProtocolFee);
    }

    function collectProtocolFees(
        address recipient,
        address currency,
        uint256 amount
    ) external returns (uint256 collected) {
        if (msg.sender != protocolFeeController) revert InvalidCaller();
        collected = amount == 0 ? protocolFeesAccrued[currency] : amount;
        protocolFeesAccrued[currency] -= collected;
        vault.collectFee(currency, collected, recipient);
    }

    function pause() external {
        if (msg.sender != owner) revert NotOwner();
        paused = true;
        emit Paused(msg.sender);
    }

    function unpause() external {
        if (msg.sender != owner) revert NotOwner();
        paused = false;
        emit Unpaused(msg.sender);
    }

    function _fetchProtocolFee(PoolKey memory key) private view returns (uint24 protocolFee) {
        if (protocolFeeController == address(0)) return 0;
        protocolFee = IProtocolFeeControllerLike(protocolFeeController).protocolFeeForPool(key);
        if (!_validProtocolFee(protocolFee)) revert ProtocolFeeTooLarge(protocolFee);
    }

    function _validProtocolFee(uint24 fee) private pure returns (bool) {
        return (fee & 0xfff) <= MAX_PROTOCOL_FEE && (fee >> 12) <= MAX_PROTOCOL_FEE;
    }

    /// Bits 16–39 of the parameters, as a signed 24-bit spacing.
    function _tickSpacing(bytes32 parameters) private pure returns (int24) {
        return int24(uint24(uint256(parameters) >> 16));
    }

    function _toInt128(int256 x) private pure returns (int128 y) {
        y = int128(x);
        require(y == x, "SafeCast");
    }
}
