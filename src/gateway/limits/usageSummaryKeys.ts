/**
 * Where the shared limiter counts usage in Redis: one hash of counts per API key (fields
 * `<hour>:u|n|x`, see `WEIGHTED_LIMITER_SCRIPT`) and the set of key prefixes that have counts not
 * yet copied into the database. Both carry the limiter's `{gw}` hash tag (one Redis Cluster slot).
 *
 * @example
 * usageSummaryKeys('gw:', 'abcdefghijkl')
 * // → { counts: 'gw:{gw}:usage:abcdefghijkl', index: 'gw:{gw}:usage-keys' }
 */
export function usageSummaryKeys(prefix: string, keyPrefix: string): { counts: string; index: string } {
  return { counts: `${prefix}{gw}:usage:${keyPrefix}`, index: `${prefix}{gw}:usage-keys` }
}
