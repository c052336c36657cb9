import { Type } from 'typebox'

/** `POST …/announcements/prepare`'s body: what the token's creator will sign. */
export const AnnouncementPrepareRequest = Type.Object(
  {
    author: Type.Ref('GwAddress', { description: "the token's creator: it signs the announcement" }),
    title: Type.String({ minLength: 1, maxLength: 120 }),
    body: Type.String({ minLength: 1, maxLength: 4000 }),
  },
  { $id: 'AnnouncementPrepareRequest', additionalProperties: false },
)

/** A prepared announcement: its id and the EIP-712 typed data to sign (viem's and eth_signTypedData_v4's shape). */
export const AnnouncementDraftSchema = Type.Object(
  {
    announcement_id: Type.String({ pattern: '^0x[0-9a-f]{64}$' }),
    chain_id: Type.Integer(),
    token: Type.Ref('GwAddress'),
    author: Type.Ref('GwAddress'),
    typed_data: Type.Object(
      {
        domain: Type.Object({ name: Type.String(), version: Type.String(), chainId: Type.Integer() }, { additionalProperties: false }),
        types: Type.Record(
          Type.String(),
          Type.Array(Type.Object({ name: Type.String(), type: Type.String() }, { additionalProperties: false })),
        ),
        primaryType: Type.Literal('Announcement'),
        message: Type.Object(
          {
            id: Type.String(),
            token: Type.String(),
            title: Type.String(),
            body: Type.String(),
            issuedAt: Type.String({ description: 'uint64, in decimal' }),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
    expires_at: Type.String({ format: 'date-time', description: 'post the signature back before this time' }),
  },
  { $id: 'AnnouncementDraft', additionalProperties: false },
)

export const AnnouncementDraftResponse = Type.Object(
  { data: Type.Ref('AnnouncementDraft'), meta: Type.Ref('Meta') },
  { $id: 'AnnouncementDraftResponse', additionalProperties: false },
)

/** `POST …/announcements`'s body: the prepared announcement's id and the author's signature. */
export const AnnouncementPublishRequest = Type.Object(
  {
    announcement_id: Type.String({ pattern: '^0x[0-9a-fA-F]{64}$' }),
    signature: Type.String({ pattern: '^0x[0-9a-fA-F]{130}$', description: '65-byte EIP-712 signature' }),
  },
  { $id: 'AnnouncementPublishRequest', additionalProperties: false },
)

export const AnnouncementResponse = Type.Object(
  { data: Type.Ref('Announcement'), meta: Type.Ref('Meta') },
  { $id: 'AnnouncementResponse', additionalProperties: false },
)
