import { type Address, type Hex, serializeTransaction } from 'viem'
import type { L1FeeParameters } from '../chains/opStack/L1FeeParameters.ts'
import { l1FeeUpperBoundWei, l1FeeWei } from '../chains/opStack/l1FeeWei.ts'

/**
 * The calldata an upstream's transaction is assumed to carry when it answered a price without one
 * (no taker): 1,000 bytes, about an aggregator's two- or three-hop route (single-pool swaps are a
 * few hundred bytes, split routes a few thousand). An assumption, stated in docs/upstreams.md.
 */
export const PRICE_ONLY_CALLDATA_BYTES = 1_000n
/** An EIP-1559 envelope around the calldata (chain id, nonce, fees, gas, to, value, access list). */
const ENVELOPE_BYTES = 60n

/**
 * The L1 data fee (wei) one source's transaction pays on an OP-stack chain at the market's L1
 * parameters, as /quote charges ours: exact from its calldata when the source built the
 * transaction, else for `PRICE_ONLY_CALLDATA_BYTES` of calldata (Fjord's upper bound). Every source
 * used in a split pays it once, which is what makes it a fixed cost per source.
 *
 * @example
 * transactionL1FeeWei({ parameters, chainId: 8453, gasPriceWei, transaction: { to, data, value } })
 * // → the L1 data fee in wei (bigint) of that transaction serialized; the PRICE_ONLY_CALLDATA_BYTES bound without one
 */
export function transactionL1FeeWei({
  parameters,
  chainId,
  gasPriceWei,
  transaction,
}: {
  parameters: L1FeeParameters
  chainId: number
  gasPriceWei: bigint
  transaction?: { to: Address; data: Hex; value: bigint; gas?: bigint }
}): bigint {
  if (!transaction) return l1FeeUpperBoundWei({ parameters, unsignedTxSize: PRICE_ONLY_CALLDATA_BYTES + ENVELOPE_BYTES })
  const unsignedTx = serializeTransaction({
    chainId,
    type: 'eip1559',
    to: transaction.to,
    data: transaction.data,
    value: transaction.value,
    nonce: 1,
    gas: transaction.gas ?? 500_000n,
    maxFeePerGas: gasPriceWei,
    maxPriorityFeePerGas: gasPriceWei,
  })
  return l1FeeWei({ parameters, unsignedTx })
}
