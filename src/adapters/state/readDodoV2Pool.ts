import { type Address, type PublicClient, parseAbi, zeroAddress } from 'viem'
import type { DodoPmmState, PoolInput } from '../../../bindings/types.ts'
import { PoolUnusableError } from '../errors.ts'

export type DodoVariant = DodoPmmState['variant']

const poolAbi = parseAbi([
  'function _BASE_TOKEN_() view returns (address)',
  'function _QUOTE_TOKEN_() view returns (address)',
  'function getPMMStateForCall() view returns (uint256 i, uint256 K, uint256 B, uint256 Q, uint256 B0, uint256 Q0, uint256 R)',
  'function _LP_FEE_RATE_() view returns (uint256)',
  'function _MT_FEE_RATE_MODEL_() view returns (address)',
  'function version() view returns (string)',
])
const feeRateModelAbi = parseAbi(['function getFeeRate(address trader) view returns (uint256)'])

/**
 * The trader the market's maintainer rate is read for. The pools charge the rate their fee-rate
 * model gives `tx.origin` (the account that sends the transaction: the taker, never our router),
 * which a snapshot shared by every request cannot know; it reads the rate of an anonymous trader,
 * the zero address. A quote naming its `taker` is priced at the taker's own rates
 * (`readDodoTakerRates`, docs/dex-kinds.md "DODO_V2").
 */
export const DODO_QUOTE_TRADER: Address = zeroAddress

const UINT112_MAX = (1n << 112n) - 1n

export type ReadDodoV2PoolParameters = {
  client: PublicClient
  pool: Address
  /** Known from the factory's event; read from the pool's `version()` otherwise ("DVM …", "DSP …", "DPP …"). */
  variant?: DodoVariant
  /** Every call is pinned to this block. */
  blockNumber: bigint
}

/** `feeRateModel`: the pool's `_MT_FEE_RATE_MODEL_` (lowercase; the zero address: no maintainer fee). */
export type ReadDodoV2PoolReturnType = { input: PoolInput; variant: DodoVariant; baseToken: Address; feeRateModel: Address }

/**
 * Reads a DODO V2 PMM pool (DVM, DSP or DPP) at one block into the solver's `dodo_pmm` input: one
 * multicall of `_BASE_TOKEN_`, `_QUOTE_TOKEN_`, `getPMMStateForCall()` (i, K, reserves, targets as
 * the pool adjusts them, R), `_LP_FEE_RATE_` and `_MT_FEE_RATE_MODEL_` (and `version()` when the
 * variant is not known), then the model's `getFeeRate(DODO_QUOTE_TRADER)` asked *as the pool*
 * (an `eth_call` from the pool's address): DODO's `FeeRateModel` hands `msg.sender` to its fee
 * implementation as the pool, so asking from anywhere else could answer another pool's rate. A
 * pool with no model (the zero address) charges no maintainer fee.
 * Unusable: an unknown `version()`, reserves or targets beyond uint112, an R other than 0, 1, 2.
 *
 * @example
 * const { input } = await readDodoV2Pool({ client, pool, blockNumber })
 * // → input: { id, dex: 'DODO_V2', tokens: [base, quote], state: { model: 'dodo_pmm', variant: 'dsp', i, k, … } }
 */
export async function readDodoV2Pool({
  client,
  pool,
  variant: knownVariant,
  blockNumber,
}: ReadDodoV2PoolParameters): Promise<ReadDodoV2PoolReturnType> {
  const id = pool.toLowerCase()
  const unusable = (reason: string) => new PoolUnusableError({ poolId: id, dex: 'DODO_V2', reason })
  const calls = ['_BASE_TOKEN_', '_QUOTE_TOKEN_', 'getPMMStateForCall', '_LP_FEE_RATE_', '_MT_FEE_RATE_MODEL_'] as const
  const answers = (await client.multicall({
    allowFailure: false,
    blockNumber,
    contracts: [...calls, ...(knownVariant ? [] : (['version'] as const))].map((functionName) => ({
      address: pool,
      abi: poolAbi,
      functionName,
    })) as never,
  })) as unknown[]
  const [baseToken, quoteToken, pmm, lpFeeRate, model, version] = answers as [
    Address,
    Address,
    readonly [bigint, bigint, bigint, bigint, bigint, bigint, bigint],
    bigint,
    Address,
    string | undefined,
  ]
  const variant = knownVariant ?? variantOfVersion(version ?? '')
  if (!variant) throw unusable(`version() "${version}" names none of DVM, DSP, DPP`)
  const [i, k, baseReserve, quoteReserve, baseTarget, quoteTarget, rState] = pmm
  if ([baseReserve, quoteReserve, baseTarget, quoteTarget].some((v) => v > UINT112_MAX))
    throw unusable('a reserve or target beyond uint112')
  if (rState > 2n) throw unusable(`R state ${rState} is none of 0, 1, 2`)
  const mtFeeRate =
    model === zeroAddress
      ? 0n
      : await client.readContract({
          address: model,
          abi: feeRateModelAbi,
          functionName: 'getFeeRate',
          args: [DODO_QUOTE_TRADER],
          account: pool,
          blockNumber,
        })
  const state: DodoPmmState = {
    model: 'dodo_pmm',
    variant,
    i: i.toString(),
    k: k.toString(),
    baseReserve: baseReserve.toString(),
    quoteReserve: quoteReserve.toString(),
    baseTarget: baseTarget.toString(),
    quoteTarget: quoteTarget.toString(),
    rState: Number(rState),
    lpFeeRate: lpFeeRate.toString(),
    mtFeeRate: mtFeeRate.toString(),
  }
  const tokens = [baseToken.toLowerCase(), quoteToken.toLowerCase()] as [Address, Address]
  return { input: { id, dex: 'DODO_V2', tokens, state }, variant, baseToken: tokens[0], feeRateModel: model.toLowerCase() as Address }
}

function variantOfVersion(version: string): DodoVariant | undefined {
  const prefix = version.slice(0, 3)
  return prefix === 'DVM' ? 'dvm' : prefix === 'DSP' ? 'dsp' : prefix === 'DPP' ? 'dpp' : undefined
}
