import type { PlanLimits, PlanName } from '../limits/plans.ts'
import type { Scope } from './scopes.ts'

/** A key's status: only `active` keys pass (spec §5: inactive, revoked and expired keys are invalid). */
export type ApiKeyStatus = 'active' | 'inactive' | 'revoked'

/** A key as the store holds it (never the secret itself). */
export type ApiKeyRecord = {
  prefix: string
  environment: 'live' | 'test'
  secretSha256: string
  status: ApiKeyStatus
  plan: PlanName
  /** The Partner plan's limits. */
  customLimits?: PlanLimits
  scopes: ReadonlySet<Scope>
  /** Browser origins (`scheme://host[:port]`) allowed to call with this key; empty: none. */
  allowedOrigins: ReadonlySet<string>
  owner: string
  label: string
  createdAt: string
  expiresAt?: string
  revokedAt?: string
}
