import { Type } from 'typebox'

/**
 * `GET /ready`: whether this instance can price quotes now, and why not. Public, so it carries
 * states and numbers only: no error text, no URL, no key.
 */
export const ReadyResponse = Type.Object({
  ready: Type.Boolean({ description: 'the market snapshot is fresh and the solver answers' }),
  market: Type.Object({
    blockNumber: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'the snapshot block; null before the first' }),
    ageMs: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'since the snapshot was last confirmed at the chain head; null: never' }),
    maxAgeMs: Type.Integer({ minimum: 0, description: 'MAX_SNAPSHOT_AGE_MS: older, and quotes are refused' }),
    fresh: Type.Boolean(),
  }, { additionalProperties: false }),
  solver: Type.Object({
    backend: Type.Union([Type.Literal('native'), Type.Literal('wasm')]),
    state: Type.Union([Type.Literal('ready'), Type.Literal('restarting')], { description: 'restarting: a WASM instance trapped and a new one is being started with the same market' }),
    restarts: Type.Integer({ minimum: 0, description: 'since the service started' }),
  }, { additionalProperties: false }),
}, { $id: 'ReadyResponse', additionalProperties: false })
