/** Longest description kept (a node's error body can be long). */
const MAX_LENGTH = 400

/**
 * One line saying why a refresh failed: the error's message without what only adds noise
 * (viem's request body, version and docs lines), lines joined by `; `. viem's `Status:` and
 * `URL:` lines stay (the caller redacts the URL's secrets), so the line says which node answered
 * what.
 *
 * @example
 * describeRefreshError(new HttpRequestError({ url: 'https://node.example/rpc', status: 503 }))
 * // 'HTTP request failed.; Status: 503; URL: https://node.example/rpc'
 */
export function describeRefreshError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const kept = message
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^(Request body|Version|Docs):/.test(line))
  const line = kept.join('; ')
  return line.length > MAX_LENGTH ? `${line.slice(0, MAX_LENGTH)}…` : line
}
