/**
 * A JSON object body whose first member is `raw` JSON text sent byte for byte (an upstream's own
 * route, given back unmodified), followed by `rest`'s members.
 *
 * @example
 * jsonWithRawMember({ name: 'routeSummary', raw: '{"amountIn":"1"}', rest: { sender: taker } })
 * // '{"routeSummary":{"amountIn":"1"},"sender":"0x…"}'
 */
export function jsonWithRawMember({ name, raw, rest }: { name: string; raw: string; rest: Record<string, unknown> }): string {
  const others = JSON.stringify(rest).slice(1, -1)
  return `{${JSON.stringify(name)}:${raw}${others ? `,${others}` : ''}}`
}
