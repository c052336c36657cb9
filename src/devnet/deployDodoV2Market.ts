import { type Address, parseAbi, parseEventLogs } from 'viem'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { loadStandInArtifacts } from './loadStandInArtifacts.ts'
import type { Devnet } from './startDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

export type DeployDodoV2MarketParameters = {
  devnet: Devnet
  /** The embedded market's tokens by symbol (`DevnetDescription.tokens`): WETH, USDC, USDbC, DAI, cbETH are used; `TestERC20`s with open mint. */
  tokens: Record<string, { address: Address; decimals: number }>
  /** Receives the maintainer's fees; default a fixed address. */
  maintainer?: Address
  /** Who pays each pool's deposit: an unlocked account holding the tokens, which it transfers; default: minted (open-mint test tokens only). */
  funder?: Address
}

export type DodoV2MarketPool = { name: string; kind: 'DVM' | 'DSP' | 'DPP'; pool: Address; baseToken: Address; quoteToken: Address }

export type DeployDodoV2MarketReturnType = {
  /** The maintainer fee-rate model every pool names (default rate 0; `setTraderRate` per trader). */
  feeRateModel: Address
  /** The `DodoPmmFactory` that created the pools and announced each with its real factory's event (NewDVM, NewDSP, NewDPP). */
  factory: Address
  pools: DodoV2MarketPool[]
}

const KINDS = { DVM: 0n, DSP: 1n, DPP: 2n } as const
const tokenAbi = parseAbi(['function mint(address, uint256)', 'function transfer(address, uint256) returns (bool)'])

/**
 * DODO V2 PMM pools (our `DodoPmmPool` stand-in, created by our `DodoPmmFactory`, which announces
 * each as DODO's three factories do) over the embedded market's tokens, about $5M a
 * side: a DVM WETH/USDC (i 2,133, K 0.1, 0.3 %: a DVM's i is its price with no quote left, so with
 * $5M of USDC in it the mid price is about 3,000), a DSP USDC/USDbC (i 1, K 0.001, 0.01 %), a DSP
 * DAI/USDC (i 1, K 0.0005, 0.01 %) and a DPP cbETH/WETH (i 1.1, K 0.05, 0.05 %), the owner the
 * devnet account (the creator).
 *
 * @example
 * const { pools } = await deployDodoV2Market({ devnet, tokens: market.tokens })
 * pools.map((p) => `${p.kind} ${p.name}`)
 * // → ['DVM WETH/USDC', 'DSP USDC/USDbC', 'DSP DAI/USDC', 'DPP cbETH/WETH']
 */
export async function deployDodoV2Market({
  devnet,
  tokens,
  maintainer = '0x000000000000000000000000000000000000d0d0',
  funder,
}: DeployDodoV2MarketParameters): Promise<DeployDodoV2MarketReturnType> {
  const { DodoPmmPool, DodoFeeRateModel, DodoPmmFactory } = loadStandInArtifacts({ protocol: 'dodo' })
  const feeRateModel = await deployContractAndWait({ devnet, artifact: DodoFeeRateModel, args: [0n] })
  const factory = await deployContractAndWait({ devnet, artifact: DodoPmmFactory, args: [maintainer, feeRateModel] })
  // price: i in whole quote tokens per whole base token, 18 decimals (i itself is in base units);
  // whole: whole tokens deposited of base and quote.
  const specs = [
    {
      name: 'WETH/USDC',
      kind: 'DVM',
      base: 'WETH',
      quote: 'USDC',
      price: 2133n * 10n ** 18n,
      k: 10n ** 17n,
      lpFee: 3n * 10n ** 15n,
      whole: [1_667n, 5_000_000n],
    },
    {
      name: 'USDC/USDbC',
      kind: 'DSP',
      base: 'USDC',
      quote: 'USDbC',
      price: 10n ** 18n,
      k: 10n ** 15n,
      lpFee: 10n ** 14n,
      whole: [5_000_000n, 5_000_000n],
    },
    {
      name: 'DAI/USDC',
      kind: 'DSP',
      base: 'DAI',
      quote: 'USDC',
      price: 10n ** 18n,
      k: 5n * 10n ** 14n,
      lpFee: 10n ** 14n,
      whole: [5_000_000n, 5_000_000n],
    },
    {
      name: 'cbETH/WETH',
      kind: 'DPP',
      base: 'cbETH',
      quote: 'WETH',
      price: 11n * 10n ** 17n,
      k: 5n * 10n ** 16n,
      lpFee: 5n * 10n ** 14n,
      whole: [1_515n, 1_667n],
    },
  ] as const
  const pools: DodoV2MarketPool[] = []
  for (const spec of specs) {
    const [base, quote] = [tokens[spec.base], tokens[spec.quote]]
    const i = (spec.price * 10n ** BigInt(quote.decimals)) / 10n ** BigInt(base.decimals)
    const receipt = await writeContractAndWait({
      devnet,
      address: factory,
      abi: DodoPmmFactory.abi,
      functionName: 'createPool',
      args: [KINDS[spec.kind], base.address, quote.address, spec.lpFee, i, spec.k],
    })
    const [{ args }] = parseEventLogs({ abi: DodoPmmFactory.abi, logs: receipt.logs }) as unknown as { args: Record<string, Address> }[]
    // The pool's field is named as in each real factory's event: dvm, DSP, dpp.
    const pool = args.dvm ?? args.DSP ?? args.dpp
    for (const [token, whole] of [
      [base, spec.whole[0]],
      [quote, spec.whole[1]],
    ] as const)
      await writeContractAndWait({
        devnet,
        address: token.address,
        abi: tokenAbi,
        functionName: funder ? 'transfer' : 'mint',
        args: [pool, whole * 10n ** BigInt(token.decimals)],
        from: funder,
      })
    await writeContractAndWait({ devnet, address: pool, abi: DodoPmmPool.abi, functionName: 'sync' })
    pools.push({ name: spec.name, kind: spec.kind, pool, baseToken: base.address, quoteToken: quote.address })
  }
  return { feeRateModel, factory, pools }
}
