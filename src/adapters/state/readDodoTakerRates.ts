import { type Address, type PublicClient, parseAbi } from 'viem'

const feeRateModelAbi = parseAbi(['function getFeeRate(address trader) view returns (uint256)'])

/** A DODO_V2 pool whose maintainer rate a taker is asked for: its id (lowercase address) and fee-rate model. */
export type DodoRatePool = { id: string; feeRateModel: Address }

export type ReadDodoTakerRatesParameters = {
  client: PublicClient
  /** The account that will send the transaction (`tx.origin`, whose rate the pools charge). */
  taker: Address
  pools: readonly DodoRatePool[]
  /** Every call is pinned to this block (the snapshot's). */
  blockNumber: bigint
}

/**
 * The maintainer rate each pool's fee-rate model gives `taker` at one block (18 decimals), by pool
 * id: `getFeeRate(taker)` asked *as the pool* (an `eth_call` from the pool's address), as
 * `readDodoV2Pool` asks for the anonymous trader's, since DODO's `FeeRateModel` hands `msg.sender`
 * to its fee implementation as the pool. So it cannot be one Multicall3 call (whose calls all come
 * from Multicall3): one `eth_call` per pool, all at once. A pool whose read fails fails the whole
 * read (the taker's rate there is unknown).
 *
 * @example
 * const rates = await readDodoTakerRates({ client, taker, pools: [{ id: dsp, feeRateModel }], blockNumber })
 * // → Map { '0x…dsp' => 3000000000000000n }
 */
export async function readDodoTakerRates({
  client,
  taker,
  pools,
  blockNumber,
}: ReadDodoTakerRatesParameters): Promise<Map<string, bigint>> {
  const rates = await Promise.all(
    pools.map(({ id, feeRateModel }) =>
      client.readContract({
        address: feeRateModel,
        abi: feeRateModelAbi,
        functionName: 'getFeeRate',
        args: [taker],
        account: id as Address,
        blockNumber,
      }),
    ),
  )
  return new Map(pools.map(({ id }, k) => [id, rates[k]]))
}
