// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {PoolKey, CLPoolManager} from "./CLPoolManager.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";

interface IVaultLike {
    function lock(bytes calldata data) external returns (bytes memory);
    function sync(address currency) external;
    function settle() external payable returns (uint256);
    function take(address currency, address to, uint256 amount) external;
}

interface IERC20Like {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @title InfinityTestRouter
/// @notice Adds liquidity to and swaps on the Infinity CL stand-in for the seed and the tests, the
/// way an integrator does it: lock the vault, act on the pool manager inside `lockAcquired`, pay
/// each negative delta (sync, transferFrom the caller into the vault, settle; the native currency
/// from the call's value) and take each positive one to the recipient. Unspent value is refunded.
contract InfinityTestRouter {
    IVaultLike public immutable vault;
    CLPoolManager public immutable manager;

    enum Action {
        ModifyLiquidity,
        Swap
    }

    error NotVault(address caller);
    error RefundFailed(address payer);

    constructor(IVaultLike vault_, CLPoolManager manager_) {
        vault = vault_;
        manager = manager_;
    }

    function modifyLiquidity(
        PoolKey calldata key,
        CLPoolManager.ModifyLiquidityParams calldata params
    ) external payable returns (int256 delta) {
        bytes memory result = vault.lock(
            abi.encode(Action.ModifyLiquidity, msg.sender, msg.sender, key, abi.encode(params))
        );
        delta = abi.decode(result, (int256));
        _refund();
    }

    function swap(
        PoolKey calldata key,
        CLPoolManager.SwapParams calldata params,
        address recipient
    ) external payable returns (int256 delta) {
        bytes memory result = vault.lock(abi.encode(Action.Swap, msg.sender, recipient, key, abi.encode(params)));
        delta = abi.decode(result, (int256));
        _refund();
    }

    function lockAcquired(bytes calldata data) external returns (bytes memory) {
        if (msg.sender != address(vault)) revert NotVault(msg.sender);
        (Action action, address payer, address recipient, PoolKey memory key, bytes memory params) = abi.decode(
            data,
            (Action, address, address, PoolKey, bytes)
        );
        BalanceDelta delta;
        if (action == Action.ModifyLiquidity) {
            (delta, ) = manager.modifyLiquidity(key, abi.decode(params, (CLPoolManager.ModifyLiquidityParams)), "");
        } else {
            delta = manager.swap(key, abi.decode(params, (CLPoolManager.SwapParams)), "");
        }
        _close(key.currency0, delta.amount0(), payer, recipient);
        _close(key.currency1, delta.amount1(), payer, recipient);
        return abi.encode(BalanceDelta.unwrap(delta));
    }

    function _close(address currency, int128 amount, address payer, address recipient) private {
        if (amount < 0 && currency == address(0)) {
            vault.settle{value: uint256(uint128(-amount))}();
        } else if (amount < 0) {
            vault.sync(currency);
            require(IERC20Like(currency).transferFrom(payer, address(vault), uint256(uint128(-amount))), "pay");
            vault.settle();
        } else if (amount > 0) {
            vault.take(currency, recipient, uint256(uint128(amount)));
        }
    }

    function _refund() private {
        if (address(this).balance == 0) return;
        (bool ok, ) = msg.sender.call{value: address(this).balance}("");
        if (!ok) revert RefundFailed(msg.sender);
    }
}
