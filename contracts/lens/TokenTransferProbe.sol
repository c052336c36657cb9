// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// Simulates a token transfer out of a pool and back, and reports how much each balance moved, so
/// the service can tell a token whose transfers move other amounts than asked (a fee on transfer,
/// share rounding) from a plain ERC-20. Never deployed: the service runs `probe` with `eth_call`
/// and a state override that puts this runtime code at the holder's address (the pool, or the
/// singleton that holds a V4 pool's tokens) and at a fixed peer address
/// (src/market/tokens/probeTokenTransfer.ts). The token therefore sees a transfer from the pool
/// itself, as in a swap (taxed tokens often charge only transfers to or from their pools), then a
/// transfer into the pool, as when the router pays it.
contract TokenTransferProbe {
    /// The token's `transfer` reverted or returned false: `leg` 0 out of the holder, 1 back into it.
    error TransferFailed(uint8 leg, bytes reason);

    /// Sends a part of the holder's balance to `peer`, which sends back what it received.
    /// The amount is 1 % of the holder's balance, or all of it when 1 % is below 10,000 units (a
    /// percentage fee rounds to zero on tiny amounts). A holder without balance returns zeros.
    /// @return balance the holder's balance before, amount the amount sent out,
    /// outSent and outReceived how much the holder's balance fell and the peer's rose,
    /// backSent and backReceived the same for the peer sending `outReceived` back.
    function probe(
        address token,
        address peer
    )
        external
        returns (
            uint256 balance,
            uint256 amount,
            uint256 outSent,
            uint256 outReceived,
            uint256 backSent,
            uint256 backReceived
        )
    {
        balance = _balanceOf(token, address(this));
        if (balance == 0) return (0, 0, 0, 0, 0, 0);
        amount = balance / 100 >= 10_000 ? balance / 100 : balance;
        (outSent, outReceived) = _send(token, peer, amount, 0);
        if (outReceived == 0) return (balance, amount, outSent, 0, 0, 0);
        (backSent, backReceived) = TokenTransferProbe(peer).sendBack(token, address(this), outReceived);
    }

    /// The peer's half: sends `amount` of `token` to `to` and reports the two balance changes.
    function sendBack(address token, address to, uint256 amount) external returns (uint256 sent, uint256 received) {
        return _send(token, to, amount, 1);
    }

    /// Tokens that call their recipient (ERC-777 style hooks) meet an empty fallback, not a revert.
    fallback() external {}

    function _send(
        address token,
        address to,
        uint256 amount,
        uint8 leg
    ) private returns (uint256 sent, uint256 received) {
        uint256 fromBefore = _balanceOf(token, address(this));
        uint256 toBefore = _balanceOf(token, to);
        (bool ok, bytes memory data) = token.call(abi.encodeWithSelector(0xa9059cbb, to, amount));
        if (!ok || (data.length != 0 && (data.length < 32 || abi.decode(data, (uint256)) != 1)))
            revert TransferFailed(leg, data);
        uint256 fromAfter = _balanceOf(token, address(this));
        uint256 toAfter = _balanceOf(token, to);
        // A balance that moved the wrong way reads as zero moved: it differs from the amount anyway.
        sent = fromBefore > fromAfter ? fromBefore - fromAfter : 0;
        received = toAfter > toBefore ? toAfter - toBefore : 0;
    }

    function _balanceOf(address token, address account) private view returns (uint256) {
        (bool ok, bytes memory data) = token.staticcall(abi.encodeWithSelector(0x70a08231, account));
        require(ok && data.length >= 32, "balanceOf");
        return abi.decode(data, (uint256));
    }
}
