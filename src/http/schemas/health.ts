import { Type } from 'typebox'

/** `GET /health`: `{ok: true}`, always. */
export const HealthResponse = Type.Object({ ok: Type.Boolean() }, { $id: 'HealthResponse', additionalProperties: false })
