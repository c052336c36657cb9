// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Clones1167} from "../common/Clones1167.sol";

interface IAerodromePoolInit {
    function initialize(address token0, address token1, bool stable) external;
}

/// @title PoolFactory (stand-in)
/// @notice Aerodrome's `PoolFactory` as an integrator sees it (aerodrome-finance/contracts,
/// `contracts/factories/PoolFactory.sol`): pools are EIP-1167 clones of one implementation at
/// CREATE2(salt = keccak256(abi.encodePacked(token0, token1, stable))); `getFee(pool, stable)` is
/// the pool's custom fee (420 meaning 0 %), else the stable or volatile default, in bps of the
/// input (defaults 5 and 30, at most 300); `isPaused` stops every swap.
/// @dev Written for the devnet from the published interface and rules, not copied. `setFee` emits
/// nothing, as in the original: a default fee can change without any event (the market re-reads
/// the fee every block). Not here: the voter and its name/symbol council (no gauges on the devnet).
contract PoolFactory {
    address public immutable implementation;

    bool public isPaused;
    address public pauser;
    address public feeManager;
    address public voter;

    uint256 public stableFee;
    uint256 public volatileFee;
    uint256 public constant MAX_FEE = 300;
    /// A custom fee of 0 means "none set", so 0 % is written as this.
    uint256 public constant ZERO_FEE_INDICATOR = 420;

    mapping(address => mapping(address => mapping(bool => address))) private _getPool;
    address[] public allPools;
    mapping(address => bool) private _isPool;
    mapping(address => uint256) public customFee;

    event PoolCreated(address indexed token0, address indexed token1, bool indexed stable, address pool, uint256);
    event SetCustomFee(address indexed pool, uint256 fee);
    event SetFeeManager(address feeManager);
    event SetPauser(address pauser);
    event SetPauseState(bool state);
    event SetVoter(address voter);

    error FeeInvalid();
    error FeeTooHigh();
    error InvalidPool();
    error NotFeeManager();
    error NotPauser();
    error NotVoter();
    error PoolAlreadyExists();
    error SameAddress();
    error ZeroFee();
    error ZeroAddress();

    constructor(address implementation_) {
        implementation = implementation_;
        voter = msg.sender;
        pauser = msg.sender;
        feeManager = msg.sender;
        stableFee = 5;
        volatileFee = 30;
    }

    function allPoolsLength() external view returns (uint256) {
        return allPools.length;
    }

    /// The V3-style lookup of Aerodrome's factory: fee 1 is the stable pool, 0 the volatile one.
    function getPool(address tokenA, address tokenB, uint24 fee) external view returns (address) {
        return fee > 1 ? address(0) : _getPool[tokenA][tokenB][fee == 1];
    }

    function getPool(address tokenA, address tokenB, bool stable) external view returns (address) {
        return _getPool[tokenA][tokenB][stable];
    }

    function isPool(address pool) external view returns (bool) {
        return _isPool[pool];
    }

    function setVoter(address voter_) external {
        if (msg.sender != voter) revert NotVoter();
        voter = voter_;
        emit SetVoter(voter_);
    }

    function setPauser(address pauser_) external {
        if (msg.sender != pauser) revert NotPauser();
        if (pauser_ == address(0)) revert ZeroAddress();
        pauser = pauser_;
        emit SetPauser(pauser_);
    }

    function setPauseState(bool state) external {
        if (msg.sender != pauser) revert NotPauser();
        isPaused = state;
        emit SetPauseState(state);
    }

    function setFeeManager(address feeManager_) external {
        if (msg.sender != feeManager) revert NotFeeManager();
        if (feeManager_ == address(0)) revert ZeroAddress();
        feeManager = feeManager_;
        emit SetFeeManager(feeManager_);
    }

    /// The default fee of every stable (or volatile) pool without a custom fee. No event.
    function setFee(bool stable, uint256 fee) external {
        if (msg.sender != feeManager) revert NotFeeManager();
        if (fee > MAX_FEE) revert FeeTooHigh();
        if (fee == 0) revert ZeroFee();
        if (stable) stableFee = fee;
        else volatileFee = fee;
    }

    function setCustomFee(address pool, uint256 fee) external {
        if (msg.sender != feeManager) revert NotFeeManager();
        if (fee > MAX_FEE && fee != ZERO_FEE_INDICATOR) revert FeeTooHigh();
        if (!_isPool[pool]) revert InvalidPool();
        customFee[pool] = fee;
        emit SetCustomFee(pool, fee);
    }

    /// The fee in bps a swap on `pool` pays: custom (420 → 0), else the default of its curve.
    function getFee(address pool, bool stable) public view returns (uint256) {
        uint256 fee = customFee[pool];
        if (fee == ZERO_FEE_INDICATOR) return 0;
        if (fee != 0) return fee;
        return stable ? stableFee : volatileFee;
    }

    function createPool(address tokenA, address tokenB, uint24 fee) external returns (address pool) {
        if (fee > 1) revert FeeInvalid();
        return createPool(tokenA, tokenB, fee == 1);
    }

    function createPool(address tokenA, address tokenB, bool stable) public returns (address pool) {
        if (tokenA == tokenB) revert SameAddress();
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        if (token0 == address(0)) revert ZeroAddress();
        if (_getPool[token0][token1][stable] != address(0)) revert PoolAlreadyExists();
        pool = Clones1167.cloneDeterministic(implementation, keccak256(abi.encodePacked(token0, token1, stable)));
        IAerodromePoolInit(pool).initialize(token0, token1, stable);
        _getPool[token0][token1][stable] = pool;
        _getPool[token1][token0][stable] = pool;
        allPools.push(pool);
        _isPool[pool] = true;
        emit PoolCreated(token0, token1, stable, pool, allPools.length);
    }
}
