// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LaunchToken} from "./LaunchToken.sol";
import {FeeLocker} from "./FeeLocker.sol";
import {VestingVault} from "./VestingVault.sol";
import {LaunchMath} from "./LaunchMath.sol";
import {
    IERC20Like,
    IWrappedNativeLike,
    IUniswapV3FactoryLike,
    IUniswapV3PoolLike,
    RewardRecipient
} from "./LaunchpadInterfaces.sol";
import {ReentrancyLock} from "../common/ReentrancyLock.sol";
import {SafeTransfers} from "../common/SafeTransfers.sol";

/// @title LaunchFactory
/// @notice One transaction launches a token: deploys a fixed-supply `LaunchToken` at a CREATE2
/// address (salt = keccak256(creator, prepared salt), so only the creator can take its address),
/// creates and initializes its Uniswap V3 pool against an allowed paired asset (1 % fee tier) at the
/// starting price, mints the whole pool supply as a single-sided position owned by the `FeeLocker`
/// (locked forever), optionally moves a vesting allocation into the `VestingVault`, and optionally
/// buys from the new pool with the ETH sent (a dev buy, WETH-paired launches only). Callbacks are
/// accepted only from the pool being created, during the launch.
contract LaunchFactory is ReentrancyLock {
    uint24 public constant POOL_FEE = 10_000;
    int24 public constant TICK_SPACING = 200;
    uint256 public constant TOKEN_SUPPLY = 1_000_000_000e18;
    uint16 public constant MAX_VESTING_BPS = 3_000;
    uint256 public constant MAX_REWARD_RECIPIENTS = 7;
    uint32 public constant MAX_LOCKUP_SECONDS = 4 * 365 days;
    uint32 public constant MAX_VESTING_SECONDS = 4 * 365 days;
    /// Bounds of `startingTick`, the tick of the starting price in paired base units per token base
    /// unit: a market cap of about 9 base units of the paired asset at the bottom, about 1e40 at the
    /// top, where the position's liquidity (supply × √price) still fits the pool's per-tick maximum.
    int24 public constant MIN_STARTING_TICK = -600_000;
    int24 public constant MAX_STARTING_TICK = 300_000;
    /// The widest range the pool's tick spacing allows (887272 rounded down to a multiple of 200).
    int24 public constant MAX_USABLE_TICK = 887_200;
    address public constant BURN_ADDRESS = 0x000000000000000000000000000000000000dEaD;
    uint160 private constant MIN_SQRT_RATIO_PLUS_ONE = 4295128740;
    uint160 private constant MAX_SQRT_RATIO_MINUS_ONE = 1461446703485210103287273052203988822378723970341;

    struct Vesting {
        address beneficiary;
        uint16 bps;
        uint32 lockupSeconds;
        uint32 vestingSeconds;
    }

    struct DevBuy {
        address recipient;
        uint256 minAmountOut;
    }

    struct LaunchParams {
        string name;
        string symbol;
        string extraMetadata;
        address admin;
        bytes32 salt;
        address pairedToken;
        int24 startingTick;
        RewardRecipient[] rewardRecipients;
        Vesting vesting;
        DevBuy devBuy;
    }

    IUniswapV3FactoryLike public immutable uniswapV3Factory;
    address public immutable weth;
    FeeLocker public immutable feeLocker;
    VestingVault public immutable vestingVault;

    address public owner;
    mapping(address => bool) public isPairedToken;
    address[] private pairedTokenList;

    /// The pool this launch is creating: the only address whose callbacks are answered.
    address private transient activePool;
    address private transient activeToken;

    event TokenLaunched(
        address indexed token,
        address indexed creator,
        address indexed pool,
        address admin,
        address pairedToken,
        bytes32 salt,
        int24 startingTick,
        int24 tickLower,
        int24 tickUpper,
        uint128 liquidity,
        uint256 poolSupply,
        uint256 vestingSupply,
        uint256 vestingId
    );
    event DevBuyExecuted(address indexed token, address indexed recipient, uint256 amountIn, uint256 amountOut);
    event PairedTokenSet(address indexed token, bool allowed);
    event OwnerChanged(address indexed previousOwner, address indexed newOwner);

    error NotOwner(address caller);
    error PairedTokenNotAllowed(address pairedToken);
    error InvalidStartingTick(int24 startingTick);
    error InvalidRewardRecipients();
    error InvalidVesting();
    error DevBuyNotSupported();
    error InvalidDevBuyRecipient();
    error DevBuyBelowMinimum(uint256 amountOut, uint256 minAmountOut);
    error DevBuyPartialFill(uint256 amountIn, uint256 value);
    error PoolAlreadyInitialized(address pool);
    error LiquidityOutOfRange(uint256 liquidity);
    error UnexpectedCallback(address caller);
    error UnexpectedMintAmounts(uint256 amount0Owed, uint256 amount1Owed);

    constructor(address uniswapV3Factory_, address weth_, address owner_) {
        uniswapV3Factory = IUniswapV3FactoryLike(uniswapV3Factory_);
        weth = weth_;
        owner = owner_;
        feeLocker = new FeeLocker();
        vestingVault = new VestingVault();
        emit OwnerChanged(address(0), owner_);
        _setPairedToken(weth_, true);
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        _;
    }

    function setPairedToken(address token, bool allowed) external onlyOwner {
        _setPairedToken(token, allowed);
    }

    function setOwner(address newOwner) external onlyOwner {
        emit OwnerChanged(owner, newOwner);
        owner = newOwner;
    }

    /// Every paired asset ever allowed (check `isPairedToken` for the current state).
    function pairedTokens() external view returns (address[] memory) {
        return pairedTokenList;
    }

    /// The CREATE2 salt of a creator's prepared salt: bound to the creator, so nobody else can
    /// deploy at (or squat) the address prepared for them.
    function tokenSalt(address creator, bytes32 salt) public pure returns (bytes32) {
        return keccak256(abi.encode(creator, salt));
    }

    /// Where `launch(params)` sent by `creator` deploys the token.
    function predictTokenAddress(address creator, LaunchParams calldata params) external view returns (address) {
        bytes32 initCodeHash = keccak256(_tokenInitCode(params));
        return
            address(
                uint160(
                    uint256(
                        keccak256(
                            abi.encodePacked(bytes1(0xff), address(this), tokenSalt(creator, params.salt), initCodeHash)
                        )
                    )
                )
            );
    }

    /// What one launch created, gathered in memory (the launch has more values than the stack holds).
    struct Placement {
        address token;
        address pool;
        bool tokenIsToken0;
        int24 tickLower;
        int24 tickUpper;
        uint128 liquidity;
        uint256 poolSupply;
        uint256 vestingSupply;
        uint256 vestingId;
    }

    function launch(LaunchParams calldata params) external payable nonReentrant returns (address token, address pool) {
        _checkParams(params);
        Placement memory p;
        p.vestingSupply = (TOKEN_SUPPLY * params.vesting.bps) / 10_000;
        p.poolSupply = TOKEN_SUPPLY - p.vestingSupply;
        // Reverts when the salt was used: the address already holds the earlier token.
        p.token = address(
            new LaunchToken{salt: tokenSalt(msg.sender, params.salt)}(
                params.name,
                params.symbol,
                params.extraMetadata,
                params.admin,
                TOKEN_SUPPLY,
                address(this)
            )
        );
        p.pool = _createPool(p.token, params.pairedToken);
        p.tokenIsToken0 = p.token < params.pairedToken;
        _placeLiquidity(p, params);
        if (p.vestingSupply > 0) {
            SafeTransfers.safeTransfer(p.token, address(vestingVault), p.vestingSupply);
            uint64 lockupEnd = uint64(block.timestamp) + params.vesting.lockupSeconds;
            p.vestingId = vestingVault.create(
                p.token,
                params.vesting.beneficiary,
                p.vestingSupply,
                lockupEnd,
                lockupEnd + params.vesting.vestingSeconds
            );
        }
        // The few base units the position's rounding left behind are burned: the factory keeps nothing.
        uint256 dust = IERC20Like(p.token).balanceOf(address(this));
        if (dust > 0) SafeTransfers.safeTransfer(p.token, BURN_ADDRESS, dust);
        _emitLaunched(p, params);
        if (msg.value > 0) _devBuy(p, params.devBuy);
        activePool = address(0);
        activeToken = address(0);
        return (p.token, p.pool);
    }

    /// Initializes the pool at the starting price, mints the single-sided position to the locker
    /// and registers it there with the reward recipients.
    function _placeLiquidity(Placement memory p, LaunchParams calldata params) private {
        uint160 sqrtPriceX96;
        (p.tickLower, p.tickUpper, sqrtPriceX96) = _range(params.startingTick, p.tokenIsToken0);
        IUniswapV3PoolLike(p.pool).initialize(sqrtPriceX96);
        // One base unit less than the pool supply: the pool rounds the amount it asks up, and the
        // position must never ask for more than the factory holds.
        p.liquidity = _liquidityFor(p.pool, p.poolSupply - 1, p.tickLower, p.tickUpper, p.tokenIsToken0);
        activePool = p.pool;
        activeToken = p.token;
        IUniswapV3PoolLike(p.pool).mint(address(feeLocker), p.tickLower, p.tickUpper, p.liquidity, "");
        feeLocker.lock(
            p.token,
            p.pool,
            params.pairedToken,
            p.tickLower,
            p.tickUpper,
            p.liquidity,
            params.rewardRecipients
        );
    }

    function _emitLaunched(Placement memory p, LaunchParams calldata params) private {
        emit TokenLaunched(
            p.token,
            msg.sender,
            p.pool,
            params.admin,
            params.pairedToken,
            params.salt,
            params.startingTick,
            p.tickLower,
            p.tickUpper,
            p.liquidity,
            p.poolSupply,
            p.vestingSupply,
            p.vestingId
        );
    }

    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata) external {
        if (msg.sender != activePool || activePool == address(0)) revert UnexpectedCallback(msg.sender);
        address token = activeToken;
        bool tokenIsToken0 = IUniswapV3PoolLike(msg.sender).token0() == token;
        // Single-sided: the position is entirely in the new token.
        (uint256 tokenOwed, uint256 pairedOwed) = tokenIsToken0
            ? (amount0Owed, amount1Owed)
            : (amount1Owed, amount0Owed);
        if (pairedOwed != 0) revert UnexpectedMintAmounts(amount0Owed, amount1Owed);
        SafeTransfers.safeTransfer(token, msg.sender, tokenOwed);
    }

    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external {
        if (msg.sender != activePool || activePool == address(0)) revert UnexpectedCallback(msg.sender);
        // The dev buy pays WETH (wrapped from msg.value) for the new token.
        uint256 owed = uint256(amount0Delta > 0 ? amount0Delta : amount1Delta);
        SafeTransfers.safeTransfer(weth, msg.sender, owed);
    }

    function _checkParams(LaunchParams calldata params) private view {
        if (!isPairedToken[params.pairedToken]) revert PairedTokenNotAllowed(params.pairedToken);
        int24 tick = params.startingTick;
        if (tick < MIN_STARTING_TICK || tick > MAX_STARTING_TICK || tick % TICK_SPACING != 0) {
            revert InvalidStartingTick(tick);
        }
        uint256 count = params.rewardRecipients.length;
        if (count == 0 || count > MAX_REWARD_RECIPIENTS) revert InvalidRewardRecipients();
        uint256 total;
        for (uint256 i = 0; i < count; i++) {
            RewardRecipient calldata r = params.rewardRecipients[i];
            if (r.recipient == address(0) || r.bps == 0) revert InvalidRewardRecipients();
            for (uint256 j = 0; j < i; j++) {
                if (params.rewardRecipients[j].recipient == r.recipient) revert InvalidRewardRecipients();
            }
            total += r.bps;
        }
        if (total != 10_000) revert InvalidRewardRecipients();
        Vesting calldata v = params.vesting;
        if (v.bps == 0) {
            if (v.beneficiary != address(0) || v.lockupSeconds != 0 || v.vestingSeconds != 0) revert InvalidVesting();
        } else if (
            v.bps > MAX_VESTING_BPS ||
            v.beneficiary == address(0) ||
            v.lockupSeconds > MAX_LOCKUP_SECONDS ||
            v.vestingSeconds > MAX_VESTING_SECONDS ||
            uint256(v.lockupSeconds) + v.vestingSeconds == 0
        ) {
            revert InvalidVesting();
        }
        if (msg.value > 0) {
            if (params.pairedToken != weth) revert DevBuyNotSupported();
            if (params.devBuy.recipient == address(0)) revert InvalidDevBuyRecipient();
        } else if (params.devBuy.recipient != address(0) || params.devBuy.minAmountOut != 0) {
            revert DevBuyNotSupported();
        }
    }

    /// The position's ticks and the pool's starting price. `startingTick` prices the token in the
    /// paired asset; the pool prices token1 in token0, so the sign flips when the token sorts second.
    /// The position sits entirely on the side buyers move the price towards, starting exactly at
    /// the current price: the pool holds only the new token until someone buys.
    function _range(
        int24 startingTick,
        bool tokenIsToken0
    ) private pure returns (int24 tickLower, int24 tickUpper, uint160 sqrtPriceX96) {
        if (tokenIsToken0) {
            (tickLower, tickUpper) = (startingTick, MAX_USABLE_TICK);
            sqrtPriceX96 = LaunchMath.sqrtRatioAtTick(tickLower);
        } else {
            (tickLower, tickUpper) = (-MAX_USABLE_TICK, -startingTick);
            sqrtPriceX96 = LaunchMath.sqrtRatioAtTick(tickUpper);
        }
    }

    /// Liquidity for `amount` of the new token over the range, rounded down (Uniswap's
    /// LiquidityAmounts formulas: token0 L = a·√l·√u / (√u−√l); token1 L = a / (√u−√l), in Q96).
    function _liquidityFor(
        address pool,
        uint256 amount,
        int24 tickLower,
        int24 tickUpper,
        bool tokenIsToken0
    ) private view returns (uint128) {
        uint256 sqrtLower = LaunchMath.sqrtRatioAtTick(tickLower);
        uint256 sqrtUpper = LaunchMath.sqrtRatioAtTick(tickUpper);
        uint256 liquidity =
            tokenIsToken0
                ? LaunchMath.mulDiv(amount, LaunchMath.mulDiv(sqrtLower, sqrtUpper, 1 << 96), sqrtUpper - sqrtLower)
                : LaunchMath.mulDiv(amount, 1 << 96, sqrtUpper - sqrtLower);
        if (liquidity == 0 || liquidity > IUniswapV3PoolLike(pool).maxLiquidityPerTick())
            revert LiquidityOutOfRange(liquidity);
        return uint128(liquidity);
    }

    /// The token/paired pool at the 1 % tier. One that someone created ahead of the launch is used
    /// only while uninitialized: a price set by anyone else could make the position two-sided.
    function _createPool(address token, address pairedToken) private returns (address pool) {
        pool = uniswapV3Factory.getPool(token, pairedToken, POOL_FEE);
        if (pool == address(0)) return uniswapV3Factory.createPool(token, pairedToken, POOL_FEE);
        (uint160 sqrtPriceX96, , , , , , ) = IUniswapV3PoolLike(pool).slot0();
        if (sqrtPriceX96 != 0) revert PoolAlreadyInitialized(pool);
    }

    function _devBuy(Placement memory p, DevBuy calldata devBuy) private {
        IWrappedNativeLike(weth).deposit{value: msg.value}();
        // WETH in: the pool's price moves towards the position (down when WETH is token0).
        bool zeroForOne = !p.tokenIsToken0;
        (int256 amount0, int256 amount1) = IUniswapV3PoolLike(p.pool).swap(
            devBuy.recipient,
            zeroForOne,
            int256(msg.value),
            zeroForOne ? MIN_SQRT_RATIO_PLUS_ONE : MAX_SQRT_RATIO_MINUS_ONE,
            ""
        );
        (int256 paidIn, int256 tokenOut) = zeroForOne ? (amount0, amount1) : (amount1, amount0);
        if (uint256(paidIn) != msg.value) revert DevBuyPartialFill(uint256(paidIn), msg.value);
        uint256 amountOut = uint256(-tokenOut);
        if (amountOut < devBuy.minAmountOut) revert DevBuyBelowMinimum(amountOut, devBuy.minAmountOut);
        emit DevBuyExecuted(p.token, devBuy.recipient, msg.value, amountOut);
    }

    function _tokenInitCode(LaunchParams calldata params) private view returns (bytes memory) {
        return
            abi.encodePacked(
                type(LaunchToken).creationCode,
                abi.encode(params.name, params.symbol, params.extraMetadata, params.admin, TOKEN_SUPPLY, address(this))
            );
    }

    function _setPairedToken(address token, bool allowed) private {
        if (isPairedToken[token] == allowed) return;
        bool seen;
        for (uint256 i = 0; i < pairedTokenList.length; i++) {
            if (pairedTokenList[i] == token) seen = true;
        }
        if (!seen) pairedTokenList.push(token);
        isPairedToken[token] = allowed;
        emit PairedTokenSet(token, allowed);
    }
}
