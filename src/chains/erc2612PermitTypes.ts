/**
 * EIP-2612's `Permit` struct as EIP-712 types (OpenZeppelin's ERC20Permit and ours hash it so):
 * what a wallet signs for `permit(owner, spender, value, deadline, v, r, s)`.
 *
 * @example
 * await account.signTypedData({ domain, types: ERC2612_PERMIT_TYPES, primaryType: 'Permit', message: { owner, spender, value, nonce, deadline } })
 * // → the 65-byte signature the token's permit() accepts while `nonce` is the owner's
 */
export const ERC2612_PERMIT_TYPES = {
  Permit: [
    { name: 'owner', type: 'address' },
    { name: 'spender', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const
