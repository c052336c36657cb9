// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeTransfers} from "../common/SafeTransfers.sol";
import {StableSwapMath} from "./StableSwapMath.sol";
import {StableSwapPoolBase} from "./StableSwapPoolBase.sol";

// No return value is read (the meta pool counts what it receives by its balances): a base pool of
// the original template (`CurveOriginalPool`, 3pool) returns nothing from these.
interface ICurveBasePool {
    function coins(uint256 i) external view returns (address);
    function N_COINS() external view returns (uint256);
    function get_virtual_price() external view returns (uint256);
    function exchange(int128 i, int128 j, uint256 dx, uint256 minDy) external;
    function remove_liquidity_one_coin(uint256 burnAmount, int128 i, uint256 minReceived) external;
}

interface ICurveBasePool2 {
    function add_liquidity(uint256[2] calldata amounts, uint256 minMintAmount) external;
}

interface ICurveBasePool3 {
    function add_liquidity(uint256[3] calldata amounts, uint256 minMintAmount) external;
}

/// @title CurveMetaPool (stand-in)
/// @notice Curve's legacy meta pools as an integrator sees them: two coins, a coin of its own (index
/// 0) and a base pool's LP token (index 1), rated 10^(36 − decimals) and the base pool's virtual
/// price; `exchange` between the two (as the plain template: `StableSwapPoolBase`), and
/// `exchange_underlying` over the coin and the base pool's coins (underlying index 0 is the coin,
/// 1.. the base coins): into the base pool by `add_liquidity` with one coin, out of it by
/// `remove_liquidity_one_coin`, base coin to base coin by the base pool's own `exchange`. Its base
/// pool here is a `CurvePlainPool` or a `CurveOriginalPool` (3pool's template, under the pre-factory
/// meta pools). Two templates, chosen at construction:
/// - curve-factory's `MetaUSD` (`cachesBaseVirtualPrice` false): the base pool's
///   `get_virtual_price()` read at every swap and view (the factory dropped the cache before
///   release); it has no `base_virtual_price` or `base_cache_updated`, and ours revert there;
/// - the pre-factory meta pools (curve-contract `pool-templates/meta/SwapTemplateMeta.vy`, the
///   3pool-era GUSD, USDK, USDN… pools): `_vp_rate()` re-reads the base pool's price only when
///   `block.timestamp > base_cache_updated + BASE_CACHE_EXPIRES` (600 s) and stores it with the
///   block's timestamp, otherwise prices with the stored `base_virtual_price`. `exchange`,
///   `exchange_underlying` (every path, base coin to base coin too) and `add_liquidity` call it
///   first; the views use the same rule without storing (`_vp_rate_ro`). The constructor stores
///   the price at deployment.
/// Left out: `get_dy_underlying` (the real one is an estimate that ignores the base pool's deposit
/// fee: what `exchange_underlying` pays is the figure to model), the price oracle that later meta
/// templates keep, withdrawals, admin-fee handling: nothing that changes what a swap pays.
contract CurveMetaPool is StableSwapPoolBase {
    using SafeTransfers for address;

    uint256 public constant N_COINS = 2;
    address public immutable base_pool;
    uint256 public immutable BASE_N_COINS;
    uint256 private immutable _rateMultiplier;
    address[] private _baseCoins;
    uint256 private constant BASE_CACHE_EXPIRES = 10 * 60;
    bool private immutable _caches;
    uint256 private _baseVirtualPrice;
    uint256 private _baseCacheUpdated;

    event TokenExchangeUnderlying(
        address indexed buyer,
        int128 sold_id,
        uint256 tokens_sold,
        int128 bought_id,
        uint256 tokens_bought
    );

    constructor(
        address factory_,
        address coin,
        uint8 decimals_,
        address basePool,
        uint256 A_,
        uint256 fee_,
        bool cachesBaseVirtualPrice
    ) StableSwapPoolBase(factory_, A_, fee_, "Curve meta pool", "crvMeta") {
        require(decimals_ <= 18, "decimals above 18");
        base_pool = basePool;
        _coins.push(coin);
        _coins.push(basePool);
        _balances.push(0);
        _balances.push(0);
        _rateMultiplier = 10 ** (36 - uint256(decimals_));
        uint256 baseN = ICurveBasePool(basePool).N_COINS();
        require(baseN == 2 || baseN == 3, "base pool of 2 or 3 coins");
        BASE_N_COINS = baseN;
        for (uint256 k = 0; k < baseN; k++) {
            address baseCoin = ICurveBasePool(basePool).coins(k);
            _baseCoins.push(baseCoin);
            (bool approved, ) = baseCoin.call(
                abi.encodeWithSignature("approve(address,uint256)", basePool, type(uint256).max)
            );
            require(approved, "approve failed");
        }
        _caches = cachesBaseVirtualPrice;
        if (cachesBaseVirtualPrice) {
            _baseVirtualPrice = ICurveBasePool(basePool).get_virtual_price();
            _baseCacheUpdated = block.timestamp;
        }
    }

    /// The cached base virtual price (the pre-factory template's public getter).
    function base_virtual_price() external view returns (uint256) {
        require(_caches, "no base virtual price cache");
        return _baseVirtualPrice;
    }

    /// When the cached price was stored (the pre-factory template's public getter).
    function base_cache_updated() external view returns (uint256) {
        require(_caches, "no base virtual price cache");
        return _baseCacheUpdated;
    }

    function base_coins(uint256 i) external view returns (address) {
        return _baseCoins[i];
    }

    function add_liquidity(uint256[2] calldata amounts, uint256 minMintAmount) external returns (uint256) {
        uint256[] memory dynamic = new uint256[](2);
        (dynamic[0], dynamic[1]) = (amounts[0], amounts[1]);
        return _addLiquidity(dynamic, minMintAmount);
    }

    function exchange_underlying(int128 i, int128 j, uint256 dx, uint256 minDy) external returns (uint256) {
        return _exchangeUnderlying(i, j, dx, minDy, msg.sender);
    }

    function exchange_underlying(
        int128 i,
        int128 j,
        uint256 dx,
        uint256 minDy,
        address receiver
    ) external returns (uint256) {
        return _exchangeUnderlying(i, j, dx, minDy, receiver);
    }

    function _exchangeUnderlying(
        int128 i,
        int128 j,
        uint256 dx,
        uint256 minDy,
        address receiver
    ) private nonReentrant returns (uint256 dy) {
        (uint256 ui, uint256 uj) = (_index(i, BASE_N_COINS + 1), _index(j, BASE_N_COINS + 1));
        require(ui != uj, "same coin");
        // Before any path, base coin to base coin too: the template's `_vp_rate()` comes first.
        uint256[] memory rates = _swapRates();
        uint256[] memory xp = _xpOf(rates, _balances);
        address inputCoin = ui == 0 ? _coins[0] : _baseCoins[ui - 1];
        address outputCoin = uj == 0 ? _coins[0] : _baseCoins[uj - 1];
        require(inputCoin.trySafeTransferFrom(msg.sender, address(this), dx), "transferFrom failed");
        if (ui == 0 || uj == 0) {
            uint256 dxIn = dx;
            uint256 x;
            if (ui == 0) x = xp[0] + (dx * rates[0]) / PRECISION;
            else {
                // A base coin: deposit it into the base pool, swap the LP tokens it minted.
                uint256 lpBefore = _coins[1].balanceOf(address(this));
                _addBaseLiquidity(ui - 1, dx);
                dxIn = _coins[1].balanceOf(address(this)) - lpBefore;
                x = (dxIn * rates[1]) / PRECISION + xp[1];
            }
            dy = _swapAndBook(ui == 0 ? 0 : 1, uj == 0 ? 0 : 1, dxIn, x, xp, rates);
            if (uj > 0) {
                // LP tokens out: withdraw them as the base coin asked for.
                uint256 outBefore = outputCoin.balanceOf(address(this));
                ICurveBasePool(base_pool).remove_liquidity_one_coin(dy, int128(int256(uj - 1)), 0);
                dy = outputCoin.balanceOf(address(this)) - outBefore;
            }
            require(dy >= minDy, "Exchange resulted in fewer coins than expected");
        } else {
            // Base coin to base coin: the base pool's own exchange.
            uint256 outBefore = outputCoin.balanceOf(address(this));
            ICurveBasePool(base_pool).exchange(int128(int256(ui - 1)), int128(int256(uj - 1)), dx, minDy);
            dy = outputCoin.balanceOf(address(this)) - outBefore;
        }
        require(outputCoin.trySafeTransfer(receiver, dy), "transfer failed");
        emit TokenExchangeUnderlying(msg.sender, i, dx, j, dy);
    }

    function _addBaseLiquidity(uint256 baseI, uint256 amount) private {
        if (BASE_N_COINS == 2) {
            uint256[2] memory amounts;
            amounts[baseI] = amount;
            ICurveBasePool2(base_pool).add_liquidity(amounts, 0);
        } else {
            uint256[3] memory amounts;
            amounts[baseI] = amount;
            ICurveBasePool3(base_pool).add_liquidity(amounts, 0);
        }
    }

    /// The views' rates: the cached price while it is fresh (`_vp_rate_ro`).
    function _rates() internal view override returns (uint256[] memory rates) {
        rates = new uint256[](2);
        rates[0] = _rateMultiplier;
        rates[1] = _cacheExpired() ? ICurveBasePool(base_pool).get_virtual_price() : _baseVirtualPrice;
    }

    /// A swap's or a deposit's rates (`_vp_rate`): an expired cache is refreshed and stored.
    function _swapRates() internal override returns (uint256[] memory rates) {
        rates = _rates();
        if (_caches && _cacheExpired()) {
            _baseVirtualPrice = rates[1];
            _baseCacheUpdated = block.timestamp;
        }
    }

    function _cacheExpired() private view returns (bool) {
        return !_caches || block.timestamp > _baseCacheUpdated + BASE_CACHE_EXPIRES;
    }
}
