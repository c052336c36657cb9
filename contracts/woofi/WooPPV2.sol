// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeTransfers} from "../common/SafeTransfers.sol";
import {WooStorageLock} from "./WooStorageLock.sol";
import {WooracleV2_2} from "./WooracleV2_2.sol";

interface IWooDecimals {
    function decimals() external view returns (uint8);
}

/// @title WooPPV2 (stand-in)
/// @notice WOOFi's pool: one vault holding a quote token and many base tokens, priced by the
/// Wooracle's sPMM (synthetic proactive market making), following the published WooPPV2
/// (woonetwork/WooPoolV2 `contracts/WooPPV2.sol` as of the Wooracle V2.2 upgrade, March 2024: the
/// `tokenInfos` of `{uint192 reserve; uint16 feeRate; uint128 maxGamma; uint128 maxNotionalSwap}`,
/// `swap`/`query`/`tryQuery` on token addresses, the fee kept in the quote token as `unclaimedFee`).
///
/// Pricing (p, s, k: the Wooracle state's price, spread and coeff; every division floored, in the
/// order written; `priceDec` = 10^8, `quoteDec`/`baseDec` = 10^decimals):
/// - sell base `b`: notional `b·p·quoteDec / baseDec / priceDec` must be `<= maxNotionalSwap[base]`
///   ("!maxNotionalValue"); `gamma = b·p·k / priceDec / baseDec` must be `<= maxGamma[base]`
///   ("!gamma"); `quote = (b·p·quoteDec / priceDec)·(1e18 − gamma − s) / 1e18 / baseDec`; the new
///   oracle price `(1e18 − gamma)·p / 1e18`; then the fee `quote·feeRate[base] / 1e5` comes off.
/// - sell quote `q`: the fee `q·feeRate[base] / 1e5` comes off first; the rest `q'` must be
///   `<= maxNotionalSwap[base]`; `gamma = q'·k / quoteDec <= maxGamma[base]`;
///   `base = (q'·baseDec·priceDec / p)·(1e18 − gamma − s) / 1e18 / quoteDec`; the new price
///   `1e18·p / (1e18 − gamma)`.
/// - base to base: both states are read first; both sides use the spread `max(s1, s2) / 2` and the
///   fee rate `max(feeRate1, feeRate2)`; base1 is sold for quote (base1's guards), the fee is taken
///   on that quote amount, the rest buys base2 (base2's guards). Both oracle prices move.
/// Each swap posts the new price to the Wooracle (which may widen that base's spread; the pool's
/// posts do not refresh the oracle's timestamp) and updates the reserves: base and quote reserves
/// by what moved, the fee out of the quote reserve into `unclaimedFee`. So every pair shares the
/// quote reserve and the fee, and a base's oracle state moves with any trade through it.
///
/// Guards: the pool must have received the input (`balance − reserve >= amount`; the quote
/// token's balance excludes `unclaimedFee`), the oracle state must be feasible with a non-zero
/// price, the minimum output, and the reserve arithmetic (an output above a reserve underflows:
/// a panic, as in the real pool). `query` also refuses outputs above the output reserve
/// ("INSUFF_BALANCE") and base-to-base fees above the quote reserve; `tryQuery` does not.
/// Revert strings are the published ones (including "!ORACE_PRICE").
/// @dev Written for the devnet from the published source (read for facts, not copied). The
/// storage writes of a swap are the real pool's: the reentrancy word (OpenZeppelin 4 style, in
/// storage), two or three `tokenInfos` reserve slots, `unclaimedFee`, and the oracle's price/spread
/// slot per moved base. Left out: the lending managers (`repay*`, `setLendManager`),
/// `migrateToNewPool`, `inCaseTokenGotStuck`, the pause role (admins pause). A short-lived 2024
/// revision had a per-token `capBal` balance cap; the current source (and the ABI integrators read)
/// has none, so neither has the stand-in (docs/dex-kinds.md, WOOFI).
contract WooPPV2 is WooStorageLock {
    struct DecimalInfo {
        uint64 priceDec;
        uint64 quoteDec;
        uint64 baseDec;
    }

    struct TokenInfo {
        uint192 reserve;
        uint16 feeRate;
        uint128 maxGamma;
        uint128 maxNotionalSwap;
    }

    address public owner;
    bool public paused;
    uint256 public unclaimedFee;
    mapping(address => bool) public isAdmin;
    mapping(address => TokenInfo) public tokenInfos;
    address public immutable quoteToken;
    WooracleV2_2 public wooracle;
    address public feeAddr;

    event Deposit(address indexed token, address indexed sender, uint256 amount);
    event Withdraw(address indexed token, address indexed receiver, uint256 amount);
    event AdminUpdated(address indexed addr, bool flag);
    event FeeAddrUpdated(address indexed newFeeAddr);
    event WooracleUpdated(address indexed newWooracle);
    event Paused(address account);
    event Unpaused(address account);
    event WooSwap(
        address indexed fromToken,
        address indexed toToken,
        uint256 fromAmount,
        uint256 toAmount,
        address from,
        address indexed to,
        address rebateTo,
        uint256 swapVol,
        uint256 swapFee
    );

    modifier onlyOwner() {
        require(msg.sender == owner, "Ownable: caller is not the owner");
        _;
    }

    modifier onlyAdmin() {
        require(msg.sender == owner || isAdmin[msg.sender], "WooPPV2: !admin");
        _;
    }

    modifier whenNotPaused() {
        require(!paused, "Pausable: paused");
        _;
    }

    constructor(address _quoteToken) {
        owner = msg.sender;
        quoteToken = _quoteToken;
    }

    function init(address _wooracle, address _feeAddr) external onlyOwner {
        require(address(wooracle) == address(0), "WooPPV2: INIT_INVALID");
        wooracle = WooracleV2_2(_wooracle);
        feeAddr = _feeAddr;
    }

    /* ----- Query and swap ----- */

    function tryQuery(address fromToken, address toToken, uint256 fromAmount) external view returns (uint256 toAmount) {
        if (fromToken == quoteToken) toAmount = _tryQuerySellQuote(toToken, fromAmount);
        else if (toToken == quoteToken) toAmount = _tryQuerySellBase(fromToken, fromAmount);
        else (toAmount, ) = _tryQueryBaseToBase(fromToken, toToken, fromAmount);
    }

    function query(address fromToken, address toToken, uint256 fromAmount) external view returns (uint256 toAmount) {
        if (fromToken == quoteToken) toAmount = _tryQuerySellQuote(toToken, fromAmount);
        else if (toToken == quoteToken) toAmount = _tryQuerySellBase(fromToken, fromAmount);
        else {
            uint256 swapFee;
            (toAmount, swapFee) = _tryQueryBaseToBase(fromToken, toToken, fromAmount);
            require(swapFee <= tokenInfos[quoteToken].reserve, "WooPPV2: INSUFF_QUOTE_FOR_SWAPFEE");
        }
        require(toAmount <= tokenInfos[toToken].reserve, "WooPPV2: INSUFF_BALANCE");
    }

    /// @notice Swaps `fromAmount` of `fromToken`, already sent to the pool, for at least `minToAmount`
    /// of `toToken` paid to `to` (nothing is sent when `to` is the pool itself).
    function swap(
        address fromToken,
        address toToken,
        uint256 fromAmount,
        uint256 minToAmount,
        address to,
        address rebateTo
    ) external returns (uint256 realToAmount) {
        if (fromToken == quoteToken) realToAmount = _sellQuote(toToken, fromAmount, minToAmount, to, rebateTo);
        else if (toToken == quoteToken) realToAmount = _sellBase(fromToken, fromAmount, minToAmount, to, rebateTo);
        else realToAmount = _swapBaseToBase(fromToken, toToken, fromAmount, minToAmount, to, rebateTo);
    }

    function claimFee() external nonReentrant {
        require(feeAddr != address(0), "WooPPV2: !feeAddr");
        uint256 amount = unclaimedFee;
        unclaimedFee = 0;
        SafeTransfers.safeTransfer(quoteToken, feeAddr, amount);
    }

    function poolSize(address token) public view returns (uint256) {
        return tokenInfos[token].reserve;
    }

    /// @notice The pool's balance of `token`, less the unclaimed fee for the quote token.
    function balance(address token) public view returns (uint256) {
        uint256 raw = SafeTransfers.balanceOf(token, address(this));
        return token == quoteToken ? raw - unclaimedFee : raw;
    }

    function decimalInfo(address baseToken) public view returns (DecimalInfo memory) {
        return
            DecimalInfo({
                priceDec: uint64(10) ** wooracle.decimals(baseToken),
                quoteDec: uint64(10) ** IWooDecimals(quoteToken).decimals(),
                baseDec: uint64(10) ** IWooDecimals(baseToken).decimals()
            });
    }

    /* ----- Admin ----- */

    function setWooracle(address _wooracle) external onlyAdmin {
        wooracle = WooracleV2_2(_wooracle);
        emit WooracleUpdated(_wooracle);
    }

    function setFeeAddr(address _feeAddr) external onlyAdmin {
        feeAddr = _feeAddr;
        emit FeeAddrUpdated(_feeAddr);
    }

    function setFeeRate(address token, uint16 rate) external onlyAdmin {
        require(rate <= 1e5, "!rate");
        tokenInfos[token].feeRate = rate;
    }

    function setMaxGamma(address token, uint128 maxGamma) external onlyAdmin {
        tokenInfos[token].maxGamma = maxGamma;
    }

    function setMaxNotionalSwap(address token, uint128 maxNotionalSwap) external onlyAdmin {
        tokenInfos[token].maxNotionalSwap = maxNotionalSwap;
    }

    function setTokenInfo(
        address token,
        uint16 _feeRate,
        uint128 _maxGamma,
        uint128 _maxNotionalSwap
    ) external onlyAdmin {
        TokenInfo storage info = tokenInfos[token];
        info.feeRate = _feeRate;
        info.maxGamma = _maxGamma;
        info.maxNotionalSwap = _maxNotionalSwap;
    }

    function pause() external onlyAdmin {
        require(!paused, "Pausable: paused");
        paused = true;
        emit Paused(msg.sender);
    }

    function unpause() external onlyAdmin {
        require(paused, "Pausable: not paused");
        paused = false;
        emit Unpaused(msg.sender);
    }

    function setAdmin(address addr, bool flag) external onlyAdmin {
        require(addr != address(0), "WooPPV2: !admin");
        isAdmin[addr] = flag;
        emit AdminUpdated(addr, flag);
    }

    function deposit(address token, uint256 amount) public nonReentrant onlyAdmin {
        uint256 balanceBefore = balance(token);
        if (!SafeTransfers.trySafeTransferFrom(token, msg.sender, address(this), amount))
            revert SafeTransfers.SafeTransferFailed(token);
        require(balance(token) - balanceBefore >= amount, "AMOUNT_INSUFF");
        tokenInfos[token].reserve = uint192(tokenInfos[token].reserve + amount);
        emit Deposit(token, msg.sender, amount);
    }

    function withdraw(address token, uint256 amount) public nonReentrant onlyAdmin {
        require(tokenInfos[token].reserve >= amount, "WooPPV2: !amount");
        tokenInfos[token].reserve = uint192(tokenInfos[token].reserve - amount);
        SafeTransfers.safeTransfer(token, owner, amount);
        emit Withdraw(token, owner, amount);
    }

    function withdrawAll(address token) external onlyAdmin {
        withdraw(token, poolSize(token));
    }

    /// @notice Sends the balance above the reserve (tokens sent and never swapped) to the owner.
    function skim(address token) external nonReentrant onlyAdmin {
        SafeTransfers.safeTransfer(token, owner, balance(token) - tokenInfos[token].reserve);
    }

    /// @notice Takes the pool's balance as the reserve.
    function sync(address token) external nonReentrant onlyAdmin {
        tokenInfos[token].reserve = uint192(balance(token));
    }

    /* ----- Pricing ----- */

    function _tryQuerySellBase(
        address baseToken,
        uint256 baseAmount
    ) private view whenNotPaused returns (uint256 quoteAmount) {
        (quoteAmount, ) = _calcQuoteAmountSellBase(baseToken, baseAmount, wooracle.state(baseToken));
        quoteAmount -= (quoteAmount * tokenInfos[baseToken].feeRate) / 1e5;
    }

    function _tryQuerySellQuote(
        address baseToken,
        uint256 quoteAmount
    ) private view whenNotPaused returns (uint256 baseAmount) {
        quoteAmount -= (quoteAmount * tokenInfos[baseToken].feeRate) / 1e5;
        (baseAmount, ) = _calcBaseAmountSellQuote(baseToken, quoteAmount, wooracle.state(baseToken));
    }

    function _tryQueryBaseToBase(
        address baseToken1,
        address baseToken2,
        uint256 base1Amount
    ) private view whenNotPaused returns (uint256 base2Amount, uint256 swapFee) {
        if (
            baseToken1 == address(0) || baseToken2 == address(0) || baseToken1 == quoteToken || baseToken2 == quoteToken
        ) return (0, 0);
        (WooracleV2_2.State memory state1, WooracleV2_2.State memory state2, uint16 feeRate) = _pairStates(
            baseToken1,
            baseToken2
        );
        (uint256 quoteAmount, ) = _calcQuoteAmountSellBase(baseToken1, base1Amount, state1);
        swapFee = (quoteAmount * feeRate) / 1e5;
        (base2Amount, ) = _calcBaseAmountSellQuote(baseToken2, quoteAmount - swapFee, state2);
    }

    /// @dev Both bases' oracle states with the shared spread `max(s1, s2) / 2`, and the larger fee rate.
    function _pairStates(
        address baseToken1,
        address baseToken2
    ) private view returns (WooracleV2_2.State memory state1, WooracleV2_2.State memory state2, uint16 feeRate) {
        state1 = wooracle.state(baseToken1);
        state2 = wooracle.state(baseToken2);
        uint64 spread = (state1.spread > state2.spread ? state1.spread : state2.spread) / 2;
        state1.spread = spread;
        state2.spread = spread;
        uint16 fee1 = tokenInfos[baseToken1].feeRate;
        uint16 fee2 = tokenInfos[baseToken2].feeRate;
        feeRate = fee1 > fee2 ? fee1 : fee2;
    }

    function _calcQuoteAmountSellBase(
        address baseToken,
        uint256 baseAmount,
        WooracleV2_2.State memory state
    ) private view returns (uint256 quoteAmount, uint256 newPrice) {
        require(state.woFeasible, "WooPPV2: !ORACLE_FEASIBLE");
        require(state.price > 0, "WooPPV2: !ORACE_PRICE");
        DecimalInfo memory decs = decimalInfo(baseToken);
        uint256 notional = (baseAmount * state.price * decs.quoteDec) / decs.baseDec / decs.priceDec;
        require(notional <= tokenInfos[baseToken].maxNotionalSwap, "WooPPV2: !maxNotionalValue");
        uint256 gamma = (baseAmount * state.price * state.coeff) / decs.priceDec / decs.baseDec;
        require(gamma <= tokenInfos[baseToken].maxGamma, "WooPPV2: !gamma");
        quoteAmount =
            (((baseAmount * state.price * decs.quoteDec) / decs.priceDec) * (uint256(1e18) - gamma - state.spread)) /
            1e18 /
            decs.baseDec;
        newPrice = ((uint256(1e18) - gamma) * state.price) / 1e18;
    }

    function _calcBaseAmountSellQuote(
        address baseToken,
        uint256 quoteAmount,
        WooracleV2_2.State memory state
    ) private view returns (uint256 baseAmount, uint256 newPrice) {
        require(state.woFeasible, "WooPPV2: !ORACLE_FEASIBLE");
        require(state.price > 0, "WooPPV2: !ORACE_PRICE");
        DecimalInfo memory decs = decimalInfo(baseToken);
        require(quoteAmount <= tokenInfos[baseToken].maxNotionalSwap, "WooPPV2: !maxNotionalValue");
        uint256 gamma = (quoteAmount * state.coeff) / decs.quoteDec;
        require(gamma <= tokenInfos[baseToken].maxGamma, "WooPPV2: !gamma");
        baseAmount =
            (((quoteAmount * decs.baseDec * decs.priceDec) / state.price) * (uint256(1e18) - gamma - state.spread)) /
            1e18 /
            decs.quoteDec;
        newPrice = (uint256(1e18) * state.price) / (uint256(1e18) - gamma);
    }

    /* ----- Swaps ----- */

    /// @dev The checks a sell of base or of quote starts with, in the published order.
    function _requirePair(address baseToken, address to) private view {
        require(baseToken != address(0), "WooPPV2: !baseToken");
        require(to != address(0), "WooPPV2: !to");
        require(baseToken != quoteToken, "WooPPV2: baseToken==quoteToken");
    }

    function _sellBase(
        address baseToken,
        uint256 baseAmount,
        uint256 minQuoteAmount,
        address to,
        address rebateTo
    ) private nonReentrant whenNotPaused returns (uint256 quoteAmount) {
        _requirePair(baseToken, to);
        require(balance(baseToken) - tokenInfos[baseToken].reserve >= baseAmount, "WooPPV2: !BASE");
        {
            uint256 newPrice;
            (quoteAmount, newPrice) = _calcQuoteAmountSellBase(baseToken, baseAmount, wooracle.state(baseToken));
            wooracle.postPrice(baseToken, uint128(newPrice));
        }
        uint256 swapFee = (quoteAmount * tokenInfos[baseToken].feeRate) / 1e5;
        quoteAmount = quoteAmount - swapFee;
        require(quoteAmount >= minQuoteAmount, "WooPPV2: quoteAmount_LT_minQuoteAmount");
        unclaimedFee = unclaimedFee + swapFee;
        tokenInfos[baseToken].reserve = uint192(tokenInfos[baseToken].reserve + baseAmount);
        tokenInfos[quoteToken].reserve = uint192(tokenInfos[quoteToken].reserve - quoteAmount - swapFee);
        if (to != address(this)) SafeTransfers.safeTransfer(quoteToken, to, quoteAmount);
        emit WooSwap(
            baseToken,
            quoteToken,
            baseAmount,
            quoteAmount,
            msg.sender,
            to,
            rebateTo,
            quoteAmount + swapFee,
            swapFee
        );
    }

    function _sellQuote(
        address baseToken,
        uint256 quoteAmount,
        uint256 minBaseAmount,
        address to,
        address rebateTo
    ) private nonReentrant whenNotPaused returns (uint256 baseAmount) {
        _requirePair(baseToken, to);
        require(balance(quoteToken) - tokenInfos[quoteToken].reserve >= quoteAmount, "WooPPV2: !QUOTE");
        uint256 swapFee = (quoteAmount * tokenInfos[baseToken].feeRate) / 1e5;
        quoteAmount = quoteAmount - swapFee;
        unclaimedFee = unclaimedFee + swapFee;
        {
            uint256 newPrice;
            (baseAmount, newPrice) = _calcBaseAmountSellQuote(baseToken, quoteAmount, wooracle.state(baseToken));
            wooracle.postPrice(baseToken, uint128(newPrice));
            require(baseAmount >= minBaseAmount, "WooPPV2: baseAmount_LT_minBaseAmount");
        }
        tokenInfos[baseToken].reserve = uint192(tokenInfos[baseToken].reserve - baseAmount);
        tokenInfos[quoteToken].reserve = uint192(tokenInfos[quoteToken].reserve + quoteAmount);
        if (to != address(this)) SafeTransfers.safeTransfer(baseToken, to, baseAmount);
        emit WooSwap(
            quoteToken,
            baseToken,
            quoteAmount + swapFee,
            baseAmount,
            msg.sender,
            to,
            rebateTo,
            quoteAmount + swapFee,
            swapFee
        );
    }

    function _swapBaseToBase(
        address baseToken1,
        address baseToken2,
        uint256 base1Amount,
        uint256 minBase2Amount,
        address to,
        address rebateTo
    ) private nonReentrant whenNotPaused returns (uint256 base2Amount) {
        require(baseToken1 != address(0) && baseToken1 != quoteToken, "WooPPV2: !baseToken1");
        require(baseToken2 != address(0) && baseToken2 != quoteToken, "WooPPV2: !baseToken2");
        require(baseToken1 != baseToken2, "WooPPV2: base1==base2");
        require(to != address(0), "WooPPV2: !to");
        require(balance(baseToken1) - tokenInfos[baseToken1].reserve >= base1Amount, "WooPPV2: !BASE1_BALANCE");
        (WooracleV2_2.State memory state1, WooracleV2_2.State memory state2, uint16 feeRate) = _pairStates(
            baseToken1,
            baseToken2
        );
        uint256 quoteAmount;
        uint256 swapFee;
        {
            uint256 newBase1Price;
            (quoteAmount, newBase1Price) = _calcQuoteAmountSellBase(baseToken1, base1Amount, state1);
            wooracle.postPrice(baseToken1, uint128(newBase1Price));
            swapFee = (quoteAmount * feeRate) / 1e5;
        }
        quoteAmount = quoteAmount - swapFee;
        unclaimedFee = unclaimedFee + swapFee;
        tokenInfos[quoteToken].reserve = uint192(tokenInfos[quoteToken].reserve - swapFee);
        tokenInfos[baseToken1].reserve = uint192(tokenInfos[baseToken1].reserve + base1Amount);
        {
            uint256 newBase2Price;
            (base2Amount, newBase2Price) = _calcBaseAmountSellQuote(baseToken2, quoteAmount, state2);
            wooracle.postPrice(baseToken2, uint128(newBase2Price));
            require(base2Amount >= minBase2Amount, "WooPPV2: base2Amount_LT_minBase2Amount");
        }
        tokenInfos[baseToken2].reserve = uint192(tokenInfos[baseToken2].reserve - base2Amount);
        if (to != address(this)) SafeTransfers.safeTransfer(baseToken2, to, base2Amount);
        emit WooSwap(
            baseToken1,
            baseToken2,
            base1Amount,
            base2Amount,
            msg.sender,
            to,
            rebateTo,
            quoteAmount + swapFee,
            swapFee
        );
    }
}
