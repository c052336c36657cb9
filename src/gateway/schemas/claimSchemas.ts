import { Type } from 'typebox'

const batch = <T extends ReturnType<typeof Type.Object>>(item: T) =>
  Type.Array(item, { minItems: 1, maxItems: 10, description: '1 to 10 independent positions, claimed in one transaction (3 units each)' })

/** `POST /claims/fees/prepare`'s body: the wallet's fee positions (one per launched token) to claim. */
export const FeeClaimPrepareRequest = Type.Object(
  {
    chain_id: Type.Integer({ minimum: 1 }),
    wallet: Type.Ref('GwAddress', { description: 'the reward recipient: it signs, and the fees are paid to it' }),
    positions: batch(Type.Object({ token: Type.Ref('GwAddress') }, { additionalProperties: false })),
  },
  { $id: 'FeeClaimPrepareRequest', additionalProperties: false },
)

/** `POST /claims/vesting/prepare`'s body: the wallet's vesting positions to claim. */
export const VestingClaimPrepareRequest = Type.Object(
  {
    chain_id: Type.Integer({ minimum: 1 }),
    wallet: Type.Ref('GwAddress', { description: 'the beneficiary: it signs, and the vested tokens are paid to it' }),
    positions: batch(
      Type.Object({ position_id: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }) }, { additionalProperties: false }),
    ),
  },
  { $id: 'VestingClaimPrepareRequest', additionalProperties: false },
)
