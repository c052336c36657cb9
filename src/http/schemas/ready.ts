import { Type } from 'typebox'

/**
 * `GET /ready`: whether this instance can price quotes now, and why not. Public, so it carries
 * states and numbers only: no error text, no URL, no key.
 */
export const ReadyResponse = Type.Object(
  {
    ready: Type.Boolean({
      description:
        'the market snapshot is fresh, the solver answers, Redis is connected (REDIS_URL) and an RPC node is reachable (RPC_URL)',
    }),
    notReady: Type.Array(
      Type.Union([
        Type.Literal('marketStale'),
        Type.Literal('solverRestarting'),
        Type.Literal('redisDisconnected'),
        Type.Literal('rpcCircuitsOpen'),
        Type.Literal('coldStart'),
      ]),
      { description: 'every reason the instance is not ready; empty when ready' },
    ),
    market: Type.Object(
      {
        blockNumber: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'the snapshot block; null before the first' }),
        ageMs: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
          description: 'since the snapshot was last confirmed at the chain head; null: never',
        }),
        maxAgeMs: Type.Integer({ minimum: 0, description: 'MAX_SNAPSHOT_AGE_MS: older, and quotes are refused' }),
        fresh: Type.Boolean(),
      },
      { additionalProperties: false },
    ),
    solver: Type.Object(
      {
        backend: Type.Union([Type.Literal('native'), Type.Literal('wasm')]),
        state: Type.Union([Type.Literal('ready'), Type.Literal('restarting'), Type.Literal('failed')], {
          description:
            'restarting: a WASM instance trapped and a new one is being started with the same market; failed: it failed too many times in a row and refuses every call',
        }),
        restarts: Type.Integer({ minimum: 0, description: 'since the service started' }),
      },
      { additionalProperties: false },
    ),
    redis: Type.Union(
      [
        Type.Object(
          { connected: Type.Boolean({ description: 'false: every authenticated call is refused with 503 until it reconnects' }) },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: "the shared quote store and rate limiter (REDIS_URL); null: in this process's memory" },
    ),
    rpc: Type.Union(
      [
        Type.Object(
          {
            nodes: Type.Array(
              Type.Object(
                {
                  index: Type.Integer({ minimum: 0, description: "the node's position in RPC_URL (never its URL)" }),
                  circuit: Type.Union([Type.Literal('closed'), Type.Literal('open'), Type.Literal('halfOpen')], {
                    description: 'open: failed 3 times in a row, skipped until its trial call',
                  }),
                  retryInMs: Type.Integer({ minimum: 0, description: 'until an open circuit lets its trial call through' }),
                },
                { additionalProperties: false },
              ),
            ),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: "the chain's RPC nodes (RPC_URL); null: the embedded chain" },
    ),
    discovery: Type.Union(
      [
        Type.Object(
          {
            phase: Type.Union([Type.Literal('notStarted'), Type.Literal('scanning'), Type.Literal('readingPools'), Type.Literal('done')], {
              description:
                "scanning: the deployments' creation events, range by range; readingPools: every followed pool read at one block; done: the market follows the head",
            }),
            scannedBlocks: Type.Integer({ minimum: 0, description: "blocks of the deployments' histories scanned by this start" }),
            totalBlocks: Type.Integer({
              minimum: 0,
              description: 'blocks this start has to scan (what an earlier start stored is not counted: a restart resumes)',
            }),
            percent: Type.Number({ minimum: 0, maximum: 100 }),
            poolsFound: Type.Integer({ minimum: 0, description: 'pools discovered so far, stored by earlier starts included' }),
            ranges: Type.Integer({ minimum: 0, description: 'eth_getLogs ranges fetched by this start' }),
            rangeBlocks: Type.Integer({ minimum: 1, description: "the range size now (it adapts to the node's refusals)" }),
            etaSeconds: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
              description: 'until the scan ends, at its pace so far; null before the first range and after the scan',
            }),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: "the cold start's progress; null: not reported" },
    ),
    notCovered: Type.Array(
      Type.Object(
        {
          dex: Type.String({ description: 'the kind (a DexId, or the protocol when no kind of ours covers it)' }),
          what: Type.String({ description: 'what of it the market does not follow' }),
        },
        { additionalProperties: false },
      ),
      {
        description:
          'venues of this chain the market knows it does not follow (docs/real-chain.md): their pools are never quoted; they do not make the instance unready',
      },
    ),
  },
  { $id: 'ReadyResponse', additionalProperties: false },
)
