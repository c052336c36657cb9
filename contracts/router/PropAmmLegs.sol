// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LEG_PROP_AMM} from "./RouterTypes.sol";
import {AmountTooLarge, CallbackNotCalled, InvalidLegData, PartialFill, UnexpectedCallback} from "./RouterErrors.sol";
import {TokenTransfers} from "./TokenTransfers.sol";

// The `protocol` of a `prop_amm` leg, as its data encodes it (`abi.encode(uint8)`).
uint8 constant PROP_PROPSWAP = 0;
uint8 constant PROP_TESSERA = 1;
uint8 constant PROP_ELFOMOFI = 2;
uint8 constant PROP_LUNARBASE = 3;
uint8 constant PROP_FELTIR = 4;

interface IPropSwapRouterLike {
    function swapExactInput(
        address tokenIn,
        address tokenOut,
        uint256 amountIn,
        uint256 minOut,
        address recipient,
        uint256 deadline
    ) external returns (uint256);
}

interface ITesseraSwapLike {
    function tesseraSwapWithAllowances(
        address tokenIn,
        address tokenOut,
        int256 amountSpecified,
        uint256 amountCheck,
        address recipient,
        bytes calldata data
    ) external returns (uint256, uint256);
}

interface IElfomoFiLike {
    function swapWithCallback(
        address from,
        address to,
        int256 specifiedAmount,
        uint256 limit,
        address receiver,
        uint256 partnerId,
        bytes calldata callbackData
    ) external returns (uint256);
}

struct LunarExactInputParams {
    address tokenIn;
    address tokenOut;
    address recipient;
    uint256 amountIn;
    uint256 amountOutMinimum;
    uint256 deadline;
}

interface ILunarPoolLike {
    function swapExactIn(LunarExactInputParams calldata params) external returns (uint256);
}

interface IFeltirLike {
    function swap(
        address tokenIn,
        address tokenOut,
        int256 specifiedAmount,
        uint256 limit,
        address recipient
    ) external returns (uint256);
}

/// @notice `prop_amm` legs: a market maker's venue (PROPSWAP, TESSERA, ELFOMOFI, LUNARBASE, FELTIR)
/// swapped through its own entry point with the leg's `minOut` as the venue's own minimum, so a
/// venue re-priced against us reverts inside its call.
/// @dev `leg.pool` is the entry contract (the spec's `router`: PropSwap's router, Tessera's engine,
/// or the venue), untrusted like any pool. Venues that pull by allowance get exactly `amountIn`
/// approved for the call and the approval is cleared after it; ElfomoFi is paid in its callback,
/// accepted only from the venue being called, once, for exactly the leg's token and amount. Every
/// kind must spend exactly `amountIn` of the router's `tokenIn` (else `PartialFill`); the output is
/// measured by `SwapRouter` as for every leg.
abstract contract PropAmmLegs {
    address private transient elfomoVenue;
    address private transient elfomoTokenIn;
    uint256 private transient elfomoAmountIn;

    function elfomoFiSwapCallback(address tokenIn, uint256 amountIn, bytes calldata) external {
        address venue = elfomoVenue;
        if (msg.sender != venue || venue == address(0)) revert UnexpectedCallback(msg.sender);
        elfomoVenue = address(0);
        if (tokenIn != elfomoTokenIn || amountIn != elfomoAmountIn) revert PartialFill(venue, amountIn, elfomoAmountIn);
        TokenTransfers.safeTransfer(tokenIn, venue, amountIn);
    }

    /// `data` = abi.encode(uint8 protocol); the output goes to the router.
    function _swapPropAmm(
        address entry,
        address tokenIn,
        address tokenOut,
        uint256 amountIn,
        uint256 minOut,
        bytes calldata data
    ) internal {
        if (data.length != 32 || entry == address(0)) revert InvalidLegData(LEG_PROP_AMM);
        uint256 protocol = abi.decode(data, (uint256));
        if (amountIn > uint256(type(int256).max)) revert AmountTooLarge(amountIn);
        uint256 balanceBefore = TokenTransfers.balanceOfSelf(tokenIn);
        if (protocol == PROP_ELFOMOFI) {
            (elfomoVenue, elfomoTokenIn, elfomoAmountIn) = (entry, tokenIn, amountIn);
            IElfomoFiLike(entry).swapWithCallback(tokenIn, tokenOut, int256(amountIn), minOut, address(this), 0, "");
            if (elfomoVenue != address(0)) revert CallbackNotCalled(entry);
        } else {
            TokenTransfers.safeApprove(tokenIn, entry, amountIn);
            if (protocol == PROP_PROPSWAP) {
                IPropSwapRouterLike(entry).swapExactInput(
                    tokenIn,
                    tokenOut,
                    amountIn,
                    minOut,
                    address(this),
                    block.timestamp
                );
            } else if (protocol == PROP_TESSERA) {
                ITesseraSwapLike(entry).tesseraSwapWithAllowances(
                    tokenIn,
                    tokenOut,
                    int256(amountIn),
                    minOut,
                    address(this),
                    ""
                );
            } else if (protocol == PROP_LUNARBASE) {
                ILunarPoolLike(entry).swapExactIn(
                    LunarExactInputParams(tokenIn, tokenOut, address(this), amountIn, minOut, block.timestamp)
                );
            } else if (protocol == PROP_FELTIR) {
                IFeltirLike(entry).swap(tokenIn, tokenOut, int256(amountIn), minOut, address(this));
            } else {
                revert InvalidLegData(LEG_PROP_AMM);
            }
            TokenTransfers.safeApprove(tokenIn, entry, 0);
        }
        uint256 balanceAfter = TokenTransfers.balanceOfSelf(tokenIn);
        uint256 spent = balanceAfter < balanceBefore ? balanceBefore - balanceAfter : 0;
        if (spent != amountIn) revert PartialFill(entry, spent, amountIn);
    }
}
