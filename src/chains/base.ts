import type { ChainConfig } from './ChainConfig.ts'

/** Base produces a block every 2 seconds, each exactly 2 seconds after its parent. */
export const BASE_BLOCK_TIME_SEC = 2

/**
 * Base mainnet (8453) deployments of the kinds we have adapters for (shared/research/dex-kinds.md
 * §1). A deployment's `fromBlock` is where discovery starts scanning its creation events (chunked
 * getLogs, persisted: docs/real-chain.md); a `CHAIN_CONFIG` file overrides any of them. Sources
 * (docs/real-chain.md, "Base's start blocks"): the Uniswap V2, V3 and V4 and Pancake V3 blocks are
 * the factories' creation blocks, each with its creation transaction in an indexer's registry and
 * the same block in a second, independent one; the Alien Base V3, QuickSwap V4 and Hydrex blocks
 * are DefiLlama's TVL scan starts for those factories (one source, no creation transaction: a pool
 * created before would be missed by that public TVL as well).
 *
 * @example
 * const market = await createMarketState({ client, chain: { ...base, rpcUrl: process.env.RPC_URL }, solver, maxSnapshotAgeMs: 10_000 })
 * // → the market of Base mainnet: every deployment above discovered from its block, read through RPC_URL
 */
export const base: ChainConfig = {
  name: 'base',
  chainId: 8453,
  blockTimeSec: BASE_BLOCK_TIME_SEC,
  opStack: true,
  weth: '0x4200000000000000000000000000000000000006',
  multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11',
  deployments: {
    UNIV2: { source: '0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6', fromBlock: 6_601_915n },
    UNIV3: { source: '0x33128a8fC17869897dcE68Ed026d694621f6FDfD', fromBlock: 1_371_680n },
    UNIV4: { source: '0x498581fF718922c3f8e6A244956aF099B2652b2b', fromBlock: 25_350_988n },
    ALIEN_BASE_V3: { source: '0x0Fd83557b2be93617c9C1C1B6fd549401C74558C', fromBlock: 7_150_708n },
    // PancakeV3Factory emits PoolCreated (its PoolDeployer 0x41ff9AA7e16B8B1a8a8dc4f0eFacd93D02d071c9 only CREATE2s).
    PANCAKE_V3: { source: '0x0BFbCF9fa4f9C56B0F40a671Ad40E0805A091865', fromBlock: 2_912_007n },
    QUICKSWAP_V4: { source: '0xC5396866754799B9720125B104AE01d935Ab9C7b', fromBlock: 30_736_835n },
    HYDREX: { source: '0x36077D39cdC65E1e3FB65810430E5b2c4D5fA29E', fromBlock: 31_648_963n },
    // Aerodrome's PoolFactory (volatile and stable pools) and Slipstream's CLFactory (its first one;
    // Base has two later CL factories, 0xaDe65c38CD4849aDBA595a4323a8C7DdfE89716a and
    // 0xf8f2eB4940CFE7d13603DDDD87f123820Fc061Ef, not followed: notCovered below).
    AERODROME_V2LIKE: { source: '0x420DD381b31aEf6683db6B902084cB0FFECe40Da', fromBlock: 3_200_559n },
    AERODROME_CL: { source: '0x5e7BB104d84c7CB9B682AaC2F3d509f5F406809A', fromBlock: 13_843_704n },
    // PancakeSwap V2's multichain build: the same factory address and pair init code hash as on
    // Ethereum and Arbitrum (PancakeSwap's developer docs; its SDKs' constants).
    PANCAKE_V2: {
      source: '0x02a84c1b3BBD7401a5f7fa98a384EBC70bB5749E',
      initCodeHash: '0x57224589c67f3f30a6b0d7a1b54cf3153ab84563bc609ef41dfb34f8b2974d2d',
      fromBlock: 1_371_680n,
    },
    // Infinity's CL pool manager announces pools (`Initialize`); its Vault is 0x238a358808379702088667322f80aC48bAd5e6c4.
    PANCAKE_INFINITY_CL: { source: '0xa0FfB9c1CE1Fe56963B0321B32E7A0302114058b', fromBlock: 30_544_106n },
    // DODO V2's DVMFactory (NewDVM), DSPFactory (NewDSP) and DPPFactory (NewDPP). Addresses from
    // third-party adapter configs (shared/research/dex-kinds.md), not DODO's docs; the DSP and DPP
    // factories' deployment blocks are not verified: scanned from the first DEX's on Base (UNIV3's).
    DODO_V2: [
      { source: '0x0226fCE8c969604C3A0AD19c37d1FAFac73e13c2', fromBlock: 1_996_181n },
      { source: '0x200D866Edf41070DE251Ef92715a6Ea825A5Eb80', fromBlock: 1_371_680n },
      { source: '0xc0F9553Df63De5a97Fe64422c8578D0657C360f7', fromBlock: 1_371_680n },
    ],
    // Curve's twocrypto-ng and tricrypto-ng factories (TwocryptoPoolDeployed and
    // TricryptoPoolDeployed name the pool; Curve's address provider on Base lists them as its
    // entries 13 and 11, as do curve-js's Base constants). Their deployment blocks are not
    // verified: scanned from the first DEX's on Base (UNIV3's). Its StableSwap-NG and legacy
    // StableSwap factories (curve-js's Base constants) announce pools without naming them: their
    // registries are listed (`registry`, `curveRegistry.ts`), so they need no start block.
    CURVE: [
      { source: '0xc9Fe0C63Af9A39402e8a5514f9c43Af0322b665F', fromBlock: 1_371_680n },
      { source: '0xA5961898870943c68037F6848d2D866Ed2016bcB', fromBlock: 1_371_680n },
      { source: '0xd2002373543Ce3527023C75e7518C274A51ce712', registry: true },
      { source: '0x3093f9B57A428F3EB6285a589cb35bEA6e78c336', registry: true },
    ],
  },
  notCovered: [
    {
      dex: 'AERODROME_CL',
      what: "Slipstream's later CL factories 0xaDe65c38CD4849aDBA595a4323a8C7DdfE89716a and 0xf8f2eB4940CFE7d13603DDDD87f123820Fc061Ef (each with its own fee module): their pools are not discovered (their events and pools are not verified against the first factory's here); a CHAIN_CONFIG may list them as further AERODROME_CL deployments",
    },
    {
      dex: 'PANCAKE_INFINITY',
      what: "PancakeSwap Infinity's pool types other than CL (Bin pools): no adapter, not discovered",
    },
    {
      dex: 'WOOFI',
      what: 'the WooPPV2 vault: followed only as a configured pool (with its WooRouterV2 and bases), and this config names none',
    },
    {
      dex: 'GYROSCOPE_ECLP',
      what: "E-CLP pools: Balancer's V2 Vault is not configured as their deployment (whether Base's E-CLPs sit on the V2 Vault or on V3 is unverified; docs/dex-kinds.md)",
    },
    {
      dex: 'MAVERICK_V2',
      what: "Maverick V2's factory 0x0A7e848Aca42d879EF06507Fca0E7b33A0a63c1e is not configured: the real pool is closed source and our model is proven only against our stand-in of it (docs/dex-kinds.md, MAVERICK_V2); configure pools (POOLS_FILE) to follow them",
    },
    ...(['PROPSWAP', 'TESSERA', 'ELFOMOFI', 'LUNARBASE', 'FELTIR'] as const).map((dex) => ({
      dex,
      what: 'a prop AMM: followed only as a configured pool (POOLS_FILE or the chain config), and this config names none of its venues',
    })),
  ],
  pools: [],
}
