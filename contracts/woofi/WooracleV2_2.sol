// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The Chainlink feed interface the Wooracle reads (`AggregatorV3Interface`, the two calls it makes).
interface IWooChainlinkFeed {
    function decimals() external view returns (uint8);

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound);
}

/// @title WooracleV2_2 (stand-in)
/// @notice WOOFi's oracle as WooPPV2 reads it, following the published WooracleV2_2
/// (woonetwork/WooPoolV2 `contracts/wooracle/WooracleV2_2.sol`, "V2.2 upgrade" of March 2024, the
/// oracle of the current WooPPV2): per base token one slot `{uint128 price; uint64 coeff; uint64
/// spread}` (price with 8 decimals, coeff and spread with 18), one `timestamp` for all bases, a
/// `staleDuration` (300 s at deployment) and a Chainlink `bound` (1e16 = 1 % at deployment).
///
/// `price(base)`: the Wooracle price is feasible while it is non-zero and
/// `block.timestamp <= timestamp + staleDuration`; then it is the price, and it is feasible only
/// within `bound` of the Chainlink price in quote units (`cloPrice · (1e18 − bound) / 1e18 <= price
/// <= cloPrice · (1e18 + bound) / 1e18`, a zero Chainlink price never in bound). A stale or zero
/// Wooracle price falls back to the Chainlink price when the base is `cloPreferred` (feasible when
/// non-zero), otherwise 0 and infeasible. A feasible price must lie strictly inside the guardian's
/// `priceRanges[base]` (`> min`, `< max`) or the call reverts. `state(base)` is `{price from
/// price(), spread, coeff, feasible}`.
///
/// The Chainlink price in quote units is `baseAnswer · 10^quoteFeedDecimals / quoteAnswer`; both
/// feeds are read through `latestRoundData` (their timestamps are returned by `cloPrice`, not
/// checked), and a base without a feed reverts `WooracleV2_2: !oracle`.
///
/// Posting a price first widens the spread when the price moved: with `preS` the stored spread and
/// `preP` the stored price (both non-zero, `preS < 1e18`), `antiS = 1e36 · min(p, preP) / max(p,
/// preP) / (1e18 − preS)`; when `antiS < 1e18` the spread becomes `max(preS, 1e18 − antiS)`
/// (`postPrice`), or `max(newSpread, 1e18 − antiS)` when a state with its own spread is posted
/// (`postState`, which otherwise stores the posted spread and requires it below 1e18). Posts from
/// the pool (`wooPP`) leave `timestamp` alone; an admin's `postPrice(base, price)` and
/// `postState(base, price, spread, coeff)` set it to the block's, the forms with `_ts` to `_ts`.
/// @dev Written for the devnet from the published source (read for facts, not copied). Left out:
/// the compressed-calldata `fallback` for posting (its `getBase` table of mainnet addresses) and
/// `setBase`; `inCaseTokenGotStuck`. Revert strings are the published ones, so a test compares them.
contract WooracleV2_2 {
    struct TokenInfo {
        uint128 price;
        uint64 coeff;
        uint64 spread;
    }

    struct CLOracle {
        address oracle;
        uint8 decimal;
        bool cloPreferred;
    }

    struct PriceRange {
        uint128 min;
        uint128 max;
    }

    struct State {
        uint128 price;
        uint64 spread;
        uint64 coeff;
        bool woFeasible;
    }

    address public owner;
    mapping(address => TokenInfo) public infos;
    mapping(address => CLOracle) public clOracles;
    mapping(address => PriceRange) public priceRanges;
    address public quoteToken;
    uint256 public timestamp;
    uint256 public staleDuration;
    uint64 public bound;
    address public wooPP;
    mapping(address => bool) public isAdmin;
    mapping(address => bool) public isGuardian;

    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    constructor() {
        owner = msg.sender;
        staleDuration = 300;
        bound = 1e16;
        emit OwnershipTransferred(address(0), msg.sender);
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "Ownable: caller is not the owner");
        _;
    }

    modifier onlyAdmin() {
        require(msg.sender == owner || isAdmin[msg.sender] || msg.sender == wooPP, "WooracleV2_2: !Admin");
        _;
    }

    modifier onlyGuardian() {
        require(isGuardian[msg.sender], "WooracleV2_2: !Guardian");
        _;
    }

    /* ----- Configuration ----- */

    function transferOwnership(address newOwner) external onlyOwner {
        require(newOwner != address(0), "Ownable: new owner is the zero address");
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    function setRange(address _base, uint128 _min, uint128 _max) external onlyGuardian {
        priceRanges[_base] = PriceRange({min: _min, max: _max});
    }

    function setWooPP(address _wooPP) external onlyAdmin {
        wooPP = _wooPP;
    }

    function setAdmin(address _addr, bool _flag) external onlyOwner {
        isAdmin[_addr] = _flag;
    }

    function setGuardian(address _addr, bool _flag) external onlyOwner {
        isGuardian[_addr] = _flag;
    }

    function setQuoteToken(address _quote, address _oracle) external onlyAdmin {
        quoteToken = _quote;
        CLOracle storage feed = clOracles[_quote];
        feed.oracle = _oracle;
        feed.decimal = IWooChainlinkFeed(_oracle).decimals();
    }

    function setBound(uint64 _bound) external onlyOwner {
        bound = _bound;
    }

    function setCLOracle(address _token, address _oracle, bool _cloPreferred) external onlyAdmin {
        CLOracle storage feed = clOracles[_token];
        feed.oracle = _oracle;
        feed.decimal = IWooChainlinkFeed(_oracle).decimals();
        feed.cloPreferred = _cloPreferred;
    }

    function setCloPreferred(address _token, bool _cloPreferred) external onlyAdmin {
        clOracles[_token].cloPreferred = _cloPreferred;
    }

    function setStaleDuration(uint256 _staleDuration) external onlyAdmin {
        staleDuration = _staleDuration;
    }

    /* ----- Posting ----- */

    function postPrice(address _base, uint128 _price) external onlyAdmin {
        _widenSpread(_base, _price);
        infos[_base].price = _price;
        // The pool's own posts (after each swap) do not refresh the oracle.
        if (msg.sender != wooPP) timestamp = block.timestamp;
    }

    function postPrice(address _base, uint128 _price, uint256 _ts) external onlyAdmin {
        _widenSpread(_base, _price);
        infos[_base].price = _price;
        timestamp = _ts;
    }

    function postPriceList(address[] calldata _bases, uint128[] calldata _prices, uint256 _ts) external onlyAdmin {
        require(_bases.length == _prices.length, "WooracleV2_2: length_INVALID");
        for (uint256 i = 0; i < _bases.length; i++) {
            _widenSpread(_bases[i], _prices[i]);
            infos[_bases[i]].price = _prices[i];
        }
        timestamp = _ts;
    }

    function postState(address _base, uint128 _price, uint64 _spread, uint64 _coeff) external onlyAdmin {
        _setState(_base, _price, _spread, _coeff);
        timestamp = block.timestamp;
    }

    function postState(address _base, uint128 _price, uint64 _spread, uint64 _coeff, uint256 _ts) external onlyAdmin {
        _setState(_base, _price, _spread, _coeff);
        timestamp = _ts;
    }

    function postStateList(
        address[] calldata _bases,
        uint128[] calldata _prices,
        uint64[] calldata _spreads,
        uint64[] calldata _coeffs,
        uint256 _ts
    ) external onlyAdmin {
        for (uint256 i = 0; i < _bases.length; i++) _setState(_bases[i], _prices[i], _spreads[i], _coeffs[i]);
        timestamp = _ts;
    }

    /* ----- Reading ----- */

    function price(address _base) public view returns (uint256 priceOut, bool feasible) {
        uint256 woPrice = infos[_base].price;
        (uint256 refPrice, ) = _cloPriceInQuote(_base, quoteToken);
        bool fresh = woPrice != 0 && block.timestamp <= timestamp + staleDuration;
        bool inBound =
            refPrice != 0 &&
                (refPrice * (1e18 - bound)) / 1e18 <= woPrice &&
                woPrice <= (refPrice * (1e18 + bound)) / 1e18;
        if (fresh) {
            priceOut = woPrice;
            feasible = inBound;
        } else {
            priceOut = clOracles[_base].cloPreferred ? refPrice : 0;
            feasible = priceOut != 0;
        }
        if (feasible) {
            PriceRange memory range = priceRanges[_base];
            require(priceOut > range.min, "WooracleV2_2: !min");
            require(priceOut < range.max, "WooracleV2_2: !max");
        }
    }

    function decimals(address) external pure returns (uint8) {
        return 8;
    }

    function cloPrice(address _base) external view returns (uint256 refPrice, uint256 refTimestamp) {
        return _cloPriceInQuote(_base, quoteToken);
    }

    function isWoFeasible(address _base) external view returns (bool) {
        return infos[_base].price != 0 && block.timestamp <= timestamp + staleDuration;
    }

    function woState(address _base) external view returns (State memory) {
        TokenInfo memory info = infos[_base];
        return
            State({
                price: info.price,
                spread: info.spread,
                coeff: info.coeff,
                woFeasible: info.price != 0 && block.timestamp <= timestamp + staleDuration
            });
    }

    function state(address _base) external view returns (State memory) {
        TokenInfo memory info = infos[_base];
        (uint256 basePrice, bool feasible) = price(_base);
        return State({price: uint128(basePrice), spread: info.spread, coeff: info.coeff, woFeasible: feasible});
    }

    /* ----- Internal ----- */

    /// @dev The spread after a move from the stored price to `_price`, at least the stored one.
    function _widenSpread(address _base, uint128 _price) private {
        uint64 preS = infos[_base].spread;
        uint128 preP = infos[_base].price;
        if (preP == 0 || _price == 0 || preS >= 1e18) return;
        uint256 antiS = _antiSpread(_price, preP, preS);
        if (antiS < 1e18 && uint64(1e18 - antiS) > preS) infos[_base].spread = uint64(1e18 - antiS);
    }

    /// @dev As `_widenSpread`, with the posted spread `_spread` as the floor instead of the stored one.
    function _widenSpreadTo(address _base, uint128 _price, uint64 _spread) private {
        require(_spread < 1e18, "!_spread");
        uint64 preS = infos[_base].spread;
        uint128 preP = infos[_base].price;
        if (preP == 0 || _price == 0 || preS >= 1e18) {
            infos[_base].spread = _spread;
            return;
        }
        uint256 antiS = _antiSpread(_price, preP, preS);
        if (antiS < 1e18) {
            uint64 moved = uint64(1e18 - antiS);
            infos[_base].spread = moved > _spread ? moved : _spread;
        } else infos[_base].spread = _spread;
    }

    function _antiSpread(uint128 _price, uint128 preP, uint64 preS) private pure returns (uint256) {
        uint256 hi = _price >= preP ? _price : preP;
        uint256 lo = _price <= preP ? _price : preP;
        return (uint256(1e18) * 1e18 * lo) / hi / (uint256(1e18) - preS);
    }

    function _setState(address _base, uint128 _price, uint64 _spread, uint64 _coeff) private {
        _widenSpreadTo(_base, _price, _spread);
        TokenInfo storage info = infos[_base];
        info.price = _price;
        info.coeff = _coeff;
    }

    function _cloPriceInQuote(
        address _from,
        address _to
    ) private view returns (uint256 refPrice, uint256 refTimestamp) {
        address baseFeed = clOracles[_from].oracle;
        require(baseFeed != address(0), "WooracleV2_2: !oracle");
        address quoteFeed = clOracles[_to].oracle;
        uint8 quoteDecimal = clOracles[_to].decimal;
        (, int256 baseAnswer, , uint256 baseUpdatedAt, ) = IWooChainlinkFeed(baseFeed).latestRoundData();
        (, int256 quoteAnswer, , uint256 quoteUpdatedAt, ) = IWooChainlinkFeed(quoteFeed).latestRoundData();
        refPrice = (uint256(baseAnswer) * (uint256(10) ** quoteDecimal)) / uint256(quoteAnswer);
        refTimestamp = baseUpdatedAt >= quoteUpdatedAt ? quoteUpdatedAt : baseUpdatedAt;
    }
}
