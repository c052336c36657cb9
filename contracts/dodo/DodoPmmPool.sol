// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeTransfers} from "../common/SafeTransfers.sol";
import {DodoPmmMath} from "./DodoPmmMath.sol";

/// @notice DODO V2's maintainer fee-rate model as pools call it: the rate for one trader.
interface IDodoFeeRateModel {
    function getFeeRate(address trader) external view returns (uint256);
}

/// @title DodoPmmPool
/// @notice Our stand-in of DODO V2's three PMM pools, for the devnet and tests (no registry
/// package ships DODO's bytecode; docs/dex-kinds.md, "DODO_V2"): `kind` 0 is a DVM (vending
/// machine: no stored targets, its state always read as R above one with the quote target 0),
/// 1 a DSP (stable pool: stored targets and R) and 2 a DPP (private pool: the same, with an owner
/// who re-prices it). Trading is the published one: transfer the input to the pool, then
/// `sellBase(to)` or `sellQuote(to)`; the input is the balance above the stored reserve, the output
/// is `PMMPricing` less the LP fee and the maintainer fee, each `mulFloor` of the output, the
/// maintainer's rate from the fee-rate model for `tx.origin` (the published pools pass
/// `tx.origin`, so a quote must name the transaction's sender), the maintainer paid in the same
/// token. DSP and DPP store the new R and that side's target when R changes.
/// Kept from the real pools for their gas: the packed reserves (uint112, uint112, uint32 timestamp)
/// and targets (uint112, uint112, uint32 R) written as theirs are, the storage reentrancy flag, the
/// maintainer's transfer, the events. Not kept: the TWAP accumulator (off, as on most pools), flash
/// loans, the share token (liquidity comes by transfer and `sync`, or the DPP owner's `reset`).
contract DodoPmmPool {
    uint256 public immutable kind;
    address public immutable _BASE_TOKEN_;
    address public immutable _QUOTE_TOKEN_;
    address public immutable _MAINTAINER_;
    address public immutable _MT_FEE_RATE_MODEL_;
    address public immutable owner;

    uint112 public _BASE_RESERVE_;
    uint112 public _QUOTE_RESERVE_;
    uint32 public _BLOCK_TIMESTAMP_LAST_;
    uint112 public _BASE_TARGET_;
    uint112 public _QUOTE_TARGET_;
    uint32 public _RState_;
    uint256 public _LP_FEE_RATE_;
    uint256 public _K_;
    uint256 public _I_;
    bool private _entered;

    event DODOSwap(
        address fromToken,
        address toToken,
        uint256 fromAmount,
        uint256 toAmount,
        address trader,
        address receiver
    );
    event RChange(uint256 newRState);

    error DodoReentrant();
    error DodoNotOwner();
    error DodoOverflow();
    error DodoBadParameter();

    modifier preventReentrant() {
        if (_entered) revert DodoReentrant();
        _entered = true;
        _;
        _entered = false;
    }

    constructor(
        uint256 kind_,
        address baseToken,
        address quoteToken,
        address maintainer,
        address mtFeeRateModel,
        uint256 lpFeeRate,
        uint256 i,
        uint256 k,
        address owner_
    ) {
        if (kind_ > 2 || baseToken == quoteToken) revert DodoBadParameter();
        kind = kind_;
        (_BASE_TOKEN_, _QUOTE_TOKEN_) = (baseToken, quoteToken);
        (_MAINTAINER_, _MT_FEE_RATE_MODEL_, owner) = (maintainer, mtFeeRateModel, owner_);
        _setParameters(lpFeeRate, i, k);
    }

    /// As the real pools name themselves ("DVM …", "DSP …", "DPP …"): what a reader of a pool
    /// it did not discover tells the three apart by.
    function version() external view returns (string memory) {
        return
            kind == 0
                ? "DVM stand-in"
                : kind == 1
                    ? "DSP stand-in"
                    : "DPP stand-in";
    }

    function getPMMState() public view returns (DodoPmmMath.State memory state) {
        state.i = _I_;
        state.K = _K_;
        state.B = _BASE_RESERVE_;
        state.Q = _QUOTE_RESERVE_;
        if (kind == 0) {
            state.R = DodoPmmMath.R_ABOVE_ONE;
        } else {
            state.B0 = _BASE_TARGET_;
            state.Q0 = _QUOTE_TARGET_;
            state.R = _RState_;
        }
        DodoPmmMath.adjustTarget(state);
    }

    function getPMMStateForCall()
        external
        view
        returns (uint256 i, uint256 K, uint256 B, uint256 Q, uint256 B0, uint256 Q0, uint256 R)
    {
        DodoPmmMath.State memory s = getPMMState();
        return (s.i, s.K, s.B, s.Q, s.B0, s.Q0, s.R);
    }

    function getVaultReserve() external view returns (uint256 baseReserve, uint256 quoteReserve) {
        return (_BASE_RESERVE_, _QUOTE_RESERVE_);
    }

    function querySellBase(
        address trader,
        uint256 payBaseAmount
    ) public view returns (uint256 receiveQuoteAmount, uint256 mtFee, uint256 newRState, uint256 newBaseTarget) {
        DodoPmmMath.State memory state = getPMMState();
        (receiveQuoteAmount, newRState) = DodoPmmMath.sellBase(state, payBaseAmount);
        (receiveQuoteAmount, mtFee) = _takeFees(trader, receiveQuoteAmount);
        newBaseTarget = state.B0;
    }

    function querySellQuote(
        address trader,
        uint256 payQuoteAmount
    ) public view returns (uint256 receiveBaseAmount, uint256 mtFee, uint256 newRState, uint256 newQuoteTarget) {
        DodoPmmMath.State memory state = getPMMState();
        (receiveBaseAmount, newRState) = DodoPmmMath.sellQuote(state, payQuoteAmount);
        (receiveBaseAmount, mtFee) = _takeFees(trader, receiveBaseAmount);
        newQuoteTarget = state.Q0;
    }

    function sellBase(address to) external preventReentrant returns (uint256 receiveQuoteAmount) {
        uint256 baseBalance = SafeTransfers.balanceOf(_BASE_TOKEN_, address(this));
        uint256 baseInput = baseBalance - uint256(_BASE_RESERVE_);
        (uint256 receive_, uint256 mtFee, uint256 newRState, uint256 newBaseTarget) = querySellBase(
            tx.origin,
            baseInput
        );
        receiveQuoteAmount = receive_;
        _transferOut(_QUOTE_TOKEN_, to, receiveQuoteAmount);
        _transferOut(_QUOTE_TOKEN_, _MAINTAINER_, mtFee);
        if (kind != 0 && _RState_ != newRState) {
            if (newBaseTarget > type(uint112).max) revert DodoOverflow();
            _BASE_TARGET_ = uint112(newBaseTarget);
            _RState_ = uint32(newRState);
            emit RChange(newRState);
        }
        _setReserve(baseBalance, SafeTransfers.balanceOf(_QUOTE_TOKEN_, address(this)));
        emit DODOSwap(_BASE_TOKEN_, _QUOTE_TOKEN_, baseInput, receiveQuoteAmount, msg.sender, to);
    }

    function sellQuote(address to) external preventReentrant returns (uint256 receiveBaseAmount) {
        uint256 quoteBalance = SafeTransfers.balanceOf(_QUOTE_TOKEN_, address(this));
        uint256 quoteInput = quoteBalance - uint256(_QUOTE_RESERVE_);
        (uint256 receive_, uint256 mtFee, uint256 newRState, uint256 newQuoteTarget) = querySellQuote(
            tx.origin,
            quoteInput
        );
        receiveBaseAmount = receive_;
        _transferOut(_BASE_TOKEN_, to, receiveBaseAmount);
        _transferOut(_BASE_TOKEN_, _MAINTAINER_, mtFee);
        if (kind != 0 && _RState_ != newRState) {
            if (newQuoteTarget > type(uint112).max) revert DodoOverflow();
            _QUOTE_TARGET_ = uint112(newQuoteTarget);
            _RState_ = uint32(newRState);
            emit RChange(newRState);
        }
        _setReserve(SafeTransfers.balanceOf(_BASE_TOKEN_, address(this)), quoteBalance);
        emit DODOSwap(_QUOTE_TOKEN_, _BASE_TOKEN_, quoteInput, receiveBaseAmount, msg.sender, to);
    }

    /// @notice Takes the pool's balances as its reserves (liquidity arrives by transfer). The first
    /// time, and for a DSP or DPP whenever R is one, the targets follow the reserves (R one), as a
    /// first deposit sets them.
    function sync() external preventReentrant {
        if (msg.sender != owner) revert DodoNotOwner();
        uint256 baseBalance = SafeTransfers.balanceOf(_BASE_TOKEN_, address(this));
        uint256 quoteBalance = SafeTransfers.balanceOf(_QUOTE_TOKEN_, address(this));
        if (kind != 0 && _RState_ == DodoPmmMath.R_ONE) _setTargets(baseBalance, quoteBalance);
        _setReserve(baseBalance, quoteBalance);
    }

    /// @notice The DPP owner's re-pricing: new fee, price and K, targets and reserves at the
    /// balances, R one (DPP's `reset` after its withdrawals).
    function reset(uint256 lpFeeRate, uint256 i, uint256 k) external preventReentrant {
        if (msg.sender != owner || kind != 2) revert DodoNotOwner();
        _setParameters(lpFeeRate, i, k);
        uint256 baseBalance = SafeTransfers.balanceOf(_BASE_TOKEN_, address(this));
        uint256 quoteBalance = SafeTransfers.balanceOf(_QUOTE_TOKEN_, address(this));
        _setTargets(baseBalance, quoteBalance);
        _RState_ = uint32(DodoPmmMath.R_ONE);
        _setReserve(baseBalance, quoteBalance);
    }

    function _takeFees(address trader, uint256 amount) private view returns (uint256 receive_, uint256 mtFee) {
        uint256 mtFeeRate =
            _MT_FEE_RATE_MODEL_ == address(0) ? 0 : IDodoFeeRateModel(_MT_FEE_RATE_MODEL_).getFeeRate(trader);
        mtFee = DodoPmmMath.mulFloor(amount, mtFeeRate);
        receive_ = amount - DodoPmmMath.mulFloor(amount, _LP_FEE_RATE_) - mtFee;
    }

    function _setParameters(uint256 lpFeeRate, uint256 i, uint256 k) private {
        if (i == 0 || i > 1e36 || k > 1e18 || lpFeeRate > 1e18) revert DodoBadParameter();
        (_LP_FEE_RATE_, _I_, _K_) = (lpFeeRate, i, k);
    }

    function _setTargets(uint256 baseTarget, uint256 quoteTarget) private {
        if (baseTarget > type(uint112).max || quoteTarget > type(uint112).max) revert DodoOverflow();
        (_BASE_TARGET_, _QUOTE_TARGET_) = (uint112(baseTarget), uint112(quoteTarget));
    }

    function _setReserve(uint256 baseReserve, uint256 quoteReserve) private {
        if (baseReserve > type(uint112).max || quoteReserve > type(uint112).max) revert DodoOverflow();
        _BASE_RESERVE_ = uint112(baseReserve);
        _QUOTE_RESERVE_ = uint112(quoteReserve);
    }

    function _transferOut(address token, address to, uint256 amount) private {
        if (amount > 0) SafeTransfers.safeTransfer(token, to, amount);
    }
}

/// @title DodoFeeRateModel
/// @notice Tests and the devnet only: a maintainer fee-rate model (18 decimals) with a default
/// rate and per-trader rates, as DODO's `FeeRateModel` with a fee implementation answers per
/// trader; anyone may set it.
contract DodoFeeRateModel {
    uint256 public defaultRate;
    mapping(address => uint256) private _rate;
    mapping(address => bool) private _hasRate;

    constructor(uint256 defaultRate_) {
        defaultRate = defaultRate_;
    }

    function getFeeRate(address trader) external view returns (uint256) {
        return _hasRate[trader] ? _rate[trader] : defaultRate;
    }

    function setTraderRate(address trader, uint256 rate) external {
        (_rate[trader], _hasRate[trader]) = (rate, true);
    }
}
