import type { UpstreamHttpResponse } from '../http/createUpstreamHttpClient.ts'
import { UpstreamError } from '../UpstreamError.ts'
import { schemaErrorField } from '../../validation/schemaErrorField.ts'

/** A compiled TypeBox validator (`Compile(schema)`), as far as it is used here. */
export type CompiledSchema<T> = {
  Check: (value: unknown) => value is T
  Errors: (value: unknown) => { instancePath: string; params: object; message: string }[]
}

/**
 * The body of a success answer, checked against the API's documented response schema (compiled
 * TypeBox, only the fields we use, extra fields allowed as the APIs add them): a body that is not
 * JSON or does not match is an `invalid response` naming the first failing field, never a number. (Schemas avoid top-level unions: an adapter
 * recognises an API's documented no-route shape before validating, so the error names a field.)
 *
 * @example
 * const body = checkUpstreamBody({ validator: ZeroExPriceValidator, response })
 * // → response.json typed as the schema's type; UpstreamError('invalid response', 'buyAmount: …') when it does not match
 */
export function checkUpstreamBody<T>({ validator, response }: { validator: CompiledSchema<T>; response: UpstreamHttpResponse }): T {
  if (response.json === undefined) throw new UpstreamError('invalid response', `HTTP ${response.status} with a body that is not JSON`)
  if (validator.Check(response.json)) return response.json
  const first = validator.Errors(response.json)[0]
  // The object the error is about: TypeBox's message already names a missing or extra property.
  const where = first ? schemaErrorField({ instancePath: first.instancePath, params: {} }) : 'body'
  throw new UpstreamError('invalid response', `${where}: ${first?.message ?? 'does not match the documented format'}`)
}
