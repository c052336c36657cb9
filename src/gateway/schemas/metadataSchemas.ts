import { Type } from 'typebox'

const actor = Type.Ref('GwAddress', { description: "the token's admin: it signs the update" })

/** `POST …/metadata/onchain/prepare`'s body: the admin and exactly one new value. */
export const MetadataOnchainRequest = Type.Object(
  {
    actor,
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    symbol: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })),
    extra_metadata: Type.Optional(Type.String({ maxLength: 4096 })),
  },
  {
    $id: 'MetadataOnchainRequest',
    additionalProperties: false,
    description: 'exactly one of name, symbol, extra_metadata (each is one transaction of the token)',
  },
)

/** `POST …/metadata/document/prepare`'s body (spec §4: `actor` and `document`, no `operation`). */
export const MetadataDocumentRequest = Type.Object(
  { actor, document: Type.Ref('TokenMetadataDocument') },
  { $id: 'MetadataDocumentRequest', additionalProperties: false },
)

/** The deprecated combined `POST …/metadata/prepare` (spec §9): one of four operations. */
export const MetadataCombinedRequest = Type.Object(
  {
    actor,
    operation: Type.Union([
      Type.Literal('update_name'),
      Type.Literal('update_symbol'),
      Type.Literal('update_extra_metadata'),
      Type.Literal('update_profile'),
    ]),
    value: Type.Optional(
      Type.String({
        maxLength: 4096,
        description: 'the new name, symbol or extra metadata (update_name, update_symbol, update_extra_metadata)',
      }),
    ),
    document: Type.Optional(Type.Ref('TokenMetadataDocument', { description: 'the new metadata document (update_profile)' })),
  },
  { $id: 'MetadataCombinedRequest', additionalProperties: false },
)
