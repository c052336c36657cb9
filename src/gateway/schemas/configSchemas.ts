import { Type } from 'typebox'

const ref = (id: string) => Type.Ref(id)

/** A chain the gateway serves, and where its launchpad lives. */
export const ChainConfigSchema = Type.Object(
  {
    chain_id: Type.Integer(),
    name: Type.String(),
    native_symbol: Type.String(),
    wrapped_native: ref('GwAddress'),
    contracts: Type.Object(
      {
        launch_factory: ref('GwAddress'),
        fee_locker: ref('GwAddress'),
        vesting_vault: ref('GwAddress'),
        uniswap_v3_factory: ref('GwAddress'),
        multicall3: ref('GwAddress'),
        /** Our swap router: present where this gateway serves swaps on the chain. */
        swap_router: Type.Optional(ref('GwAddress')),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'GatewayChain', additionalProperties: false },
)

/**
 * A launch suite: one paired asset the factory allows, with the pool kind and every bound a
 * launch is checked against, read live from the factory. `standard` suites pair with the chain's
 * wrapped native asset; `extended` ones with another asset (listed with `market=all`).
 */
export const LaunchSuiteSchema = Type.Object(
  {
    id: Type.String(),
    chain_id: Type.Integer(),
    category: Type.Union([Type.Literal('standard'), Type.Literal('extended')]),
    paired_token: Type.Object(
      { address: ref('GwAddress'), symbol: Type.String(), decimals: Type.Integer() },
      { additionalProperties: false },
    ),
    pool: Type.Object(
      { dex: Type.Literal('uniswap_v3'), fee_pips: Type.Integer(), tick_spacing: Type.Integer() },
      { additionalProperties: false },
    ),
    token: Type.Object({ supply_raw: ref('GwAmount'), decimals: Type.Integer() }, { additionalProperties: false }),
    starting_tick: Type.Object({ min: Type.Integer(), max: Type.Integer(), step: Type.Integer() }, { additionalProperties: false }),
    vesting: Type.Object(
      { max_bps: Type.Integer(), max_lockup_seconds: Type.Integer(), max_vesting_seconds: Type.Integer() },
      { additionalProperties: false },
    ),
    reward_recipients: Type.Object({ max: Type.Integer(), total_bps: Type.Integer() }, { additionalProperties: false }),
    dev_buy: Type.Boolean({ description: 'whether a launch may buy with the ETH it sends (wrapped-native pairs only)' }),
  },
  { $id: 'LaunchSuite', additionalProperties: false },
)

/** `GET /config`. */
export const GatewayConfigSchema = Type.Object(
  {
    chains: Type.Array(ref('GatewayChain')),
    suites: Type.Optional(Type.Array(ref('LaunchSuite'))),
    /** Spec §2: present whenever suites needed a live one-block read. */
    as_of_block: Type.Optional(Type.Integer()),
  },
  { $id: 'GatewayConfig', additionalProperties: false },
)

const SharedStateSchema = (engines: string[], description: string) =>
  Type.Object(
    {
      engine: Type.Union(engines.map((e) => Type.Literal(e))),
      state: Type.Union([Type.Literal('up'), Type.Literal('down')]),
    },
    { additionalProperties: false, description },
  )

/** `GET /health`: liveness, readiness (the shared state reachable, and why not), and how far each chain's indexer is. */
export const GatewayHealthSchema = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
    ready: Type.Boolean({ description: 'whether keyed requests can be served now: the limiter and the store answer' }),
    not_ready_because: Type.Array(Type.String(), { description: 'why not ready (empty when ready)' }),
    shared_state: Type.Object(
      {
        limits: SharedStateSchema(['memory', 'redis'], "the limiter's engine: this process's memory, or Redis (REDIS_URL)"),
        store: SharedStateSchema(['sqlite', 'postgres'], 'the key store, idempotency, plans and read model (GATEWAY_DATABASE_URL)'),
      },
      { additionalProperties: false },
    ),
    chains: Type.Array(
      Type.Object(
        {
          chain_id: Type.Integer(),
          indexer: Type.Object(
            {
              state: Type.Union([Type.Literal('synced'), Type.Literal('syncing'), Type.Literal('failing'), Type.Literal('stopped')]),
              block_number: Type.Union([Type.Integer(), Type.Null()]),
              head_block: Type.Union([Type.Integer(), Type.Null()]),
              lag_blocks: Type.Union([Type.Integer(), Type.Null()]),
              role: Type.Union([Type.Literal('leader'), Type.Literal('standby'), Type.Null()], {
                description:
                  'leader: this instance indexes the chain; standby: another instance on the same database does (this one takes over if it stops); null before the first step',
              }),
            },
            { additionalProperties: false },
          ),
        },
        { additionalProperties: false },
      ),
    ),
    meta: ref('Meta'),
  },
  { $id: 'GatewayHealth', additionalProperties: false },
)
