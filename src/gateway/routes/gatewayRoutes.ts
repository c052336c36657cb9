import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../GatewayDependencies.ts'
import { registerDocsPage } from './docsPage.ts'
import { registerAnnouncementRoutes } from './announcements/announcementRoutes.ts'
import { registerFeeClaimsPrepareRoute } from './claims/feeClaimsPrepareRoute.ts'
import { registerVestingClaimsPrepareRoute } from './claims/vestingClaimsPrepareRoute.ts'
import { registerConfigRoute } from './config/configRoute.ts'
import { registerHealthRoute } from './health.ts'
import { registerLaunchPrepareRoute } from './launches/launchPrepareRoute.ts'
import { registerMetadataPrepareRoutes } from './metadata/metadataPrepareRoutes.ts'
import { registerMigrationGuidePage } from './migrationGuidePage.ts'
import { registerGatewayOpenApiRoute } from './openapi.ts'
import { registerPlanRoute } from './plans/planRoute.ts'
import { registerPreflightRoute } from './preflight.ts'
import { registerSwapPrepareRoute } from './swaps/swapPrepareRoute.ts'
import { registerSwapQuoteRoute } from './swaps/swapQuoteRoute.ts'
import { registerProblemsPage } from './problemsPage.ts'
import { registerRetiredClaimsPrepareRoute } from './retiredClaimsPrepareRoute.ts'
import { registerCreatorTokensRoute } from './tokens/creatorTokensRoute.ts'
import { registerListTokensRoute } from './tokens/listTokensRoute.ts'
import { registerSearchTokensRoute } from './tokens/searchTokensRoute.ts'
import { registerTokenActivityRoute } from './tokens/tokenActivityRoute.ts'
import { registerTokenAnnouncementsRoute } from './tokens/tokenAnnouncementsRoute.ts'
import { registerTokenDetailRoute } from './tokens/tokenDetailRoute.ts'
import { registerTokenHoldersRoute } from './tokens/tokenHoldersRoute.ts'
import { registerTokenTradesRoute } from './tokens/tokenTradesRoute.ts'
import { registerTransactionStatusRoute } from './transactions/transactionStatusRoute.ts'
import { registerWalletClaimsRoute } from './wallets/walletClaimsRoute.ts'
import { registerWalletFeeClaimsRoute } from './wallets/walletFeeClaimsRoute.ts'
import { registerWalletSummaryRoute } from './wallets/walletSummaryRoute.ts'
import { registerWalletVestingRoute } from './wallets/walletVestingRoute.ts'

/** Every route of the gateway, in registration order. */
export const gatewayRoutes: ((fastify: FastifyInstance, deps: GatewayDependencies) => void | Promise<void>)[] = [
  registerHealthRoute,
  registerPreflightRoute,
  registerGatewayOpenApiRoute,
  registerDocsPage,
  registerProblemsPage,
  registerMigrationGuidePage,
  registerConfigRoute,
  registerListTokensRoute,
  registerSearchTokensRoute,
  registerCreatorTokensRoute,
  registerTokenDetailRoute,
  registerTokenTradesRoute,
  registerTokenAnnouncementsRoute,
  registerTokenActivityRoute,
  registerTokenHoldersRoute,
  registerWalletFeeClaimsRoute,
  registerWalletVestingRoute,
  registerWalletClaimsRoute,
  registerWalletSummaryRoute,
  registerTransactionStatusRoute,
  registerRetiredClaimsPrepareRoute,
  registerPlanRoute,
  registerSwapQuoteRoute,
  registerSwapPrepareRoute,
  registerLaunchPrepareRoute,
  registerFeeClaimsPrepareRoute,
  registerVestingClaimsPrepareRoute,
  registerMetadataPrepareRoutes,
  registerAnnouncementRoutes,
]
