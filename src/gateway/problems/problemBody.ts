import type { GatewayProblem } from './GatewayProblem.ts'
import { problemCodes } from './problemCodes.ts'

export type ProblemBodyParameters = {
  problem: GatewayProblem
  requestId: string
  /** Where the problem reference page is served (the problem's `type` is a fragment of it). */
  problemsBaseUrl: string
  generatedAt: string
}

/**
 * The `application/problem+json` body of a problem (RFC 9457 plus the spec's members): `type`
 * links the reference page's section for the code, `instance` is `urn:request:<request_id>`,
 * and the optional members appear only when they apply.
 *
 * @example
 * reply.code(problem.status).type('application/problem+json').send(problemBody({ problem, requestId: request.id, problemsBaseUrl, generatedAt }))
 * // → { type: '<problemsBaseUrl>#not_found', title, status: 404, code: 'not_found', detail, action, instance: 'urn:request:<id>', request_id }
 */
export function problemBody({ problem, requestId, problemsBaseUrl, generatedAt }: ProblemBodyParameters): Record<string, unknown> {
  const d = problem.details
  const entry = problemCodes[problem.code]
  const body: Record<string, unknown> = {
    type: `${problemsBaseUrl}#${problem.code}`,
    title: entry.title,
    status: problem.status,
    code: problem.code,
    detail: d.detail,
    action: d.action ?? entry.action,
    instance: `urn:request:${requestId}`,
    request_id: requestId,
  }
  if (d.invalidParameters?.length) body.invalid_parameters = d.invalidParameters
  if (d.resource !== undefined) body.resource = d.resource
  if (d.chainId !== undefined) body.chain_id = d.chainId
  if (d.tokenAddress !== undefined) body.token_address = d.tokenAddress
  if (d.suggestedEndpoint !== undefined) body.suggested_endpoint = d.suggestedEndpoint
  if (d.asset !== undefined) body.asset = d.asset
  if (d.actualRaw !== undefined) body.actual_raw = d.actualRaw
  if (d.requiredRaw !== undefined) body.required_raw = d.requiredRaw
  if (d.violatedPolicies?.length) body.violated_policies = d.violatedPolicies
  body.meta = { generated_at: generatedAt }
  return body
}
