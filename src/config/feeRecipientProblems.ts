import type { ApiKeyEntry } from '../http/auth/createApiKeyCheck.ts'

export type FeeRecipientProblemsParameters = {
  /** Our router: `ROUTER_ADDRESS`, or the embedded chain's once it runs. */
  router: string
  /** `FEE_RECIPIENT` (or the embedded chain's default). */
  feeRecipient?: string
  apiKeys: readonly ApiKeyEntry[]
}

/**
 * The fee recipients that are the router itself, one message each: the router refuses to pay
 * itself (fees would strand as stray balances), so every fee-paying transaction built for them
 * would revert. `loadConfig` asks with `ROUTER_ADDRESS`; the embedded chain's router is known only
 * once it runs, so `startSwapService` asks again then.
 *
 * @example
 * feeRecipientProblems({ router, feeRecipient: router, apiKeys: [] })
 * // ['FEE_RECIPIENT: must not be the router 0x… (the router refuses to pay itself)']
 */
export function feeRecipientProblems({ router, feeRecipient, apiKeys }: FeeRecipientProblemsParameters): string[] {
  const isRouter = (address: string | undefined) => address !== undefined && address.toLowerCase() === router.toLowerCase()
  const message = (source: string) => `${source}: must not be the router ${router} (the router refuses to pay itself)`
  return [
    ...(isRouter(feeRecipient) ? [message('FEE_RECIPIENT')] : []),
    ...apiKeys.filter((key) => isRouter(key.feeRecipient)).map((key) => message(`${key.source ?? 'an API key'} feeRecipient`)),
  ]
}
