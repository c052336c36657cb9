// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

interface IERC20ForCurveIndex {
    function transferFrom(address from, address to, uint256 value) external returns (bool);
    function approve(address spender, uint256 value) external returns (bool);
}

interface ICurveInt128Pool {
    function coins(uint256 i) external view returns (address);
    function exchange(int128 i, int128 j, uint256 dx, uint256 minDy, address receiver) external returns (uint256);
}

/// @notice Test double for the router's `uint256`-index `curve` leg: the CryptoSwap pools'
/// `exchange(uint256 i, uint256 j, uint256 dx, uint256 min_dy)` (twocrypto-ng, tricrypto-ng: pull
/// `dx` of coin `i` from the caller by `transferFrom`, pay coin `j` to the caller) in front of a
/// StableSwap pool, whose own `int128` `exchange` does the math and pays the caller directly. No
/// registry ships a CryptoSwap pool's source (docs/dex-kinds.md, "CURVE"); this proves the selector
/// and the payment flow the router uses for them, not their math.
contract CurveUint256IndexPool {
    ICurveInt128Pool public immutable pool;

    constructor(ICurveInt128Pool pool_) {
        pool = pool_;
    }

    function coins(uint256 i) external view returns (address) {
        return pool.coins(i);
    }

    function exchange(uint256 i, uint256 j, uint256 dx, uint256 minDy) external returns (uint256) {
        address coin = pool.coins(i);
        require(IERC20ForCurveIndex(coin).transferFrom(msg.sender, address(this), dx), "transferFrom");
        require(IERC20ForCurveIndex(coin).approve(address(pool), dx), "approve");
        return pool.exchange(int128(int256(i)), int128(int256(j)), dx, minDy, msg.sender);
    }
}
