import { type Address, type PublicClient, parseAbi } from 'viem'
import type { WoofiState } from '../../../bindings/types.ts'

const vaultAbi = parseAbi([
  'function quoteToken() view returns (address)',
  'function wooracle() view returns (address)',
  'function paused() view returns (bool)',
  'function unclaimedFee() view returns (uint256)',
  'function tokenInfos(address) view returns (uint192 reserve, uint16 feeRate, uint128 maxGamma, uint128 maxNotionalSwap)',
])
const oracleAbi = parseAbi([
  'function infos(address) view returns (uint128 price, uint64 coeff, uint64 spread)',
  'function cloPrice(address) view returns (uint256 refPrice, uint256 refTimestamp)',
  'function clOracles(address) view returns (address oracle, uint8 decimal, bool cloPreferred)',
  'function priceRanges(address) view returns (uint128 min, uint128 max)',
  'function bound() view returns (uint64)',
  'function timestamp() view returns (uint256)',
  'function staleDuration() view returns (uint256)',
])
const tokenAbi = parseAbi(['function decimals() view returns (uint8)', 'function balanceOf(address) view returns (uint256)'])

export type ReadWoofiVaultParameters = {
  client: PublicClient
  /** The WooPPV2 vault. */
  pool: Address
  /** Its base tokens, in the order the wire lists them (after the quote token). */
  bases: readonly Address[]
  blockNumber: bigint
  /** The timestamp the oracle's freshness is judged at: the block the plan executes in. */
  timestamp: bigint
}

export type WoofiVaultRead =
  | { tokens: Address[]; oracle: Address; state: WoofiState }
  /** A call reverted or answered nothing: what, so the market can say why the vault is left out. */
  | { problem: string }

/**
 * Reads a WooPPV2 vault and its Wooracle at one block into the solver's `woofi` wire state
 * (docs/solver-wire-format.md): the vault's quote token and oracle first, then in one multicall
 * every token's `decimals()`, vault `balanceOf` and `tokenInfos`, the vault's `paused` and
 * `unclaimedFee`, each base's oracle `infos`, `cloPrice`, `clOracles` and `priceRanges`, and the
 * oracle's `bound`, `timestamp` and `staleDuration`. A call that reverts (a base with no Chainlink
 * feed: `cloPrice` reverts `!oracle`) is a problem, not a throw.
 *
 * @example
 * const read = await readWoofiVault({ client, pool, bases: [weth, cbBtc], blockNumber, timestamp })
 * // → { tokens: [usdc, weth, cbBtc], oracle, state: { model: 'woofi', tokens: [...], oracles: [...], ... } }
 */
export async function readWoofiVault({ client, pool, bases, blockNumber, timestamp }: ReadWoofiVaultParameters): Promise<WoofiVaultRead> {
  const [quote, oracle] = await client.multicall({
    allowFailure: true,
    blockNumber,
    contracts: [
      { address: pool, abi: vaultAbi, functionName: 'quoteToken' },
      { address: pool, abi: vaultAbi, functionName: 'wooracle' },
    ],
  })
  if (quote.status !== 'success' || oracle.status !== 'success') return { problem: 'not a WooPPV2 vault (quoteToken or wooracle failed)' }
  const quoteToken = quote.result
  const tokens = [quoteToken, ...bases]
  const perToken = tokens.flatMap(
    (token) =>
      [
        { address: token, abi: tokenAbi, functionName: 'decimals' },
        { address: token, abi: tokenAbi, functionName: 'balanceOf', args: [pool] },
        { address: pool, abi: vaultAbi, functionName: 'tokenInfos', args: [token] },
      ] as const,
  )
  const perBase = bases.flatMap(
    (base) =>
      [
        { address: oracle.result, abi: oracleAbi, functionName: 'infos', args: [base] },
        { address: oracle.result, abi: oracleAbi, functionName: 'cloPrice', args: [base] },
        { address: oracle.result, abi: oracleAbi, functionName: 'clOracles', args: [base] },
        { address: oracle.result, abi: oracleAbi, functionName: 'priceRanges', args: [base] },
      ] as const,
  )
  const shared = [
    { address: pool, abi: vaultAbi, functionName: 'paused' },
    { address: pool, abi: vaultAbi, functionName: 'unclaimedFee' },
    { address: oracle.result, abi: oracleAbi, functionName: 'bound' },
    { address: oracle.result, abi: oracleAbi, functionName: 'timestamp' },
    { address: oracle.result, abi: oracleAbi, functionName: 'staleDuration' },
  ] as const
  const calls = [...perToken, ...perBase, ...shared]
  const answers = await client.multicall({ allowFailure: true, blockNumber, contracts: calls })
  const failed = answers.findIndex((a) => a.status !== 'success')
  if (failed >= 0) {
    const call = calls[failed]
    const arg = 'args' in call ? `(${call.args[0]})` : '()'
    return { problem: `${call.functionName}${arg} on ${call.address} failed` }
  }
  // Each answer is read at the position its call was listed at, with that call's result type.
  const value = answers.map((a) => a.result) as unknown[]
  const at = (i: number) => value[i] as readonly (bigint | number | boolean | Address)[]
  const text = (v: unknown) => (v as bigint | number).toString()
  const state: WoofiState = {
    model: 'woofi',
    tokens: tokens.map((_, k) => {
      const [reserve, feeRate, maxGamma, maxNotional] = at(3 * k + 2)
      return {
        decimals: Number(value[3 * k]),
        balance: text(value[3 * k + 1]),
        reserve: text(reserve),
        feeRate: text(feeRate),
        maxGamma: text(maxGamma),
        maxNotional: text(maxNotional),
      }
    }),
    oracles: bases.map((_, k) => {
      const first = perToken.length + 4 * k
      const [price, coeff, spread] = at(first)
      const [refPrice] = at(first + 1)
      const [, , cloPreferred] = at(first + 2)
      const [rangeMin, rangeMax] = at(first + 3)
      return {
        price: text(price),
        coeff: text(coeff),
        spread: text(spread),
        refPrice: text(refPrice),
        cloPreferred: cloPreferred as boolean,
        rangeMin: text(rangeMin),
        rangeMax: text(rangeMax),
      }
    }),
    paused: value[perToken.length + perBase.length] as boolean,
    unclaimedFee: text(value[perToken.length + perBase.length + 1]),
    bound: text(value[perToken.length + perBase.length + 2]),
    oracleTimestamp: text(value[perToken.length + perBase.length + 3]),
    staleDuration: text(value[perToken.length + perBase.length + 4]),
    timestamp: timestamp.toString(),
  }
  return { tokens, oracle: oracle.result, state }
}
