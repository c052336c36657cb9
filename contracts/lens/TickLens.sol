// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// Reads a concentrated-liquidity pool's tick bitmap inside the EVM and returns only what is set:
/// the non-empty bitmap words and each initialized tick's liquidityNet. Never deployed: the
/// service runs it with `eth_call` and a state override that puts this runtime code at a fixed
/// address (src/adapters/state/scanTickBitmap.ts), so one call replaces thousands of word reads.
/// The caller chunks the word range so one call stays well under the node's eth_call gas cap.
contract TickLens {
    /// Word positions outside the pool's range, or a reversed range.
    error BadWordRange(int16 fromWord, int16 toWord);
    /// A pool or PoolManager read that reverted or returned too little.
    error ReadFailed(address target);

    /// Uniswap V3 pools and forks with the same getters (Pancake V3, Alien Base V3): bitmap words
    /// `tickBitmap(int16)` for `fromWord..=toWord`, then `ticks(int24)`'s second field
    /// (liquidityNet) for every set bit. Ticks ascend; tick = (256·word + bit)·tickSpacing.
    function scanV3(
        address pool,
        int24 tickSpacing,
        int16 fromWord,
        int16 toWord
    )
        external
        view
        returns (
            int16[] memory wordPositions,
            uint256[] memory words,
            int24[] memory ticks,
            int128[] memory liquidityNets
        )
    {
        (wordPositions, words) = _nonEmptyWords(pool, bytes32(0), fromWord, toWord);
        ticks = _ticksOf(wordPositions, words, tickSpacing);
        liquidityNets = new int128[](ticks.length);
        bool ok = true;
        assembly ("memory-safe") {
            // ticks(int24) returns (uint128 liquidityGross, int128 liquidityNet, ...): keep word 1.
            // Calldata and return word go through scratch space: no memory grows per tick.
            let n := mload(ticks)
            for {
                let i := 0
            } lt(i, n) {
                i := add(i, 1)
            } {
                mstore(0x00, shl(224, 0xf30dba93))
                mstore(0x04, mload(add(add(ticks, 0x20), mul(i, 0x20))))
                ok := and(ok, staticcall(gas(), pool, 0x00, 0x24, 0x00, 0x00))
                ok := and(ok, iszero(lt(returndatasize(), 0x40)))
                if ok {
                    returndatacopy(0x00, 0x20, 0x20)
                }
                mstore(add(add(liquidityNets, 0x20), mul(i, 0x20)), signextend(15, mload(0x00)))
            }
        }
        if (!ok) revert ReadFailed(pool);
    }

    /// Uniswap V4 (and any PoolManager with `extsload(bytes32[])` and V4's `Pool.State` layout):
    /// `stateSlot` is the pool's `Pool.State` slot; the bitmap is the mapping at `stateSlot + 5`
    /// (int16 keys), the ticks at `stateSlot + 4`, liquidityNet the high 128 bits of a tick's
    /// first word. One `extsload` for all words of the range, one for all ticks.
    function scanV4(
        address poolManager,
        bytes32 stateSlot,
        int24 tickSpacing,
        int16 fromWord,
        int16 toWord
    )
        external
        view
        returns (
            int16[] memory wordPositions,
            uint256[] memory words,
            int24[] memory ticks,
            int128[] memory liquidityNets
        )
    {
        (wordPositions, words) = _nonEmptyWords(poolManager, stateSlot, fromWord, toWord);
        ticks = _ticksOf(wordPositions, words, tickSpacing);
        bytes32 ticksSlot = bytes32(uint256(stateSlot) + 4);
        bytes32[] memory slots = new bytes32[](ticks.length);
        for (uint256 i = 0; i < ticks.length; i++) {
            slots[i] = keccak256(abi.encode(int256(ticks[i]), ticksSlot));
        }
        uint256[] memory infos = _extsload(poolManager, slots);
        liquidityNets = new int128[](ticks.length);
        for (uint256 i = 0; i < ticks.length; i++) {
            liquidityNets[i] = int128(int256(infos[i]) >> 128);
        }
    }

    /// PancakeSwap Infinity's CL pool manager, through its getters: `getPoolBitmapInfo(id, word)`
    /// for `fromWord..=toWord`, then `getPoolTickInfo(id, tick)`'s second field (liquidityNet) for
    /// every set bit (the manager's storage layout is not part of its interface).
    function scanInfinityCl(
        address poolManager,
        bytes32 poolId,
        int24 tickSpacing,
        int16 fromWord,
        int16 toWord
    )
        external
        view
        returns (
            int16[] memory wordPositions,
            uint256[] memory words,
            int24[] memory ticks,
            int128[] memory liquidityNets
        )
    {
        if (toWord < fromWord) revert BadWordRange(fromWord, toWord);
        (wordPositions, words) = _compact(_infinityWords(poolManager, poolId, fromWord, toWord), fromWord);
        ticks = _ticksOf(wordPositions, words, tickSpacing);
        liquidityNets = _infinityNets(poolManager, poolId, ticks);
    }

    /// Every word of `fromWord..=toWord` through `getPoolBitmapInfo(bytes32,int16)`.
    function _infinityWords(
        address poolManager,
        bytes32 poolId,
        int16 fromWord,
        int16 toWord
    ) private view returns (uint256[] memory all) {
        uint256 span = uint256(int256(toWord) - int256(fromWord) + 1);
        all = new uint256[](span);
        int256 first = fromWord;
        bool ok = true;
        assembly ("memory-safe") {
            // The 0x44-byte call is built past the free memory pointer, which is not moved, so no
            // memory grows per word.
            let request := mload(0x40)
            mstore(request, shl(224, 0x7c352ef6))
            mstore(add(request, 0x04), poolId)
            for {
                let i := 0
            } lt(i, span) {
                i := add(i, 1)
            } {
                mstore(add(request, 0x24), add(first, i))
                ok := and(ok, staticcall(gas(), poolManager, request, 0x44, 0x00, 0x20))
                ok := and(ok, iszero(lt(returndatasize(), 0x20)))
                mstore(add(add(all, 0x20), mul(i, 0x20)), mload(0x00))
            }
        }
        if (!ok) revert ReadFailed(poolManager);
    }

    /// `getPoolTickInfo(bytes32,int24)` returns (liquidityGross, liquidityNet, ...): word 1 of each.
    function _infinityNets(
        address poolManager,
        bytes32 poolId,
        int24[] memory ticks
    ) private view returns (int128[] memory liquidityNets) {
        liquidityNets = new int128[](ticks.length);
        bool ok = true;
        assembly ("memory-safe") {
            let request := mload(0x40)
            mstore(request, shl(224, 0x5aa208a4))
            mstore(add(request, 0x04), poolId)
            let n := mload(ticks)
            for {
                let i := 0
            } lt(i, n) {
                i := add(i, 1)
            } {
                mstore(add(request, 0x24), mload(add(add(ticks, 0x20), mul(i, 0x20))))
                ok := and(ok, staticcall(gas(), poolManager, request, 0x44, 0x00, 0x00))
                ok := and(ok, iszero(lt(returndatasize(), 0x40)))
                if ok {
                    returndatacopy(0x00, 0x20, 0x20)
                }
                mstore(add(add(liquidityNets, 0x20), mul(i, 0x20)), signextend(15, mload(0x00)))
            }
        }
        if (!ok) revert ReadFailed(poolManager);
    }

    /// The set words of `fromWord..=toWord`: V3 getters when `stateSlot` is zero, else V4 storage.
    function _nonEmptyWords(
        address target,
        bytes32 stateSlot,
        int16 fromWord,
        int16 toWord
    ) private view returns (int16[] memory positions, uint256[] memory values) {
        if (toWord < fromWord) revert BadWordRange(fromWord, toWord);
        uint256 span = uint256(int256(toWord) - int256(fromWord) + 1);
        uint256[] memory all;
        if (stateSlot == bytes32(0)) {
            all = new uint256[](span);
            int256 first = fromWord;
            bool ok = true;
            assembly ("memory-safe") {
                // tickBitmap(int16) returns one uint256. Calldata and return word go through
                // scratch space: no memory grows per word (Solidity never frees memory).
                for {
                    let i := 0
                } lt(i, span) {
                    i := add(i, 1)
                } {
                    mstore(0x00, shl(224, 0x5339c296))
                    mstore(0x04, add(first, i))
                    ok := and(ok, staticcall(gas(), target, 0x00, 0x24, 0x00, 0x20))
                    ok := and(ok, iszero(lt(returndatasize(), 0x20)))
                    mstore(add(add(all, 0x20), mul(i, 0x20)), mload(0x00))
                }
            }
            if (!ok) revert ReadFailed(target);
        } else {
            bytes32 bitmapSlot = bytes32(uint256(stateSlot) + 5);
            bytes32[] memory slots = new bytes32[](span);
            for (uint256 i = 0; i < span; i++) {
                slots[i] = keccak256(abi.encode(int256(fromWord) + int256(i), bitmapSlot));
            }
            all = _extsload(target, slots);
        }
        (positions, values) = _compact(all, fromWord);
    }

    /// The non-zero entries of `all` (word `fromWord + i` at index i) with their positions.
    function _compact(
        uint256[] memory all,
        int16 fromWord
    ) private pure returns (int16[] memory positions, uint256[] memory values) {
        uint256 count = 0;
        for (uint256 i = 0; i < all.length; i++) {
            if (all[i] != 0) count++;
        }
        positions = new int16[](count);
        values = new uint256[](count);
        uint256 at = 0;
        for (uint256 i = 0; i < all.length; i++) {
            if (all[i] != 0) {
                positions[at] = int16(int256(fromWord) + int256(i));
                values[at] = all[i];
                at++;
            }
        }
    }

    /// Ticks of every set bit, ascending (words ascend, bits ascend within a word).
    function _ticksOf(
        int16[] memory positions,
        uint256[] memory values,
        int24 tickSpacing
    ) private pure returns (int24[] memory ticks) {
        uint256 count = 0;
        for (uint256 w = 0; w < values.length; w++) {
            for (uint256 v = values[w]; v != 0; v &= v - 1) count++;
        }
        ticks = new int24[](count);
        uint256 at = 0;
        for (uint256 w = 0; w < values.length; w++) {
            uint256 v = values[w];
            for (uint256 bit = 0; v >> bit != 0; bit++) {
                if ((v >> bit) & 1 == 1) {
                    ticks[at++] = int24((int256(positions[w]) * 256 + int256(bit)) * int256(tickSpacing));
                }
            }
        }
    }

    /// `extsload(bytes32[])` on a PoolManager, as uint256 values.
    function _extsload(address poolManager, bytes32[] memory slots) private view returns (uint256[] memory values) {
        if (slots.length == 0) return new uint256[](0);
        // extsload(bytes32[]) returns bytes32[].
        (bool ok, bytes memory out) = poolManager.staticcall(abi.encodeWithSelector(0xdbd035ff, slots));
        if (!ok) revert ReadFailed(poolManager);
        values = abi.decode(out, (uint256[]));
        if (values.length != slots.length) revert ReadFailed(poolManager);
    }
}
