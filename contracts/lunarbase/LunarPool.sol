// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FullMath} from "@uniswap/v4-core/src/libraries/FullMath.sol";
import {ReentrancyLock} from "../common/ReentrancyLock.sol";
import {SafeTransfers} from "../common/SafeTransfers.sol";

/// @title LunarPool (stand-in)
/// @notice A LunarBase PMM pool ("PropAMM") as an integrator sees it, in its current form
/// (LunarBaseIntegrations `abi/Pool.trading.abi.json` and README for `lunarbase-pmm-math` 0.4.x):
/// one operator-published anchor, the square root of the price of X in Y as a **Q64.96 uint160**
/// (the older pools published a Q32.48 uint80 `anchorPX48` and a concentration K: not modelled),
/// two directional Q24 fees (`feeBidX24` charged on X -> Y, `feeAskX24` on Y -> X) and an
/// amount-dependent punishment that a swap adds to its direction's fee and leaves there until the
/// operator's next `upd`.
///
/// Pricing, exact input `a` (all floors unless said):
/// - gross output: X -> Y `mulDiv(mulDiv(a, P, 2^96), P, 2^96)`; Y -> X `mulDiv(mulDiv(a, 2^96, P), 2^96, P)`.
///   Zero, or more than the output side's active reserve: the quote is 0.
/// - punishment: wealth in Y of the reserves `W = xValueInY(reserveX) + reserveY` and of the input
///   `w` (X -> Y: `xValueInY(a)`, Y -> X: `a`); `max` = `maxPunishmentX24` (0xffffff meaning 2^24);
///   desired = `max` when `w >= W`, else `ceil(max·w / W)`; 2^24 or more encodes as 0xffffff.
/// - effective fee = stored directional fee + desired, saturating at 0xffffff (meaning 100 %).
/// - fee: 0xffffff takes the whole gross output; else `base = floor(gross·fee / 2^24)`; a caller
///   that is not whitelisted pays `base·blacklistFeeMultiplier` (a multiplier of 0 or 1 is the base
///   fee), and a fee that reaches the gross output (or overflows) takes all of it.
/// - the quote is 0 when the state is stale: fresh means `block.number < latestUpdateBlock + blockDelay`.
///   Quotes ignore the pause (as the real pool's do); swaps do not.
/// - a swap pays `gross − fee`, keeps the fee out of the active reserves (in `treasuryFees`), adds
///   the input to its side's reserve (which must fit uint112) and stores the effective fee as its
///   direction's fee (`PunishmentApplied`).
/// @dev Written for the devnet from the published interface and the published math (read for facts,
/// not copied). Left out: native ETH as X (our X is an ERC-20: the embedded market trades WETH), the
/// Permit2 entry point, the LP position manager and the partner fee split (liquidity comes in through
/// `sync` of donated balances), UUPS upgradeability. The revert names follow the published ABI.
contract LunarPool is ReentrancyLock {
    struct StateUpdate {
        uint160 anchorPrice;
        uint24 feeAskX24;
        uint24 feeBidX24;
    }

    struct ExactInputParams {
        address tokenIn;
        address tokenOut;
        address recipient;
        uint256 amountIn;
        uint256 amountOutMinimum;
        uint256 deadline;
    }

    uint24 public constant MAX_PUNISHMENT_X24 = type(uint24).max;
    uint256 private constant Q24 = 1 << 24;
    uint256 private constant Q96 = 1 << 96;

    address public immutable X;
    address public immutable Y;
    address public owner;
    mapping(address => bool) public isOperator;

    uint160 private _anchorPrice;
    uint24 private _feeAskX24;
    uint24 private _feeBidX24;
    uint48 private _latestUpdateBlock;

    uint48 public blockDelay;
    uint24 public maxPunishmentX24;
    bool public paused;
    uint256 public blacklistFeeMultiplier = 1;
    mapping(address => bool) public isWhitelisted;

    uint112 private _reserveX;
    uint112 private _reserveY;
    uint112 private _treasuryFeesX;
    uint112 private _treasuryFeesY;

    event StateUpdated(uint160 anchorPrice, uint24 feeAskX24, uint24 feeBidX24);
    event PunishmentApplied(bool indexed xToY, uint24 punishmentX24, uint24 feeAskX24, uint24 feeBidX24);
    event SwapExecuted(address recipient, bool xToY, uint256 dx, uint256 dy, uint256 fee);
    event Sync(uint128 reserveX, uint128 reserveY);
    event BlockDelaySet(uint48 blockDelay);
    event MaxPunishmentX24Set(uint24 maxPunishmentX24);
    event WhitelistSet(address indexed account, bool whitelisted);
    event BlacklistFeeMultiplierSet(uint256 multiplier);
    event OperatorSet(address indexed operator, bool enabled);
    event Paused(address account);
    event Unpaused(address account);

    error DeadlineExpired(uint256 deadline);
    error EnforcedPause();
    error ExpectedPause();
    error InsufficientOutput(uint256 amountOut, uint256 amountOutMinimum);
    error InvalidToken(address token);
    error StalePrice();
    error SwapImpossible();
    error SafeCastOverflowedUintDowncast(uint8 bits, uint256 value);
    error OwnableUnauthorizedAccount(address account);

    modifier onlyOwner() {
        if (msg.sender != owner) revert OwnableUnauthorizedAccount(msg.sender);
        _;
    }

    modifier onlyOperator() {
        if (!isOperator[msg.sender]) revert OwnableUnauthorizedAccount(msg.sender);
        _;
    }

    constructor(address x, address y, address owner_) {
        X = x;
        Y = y;
        owner = owner_;
    }

    // ------------------------------------------------------------------ views

    function state()
        external
        view
        returns (uint160 anchorPrice_, uint24 feeAskX24, uint24 feeBidX24, uint48 latestUpdateBlock)
    {
        return (_anchorPrice, _feeAskX24, _feeBidX24, _latestUpdateBlock);
    }

    function anchorPrice() external view returns (uint160 anchorPrice_) {
        return _anchorPrice;
    }

    function getXReserve() external view returns (uint112) {
        return _reserveX;
    }

    function getYReserve() external view returns (uint112) {
        return _reserveY;
    }

    function treasuryFees() external view returns (uint112 x, uint112 y) {
        return (_treasuryFeesX, _treasuryFeesY);
    }

    function isFresh() public view returns (bool fresh) {
        return block.number < uint256(_latestUpdateBlock) + blockDelay;
    }

    function quoteXToY(uint256 dx) external view returns (uint256 dy, uint160 pNext, uint256 fee) {
        if (!isFresh()) return (0, _anchorPrice, 0);
        (dy, fee, ) = _quote(true, dx, _multiplierOf(msg.sender));
        pNext = _anchorPrice;
    }

    function quoteYToX(uint256 dy) external view returns (uint256 dx, uint160 pNext, uint256 fee) {
        if (!isFresh()) return (0, _anchorPrice, 0);
        (dx, fee, ) = _quote(false, dy, _multiplierOf(msg.sender));
        pNext = _anchorPrice;
    }

    function quoteExactIn(
        address tokenIn,
        address tokenOut,
        uint256 amountIn
    ) external view returns (uint256 amountOut) {
        bool xToY = _direction(tokenIn, tokenOut);
        if (!isFresh()) return 0;
        (amountOut, , ) = _quote(xToY, amountIn, _multiplierOf(msg.sender));
    }

    // ------------------------------------------------------------------ swap

    /// @notice Exact-input swap paid from the caller's allowance; the output goes to `recipient`.
    function swapExactIn(ExactInputParams calldata params) external nonReentrant returns (uint256 amountOut) {
        if (paused) revert EnforcedPause();
        if (block.timestamp > params.deadline) revert DeadlineExpired(params.deadline);
        bool xToY = _direction(params.tokenIn, params.tokenOut);
        if (!isFresh()) revert StalePrice();
        uint256 fee;
        uint24 effectiveFee;
        (amountOut, fee, effectiveFee) = _quote(xToY, params.amountIn, _multiplierOf(msg.sender));
        if (amountOut == 0) revert SwapImpossible();
        if (amountOut < params.amountOutMinimum) revert InsufficientOutput(amountOut, params.amountOutMinimum);

        uint256 gross = amountOut + fee;
        if (xToY) {
            _reserveX = _toUint112(uint256(_reserveX) + params.amountIn);
            _reserveY -= uint112(gross);
            _treasuryFeesY = _toUint112(uint256(_treasuryFeesY) + fee);
            emit PunishmentApplied(true, effectiveFee - _feeBidX24, _feeAskX24, effectiveFee);
            _feeBidX24 = effectiveFee;
        } else {
            _reserveY = _toUint112(uint256(_reserveY) + params.amountIn);
            _reserveX -= uint112(gross);
            _treasuryFeesX = _toUint112(uint256(_treasuryFeesX) + fee);
            emit PunishmentApplied(false, effectiveFee - _feeAskX24, effectiveFee, _feeBidX24);
            _feeAskX24 = effectiveFee;
        }
        if (!SafeTransfers.trySafeTransferFrom(params.tokenIn, msg.sender, address(this), params.amountIn)) {
            revert SafeTransfers.SafeTransferFailed(params.tokenIn);
        }
        SafeTransfers.safeTransfer(params.tokenOut, params.recipient, amountOut);
        emit SwapExecuted(
            params.recipient,
            xToY,
            xToY ? params.amountIn : amountOut,
            xToY ? amountOut : params.amountIn,
            fee
        );
        emit Sync(_reserveX, _reserveY);
    }

    // ------------------------------------------------------------------ operator and owner

    /// @notice The operator's re-pricing: a new anchor and both directional fees (which drops the
    /// punishment swaps added), fresh from this block for `blockDelay` blocks.
    function upd(StateUpdate calldata stateUpdate) external onlyOperator {
        _anchorPrice = stateUpdate.anchorPrice;
        _feeAskX24 = stateUpdate.feeAskX24;
        _feeBidX24 = stateUpdate.feeBidX24;
        _latestUpdateBlock = uint48(block.number);
        emit StateUpdated(stateUpdate.anchorPrice, stateUpdate.feeAskX24, stateUpdate.feeBidX24);
    }

    /// @notice Takes donated balances (less the fee buckets) as the active reserves.
    function sync() external onlyOwner {
        _reserveX = _toUint112(SafeTransfers.balanceOf(X, address(this)) - _treasuryFeesX);
        _reserveY = _toUint112(SafeTransfers.balanceOf(Y, address(this)) - _treasuryFeesY);
        emit Sync(_reserveX, _reserveY);
    }

    function setOperator(address operator, bool enabled) external onlyOwner {
        isOperator[operator] = enabled;
        emit OperatorSet(operator, enabled);
    }

    function setBlockDelay(uint48 blockDelay_) external onlyOwner {
        blockDelay = blockDelay_;
        emit BlockDelaySet(blockDelay_);
    }

    function setMaxPunishmentX24(uint24 maxPunishmentX24_) external onlyOwner {
        maxPunishmentX24 = maxPunishmentX24_;
        emit MaxPunishmentX24Set(maxPunishmentX24_);
    }

    function setWhitelist(address account, bool whitelisted) external onlyOwner {
        isWhitelisted[account] = whitelisted;
        emit WhitelistSet(account, whitelisted);
    }

    function setBlacklistFeeMultiplier(uint256 multiplier) external onlyOwner {
        blacklistFeeMultiplier = multiplier;
        emit BlacklistFeeMultiplierSet(multiplier);
    }

    function pause() external onlyOwner {
        if (paused) revert EnforcedPause();
        paused = true;
        emit Paused(msg.sender);
    }

    function unpause() external onlyOwner {
        if (!paused) revert ExpectedPause();
        paused = false;
        emit Unpaused(msg.sender);
    }

    // ------------------------------------------------------------------ math

    function _direction(address tokenIn, address tokenOut) private view returns (bool xToY) {
        if (tokenIn == X && tokenOut == Y) return true;
        if (tokenIn == Y && tokenOut == X) return false;
        revert InvalidToken(tokenIn == X || tokenIn == Y ? tokenOut : tokenIn);
    }

    function _multiplierOf(address caller) private view returns (uint256) {
        return isWhitelisted[caller] ? 1 : blacklistFeeMultiplier;
    }

    /// @dev Net output, fee and the effective directional fee (stored + this swap's punishment).
    function _quote(
        bool xToY,
        uint256 amountIn,
        uint256 multiplier
    ) private view returns (uint256 amountOut, uint256 fee, uint24 effectiveFee) {
        uint256 p = _anchorPrice;
        effectiveFee = _saturatingFee(xToY ? _feeBidX24 : _feeAskX24, _punishment(xToY, amountIn, p));
        uint256 gross;
        if (xToY) {
            gross = _xValueInY(amountIn, p);
            if (gross == 0 || gross > _reserveY) return (0, 0, effectiveFee);
        } else {
            if (p == 0) return (0, 0, effectiveFee);
            gross = FullMath.mulDiv(FullMath.mulDiv(amountIn, Q96, p), Q96, p);
            if (gross == 0 || gross > _reserveX) return (0, 0, effectiveFee);
        }
        (amountOut, fee) = _applyFee(gross, effectiveFee, multiplier);
    }

    function _punishment(bool xToY, uint256 amountIn, uint256 p) private view returns (uint24) {
        uint256 maximum = maxPunishmentX24;
        if (amountIn == 0 || maximum == 0 || p == 0) return 0;
        uint256 inventory = _xValueInY(_reserveX, p) + _reserveY;
        if (inventory == 0) return 0;
        uint256 wealth = xToY ? _xValueInY(amountIn, p) : amountIn;
        if (wealth == 0) return 0;
        if (maximum == type(uint24).max) maximum = Q24;
        uint256 desired = wealth >= inventory ? maximum : FullMath.mulDivRoundingUp(maximum, wealth, inventory);
        return desired >= Q24 ? type(uint24).max : uint24(desired);
    }

    function _saturatingFee(uint24 stored, uint24 desired) private pure returns (uint24) {
        uint24 headroom = type(uint24).max - stored;
        return desired >= headroom ? type(uint24).max : stored + desired;
    }

    function _applyFee(
        uint256 gross,
        uint24 feeX24,
        uint256 multiplier
    ) private pure returns (uint256 amountOut, uint256 fee) {
        if (feeX24 == type(uint24).max) return (0, gross);
        uint256 base = FullMath.mulDiv(gross, feeX24, Q24);
        if (multiplier <= 1 || base == 0) return (gross - base, base);
        unchecked {
            uint256 scaled = base * multiplier;
            if (scaled / multiplier != base || scaled >= gross) return (0, gross);
            return (gross - scaled, scaled);
        }
    }

    function _xValueInY(uint256 amountX, uint256 p) private pure returns (uint256) {
        return FullMath.mulDiv(FullMath.mulDiv(amountX, p, Q96), p, Q96);
    }

    function _toUint112(uint256 value) private pure returns (uint112) {
        if (value > type(uint112).max) revert SafeCastOverflowedUintDowncast(112, value);
        return uint112(value);
    }
}
