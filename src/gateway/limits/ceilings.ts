/**
 * The safety ceilings of spec §8 that read routes touch (requests, not units). A ceiling refusal
 * is `quota_exceeded`.
 */
export const ceilings = {
  /** Live configuration (a `/config` that reads the chain): per source and service-wide per minute, in flight. */
  liveConfig: { perSourcePerMinute: 15, serviceWidePerMinute: 120, inFlight: 10 },
  /** Holder snapshots: in flight per key; per source and service-wide per minute; in flight service-wide. */
  holderSnapshots: { perKeyInFlight: 2, perSourcePerMinute: 60, serviceWidePerMinute: 300, inFlight: 20 },
  /** Key lookups that miss the key cache, per source (client address) per minute. */
  uncachedKeyLookups: { perSourcePerMinute: 60 },
} as const
