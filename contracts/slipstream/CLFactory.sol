// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Clones1167} from "../common/Clones1167.sol";

interface ICLPoolInit {
    function initialize(
        address factory,
        address token0,
        address token1,
        int24 tickSpacing,
        address factoryRegistry,
        uint160 sqrtPriceX96
    ) external;
    function tickSpacing() external view returns (int24);
}

/// @title CLFactory (stand-in)
/// @notice Slipstream's `CLFactory` as an integrator sees it (aerodrome-finance/slipstream
/// `contracts/core/CLFactory.sol`): pools are keyed by tick spacing (`getPool(a, b, tickSpacing)`),
/// created as EIP-1167 clones of one implementation at CREATE2(salt = keccak256(abi.encode(token0,
/// token1, tickSpacing))) and initialized with their price in the same call; `getSwapFee(pool)`
/// asks the swap-fee module (a static call capped at 200,000 gas, its answer taken when at most
/// 100,000 pips) and falls back to the spacing's fee. Spacings enabled at deployment: 1 (100 pips),
/// 50 (500), 100 (500), 200 (3,000), 2,000 (10,000).
/// @dev Written for the devnet from the published interface and rules, not copied. Not here: the
/// voter, gauges and the legacy factory check (`getUnstakedFee` is 0: no pool has a gauge).
contract CLFactory {
    address public immutable poolImplementation;
    address public owner;
    address public swapFeeManager;
    address public swapFeeModule;
    address public unstakedFeeManager;
    uint24 public defaultUnstakedFee;

    mapping(int24 => uint24) public tickSpacingToFee;
    mapping(address => mapping(address => mapping(int24 => address))) public getPool;
    mapping(address => bool) private _isPool;
    address[] public allPools;
    int24[] private _tickSpacings;

    event OwnerChanged(address indexed oldOwner, address indexed newOwner);
    event SwapFeeManagerChanged(address indexed oldFeeManager, address indexed newFeeManager);
    event SwapFeeModuleChanged(address indexed oldFeeModule, address indexed newFeeModule);
    event PoolCreated(address indexed token0, address indexed token1, int24 indexed tickSpacing, address pool);
    event TickSpacingEnabled(int24 indexed tickSpacing, uint24 indexed fee);

    constructor(address poolImplementation_) {
        poolImplementation = poolImplementation_;
        owner = msg.sender;
        swapFeeManager = msg.sender;
        unstakedFeeManager = msg.sender;
        defaultUnstakedFee = 100_000;
        emit OwnerChanged(address(0), msg.sender);
        emit SwapFeeManagerChanged(address(0), msg.sender);
        enableTickSpacing(1, 100);
        enableTickSpacing(50, 500);
        enableTickSpacing(100, 500);
        enableTickSpacing(200, 3_000);
        enableTickSpacing(2_000, 10_000);
    }

    function createPool(
        address tokenA,
        address tokenB,
        int24 tickSpacing,
        uint160 sqrtPriceX96
    ) external returns (address pool) {
        require(tokenA != tokenB);
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        require(token0 != address(0));
        require(tickSpacingToFee[tickSpacing] != 0);
        require(getPool[token0][token1][tickSpacing] == address(0));
        pool = Clones1167.cloneDeterministic(poolImplementation, keccak256(abi.encode(token0, token1, tickSpacing)));
        ICLPoolInit(pool).initialize(address(this), token0, token1, tickSpacing, address(0), sqrtPriceX96);
        allPools.push(pool);
        _isPool[pool] = true;
        getPool[token0][token1][tickSpacing] = pool;
        getPool[token1][token0][tickSpacing] = pool;
        emit PoolCreated(token0, token1, tickSpacing, pool);
    }

    function setOwner(address owner_) external {
        require(msg.sender == owner);
        require(owner_ != address(0));
        emit OwnerChanged(owner, owner_);
        owner = owner_;
    }

    function setSwapFeeManager(address swapFeeManager_) external {
        require(msg.sender == swapFeeManager);
        require(swapFeeManager_ != address(0));
        emit SwapFeeManagerChanged(swapFeeManager, swapFeeManager_);
        swapFeeManager = swapFeeManager_;
    }

    function setSwapFeeModule(address swapFeeModule_) external {
        require(msg.sender == swapFeeManager);
        require(swapFeeModule_ != address(0));
        emit SwapFeeModuleChanged(swapFeeModule, swapFeeModule_);
        swapFeeModule = swapFeeModule_;
    }

    /// The pool's swap fee in pips: the module's answer when it gives one within 200k gas and at
    /// most 10 %, else the fee of the pool's tick spacing.
    function getSwapFee(address pool) external view returns (uint24) {
        address module = swapFeeModule;
        if (module != address(0)) {
            bool success;
            uint256 answer;
            bytes memory request = abi.encodeWithSignature("getFee(address)", pool);
            assembly ("memory-safe") {
                // At most 32 bytes copied back: a module cannot make the pool pay for a huge answer.
                success := staticcall(200000, module, add(request, 0x20), mload(request), 0x00, 0x20)
                success := and(success, iszero(lt(returndatasize(), 0x20)))
                answer := mload(0x00)
            }
            if (success && answer <= 100_000) return uint24(answer);
        }
        return tickSpacingToFee[ICLPoolInit(pool).tickSpacing()];
    }

    /// No pool has a gauge on the devnet, so no fee is set aside for stakers.
    function getUnstakedFee(address) external pure returns (uint24) {
        return 0;
    }

    function enableTickSpacing(int24 tickSpacing, uint24 fee) public {
        require(msg.sender == owner);
        require(fee > 0 && fee <= 100_000);
        require(tickSpacing > 0 && tickSpacing < 16384);
        require(tickSpacingToFee[tickSpacing] == 0);
        tickSpacingToFee[tickSpacing] = fee;
        _tickSpacings.push(tickSpacing);
        emit TickSpacingEnabled(tickSpacing, fee);
    }

    function tickSpacings() external view returns (int24[] memory) {
        return _tickSpacings;
    }

    function allPoolsLength() external view returns (uint256) {
        return allPools.length;
    }

    function isPool(address pool) external view returns (bool) {
        return _isPool[pool];
    }
}
