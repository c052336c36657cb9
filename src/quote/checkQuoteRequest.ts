import { Compile } from 'typebox/compile'
import { quoteRequestSchema } from '../http/schemas/quote.ts'
import type { SwapDeployment } from '../http/schemas/SwapDeployment.ts'
import { swapComponents } from '../http/schemas/swapComponents.ts'
import { schemaErrorField } from '../validation/schemaErrorField.ts'
import { InvalidQuoteRequestError } from './errors.ts'
import type { QuoteRequest } from './quoteTypes.ts'

/** The quote service's largest fee: 100 %, as the router takes it (a deployment's schema may allow less). */
const MAX_FEE_BPS = 10_000

/** A schema node, as far as the messages below read it. */
type Node = { $ref?: string; type?: string; minimum?: number; maximum?: number; description?: string }

/**
 * The quote service's check of a QuoteRequest: the spec's rules as the TypeBox schema of
 * `POST /quote` states them (`quoteRequestSchema`, compiled once), so the service and the HTTP
 * surface cannot disagree. The first failure is an `InvalidQuoteRequestError` naming the field;
 * an integer out of range says its range and the value.
 *
 * @example
 * const check = createQuoteRequestCheck({ chainId: 8453, weth, router })
 * check({ chainId: 8453, tokenIn, tokenOut, amountIn: '1', slippageBps: 50, maxHops: 1e300 }) // returns the request
 * check({ chainId: 8453, tokenIn, tokenOut, amountIn: '1', slippageBps: 10_001 }) // throws 'slippageBps: must be an integer in 0..10000: 10001'
 */
export function createQuoteRequestCheck({
  chainId,
  weth,
  router,
}: Omit<SwapDeployment, 'maxFeeBps'>): (request: QuoteRequest) => QuoteRequest {
  const deployment: SwapDeployment = { chainId, weth, router, maxFeeBps: MAX_FEE_BPS }
  const components = swapComponents(deployment)
  const schema = quoteRequestSchema(deployment)
  const validator = Compile(components, schema)
  const properties = schema.properties as Record<string, Node>
  const resolve = (node: Node | undefined): Node | undefined =>
    node?.$ref ? (components as unknown as Record<string, Node>)[node.$ref] : node
  return (request) => {
    if (validator.Check(request)) return request
    const [error] = validator.Errors(request)
    const field = schemaErrorField(error, 'request')
    const value = (request as Record<string, unknown>)[field]
    throw new InvalidQuoteRequestError({ field, message: describe(error, resolve(properties[field]), value) })
  }
}

/** What is wrong, in the words the spec's table uses for the field's type. */
function describe(error: { keyword: string; params: object; message: string }, node: Node | undefined, value: unknown): string {
  if (error.keyword === 'required') return 'is required'
  if (error.keyword === 'additionalProperties') return 'is not allowed (no extra properties)'
  if (error.keyword === 'const')
    return `must be ${JSON.stringify((error.params as { allowedValue?: unknown }).allowedValue)}: ${String(value)}`
  if (node?.type === 'integer') {
    const range = node.maximum === undefined ? `>= ${node.minimum}` : `in ${node.minimum}..${node.maximum}`
    return `must be an integer ${range}: ${String(value)}`
  }
  if (error.keyword === 'pattern' && node?.description) return `must be ${node.description}: ${String(value)}`
  return error.message
}
