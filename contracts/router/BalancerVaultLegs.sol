// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LEG_BALANCER_VAULT} from "./RouterTypes.sol";
import {InvalidLegData, PartialFill} from "./RouterErrors.sol";
import {TokenTransfers} from "./TokenTransfers.sol";

/// @notice The Balancer V2 Vault's single swap, as its published interface declares it.
interface IBalancerV2VaultSwap {
    struct SingleSwap {
        bytes32 poolId;
        uint8 kind;
        address assetIn;
        address assetOut;
        uint256 amount;
        bytes userData;
    }

    struct FundManagement {
        address sender;
        bool fromInternalBalance;
        address payable recipient;
        bool toInternalBalance;
    }

    function swap(
        SingleSwap calldata singleSwap,
        FundManagement calldata funds,
        uint256 limit,
        uint256 deadline
    ) external payable returns (uint256);
}

// The Vault's `SwapKind.GIVEN_IN`.
uint8 constant BALANCER_GIVEN_IN = 0;

/// @notice `balancer_vault` legs: one `Vault.swap` given in, on any pool registered in a Balancer V2
/// Vault (GYROSCOPE_ECLP's E-CLPs), paid to the router from its own token balance (no internal
/// balances), with the leg's `minOut` as the Vault's own `limit`.
/// @dev `leg.pool` is the Vault and is untrusted like any pool: the router approves it exactly
/// `amountIn` of `tokenIn` for the call and clears the approval after it (so a token that refuses
/// to change a non-zero allowance, USDT's rule, always starts from zero); the leg must spend exactly
/// `amountIn` (else `PartialFill`), and its output is what the router's balance shows arrived
/// (`SwapRouter`), whatever the Vault returns. A pool id whose pool does not trade `tokenIn` for
/// `tokenOut` makes the Vault revert. The Vault's deadline is the block's timestamp: the router
/// checked the call's own deadline at entry.
abstract contract BalancerVaultLegs {
    /// `data` = abi.encode(bytes32 poolId), a non-zero id; anything else `InvalidLegData(14)`.
    function _swapBalancerVault(
        address vault,
        address tokenIn,
        address tokenOut,
        uint256 amountIn,
        uint256 minOut,
        bytes calldata data
    ) internal {
        if (data.length != 32 || vault == address(0)) revert InvalidLegData(LEG_BALANCER_VAULT);
        bytes32 poolId = abi.decode(data, (bytes32));
        if (poolId == bytes32(0)) revert InvalidLegData(LEG_BALANCER_VAULT);
        uint256 balanceBefore = TokenTransfers.balanceOfSelf(tokenIn);
        TokenTransfers.safeApprove(tokenIn, vault, amountIn);
        IBalancerV2VaultSwap(vault).swap(
            IBalancerV2VaultSwap.SingleSwap(poolId, BALANCER_GIVEN_IN, tokenIn, tokenOut, amountIn, ""),
            IBalancerV2VaultSwap.FundManagement(address(this), false, payable(address(this)), false),
            minOut,
            block.timestamp
        );
        TokenTransfers.safeApprove(tokenIn, vault, 0);
        uint256 balanceAfter = TokenTransfers.balanceOfSelf(tokenIn);
        uint256 spent = balanceAfter < balanceBefore ? balanceBefore - balanceAfter : 0;
        if (spent != amountIn) revert PartialFill(vault, spent, amountIn);
    }
}
