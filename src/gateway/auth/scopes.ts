/**
 * The gateway's scopes. A key holds a list of them; each route names the one it needs (an
 * `insufficient_scope` names it). `transactions:read` is ours (GATEWAY.md lists no scope for
 * transaction status): reading a transaction's status exposes no token or wallet data, so it is
 * granted apart from them.
 */
export const SCOPES = [
  'tokens:read',
  'wallets:read',
  'holders:read',
  'config:read',
  'transactions:read',
  'launch:write',
  'swap:write',
  'claims:write',
  'metadata:write',
  'announcements:write',
] as const

export type Scope = (typeof SCOPES)[number]

/** What a key gets when no scopes are given at creation: every read scope. */
export const DEFAULT_SCOPES: readonly Scope[] = ['tokens:read', 'wallets:read', 'holders:read', 'config:read', 'transactions:read']
