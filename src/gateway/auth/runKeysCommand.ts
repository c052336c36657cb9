import { parseArgs } from 'node:util'
import { PLAN_NAMES, type PlanLimits, type PlanName } from '../limits/plans.ts'
import type { KeyStore } from './createKeyStore.ts'
import { DEFAULT_SCOPES, type Scope, SCOPES } from './scopes.ts'

const USAGE = `usage: npm run gateway:keys -- <command>
  create --owner <email> [--plan playground|developer|builder|partner] [--scopes a,b] [--origins https://x,https://y]
         [--label text] [--expires <ISO time>] [--env live|test] [--limits <JSON of unitsPerMinute, burstPerSecond, daily, monthly, maxPage>]
  list
  revoke <prefix> | deactivate <prefix> | activate <prefix>`

/**
 * The operator's key commands (spec §5.6 leaves issuing open: keys are issued and revoked by the
 * operator, no self-service): create (the key is shown once; only its hash is stored), list,
 * revoke, deactivate, activate (never of a revoked key: a revocation is final). Returns what to print; throws an Error whose message is the usage
 * or the problem on bad input.
 *
 * @example
 * const out = await runKeysCommand({ keys, argv: ['create', '--owner', 'ops@example.com', '--plan', 'builder'] })
 * // → the text to print, holding the new key (shown once); an Error with the usage on bad arguments
 */
export async function runKeysCommand({ keys, argv }: { keys: KeyStore; argv: readonly string[] }): Promise<string> {
  const [command, ...rest] = argv
  if (command === 'create') {
    const { values } = parseArgs({
      args: [...rest],
      options: {
        owner: { type: 'string' },
        plan: { type: 'string' },
        scopes: { type: 'string' },
        origins: { type: 'string' },
        label: { type: 'string' },
        expires: { type: 'string' },
        env: { type: 'string' },
        limits: { type: 'string' },
      },
      strict: true,
    })
    if (!values.owner) throw new Error(`--owner is required\n${USAGE}`)
    const plan = (values.plan ?? 'developer') as PlanName
    if (!PLAN_NAMES.includes(plan)) throw new Error(`--plan: one of ${PLAN_NAMES.join(', ')}`)
    const scopes = values.scopes ? (values.scopes.split(',') as Scope[]) : [...DEFAULT_SCOPES]
    const unknown = scopes.filter((s) => !SCOPES.includes(s))
    if (unknown.length) throw new Error(`--scopes: unknown ${unknown.join(', ')} (known: ${SCOPES.join(', ')})`)
    const origins = values.origins ? values.origins.split(',') : []
    for (const o of origins) if (!/^https?:\/\/[^/\s]+$/.test(o)) throw new Error(`--origins: ${o} is not scheme://host[:port]`)
    if (values.expires !== undefined && Number.isNaN(Date.parse(values.expires))) throw new Error('--expires: an ISO 8601 time')
    if (values.env !== undefined && values.env !== 'live' && values.env !== 'test') throw new Error('--env: live or test')
    let customLimits: PlanLimits | undefined
    if (plan === 'partner') {
      if (!values.limits) throw new Error('--limits is required on the partner plan')
      customLimits = JSON.parse(values.limits) as PlanLimits
      for (const field of ['unitsPerMinute', 'burstPerSecond', 'daily', 'monthly', 'maxPage'] as const) {
        if (!Number.isSafeInteger(customLimits[field]) || customLimits[field] < 1)
          throw new Error(`--limits: ${field} must be a positive integer`)
      }
    }
    const { key, record } = await keys.create({
      plan,
      customLimits,
      scopes,
      allowedOrigins: origins,
      owner: values.owner,
      label: values.label,
      expiresAt: values.expires ? new Date(values.expires).toISOString() : undefined,
      environment: values.env as 'live' | 'test' | undefined,
    })
    return `${key}\n(shown once; prefix ${record.prefix}, plan ${record.plan}, scopes ${[...record.scopes].join(' ')})`
  }
  if (command === 'list') {
    return (await keys.list())
      .map((k) =>
        [
          k.prefix,
          k.status,
          k.plan,
          [...k.scopes].join(','),
          [...k.allowedOrigins].join(',') || '-',
          k.owner,
          k.expiresAt ?? '-',
          k.label,
        ].join('\t'),
      )
      .join('\n')
  }
  if (command === 'revoke' || command === 'deactivate' || command === 'activate') {
    const prefix = rest[0]
    if (!prefix) throw new Error(USAGE)
    const status = command === 'revoke' ? 'revoked' : command === 'deactivate' ? 'inactive' : 'active'
    const outcome = await keys.setStatus(prefix, status)
    if (outcome === 'missing') throw new Error(`no key with prefix ${prefix}`)
    if (outcome === 'revoked' && status !== 'revoked') throw new Error(`${prefix} is revoked: a revocation is final (create a new key)`)
    return `${prefix}: ${status} (in effect within 5 s: the gateway caches a key's record that long)`
  }
  throw new Error(USAGE)
}
