import { Type } from 'typebox'

/**
 * Every response's `meta` (spec §2): when the gateway formed it, and for answers from the read
 * model the block the indexer had reached (`observed_block`); `as_of_block` when a live one-block
 * chain read was needed.
 */
export const MetaSchema = Type.Object(
  {
    generated_at: Type.String({ format: 'date-time' }),
    observed_block: Type.Optional(Type.Integer({ minimum: 0, description: 'the block the read model was current at' })),
    as_of_block: Type.Optional(Type.Integer({ minimum: 0, description: 'the block every live value of this response was read at' })),
  },
  { $id: 'Meta', additionalProperties: false },
)

/** A page of a list: its size and the cursor of the next page (null on the last). */
export const PageSchema = Type.Object(
  {
    limit: Type.Integer({ minimum: 1 }),
    next_cursor: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'Page', additionalProperties: false },
)
