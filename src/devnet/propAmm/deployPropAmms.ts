import { type Abi, type Address, getAddress, parseAbi, toHex } from 'viem'
import { deployContractAndWait } from '../deployContractAndWait.ts'
import { loadStandInArtifacts } from '../loadStandInArtifacts.ts'
import type { Devnet } from '../startDevnet.ts'
import { writeContractAndWait } from '../writeContractAndWait.ts'
import type { PropAmmDescription, PropAmmVenue } from './PropAmmDescription.ts'
import { type PropAmmVenueSpec, propAmmVenueSpecs } from './propAmmVenueSpecs.ts'
import { startPropAmmKeeper } from './startPropAmmKeeper.ts'

/** The keeper's sender: an impersonated address (no key), so no test account's nonces move. */
export const PROP_AMM_OPERATOR: Address = '0x09e4a7000000000000000000000000000000a11a'
/** LUNARBASE's fee multiplier for callers it has not whitelisted (the swap router is whitelisted). */
export const LUNARBASE_OTHER_CALLER_FEE_MULTIPLIER = 3n
/** LUNARBASE's largest punishment: 1 % added to the fee for a trade the size of its whole inventory. */
const LUNARBASE_MAX_PUNISHMENT_X24 = 167_772
/** TESSERA's fee right after a re-price (pips), decaying to the venue's fee over this many blocks. */
const TESSERA_INITIAL_FEE_PIPS = 1_000
const TESSERA_DECAY_BLOCKS = 3n
/** FELTIR's cumulative input limit per direction, in multiples of its inventory of the input token. */
const FELTIR_LIMIT_INVENTORIES = 50n

const tokenAbi = parseAbi([
  'function mint(address to, uint256 amount)',
  'function deposit() payable',
  'function transfer(address to, uint256 amount) returns (bool)',
])

export type DeployPropAmmsParameters = {
  devnet: Devnet
  /** The market's tokens by symbol (WETH is WETH9, the others open-mint `TestERC20`). */
  tokens: Record<string, { address: Address; decimals: number }>
  /** Fair USD price by symbol (sizes the inventories). */
  priceUsd: Record<string, number>
  /** The UNIV3 pool of `<base>/USDC` the keeper prices around, by base symbol. */
  references: Record<'WETH' | 'cbBTC', Address>
  /** The swap router: LUNARBASE whitelists it (its base fee); anyone else pays the multiplier. */
  router: Address
  specs?: readonly PropAmmVenueSpec[]
}

/**
 * Deploys the prop AMM stand-ins of the seeded market (`propAmmVenueSpecs`): one PropSwap router
 * and one Tessera engine over their pools, one ElfomoFi, LunarPool and Feltir per pair; funds each
 * with its inventory; makes one `OperatorRelay` (owned by `PROP_AMM_OPERATOR`) the operator of all;
 * sets LUNARBASE's punishment, fee multiplier and whitelist, TESSERA's fee decay and FELTIR's
 * cumulative limits; and publishes a first price through the keeper, so every venue is fresh.
 *
 * @example
 * const propAmms = await deployPropAmms({ devnet, tokens, priceUsd, references: { WETH, cbBTC }, router })
 * // → { relay, operator, venues: [{ dex: 'PROPSWAP', address, entry, tokens, reference, ... }, ...] }
 */
