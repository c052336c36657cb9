// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {
    IInfinityClPoolManagerLike,
    IInfinityVaultLike,
    InfinityPoolKey,
    InfinitySwapParams
} from "../router/InfinityLegs.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";

interface IERC20Like {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// The CL pool manager's liquidity entry point, which the router never calls (its legs only swap).
struct InfinityModifyLiquidityParams {
    int24 tickLower;
    int24 tickUpper;
    int256 liquidityDelta;
    bytes32 salt;
}

interface IInfinityClLiquidityLike is IInfinityClPoolManagerLike {
    /// Returns the caller's BalanceDelta and the fees accrued, each packed as in `swap`.
    function modifyLiquidity(
        InfinityPoolKey memory key,
        InfinityModifyLiquidityParams memory params,
        bytes calldata hookData
    ) external returns (int256 delta, int256 feeDelta);
}

/// @title InfinityTestRouter
/// @notice Adds liquidity to and swaps on the Infinity CL stand-in for the seed and the tests, the
/// way an integrator does it: lock the vault, act on the pool manager inside `lockAcquired`, pay
/// each negative delta (sync, transferFrom the caller into the vault, settle; the native currency
/// from the call's value) and take each positive one to the recipient. Unspent value is refunded.
contract InfinityTestRouter {
    IInfinityVaultLike public immutable vault;
    IInfinityClLiquidityLike public immutable manager;

    enum Action {
        ModifyLiquidity,
        Swap
    }

    error NotVault(address caller);
    error RefundFailed(address payer);

    constructor(IInfinityVaultLike vault_, IInfinityClLiquidityLike manager_) {
        vault = vault_;
        manager = manager_;
    }

    function modifyLiquidity(
        InfinityPoolKey calldata key,
        InfinityModifyLiquidityParams calldata params
    ) external payable returns (int256 delta) {
        bytes memory result = vault.lock(
            abi.encode(Action.ModifyLiquidity, msg.sender, msg.sender, key, abi.encode(params))
        );
        delta = abi.decode(result, (int256));
        _refund();
    }

    function swap(
        InfinityPoolKey calldata key,
        InfinitySwapParams calldata params,
        address recipient
    ) external payable returns (int256 delta) {
        bytes memory result = vault.lock(abi.encode(Action.Swap, msg.sender, recipient, key, abi.encode(params)));
        delta = abi.decode(result, (int256));
        _refund();
    }

    function lockAcquired(bytes calldata data) external returns (bytes memory) {
        if (msg.sender != address(vault)) revert NotVault(msg.sender);
        (Action action, address payer, address recipient, InfinityPoolKey memory key, bytes memory params) = abi.decode(
            data,
            (Action, address, address, InfinityPoolKey, bytes)
        );
        int256 packed;
        if (action == Action.ModifyLiquidity) {
            (packed, ) = manager.modifyLiquidity(key, abi.decode(params, (InfinityModifyLiquidityParams)), "");
        } else {
            packed = manager.swap(key, abi.decode(params, (InfinitySwapParams)), "");
        }
        BalanceDelta delta = BalanceDelta.wrap(packed);
        _close(key.currency0, delta.amount0(), payer, recipient);
        _close(key.currency1, delta.amount1(), payer, recipient);
        return abi.encode(packed);
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
