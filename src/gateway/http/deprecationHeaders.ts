import { serializeItem } from 'structured-headers'

/** When the combined routes were deprecated (spec §9.1: deprecated now; no sunset announced). */
export const COMBINED_ROUTES_DEPRECATED_AT = new Date('2026-11-01T00:00:00Z')

/**
 * The headers of a deprecated combined route (spec §9; RFC 9745): `Deprecation` as a structured
 * date, and `Link` to the migration guide (`rel="deprecation"`) and to the focused route that
 * replaces this request (`rel="successor-version"`). No `Sunset`: no date is announced.
 *
 * @example
 * deprecationHeaders({ migrationGuideUrl: 'http://127.0.0.1:8081/docs/migration', successor: '/tokens/search?q=moon' })
 */
export function deprecationHeaders({
  migrationGuideUrl,
  successor,
}: {
  migrationGuideUrl: string
  successor: string
}): Record<string, string> {
  return {
    deprecation: serializeItem([COMBINED_ROUTES_DEPRECATED_AT, new Map()]),
    link: `<${migrationGuideUrl}>; rel="deprecation"; type="text/html", <${successor}>; rel="successor-version"`,
  }
}
