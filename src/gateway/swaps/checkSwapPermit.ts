import { type Address, type Hex, isAddressEqual, parseSignature, recoverTypedDataAddress } from 'viem'
import type { PermitPayload } from '../../router/routePlanTypes.ts'
import { GatewayProblem } from '../problems/GatewayProblem.ts'
import { parseRawAmount } from './parseRawAmount.ts'
import { permitTypedData } from './permitTypedData.ts'
import type { TokenPermit } from './readTokenPermit.ts'

/** A permit as `POST /swaps/prepare` takes it: what was signed and the 65-byte signature. */
export type SwapPermitInput = { value: string; deadline: number; signature: Hex }

/**
 * Checks an EIP-2612 permit sent with a swap against the token's state at the prepare block, and
 * answers the router's `Permit` struct. The token must publish its permit domain
 * (`unsupported_operation` otherwise: approve instead). `invalid_permit` (409) when it expired
 * (a deadline at or before the block's time: it would be past when mined), permits less than the
 * swap pulls, or its signature is not the wallet's over (wallet, router, value, the wallet's
 * current nonce, deadline) on this token and chain: signed for another spender, amount, token,
 * chain or nonce, already used (the nonce moved on), or not a signature at all.
 *
 * @example
 * const payload = await checkSwapPermit({ permit, tokenPermit, token, owner, router, amountIn, blockTimestamp })
 * // → { value: '1000000000000000000', deadline: 1800000000, v: 27 or 28, r: '0x…', s: '0x…' } (the router's Permit struct)
 * // a permit signed for another spender → throws GatewayProblem 'invalid_permit' (409)
 */
export async function checkSwapPermit({
  permit,
  tokenPermit,
  token,
  owner,
  router,
  amountIn,
  blockTimestamp,
}: {
  permit: SwapPermitInput
  tokenPermit: TokenPermit | undefined
  token: Address
  owner: Address
  router: Address
  amountIn: bigint
  blockTimestamp: bigint
}): Promise<PermitPayload> {
  if (!tokenPermit)
    throw new GatewayProblem('unsupported_operation', {
      detail: `${token} has no EIP-2612 permit with a published EIP-712 domain (EIP-5267): approve the router instead.`,
      invalidParameters: [{ name: 'permit', in: 'body', reason: 'the input token takes no permit' }],
    })
  const value = parseRawAmount({ value: permit.value, field: 'permit.value' })
  const deadline = BigInt(permit.deadline)
  if (deadline <= blockTimestamp)
    throw new GatewayProblem('invalid_permit', {
      detail: `The permit expired (deadline ${deadline}, chain time ${blockTimestamp}). Get a fresh quote, sign its permit, prepare again.`,
    })
  if (value < amountIn)
    throw new GatewayProblem('invalid_permit', {
      detail: `The permit allows ${value}; the swap pulls ${amountIn}. Sign the quote's permit (value amount_in or more).`,
    })
  // A signature that does not even parse recovers no one: the same answer as a wrong signer.
  const signerAt = (nonce: bigint) =>
    recoverTypedDataAddress({
      ...permitTypedData({ permit: { ...tokenPermit, nonce }, owner, spender: router, value, deadline }),
      signature: permit.signature,
    }).catch(() => undefined)
  const signer = await signerAt(tokenPermit.nonce)
  if (!signer || !isAddressEqual(signer, owner)) {
    const used = tokenPermit.nonce > 0n && (await signerAt(tokenPermit.nonce - 1n))
    throw new GatewayProblem('invalid_permit', {
      detail:
        used && isAddressEqual(used, owner)
          ? `This permit was already used (nonce ${tokenPermit.nonce - 1n}; the wallet's is now ${tokenPermit.nonce}). Get a fresh quote, sign its permit, prepare again.`
          : `The signature is not the wallet's permit for the router ${router} of ${value} ${token} at nonce ${tokenPermit.nonce}, deadline ${deadline}, chain ${tokenPermit.domain.chainId}. Sign the quote's permit as given.`,
    })
  }
  const { r, s, v, yParity } = parseSignature(permit.signature)
  return { value: value.toString(), deadline: permit.deadline, v: v !== undefined ? Number(v) : yParity + 27, r, s }
}
