// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeTransfers} from "../common/SafeTransfers.sol";

interface ILockCallback {
    function lockAcquired(bytes calldata data) external returns (bytes memory);
}

/// @title Vault (stand-in)
/// @notice PancakeSwap Infinity's `Vault` as an integrator sees it (pancakeswap/infinity-core
/// `src/Vault.sol`): it holds every pool manager's tokens; `lock(data)` makes the caller the
/// locker and calls its `lockAcquired(data)`, inside which registered pool managers account
/// balance deltas to whoever called them (`accountAppBalanceDelta`), the caller pays with `sync`
/// + transfer + `settle` (or native value) and is paid with `take`; the lock ends only when every
/// delta is back to zero (`CurrencyNotSettled`). The native currency is address(0).
/// @dev Written for the devnet from the published interface and rules, not copied; the lock
/// state lives in transient storage, as in the original. Not here: the ERC-6909 claim tokens
/// (`mint`/`burn` of vault balances) and two-step ownership.
contract Vault {
    address public owner;
    mapping(address => bool) public isAppRegistered;
    mapping(address => mapping(address => uint256)) public reservesOfApp;

    bytes32 private constant LOCKER_SLOT = keccak256("stand-in.infinity.vault.locker");
    bytes32 private constant UNSETTLED_SLOT = keccak256("stand-in.infinity.vault.unsettled");
    bytes32 private constant DELTA_SEED = keccak256("stand-in.infinity.vault.delta");
    bytes32 private constant RESERVE_CURRENCY_SLOT = keccak256("stand-in.infinity.vault.reserve.currency");
    bytes32 private constant RESERVE_AMOUNT_SLOT = keccak256("stand-in.infinity.vault.reserve.amount");

    event AppRegistered(address indexed app);

    error AppUnregistered();
    error CurrencyNotSettled();
    error LockerAlreadySet(address locker);
    error SettleNonNativeCurrencyWithValue();
    error MustClearExactPositiveDelta();
    error NoLocker();
    error FeeCurrencySynced();
    error NotOwner();
    error SafeCastOverflow();
    error NativeTransferFailed(address to);

    modifier onlyRegisteredApp() {
        if (!isAppRegistered[msg.sender]) revert AppUnregistered();
        _;
    }

    modifier isLocked() {
        if (getLocker() == address(0)) revert NoLocker();
        _;
    }

    constructor() {
        owner = msg.sender;
    }

    function registerApp(address app) external {
        if (msg.sender != owner) revert NotOwner();
        isAppRegistered[app] = true;
        emit AppRegistered(app);
    }

    function getLocker() public view returns (address locker) {
        bytes32 slot = LOCKER_SLOT;
        assembly ("memory-safe") {
            locker := tload(slot)
        }
    }

    function getUnsettledDeltasCount() public view returns (uint256 count) {
        bytes32 slot = UNSETTLED_SLOT;
        assembly ("memory-safe") {
            count := tload(slot)
        }
    }

    function currencyDelta(address settler, address currency) public view returns (int256 delta) {
        bytes32 slot = keccak256(abi.encode(settler, currency, DELTA_SEED));
        assembly ("memory-safe") {
            delta := tload(slot)
        }
    }

    function getVaultReserve() public view returns (address currency, uint256 amount) {
        (bytes32 currencySlot, bytes32 amountSlot) = (RESERVE_CURRENCY_SLOT, RESERVE_AMOUNT_SLOT);
        assembly ("memory-safe") {
            currency := tload(currencySlot)
            amount := tload(amountSlot)
        }
    }

    /// Runs `lockAcquired(data)` on the caller; every delta must be settled when it returns.
    function lock(bytes calldata data) external returns (bytes memory result) {
        address current = getLocker();
        if (current != address(0)) revert LockerAlreadySet(current);
        _setLocker(msg.sender);
        result = ILockCallback(msg.sender).lockAcquired(data);
        if (getUnsettledDeltasCount() != 0) revert CurrencyNotSettled();
        _setLocker(address(0));
    }

    /// A pool manager's record of what `settler` owes (negative) or is owed (positive).
    function accountAppBalanceDelta(
        address currency0,
        address currency1,
        int256 delta,
        address settler
    ) external isLocked onlyRegisteredApp {
        int128 delta0 = int128(delta >> 128);
        int128 delta1 = int128(delta);
        _accountDeltaForApp(currency0, delta0);
        _accountDeltaForApp(currency1, delta1);
        _accountDelta(settler, currency0, delta0);
        _accountDelta(settler, currency1, delta1);
    }

    function accountAppBalanceDelta(
        address currency,
        int128 delta,
        address settler
    ) external isLocked onlyRegisteredApp {
        _accountDeltaForApp(currency, delta);
        _accountDelta(settler, currency, delta);
    }

    function take(address currency, address to, uint256 amount) external isLocked {
        _accountDelta(msg.sender, currency, -_toInt128(amount));
        _transfer(currency, to, amount);
    }

    /// Records the vault's balance of `currency`, so the next `settle` can count what arrived.
    function sync(address currency) public {
        uint256 balance = currency == address(0) ? 0 : SafeTransfers.balanceOf(currency, address(this));
        _setReserve(currency, balance);
    }

    function settle() external payable isLocked returns (uint256) {
        return _settle(msg.sender);
    }

    function settleFor(address recipient) external payable isLocked returns (uint256) {
        return _settle(recipient);
    }

    /// Forgoes exactly the caller's positive delta of `currency`.
    function clear(address currency, uint256 amount) external isLocked {
        int128 amountDelta = _toInt128(amount);
        if (amountDelta != currencyDelta(msg.sender, currency)) revert MustClearExactPositiveDelta();
        _accountDelta(msg.sender, currency, -amountDelta);
    }

    /// A pool manager pays out protocol fees it accrued.
    function collectFee(address currency, uint256 amount, address recipient) external onlyRegisteredApp {
        (address synced, ) = getVaultReserve();
        if (currency != address(0) && synced == currency) revert FeeCurrencySynced();
        reservesOfApp[msg.sender][currency] -= amount;
        _transfer(currency, recipient, amount);
    }

    function _settle(address recipient) private returns (uint256 paid) {
        (address currency, uint256 reservesBefore) = getVaultReserve();
        if (currency != address(0)) {
            if (msg.value > 0) revert SettleNonNativeCurrencyWithValue();
            paid = SafeTransfers.balanceOf(currency, address(this)) - reservesBefore;
            _setReserve(address(0), 0);
        } else {
            paid = msg.value;
        }
        _accountDelta(recipient, currency, _toInt128(paid));
    }

    function _accountDeltaForApp(address currency, int128 delta) private {
        if (delta == 0) return;
        if (delta >= 0) reservesOfApp[msg.sender][currency] -= uint128(delta);
        else reservesOfApp[msg.sender][currency] += uint128(-delta);
    }

    /// Adds to a settler's delta, counting the deltas that are not zero.
    function _accountDelta(address settler, address currency, int256 added) private {
        if (added == 0) return;
        int256 current = currencyDelta(settler, currency);
        int256 next = current + added;
        uint256 unsettled = getUnsettledDeltasCount();
        if (next == 0) unsettled -= 1;
        else if (current == 0) unsettled += 1;
        (bytes32 deltaSlot, bytes32 countSlot) = (keccak256(abi.encode(settler, currency, DELTA_SEED)), UNSETTLED_SLOT);
        assembly ("memory-safe") {
            tstore(deltaSlot, next)
            tstore(countSlot, unsettled)
        }
    }

    function _setLocker(address locker) private {
        bytes32 slot = LOCKER_SLOT;
        assembly ("memory-safe") {
            tstore(slot, locker)
        }
    }

    function _setReserve(address currency, uint256 amount) private {
        (bytes32 currencySlot, bytes32 amountSlot) = (RESERVE_CURRENCY_SLOT, RESERVE_AMOUNT_SLOT);
        assembly ("memory-safe") {
            tstore(currencySlot, currency)
            tstore(amountSlot, amount)
        }
    }

    function _transfer(address currency, address to, uint256 amount) private {
        if (currency == address(0)) {
            (bool ok, ) = to.call{value: amount}("");
            if (!ok) revert NativeTransferFailed(to);
        } else {
            SafeTransfers.safeTransfer(currency, to, amount);
        }
    }

    function _toInt128(uint256 amount) private pure returns (int128) {
        if (amount > uint256(uint128(type(int128).max))) revert SafeCastOverflow();
        return int128(uint128(amount));
    }
}
