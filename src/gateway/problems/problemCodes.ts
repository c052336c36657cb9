/** What a client should do after a problem (spec §7's retry guidance). */
export type RetryAdvice =
  'do_not_retry' | 'retry_after' | 'retry_once' | 'backoff' | 'prepare_again' | 'restart_pagination' | 'fix_and_retry'

/** One code of spec §7: its HTTP status (the first is the usual one), title, and where the spec defines it. */
export type ProblemCodeEntry = {
  statuses: readonly number[]
  title: string
  /** The section of the spec that states the condition. */
  section: string
  retry: RetryAdvice
  /** The safe next step, as the problem's `action` says it unless a route says more. */
  action: string
}

/**
 * The one list of the gateway's problem codes: all 39 of spec §7, each with its status, title,
 * spec section and default action. `problemCodes.test.ts` checks it against the spec's table.
 */
export const problemCodes = {
  invalid_request: {
    statuses: [400, 413],
    title: 'Invalid request',
    section: '7',
    retry: 'fix_and_retry',
    action: 'Fix the request (JSON transport, body size) and send it again.',
  },
  unknown_parameter: {
    statuses: [400],
    title: 'Unknown parameter',
    section: '4 (rule 2)',
    retry: 'fix_and_retry',
    action: 'Remove the parameters listed in invalid_parameters.',
  },
  duplicate_parameter: {
    statuses: [400],
    title: 'Duplicate parameter',
    section: '4 (rule 2)',
    retry: 'fix_and_retry',
    action: 'Send each query parameter once.',
  },
  incompatible_parameters: {
    statuses: [400],
    title: 'Incompatible parameters',
    section: '4 (rule 3), 9',
    retry: 'fix_and_retry',
    action: 'Send one of the parameters listed, or use suggested_endpoint.',
  },
  invalid_parameter: {
    statuses: [400],
    title: 'Invalid parameter',
    section: '7',
    retry: 'fix_and_retry',
    action: 'Correct the values listed in invalid_parameters.',
  },
  missing_idempotency_key: {
    statuses: [400],
    title: 'Idempotency-Key required',
    section: '4 (rule 1)',
    retry: 'fix_and_retry',
    action: 'Send an Idempotency-Key header (a fresh UUID for a new request).',
  },
  invalid_idempotency_key: {
    statuses: [400],
    title: 'Invalid Idempotency-Key',
    section: '8 (idempotency 1)',
    retry: 'fix_and_retry',
    action: 'Send an Idempotency-Key of 1 to 255 characters.',
  },
  missing_api_key: {
    statuses: [401],
    title: 'API key required',
    section: '5',
    retry: 'do_not_retry',
    action: 'Send your API key in the x-api-key header.',
  },
  invalid_api_key: {
    statuses: [401],
    title: 'Invalid API key',
    section: '5',
    retry: 'do_not_retry',
    action: 'Check the key; ask the operator for a new one if it was revoked or expired.',
  },
  origin_not_allowed: {
    statuses: [403],
    title: 'Origin not allowed',
    section: '5',
    retry: 'do_not_retry',
    action: 'Call from an origin the key allows, or from a server.',
  },
  insufficient_scope: {
    statuses: [403],
    title: 'Insufficient scope',
    section: '5',
    retry: 'do_not_retry',
    action: 'Use a key with the scope named in detail.',
  },
  wallet_not_authorized: {
    statuses: [403],
    title: 'Wallet not authorized',
    section: '5',
    retry: 'do_not_retry',
    action: 'Use the wallet that holds the role, quote, claim or resource.',
  },
  not_found: {
    statuses: [404],
    title: 'Not found',
    section: '7',
    retry: 'do_not_retry',
    action: 'Check the path; do not keep retrying an unchanged 404.',
  },
  stale_plan: {
    statuses: [409],
    title: 'Stale plan',
    section: '3',
    retry: 'prepare_again',
    action: 'Do not sign or broadcast it; prepare the transaction again.',
  },
  stale_quote: { statuses: [409], title: 'Stale quote', section: '3', retry: 'prepare_again', action: 'Request a new quote.' },
  salt_unavailable: {
    statuses: [409],
    title: 'Salt unavailable',
    section: '7',
    retry: 'prepare_again',
    action: 'Prepare the launch again for a new salt and token address.',
  },
  invalid_permit: {
    statuses: [409],
    title: 'Invalid permit',
    section: '7',
    retry: 'prepare_again',
    action: 'Get a fresh quote, sign the permit again and prepare again.',
  },
  approval_not_confirmed: {
    statuses: [409],
    title: 'Approval not confirmed',
    section: '7',
    retry: 'retry_after',
    action: 'Wait for the approval transaction to confirm, then retry.',
  },
  announcement_id_conflict: {
    statuses: [409],
    title: 'Announcement id conflict',
    section: '7',
    retry: 'prepare_again',
    action: 'Prepare the announcement again.',
  },
  cursor_filter_mismatch: {
    statuses: [409],
    title: 'Cursor does not match',
    section: '3',
    retry: 'restart_pagination',
    action: 'Restart without a cursor.',
  },
  cursor_stale: {
    statuses: [409],
    title: 'Cursor is stale',
    section: '3',
    retry: 'restart_pagination',
    action: 'Restart pagination from the first page.',
  },
  idempotency_in_progress: {
    statuses: [409],
    title: 'Request in progress',
    section: '3',
    retry: 'retry_after',
    action: 'Retry the exact request with the same Idempotency-Key.',
  },
  nothing_to_claim: {
    statuses: [409],
    title: 'Nothing to claim',
    section: '7',
    retry: 'do_not_retry',
    action: 'Check the position later; it has no claimable value now.',
  },
  unsupported_operation: {
    statuses: [422],
    title: 'Unsupported operation',
    section: '7',
    retry: 'do_not_retry',
    action: 'Read /config for what is supported.',
  },
  unsupported_chain: {
    statuses: [422],
    title: 'Unsupported chain',
    section: '7',
    retry: 'do_not_retry',
    action: 'Use a chain listed by /config.',
  },
  idempotency_key_reused: {
    statuses: [422],
    title: 'Idempotency-Key reused',
    section: '3',
    retry: 'do_not_retry',
    action: 'Use a fresh Idempotency-Key for a different request.',
  },
  invalid_amount: {
    statuses: [422],
    title: 'Invalid amount',
    section: '7',
    retry: 'fix_and_retry',
    action: 'Send an amount valid for the operation and the wallet.',
  },
  invalid_referrer: {
    statuses: [422],
    title: 'Invalid referrer',
    section: '7',
    retry: 'fix_and_retry',
    action: 'Use an eligible referrer, once.',
  },
  invalid_allocation: {
    statuses: [422],
    title: 'Invalid allocation',
    section: '7',
    retry: 'fix_and_retry',
    action: 'Keep launch allocations within the bounds /config lists.',
  },
  invalid_vesting: {
    statuses: [422],
    title: 'Invalid vesting',
    section: '7',
    retry: 'fix_and_retry',
    action: 'Fix the vesting schedule (timing, step, cumulative allocation).',
  },
  insufficient_balance: {
    statuses: [422],
    title: 'Insufficient balance',
    section: '2, 7',
    retry: 'do_not_retry',
    action: 'Fund the wallet with at least required_raw of asset.',
  },
  quote_unavailable: {
    statuses: [422],
    title: 'Quote unavailable',
    section: '7',
    retry: 'do_not_retry',
    action: 'Try another amount, side or later.',
  },
  simulation_failed: {
    statuses: [422],
    title: 'Simulation failed',
    section: '7',
    retry: 'do_not_retry',
    action: 'Check the inputs; the transaction would revert.',
  },
  rate_limit_exceeded: {
    statuses: [429],
    title: 'Rate limit exceeded',
    section: '8',
    retry: 'retry_after',
    action: 'Wait for Retry-After seconds, then retry.',
  },
  quota_exceeded: {
    statuses: [429],
    title: 'Quota exceeded',
    section: '8',
    retry: 'retry_after',
    action: 'Wait for Retry-After seconds, then retry.',
  },
  internal_error: {
    statuses: [500],
    title: 'Internal error',
    section: '7',
    retry: 'retry_once',
    action: 'Retry once; if it persists, contact support with request_id.',
  },
  upstream_error: {
    statuses: [502],
    title: 'Upstream error',
    section: '7',
    retry: 'backoff',
    action: 'Retry with capped exponential backoff and jitter.',
  },
  temporarily_unavailable: {
    statuses: [503],
    title: 'Temporarily unavailable',
    section: '7',
    retry: 'backoff',
    action: 'Retry with capped exponential backoff and jitter.',
  },
  upstream_timeout: {
    statuses: [504],
    title: 'Upstream timeout',
    section: '7',
    retry: 'backoff',
    action: 'Retry with capped exponential backoff and jitter.',
  },
} as const satisfies Record<string, ProblemCodeEntry>

export type ProblemCode = keyof typeof problemCodes
