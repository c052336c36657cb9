/**
 * One schema error as either validator reports it: Ajv (Fastify's, `missingProperty` /
 * `additionalProperty`) or TypeBox's compiled one (`requiredProperties` / `additionalProperties`).
 */
export type SchemaError = { instancePath: string; params: object }

/**
 * The field a schema error is about, as the caller named it: `/permit/v` → `permit.v`, a missing
 * or extra property appended to its object's path; `root` when the error is about the whole value.
 * The swap surface, the gateway, the quote check and the upstream body check all name fields
 * with it.
 *
 * @example
 * schemaErrorField({ instancePath: '/permit', params: { missingProperty: 'v' } }) // 'permit.v'
 * schemaErrorField({ instancePath: '', params: { requiredProperties: ['amountIn'] } }) // 'amountIn'
 * schemaErrorField({ instancePath: '', params: {} }, 'request') // 'request'
 */
export function schemaErrorField(error: SchemaError, root = 'body'): string {
  const params = error.params as Record<string, unknown>
  const child = [
    params.missingProperty,
    params.additionalProperty,
    firstOf(params.requiredProperties),
    firstOf(params.additionalProperties),
  ].find((name) => typeof name === 'string')
  const parts = error.instancePath.split('/').filter(Boolean)
  if (typeof child === 'string') parts.push(child)
  return parts.length ? parts.join('.') : root
}

const firstOf = (names: unknown): unknown => (Array.isArray(names) ? names[0] : undefined)
