/**
 * The exact source text of a member of a JSON document (`path` of object keys from the root), as
 * the upstream wrote it, or undefined when absent or not well formed. KyberSwap asks for its
 * `routeSummary` back unmodified in /route/build; re-serialising a parsed copy could change it
 * (integers past 2^53 lose digits in `JSON.parse`), so the original bytes are sent back.
 *
 * @example
 * extractRawJsonMember('{"data":{"routeSummary":{"a":12345678901234567890}}}', ['data', 'routeSummary'])
 * // '{"a":12345678901234567890}'
 */
export function extractRawJsonMember(text: string, path: string[]): string | undefined {
  // Only a well-formed document is searched (the scan below trusts the structure it walks).
  try {
    JSON.parse(text)
  } catch {
    return undefined
  }
  let i = 0
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++
  }
  const string = (): string | undefined => {
    if (text[i] !== '"') return undefined
    const start = i++
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1
    if (i >= text.length) return undefined
    i++
    try {
      return JSON.parse(text.slice(start, i)) as string
    } catch {
      return undefined
    }
  }
  // Skips one value; returns false on malformed input.
  const skip = (): boolean => {
    ws()
    const c = text[i]
    if (c === '"') return string() !== undefined
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']'
      i++
      ws()
      if (text[i] === close) return ++i > 0
      for (;;) {
        if (c === '{') {
          ws()
          if (string() === undefined) return false
          ws()
          if (text[i++] !== ':') return false
        }
        if (!skip()) return false
        ws()
        if (text[i] === ',') i++
        else if (text[i] === close) return ++i > 0
        else return false
      }
    }
    const m = /^(-?[0-9][0-9eE+.\-]*|true|false|null)/.exec(text.slice(i, i + 400))
    if (!m) return false
    i += m[0].length
    return true
  }
  const find = (depth: number): string | undefined => {
    ws()
    if (depth === path.length) {
      const start = i
      return skip() ? text.slice(start, i) : undefined
    }
    if (text[i] !== '{') return undefined
    i++
    ws()
    if (text[i] === '}') return undefined
    for (;;) {
      ws()
      const key = string()
      if (key === undefined) return undefined
      ws()
      if (text[i++] !== ':') return undefined
      if (key === path[depth]) return find(depth + 1)
      if (!skip()) return undefined
      ws()
      if (text[i] === ',') i++
      else return undefined
    }
  }
  return find(0)
}
