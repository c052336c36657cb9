/**
 * The safety ceilings of spec §8 (requests, not units). A ceiling refusal is `quota_exceeded`.
 * Exact under concurrency in one process (the limiter takes all of a request's policies in one
 * synchronous step); shared across instances only once the limiter runs in Redis (part 3).
 */
export const ceilings = {
  /** Live configuration (a `/config` that reads the chain): per source and service-wide per minute, in flight. */
  liveConfig: { perSourcePerMinute: 15, serviceWidePerMinute: 120, inFlight: 10 },
  /** Holder snapshots: in flight per key; per source and service-wide per minute; in flight service-wide. */
  holderSnapshots: { perKeyInFlight: 2, perSourcePerMinute: 60, serviceWidePerMinute: 300, inFlight: 20 },
  /** Key lookups that miss the key cache, per source (client address) per minute. */
  uncachedKeyLookups: { perSourcePerMinute: 60 },
  /**
   * Launch preparation: per key, per creator within a key, and the shared launch workflow per
   * source and service-wide; per minute and per UTC day.
   */
  launches: {
    perKeyPerMinute: 3,
    perKeyPerDay: 100,
    perCreatorPerMinute: 1,
    perCreatorPerDay: 25,
    workflowPerSourcePerMinute: 6,
    workflowPerSourcePerDay: 200,
    workflowServiceWidePerMinute: 60,
    workflowServiceWidePerDay: 2_000,
  },
  /** Claim batches (fee and vesting together): per key, and per chain and caller across keys, per minute. */
  claims: { perKeyPerMinute: 20, perChainCallerPerMinute: 10 },
  /** Metadata documents (the IPFS route): per key and per token within a key; the shared pinning workflow per source and service-wide. */
  documents: {
    perKeyPerMinute: 10,
    perKeyPerDay: 100,
    perTokenPerMinute: 2,
    perTokenPerDay: 25,
    pinningPerSourcePerMinute: 20,
    pinningPerSourcePerDay: 500,
    pinningServiceWidePerMinute: 120,
    pinningServiceWidePerDay: 5_000,
  },
  /** Announcement and metadata preparations by one creator or actor within a key, per minute. */
  actorPreparations: { perActorPerMinute: 20 },
  /** Swap quotes per wallet, across all keys, per minute. */
  swapQuotes: { perWalletPerMinute: 60 },
  /** Swap preparations per wallet, across all keys, per minute. */
  swapPreparations: { perWalletPerMinute: 30 },
  /** Every route that prepares a transaction: per source and service-wide per minute, in flight service-wide. */
  transactionPreparation: { perSourcePerMinute: 120, serviceWidePerMinute: 1_000, inFlight: 50 },
} as const
