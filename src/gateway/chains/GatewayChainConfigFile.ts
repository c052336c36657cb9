import { Type } from 'typebox'

const AddressText = Type.String({ pattern: '^0x[a-fA-F0-9]{40}$' })
const BlockNumber = Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^[0-9]+$' })])

/** One chain of `GATEWAY_CHAIN_CONFIG`: its node, its launchpad, its paired assets and swap router. */
export const GatewayChainConfigEntry = Type.Object(
  {
    chainId: Type.Integer({ minimum: 1 }),
    name: Type.String({ minLength: 1 }),
    /** Default `ETH`. */
    nativeSymbol: Type.Optional(Type.String({ minLength: 1 })),
    /**
     * JSON-RPC endpoints, tried in order behind circuits (as `RPC_URL`). Absent: the swap service's
     * node, allowed only for the chain the swap service serves.
     */
    rpcUrls: Type.Optional(Type.Array(Type.String({ pattern: '^https?://' }), { minItems: 1 })),
    /** Default the canonical Multicall3 address. */
    multicall3: Type.Optional(AddressText),
    launchpad: Type.Object(
      {
        factory: AddressText,
        feeLocker: AddressText,
        vestingVault: AddressText,
        /** The indexer follows the launchpad from this block (the factory's deployment block). */
        startBlock: BlockNumber,
      },
      { additionalProperties: false },
    ),
    /** Paired assets offered (each allowed by the factory, checked at start); absent: every one the factory allows. */
    pairedAssets: Type.Optional(Type.Array(AddressText, { minItems: 1 })),
    /** Our swap router on this chain; swaps are served where it is set and the swap service runs on this chain. */
    swapRouter: Type.Optional(AddressText),
  },
  { additionalProperties: false },
)

/** `GATEWAY_CHAIN_CONFIG`: the chains the gateway serves, and nothing else. */
export const GatewayChainConfigFile = Type.Object(
  { chains: Type.Array(GatewayChainConfigEntry, { minItems: 1 }) },
  { additionalProperties: false },
)
