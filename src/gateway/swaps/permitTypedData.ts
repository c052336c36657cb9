import type { Address } from 'viem'
import { ERC2612_PERMIT_TYPES } from '../../chains/erc2612PermitTypes.ts'
import type { TokenPermit } from './readTokenPermit.ts'

/** The domain's type, which `eth_signTypedData_v4` wants listed (viem derives it from the domain). */
const EIP712_DOMAIN = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
] as const

/**
 * The EIP-712 typed data of an EIP-2612 permit (spender our router): what a quote offers to sign
 * (`permitTypedDataJson`) and what prepare checks a signature against.
 *
 * @example
 * const typedData = permitTypedData({ permit, owner, spender: router, value: 10n ** 18n, deadline: 1_800_000_000n })
 * // → { types: { Permit: [...] }, primaryType: 'Permit', domain: permit.domain,
 * //     message: { owner, spender: router, value: 10n ** 18n, nonce: permit.nonce, deadline: 1_800_000_000n } }
 */
export function permitTypedData({
  permit,
  owner,
  spender,
  value,
  deadline,
}: {
  permit: TokenPermit
  owner: Address
  spender: Address
  value: bigint
  deadline: bigint
}) {
  return {
    types: ERC2612_PERMIT_TYPES,
    primaryType: 'Permit' as const,
    domain: permit.domain,
    message: { owner, spender, value, nonce: permit.nonce, deadline },
  }
}

/**
 * The same typed data as JSON, as `eth_signTypedData_v4` takes it: integers as decimal strings.
 *
 * @example
 * const json = permitTypedDataJson(permitTypedData({ permit, owner, spender, value: 10n ** 18n, deadline: 1_800_000_000n }))
 * // → types gains EIP712Domain; message: { owner, spender, value: '1000000000000000000', nonce: '0', deadline: '1800000000' } (nonce 0 here)
 */
export function permitTypedDataJson(typedData: ReturnType<typeof permitTypedData>) {
  const { message } = typedData
  return {
    ...typedData,
    types: { EIP712Domain: EIP712_DOMAIN, ...typedData.types },
    message: { ...message, value: message.value.toString(), nonce: message.nonce.toString(), deadline: message.deadline.toString() },
  }
}
