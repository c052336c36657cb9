// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeTransfers} from "../common/SafeTransfers.sol";
import {WooPPV2} from "./WooPPV2.sol";
import {WooStorageLock} from "./WooStorageLock.sol";

/// @title WooRouterV2 (stand-in)
/// @notice WOOFi's router, the target of the spec's `woofi {router}` leg, following the published
/// WooRouterV2 (woonetwork/WooPoolV2 `contracts/WooRouterV2.sol`): `swap(fromToken, toToken,
/// fromAmount, minToAmount, to, rebateTo)` pulls `fromAmount` from the caller straight into the
/// pool and calls the pool's `swap`, which pays `to`; `querySwap` is the pool's `query` (reserve
/// checks included) and `tryQuerySwap` its `tryQuery` (0 for a zero address).
/// @dev Written for the devnet from the published source (read for facts, not copied). Left out:
/// native ETH through the 0xEeee… placeholder (our router trades WETH, so the leg never sends
/// ETH; a call with value reverts as the real one does for an ERC-20 input) and `externalSwap`
/// through whitelisted third-party DEXes. The reentrancy word is in storage as in the real router.
contract WooRouterV2 is WooStorageLock {
    enum SwapType {
        WooSwap,
        DodoSwap
    }

    address public immutable WETH;
    WooPPV2 public wooPool;
    address public quoteToken;
    address public owner;

    event WooRouterSwap(
        SwapType swapType,
        address indexed fromToken,
        address indexed toToken,
        uint256 fromAmount,
        uint256 toAmount,
        address from,
        address indexed to,
        address rebateTo
    );
    event WooPoolChanged(address newPool);

    constructor(address _weth, address _pool) {
        require(_weth != address(0), "WooRouter: weth_ZERO_ADDR");
        owner = msg.sender;
        WETH = _weth;
        if (_pool != address(0)) setPool(_pool);
    }

    function querySwap(
        address fromToken,
        address toToken,
        uint256 fromAmount
    ) external view returns (uint256 toAmount) {
        require(fromToken != address(0), "WooRouter: !fromToken");
        require(toToken != address(0), "WooRouter: !toToken");
        toAmount = wooPool.query(fromToken, toToken, fromAmount);
    }

    function tryQuerySwap(
        address fromToken,
        address toToken,
        uint256 fromAmount
    ) external view returns (uint256 toAmount) {
        if (fromToken == address(0) || toToken == address(0)) return 0;
        toAmount = wooPool.tryQuery(fromToken, toToken, fromAmount);
    }

    function swap(
        address fromToken,
        address toToken,
        uint256 fromAmount,
        uint256 minToAmount,
        address payable to,
        address rebateTo
    ) external payable nonReentrant returns (uint256 realToAmount) {
        require(fromToken != address(0), "WooRouter: !fromToken");
        require(toToken != address(0), "WooRouter: !toToken");
        require(to != address(0), "WooRouter: !to");
        require(msg.value == 0, "WooRouter: !msg.value");
        if (!SafeTransfers.trySafeTransferFrom(fromToken, msg.sender, address(wooPool), fromAmount))
            revert SafeTransfers.SafeTransferFailed(fromToken);
        realToAmount = wooPool.swap(fromToken, toToken, fromAmount, minToAmount, to, rebateTo);
        emit WooRouterSwap(SwapType.WooSwap, fromToken, toToken, fromAmount, realToAmount, msg.sender, to, rebateTo);
    }

    function setPool(address newPool) public {
        require(msg.sender == owner, "Ownable: caller is not the owner");
        wooPool = WooPPV2(newPool);
        quoteToken = wooPool.quoteToken();
        require(quoteToken != address(0), "WooRouter: quoteToken_ADDR_ZERO");
        emit WooPoolChanged(newPool);
    }
}
