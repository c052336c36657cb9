import { type Address, getAddress, parseAbi, type TypedDataDomain } from 'viem'
import type { GatewayChain } from '../GatewayChain.ts'
import { withDeadline } from '../live/withDeadline.ts'

const permitAbi = parseAbi([
  'function eip712Domain() view returns (bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)',
  'function nonces(address owner) view returns (uint256)',
])

/** A token's EIP-2612 permit as one owner can sign it now: its EIP-712 domain and the owner's next nonce. */
export type TokenPermit = {
  domain: TypedDataDomain & { name: string; version: string; chainId: number; verifyingContract: Address }
  nonce: bigint
}

/**
 * A token's EIP-2612 permit state for `owner` at one block: the EIP-712 domain the token reports
 * (EIP-5267 `eip712Domain()`, so a token renamed since its deployment still gets the domain its
 * signatures are checked against) and `nonces(owner)`, in one multicall. Undefined when the token
 * has neither (no EIP-2612 permit, or one whose domain it does not publish: we do not guess a
 * domain). A chain that fails is its mapped dependency error.
 *
 * @example
 * const permit = await readTokenPermit({ chain, token, owner, blockNumber, timeoutMs: 5000 })
 * // → { domain: { name: the token's name, version: its version, chainId: 8453, verifyingContract: token }, nonce: 0n } for a fresh owner;
 * //   undefined for WETH9 (no permit)
 */
export async function readTokenPermit({
  chain,
  token,
  owner,
  blockNumber,
  timeoutMs,
}: {
  chain: GatewayChain
  token: Address
  owner: Address
  blockNumber: bigint
  timeoutMs: number
}): Promise<TokenPermit | undefined> {
  const [domain, nonce] = await withDeadline({
    dependency: 'the chain',
    timeoutMs,
    run: () =>
      chain.client.multicall({
        multicallAddress: chain.multicall3,
        allowFailure: true,
        blockNumber,
        contracts: [
          { address: token, abi: permitAbi, functionName: 'eip712Domain' },
          { address: token, abi: permitAbi, functionName: 'nonces', args: [owner] },
        ],
      }),
  })
  if (domain.status !== 'success' || nonce.status !== 'success') return undefined
  const [fields, name, version, chainId, verifyingContract, , extensions] = domain.result
  // Name, version, chain id and verifying contract, nothing else (no salt, no extensions): EIP-2612's domain.
  if (
    fields !== '0x0f' ||
    extensions.length > 0 ||
    Number(chainId) !== chain.chainId ||
    getAddress(verifyingContract) !== getAddress(token)
  )
    return undefined
  return { domain: { name, version, chainId: Number(chainId), verifyingContract: getAddress(verifyingContract) }, nonce: nonce.result }
}
