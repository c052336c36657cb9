import { Type } from 'typebox'

/** One offending field of a validation problem. */
export const InvalidParameterSchema = Type.Object(
  {
    name: Type.String(),
    in: Type.Union([Type.Literal('query'), Type.Literal('path'), Type.Literal('header'), Type.Literal('body')]),
    reason: Type.String(),
  },
  { $id: 'InvalidParameter', additionalProperties: false },
)

/** Spec §2's problem response (RFC 9457, media type `application/problem+json`). */
export const ProblemSchema = Type.Object(
  {
    type: Type.String({ format: 'uri', description: 'the reference page section for `code`' }),
    title: Type.String(),
    status: Type.Integer({ minimum: 400, maximum: 599 }),
    code: Type.String({ description: 'stable: one of the codes of the reference page; branch on `status` and `code` only' }),
    detail: Type.String({ description: 'this occurrence, in words (may change over time)' }),
    action: Type.String({ description: 'the safe next step, in words' }),
    instance: Type.String({ description: 'urn:request:<request_id>' }),
    request_id: Type.String({ pattern: '^req_[0-9a-z]+$' }),
    invalid_parameters: Type.Optional(Type.Array(Type.Ref('InvalidParameter'))),
    resource: Type.Optional(Type.String()),
    chain_id: Type.Optional(Type.Integer()),
    token_address: Type.Optional(Type.String()),
    suggested_endpoint: Type.Optional(Type.String()),
    asset: Type.Optional(Type.String()),
    actual_raw: Type.Optional(Type.String()),
    required_raw: Type.Optional(Type.String()),
    violated_policies: Type.Optional(Type.Array(Type.String())),
    meta: Type.Object({ generated_at: Type.String({ format: 'date-time' }) }, { additionalProperties: false }),
  },
  { $id: 'Problem', additionalProperties: false },
)
