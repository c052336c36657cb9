import type { TSchema } from 'typebox'
import { TokenMetadataDocument } from '../documents/TokenMetadataDocument.ts'
import { AnnouncementSchema, HolderSchema, HolderSnapshotSchema, TradeSchema } from './activitySchemas.ts'
import { ChainConfigSchema, GatewayConfigSchema, GatewayHealthSchema, LaunchSuiteSchema } from './configSchemas.ts'
import { MetaSchema, PageSchema } from './Meta.ts'
import { InvalidParameterSchema, ProblemSchema } from './Problem.ts'
import { GwAddress, GwAmount, GwFinality, GwTimestamp, GwTxHash } from './scalars.ts'
import { TokenDetailSchema, TokenMarketSchema, TokenPoolSchema, TokenSummarySchema } from './tokenSchemas.ts'
import { FeeClaimPositionSchema, TransactionStatusSchema, VestingPositionSchema, WalletSummarySchema } from './walletSchemas.ts'
import { responseEnvelopes } from './responseEnvelopes.ts'
import { TransactionPlanResponse, TransactionPlanSchema } from './planSchemas.ts'
import { LaunchPrepareRequest } from './launchSchemas.ts'
import {
  AnnouncementDraftResponse,
  AnnouncementDraftSchema,
  AnnouncementPrepareRequest,
  AnnouncementPublishRequest,
  AnnouncementResponse,
} from './announcementSchemas.ts'
import { MetadataCombinedRequest, MetadataDocumentRequest, MetadataOnchainRequest } from './metadataSchemas.ts'
import { FeeClaimPrepareRequest, VestingClaimPrepareRequest } from './claimSchemas.ts'
import { SwapPrepareRequest, SwapQuoteRequest, SwapQuoteResponse, SwapQuoteSchema } from './swapSchemas.ts'

/**
 * Every shared schema of the gateway, once, by `$id`: the routes reference them, and the OpenAPI
 * document lists them under `components.schemas`.
 *
 * @example
 * for (const schema of gatewayComponents()) fastify.addSchema(schema)
 * // each shared schema (GwAddress, ProblemSchema, PageSchema, …) now resolves by its $id
 */
export function gatewayComponents(): TSchema[] {
  return [
    GwAddress,
    GwTxHash,
    GwAmount,
    GwFinality,
    GwTimestamp,
    InvalidParameterSchema,
    ProblemSchema,
    MetaSchema,
    PageSchema,
    TokenMetadataDocument,
    TokenMarketSchema,
    TokenPoolSchema,
    TokenSummarySchema,
    TokenDetailSchema,
    TradeSchema,
    AnnouncementSchema,
    HolderSchema,
    HolderSnapshotSchema,
    FeeClaimPositionSchema,
    VestingPositionSchema,
    WalletSummarySchema,
    TransactionStatusSchema,
    ChainConfigSchema,
    LaunchSuiteSchema,
    GatewayConfigSchema,
    GatewayHealthSchema,
    ...responseEnvelopes,
    TransactionPlanSchema,
    TransactionPlanResponse,
    SwapQuoteRequest,
    SwapQuoteSchema,
    SwapQuoteResponse,
    SwapPrepareRequest,
    LaunchPrepareRequest,
    FeeClaimPrepareRequest,
    VestingClaimPrepareRequest,
    MetadataOnchainRequest,
    MetadataDocumentRequest,
    MetadataCombinedRequest,
    AnnouncementPrepareRequest,
    AnnouncementDraftSchema,
    AnnouncementDraftResponse,
    AnnouncementPublishRequest,
    AnnouncementResponse,
  ] as TSchema[]
}
