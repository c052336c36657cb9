import { Type } from 'typebox'

/** `GET /health`: `{ok: true}`, always. */
export const HealthResponse = Type.Object({ ok: Type.Boolean() }, { additionalProperties: false })
