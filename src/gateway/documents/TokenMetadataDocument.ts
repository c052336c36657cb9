import { type Static, Type } from 'typebox'

/**
 * A token's metadata document: the JSON whose CID a token's `extraMetadata` names
 * (`ipfs://<cid>`). Stored as canonical JSON (sorted keys, no whitespace), so one document has one
 * CID. Every field but `name` and `symbol` is optional.
 */
export const TokenMetadataDocument = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 64 }),
    symbol: Type.String({ minLength: 1, maxLength: 32 }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    image: Type.Optional(Type.String({ maxLength: 512, description: 'an ipfs:// or https:// URI' })),
    website: Type.Optional(Type.String({ maxLength: 512 })),
    socials: Type.Optional(
      Type.Array(
        Type.Object(
          { platform: Type.String({ minLength: 1, maxLength: 32 }), url: Type.String({ maxLength: 512 }) },
          { additionalProperties: false },
        ),
        { maxItems: 10 },
      ),
    ),
  },
  { $id: 'TokenMetadataDocument', additionalProperties: false },
)

export type TokenMetadataDocument = Static<typeof TokenMetadataDocument>
