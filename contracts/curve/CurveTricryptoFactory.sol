// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CurveTricryptoPool} from "./CurveTricryptoPool.sol";

/// @title CurveTricryptoFactory (stand-in)
/// @notice Deploys our tricrypto-ng stand-in pools (`CurveTricryptoPool`) on the deployed
/// tricrypto-ng math contract, and announces each with tricrypto-ng's factory event,
/// `TricryptoPoolDeployed`, which names the pool (the service discovers CryptoSwap pools from it,
/// docs/dex-kinds.md). `deploy_pool` takes the real factory's arguments; the stand-in keeps A,
/// gamma, the three fee parameters and the initial prices, and records `_weth` and the rebalancing
/// ones (`allowed_extra_profit`, `adjustment_step`, `ma_exp_time`) only in the event: its pools do
/// not repeg nor unwrap WETH. The event's `salt` is zero.
contract CurveTricryptoFactory {
    address public admin;
    address public immutable math_implementation;

    event TricryptoPoolDeployed(
        address pool,
        string name,
        string symbol,
        address weth,
        address[3] coins,
        address math,
        bytes32 salt,
        uint256 packed_precisions,
        uint256 packed_A_gamma,
        uint256 packed_fee_params,
        uint256 packed_rebalancing_params,
        uint256 packed_prices,
        address deployer
    );

    constructor(address admin_, address math_) {
        admin = admin_;
        math_implementation = math_;
    }

    function deploy_pool(
        string memory _name,
        string memory _symbol,
        address[3] memory _coins,
        address _weth,
        uint256 /* implementation_id */,
        uint256 A,
        uint256 gamma,
        uint256 mid_fee,
        uint256 out_fee,
        uint256 fee_gamma,
        uint256 allowed_extra_profit,
        uint256 adjustment_step,
        uint256 ma_exp_time,
        uint256[2] memory initial_prices
    ) external returns (address pool) {
        require(msg.sender == admin, "admin only");
        require(_coins[0] != _coins[1] && _coins[1] != _coins[2] && _coins[0] != _coins[2], "same coin");
        uint8[3] memory decimals = [_decimals(_coins[0]), _decimals(_coins[1]), _decimals(_coins[2])];
        pool = address(
            new CurveTricryptoPool(
                _coins,
                decimals,
                math_implementation,
                [A, gamma, mid_fee, out_fee, fee_gamma],
                initial_prices,
                _name,
                _symbol
            )
        );
        emit TricryptoPoolDeployed(
            pool,
            _name,
            _symbol,
            _weth,
            _coins,
            math_implementation,
            bytes32(0),
            _pack(
                10 ** (18 - uint256(decimals[0])),
                10 ** (18 - uint256(decimals[1])),
                10 ** (18 - uint256(decimals[2]))
            ),
            (A << 128) | gamma,
            _pack(mid_fee, out_fee, fee_gamma),
            _pack(allowed_extra_profit, adjustment_step, ma_exp_time),
            (initial_prices[1] << 128) | initial_prices[0],
            msg.sender
        );
    }

    /// tricrypto-ng's packing of three values below 2^64.
    function _pack(uint256 a, uint256 b, uint256 c) private pure returns (uint256) {
        return (a << 128) | (b << 64) | c;
    }

    function _decimals(address token) private view returns (uint8) {
        (bool ok, bytes memory answer) = token.staticcall(abi.encodeWithSignature("decimals()"));
        require(ok && answer.length == 32, "decimals()");
        return abi.decode(answer, (uint8));
    }
}
