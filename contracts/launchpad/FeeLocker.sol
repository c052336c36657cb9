// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IUniswapV3PoolLike, RewardRecipient} from "./LaunchpadInterfaces.sol";
import {ReentrancyLock} from "../common/ReentrancyLock.sol";
import {SafeTransfers} from "../common/SafeTransfers.sol";

/// @title FeeLocker
/// @notice Owns every launch's liquidity position, forever: no function removes liquidity. The
/// position's swap fees are collected from the pool (by anyone, `collectFees`) and split between
/// the launch's reward recipients by their bps shares; each recipient's share accrues here per
/// (token, recipient) until `claim` pays it, in both assets, to the recipient (anyone may call it:
/// the funds only ever go to the recipient). The factory that deployed this locker is the only
/// caller of `lock`.
contract FeeLocker is ReentrancyLock {
    uint256 public constant BPS = 10_000;

    struct Position {
        address pool;
        address pairedToken;
        int24 tickLower;
        int24 tickUpper;
        bool tokenIsToken0;
    }

    address public immutable factory;

    mapping(address token => Position) public positions;
    mapping(address token => RewardRecipient[]) private recipients;
    /// Collected but unclaimed fees: in the launched token, and in the paired asset.
    mapping(address token => mapping(address recipient => uint256)) public accruedToken;
    mapping(address token => mapping(address recipient => uint256)) public accruedPaired;

    event PositionLocked(
        address indexed token,
        address indexed pool,
        address pairedToken,
        int24 tickLower,
        int24 tickUpper,
        uint128 liquidity
    );
    event RewardRecipientAdded(address indexed token, address indexed recipient, uint256 index, uint16 bps);
    event FeesCollected(address indexed token, uint256 tokenAmount, uint256 pairedAmount);
    event FeesAccrued(address indexed token, address indexed recipient, uint256 tokenAmount, uint256 pairedAmount);
    event FeesClaimed(address indexed token, address indexed recipient, uint256 tokenAmount, uint256 pairedAmount);

    error NotFactory(address caller);
    error UnknownToken(address token);
    error AlreadyLocked(address token);
    error NothingToClaim(address token, address recipient);

    constructor() {
        factory = msg.sender;
    }

    /// Records a position the factory minted to this contract and its reward recipients (checked by
    /// the factory: 1 to 7, shares summing to 10,000 bps, no duplicates).
    function lock(
        address token,
        address pool,
        address pairedToken,
        int24 tickLower,
        int24 tickUpper,
        uint128 liquidity,
        RewardRecipient[] calldata rewardRecipients
    ) external {
        if (msg.sender != factory) revert NotFactory(msg.sender);
        if (positions[token].pool != address(0)) revert AlreadyLocked(token);
        positions[token] = Position(pool, pairedToken, tickLower, tickUpper, token < pairedToken);
        emit PositionLocked(token, pool, pairedToken, tickLower, tickUpper, liquidity);
        for (uint256 i = 0; i < rewardRecipients.length; i++) {
            recipients[token].push(rewardRecipients[i]);
            emit RewardRecipientAdded(token, rewardRecipients[i].recipient, i, rewardRecipients[i].bps);
        }
    }

    /// Collects the position's fees from the pool and credits each recipient its share (rounded
    /// down; the remainder of the split goes to the first recipient, so nothing is left unassigned).
    function collectFees(address token) external nonReentrant returns (uint256 tokenAmount, uint256 pairedAmount) {
        return _collect(token);
    }

    /// Collects, then pays `recipient` everything accrued to it for `token`.
    function claim(
        address token,
        address recipient
    ) external nonReentrant returns (uint256 tokenAmount, uint256 pairedAmount) {
        _collect(token);
        tokenAmount = accruedToken[token][recipient];
        pairedAmount = accruedPaired[token][recipient];
        if (tokenAmount == 0 && pairedAmount == 0) revert NothingToClaim(token, recipient);
        accruedToken[token][recipient] = 0;
        accruedPaired[token][recipient] = 0;
        emit FeesClaimed(token, recipient, tokenAmount, pairedAmount);
        if (tokenAmount > 0) SafeTransfers.safeTransfer(token, recipient, tokenAmount);
        if (pairedAmount > 0) SafeTransfers.safeTransfer(positions[token].pairedToken, recipient, pairedAmount);
    }

    /// Fees accrued to `recipient` and not yet claimed (fees still in the pool are not included:
    /// simulate `collectFees` first, e.g. in one multicall, for the amount a claim would pay now).
    function accrued(
        address token,
        address recipient
    ) external view returns (uint256 tokenAmount, uint256 pairedAmount) {
        return (accruedToken[token][recipient], accruedPaired[token][recipient]);
    }

    function rewardRecipients(address token) external view returns (RewardRecipient[] memory) {
        return recipients[token];
    }

    function _collect(address token) private returns (uint256 tokenAmount, uint256 pairedAmount) {
        Position memory position = positions[token];
        if (position.pool == address(0)) revert UnknownToken(token);
        IUniswapV3PoolLike pool = IUniswapV3PoolLike(position.pool);
        // A zero burn makes the pool credit the position's fees to its owed amounts.
        pool.burn(position.tickLower, position.tickUpper, 0);
        (uint128 amount0, uint128 amount1) = pool.collect(
            address(this),
            position.tickLower,
            position.tickUpper,
            type(uint128).max,
            type(uint128).max
        );
        (tokenAmount, pairedAmount) = position.tokenIsToken0
            ? (uint256(amount0), uint256(amount1))
            : (uint256(amount1), uint256(amount0));
        if (tokenAmount == 0 && pairedAmount == 0) return (0, 0);
        emit FeesCollected(token, tokenAmount, pairedAmount);
        RewardRecipient[] storage list = recipients[token];
        uint256 tokenLeft = tokenAmount;
        uint256 pairedLeft = pairedAmount;
        // Shares of recipients 1..n first, rounded down; recipient 0 takes what is left.
        for (uint256 i = list.length; i > 1; i--) {
            RewardRecipient memory r = list[i - 1];
            uint256 tokenShare = (tokenAmount * r.bps) / BPS;
            uint256 pairedShare = (pairedAmount * r.bps) / BPS;
            tokenLeft -= tokenShare;
            pairedLeft -= pairedShare;
            _accrue(token, r.recipient, tokenShare, pairedShare);
        }
        _accrue(token, list[0].recipient, tokenLeft, pairedLeft);
    }

    function _accrue(address token, address recipient, uint256 tokenShare, uint256 pairedShare) private {
        if (tokenShare == 0 && pairedShare == 0) return;
        accruedToken[token][recipient] += tokenShare;
        accruedPaired[token][recipient] += pairedShare;
        emit FeesAccrued(token, recipient, tokenShare, pairedShare);
    }
}
