// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CurveTwocryptoPool} from "./CurveTwocryptoPool.sol";

/// @title CurveTwocryptoFactory (stand-in)
/// @notice Deploys our twocrypto-ng stand-in pools (`CurveTwocryptoPool`) and announces each with
/// twocrypto-ng's factory event, `TwocryptoPoolDeployed`, which names the pool (the service
/// discovers CryptoSwap pools from it, docs/dex-kinds.md). `deploy_pool` takes the real factory's
/// arguments; the stand-in keeps A, gamma, the three fee parameters and the initial price, and
/// records the rebalancing ones (`allowed_extra_profit`, `adjustment_step`, `ma_exp_time`) only in
/// the event: its pools do not repeg. `math` in the event is zero (the math is linked into the pool).
contract CurveTwocryptoFactory {
    address public admin;

    event TwocryptoPoolDeployed(
        address pool,
        string name,
        string symbol,
        address[2] coins,
        address math,
        bytes32 salt,
        uint256[2] precisions,
        uint256 packed_A_gamma,
        uint256 packed_fee_params,
        uint256 packed_rebalancing_params,
        uint256 packed_prices,
        address deployer
    );

    constructor(address admin_) {
        admin = admin_;
    }

    function deploy_pool(
        string memory name,
        string memory symbol,
        address[2] memory coins,
        uint256 /* implementation_id */,
        uint256 A,
        uint256 gamma,
        uint256 mid_fee,
        uint256 out_fee,
        uint256 fee_gamma,
        uint256 allowed_extra_profit,
        uint256 adjustment_step,
        uint256 ma_exp_time,
        uint256 initial_price
    ) external returns (address pool) {
        require(msg.sender == admin, "admin only");
        require(coins[0] != coins[1], "same coin");
        uint8[2] memory decimals = [_decimals(coins[0]), _decimals(coins[1])];
        pool = address(
            new CurveTwocryptoPool(coins, decimals, A, gamma, mid_fee, out_fee, fee_gamma, initial_price, name, symbol)
        );
        emit TwocryptoPoolDeployed(
            pool,
            name,
            symbol,
            coins,
            address(0),
            bytes32(0),
            [10 ** (18 - uint256(decimals[0])), 10 ** (18 - uint256(decimals[1]))],
            (A << 128) | gamma,
            (mid_fee << 128) | (out_fee << 64) | fee_gamma,
            (allowed_extra_profit << 128) | (adjustment_step << 64) | ma_exp_time,
            initial_price,
            msg.sender
        );
    }

    function _decimals(address token) private view returns (uint8) {
        (bool ok, bytes memory answer) = token.staticcall(abi.encodeWithSignature("decimals()"));
        require(ok && answer.length == 32, "decimals()");
        return abi.decode(answer, (uint8));
    }
}
