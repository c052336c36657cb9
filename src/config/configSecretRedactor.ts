import { createHash } from 'node:crypto'
import { createSecretRedactor, type SecretRedactor } from '../logging/createSecretRedactor.ts'
import type { Config } from './loadConfig.ts'

export type ConfigSecretRedactorParameters = {
  config: Pick<Config, 'rpcUrl' | 'quoteSigningKey' | 'apiKeys'> &
    Partial<Pick<Config, 'rpcUrls' | 'redisUrl' | 'upstreams' | 'gatewayChains'>>
  /** Keys that are not in the configuration (the generated development key). */
  extraApiKeys?: readonly string[]
}

/**
 * The redactor of everything secret in a configuration: `RPC_URL` (its path, query and
 * credentials; the host stays) and the gateway chains' nodes, `QUOTE_SIGNING_KEY` and every API key (by digest: the
 * configuration holds no key), and the upstream aggregators' API keys and URLs. The service's
 * logger, its market lines and `server.ts`'s own output all use the one this returns.
 *
 * @example
 * const redact = configSecretRedactor({ config: loadConfig(process.env) })
 * process.stderr.write(`${redact(String(error))}\n`)
 * // RPC and Redis URL credentials, the signing key and API keys show as [redacted]
 */
export function configSecretRedactor({ config, extraApiKeys = [] }: ConfigSecretRedactorParameters): SecretRedactor {
  return createSecretRedactor({
    urls: [
      config.rpcUrl,
      ...(config.rpcUrls ?? []),
      ...(config.gatewayChains ?? []).flatMap((c) => c.rpcUrls ?? []),
      config.redisUrl,
      ...Object.values(config.upstreams?.settings ?? {}).map((s) => s?.baseUrl),
    ],
    secrets: [config.quoteSigningKey, ...Object.values(config.upstreams?.settings ?? {}).map((s) => s?.apiKey)],
    apiKeyDigests: [
      ...config.apiKeys.map((entry) => entry.sha256),
      ...extraApiKeys.map((key) => createHash('sha256').update(key).digest('hex')),
    ],
  })
}
