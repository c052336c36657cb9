import { Type } from 'typebox'

const list = (id: string, item: string, extra: Record<string, ReturnType<typeof Type.Ref>> = {}) =>
  Type.Object(
    { data: Type.Array(Type.Ref(item)), ...extra, page: Type.Ref('Page'), meta: Type.Ref('Meta') },
    { $id: id, additionalProperties: false },
  )
const one = (id: string, item: string) =>
  Type.Object({ data: Type.Ref(item), meta: Type.Ref('Meta') }, { $id: id, additionalProperties: false })

/**
 * The response bodies: a list is `{data, page, meta}` (a holder page adds its `snapshot`), one
 * resource `{data, meta}`.
 */
export const responseEnvelopes = [
  list('TokenList', 'TokenSummary'),
  one('TokenDetailResponse', 'TokenDetail'),
  list('TradeList', 'Trade'),
  list('AnnouncementList', 'Announcement'),
  Type.Object(
    { data: Type.Array(Type.Ref('Holder')), snapshot: Type.Ref('HolderSnapshot'), page: Type.Ref('Page'), meta: Type.Ref('Meta') },
    { $id: 'HolderList', additionalProperties: false },
  ),
  Type.Object(
    {
      data: Type.Union([Type.Array(Type.Ref('Trade')), Type.Array(Type.Ref('Announcement'))]),
      page: Type.Ref('Page'),
      meta: Type.Ref('Meta'),
    },
    { $id: 'ActivityList', additionalProperties: false },
  ),
  list('FeeClaimList', 'FeeClaimPosition'),
  list('VestingList', 'VestingPosition'),
  Type.Object(
    {
      data: Type.Union([Type.Array(Type.Ref('FeeClaimPosition')), Type.Array(Type.Ref('VestingPosition'))]),
      page: Type.Ref('Page'),
      meta: Type.Ref('Meta'),
    },
    { $id: 'ClaimList', additionalProperties: false },
  ),
  one('WalletSummaryResponse', 'WalletSummary'),
  one('TransactionStatusResponse', 'TransactionStatus'),
  one('GatewayConfigResponse', 'GatewayConfig'),
]
