// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {AmountTooLarge, InvalidLegData} from "./RouterErrors.sol";
import {WrappedNative} from "./WrappedNative.sol";

/// @notice What the singleton-manager legs (`univ4`, `pancake_infinity_cl`) share: a key's two
/// currencies against the leg's tokens, where WETH on the leg stands for the native currency
/// (address 0) of a key that holds it, and the int128 bound of their balance deltas.
abstract contract SingletonLegs is WrappedNative {
    /// The direction of a leg through a key (currency0 < currency1); reverts `InvalidLegData(kind)`
    /// unless the leg trades exactly the key's two currencies, and `AmountTooLarge` past int128.
    function _singletonDirection(
        address tokenIn,
        address tokenOut,
        address currency0,
        address currency1,
        uint256 amountIn,
        uint8 kind
    ) internal view returns (bool zeroForOne) {
        address currencyIn = _currencyOf(tokenIn, currency0);
        address currencyOut = _currencyOf(tokenOut, currency0);
        zeroForOne = currencyIn == currency0;
        if (zeroForOne ? currencyOut != currency1 : (currencyIn != currency1 || currencyOut != currency0)) {
            revert InvalidLegData(kind);
        }
        if (amountIn > uint256(uint128(type(int128).max))) revert AmountTooLarge(amountIn);
    }

    /// WETH on the leg trades as the native currency in a key whose currency0 is address(0).
    function _currencyOf(address token, address currency0) private view returns (address) {
        return token == WETH && currency0 == address(0) ? address(0) : token;
    }
}