export async function deployPropAmms({
  devnet,
  tokens,
  priceUsd,
  references,
  router,
  specs = propAmmVenueSpecs,
}: DeployPropAmmsParameters): Promise<PropAmmDescription> {
  const owner = devnet.account
  const usdc = tokens.USDC.address
  const artifacts = {
    propswap: loadStandInArtifacts({ protocol: 'propswap' }),
    tessera: loadStandInArtifacts({ protocol: 'tessera' }),
    elfomofi: loadStandInArtifacts({ protocol: 'elfomofi' }),
    lunarbase: loadStandInArtifacts({ protocol: 'lunarbase' }),
    feltir: loadStandInArtifacts({ protocol: 'feltir' }),
  }
  const call = (address: Address, abi: unknown, functionName: string, args: readonly unknown[] = []) =>
    writeContractAndWait({ devnet, address, abi: abi as Abi, functionName, args })
  const relay = await deployContractAndWait({ devnet, artifact: devnet.artifacts.OperatorRelay, args: [PROP_AMM_OPERATOR] })
  const propSwapRouter = await deployContractAndWait({ devnet, artifact: artifacts.propswap.PropSwapRouter, args: [usdc, owner] })
  const tesseraEngine = await deployContractAndWait({ devnet, artifact: artifacts.tessera.TesseraSwap, args: [owner] })

  /** Sends `amount` of `symbol` to `to`: minted, or wrapped for WETH. */
  const fund = async (symbol: string, to: Address, amount: bigint) => {
    const token = tokens[symbol].address
    if (symbol !== 'WETH') return call(token, tokenAbi, 'mint', [to, amount])
    await writeContractAndWait({ devnet, address: token, abi: tokenAbi, functionName: 'deposit', value: amount })
    return call(token, tokenAbi, 'transfer', [to, amount])
  }
  const rawOfUsd = (symbol: string, usd: number) =>
    (BigInt(Math.round((usd / priceUsd[symbol]) * 1e6)) * 10n ** BigInt(tokens[symbol].decimals)) / 1_000_000n

  const venues: PropAmmVenue[] = []
  for (const spec of specs) {
    const base = tokens[spec.base].address
    const delay = BigInt(spec.blockDelay)
    let address: Address
    let entry: Address
    let holder: Address
    if (spec.dex === 'PROPSWAP') {
      const { PropPool } = artifacts.propswap
      address = await deployContractAndWait({ devnet, artifact: PropPool, args: [base, usdc, owner, propSwapRouter, delay] })
      await call(propSwapRouter, artifacts.propswap.PropSwapRouter.abi, 'listPool', [address])
      ;[entry, holder] = [propSwapRouter, address]
    } else if (spec.dex === 'TESSERA') {
      const { TesseraPool } = artifacts.tessera
      address = await deployContractAndWait({ devnet, artifact: TesseraPool, args: [base, usdc, owner, tesseraEngine, delay] })
      await call(tesseraEngine, artifacts.tessera.TesseraSwap.abi, 'registerPool', [address])
      await call(address, TesseraPool.abi, 'setFeeDecay', [TESSERA_INITIAL_FEE_PIPS, TESSERA_DECAY_BLOCKS])
      ;[entry, holder] = [tesseraEngine, address]
    } else if (spec.dex === 'ELFOMOFI') {
      address = await deployContractAndWait({ devnet, artifact: artifacts.elfomofi.ElfomoFi, args: [base, usdc, owner, delay] })
      ;[entry, holder] = [address, address]
    } else if (spec.dex === 'FELTIR') {
      const { Feltir } = artifacts.feltir
      address = await deployContractAndWait({ devnet, artifact: Feltir, args: [base, usdc, owner, delay] })
      holder = getAddress((await devnet.publicClient.readContract({ address, abi: Feltir.abi as Abi, functionName: 'vault' })) as Address)
      entry = address
    } else {
      const { LunarPool } = artifacts.lunarbase
      address = await deployContractAndWait({ devnet, artifact: LunarPool, args: [base, usdc, owner] })
      await call(address, LunarPool.abi, 'setOperator', [relay, true])
      await call(address, LunarPool.abi, 'setBlockDelay', [delay])
      await call(address, LunarPool.abi, 'setMaxPunishmentX24', [LUNARBASE_MAX_PUNISHMENT_X24])
      await call(address, LunarPool.abi, 'setBlacklistFeeMultiplier', [LUNARBASE_OTHER_CALLER_FEE_MULTIPLIER])
      await call(address, LunarPool.abi, 'setWhitelist', [router, true])
      ;[entry, holder] = [address, address]
    }
    const baseInventory = rawOfUsd(spec.base, spec.inventoryUsd / 2)
    const usdcInventory = rawOfUsd('USDC', spec.inventoryUsd / 2)
    await fund(spec.base, holder, baseInventory)
    await fund('USDC', holder, usdcInventory)
    if (spec.dex === 'LUNARBASE') await call(address, artifacts.lunarbase.LunarPool.abi, 'sync')
    else await call(address, artifacts.propswap.PropPool.abi, 'setOperator', [relay])
    if (spec.dex === 'FELTIR') {
      const { abi } = artifacts.feltir.Feltir
      await call(address, abi, 'setSwapLimit', [base, usdc, baseInventory * FELTIR_LIMIT_INVENTORIES])
      await call(address, abi, 'setSwapLimit', [usdc, base, usdcInventory * FELTIR_LIMIT_INVENTORIES])
    }
    venues.push({
      dex: spec.dex,
      address: getAddress(address),
      entry: getAddress(entry),
      tokens: [getAddress(base), getAddress(usdc)],
      symbols: [spec.base, 'USDC'],
      reference: getAddress(references[spec.base]),
      depthQuote: rawOfUsd('USDC', spec.depthUsd).toString(),
      feePips: spec.feePips,
      blockDelay: spec.blockDelay,
    })
  }
  await devnet.publicClient.request({ method: 'anvil_setBalance' as never, params: [PROP_AMM_OPERATOR, toHex(10n ** 24n)] as never })
  const description: PropAmmDescription = { relay: getAddress(relay), operator: PROP_AMM_OPERATOR, venues }
  // The first prices: every venue fresh from here.
  const keeper = await startPropAmmKeeper({ devnet, propAmms: description, intervalMs: 0 })
  await keeper.tick()
  await keeper.stop()
  return description
}
