import assert from 'node:assert/strict'

// Bodies are checked field by field by the callers.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

/**
 * Checks a gateway problem answer (spec §2, §7): its status and code, the media type, every
 * required member, the request id tying body, header and `instance`, and the `type` linking the
 * code's section of the gateway's reference page. Returns the body.
 *
 * @example
 * const body = await assertProblem(res, 422, 'insufficient_balance', bed.gateway.url)
 * // → the problem body, once status 422, code 'insufficient_balance', media type, members and request id all check
 */
export async function assertProblem(res: Response, status: number, code: string, gatewayUrl: string): Promise<Json> {
  const body = (await res.json()) as Json
  assert.equal(res.status, status, JSON.stringify(body))
  assert.match(res.headers.get('content-type')!, /^application\/problem\+json/)
  assert.equal(body.code, code, JSON.stringify(body))
  assert.equal(body.status, status)
  for (const member of ['type', 'title', 'detail', 'action', 'instance', 'request_id']) assert.equal(typeof body[member], 'string', member)
  assert.equal(body.request_id, res.headers.get('x-request-id'))
  assert.equal(body.instance, `urn:request:${body.request_id}`)
  assert.match(body.request_id, /^req_[0-9a-z]{26}$/)
  assert.equal(body.type, `${gatewayUrl}/problems#${code}`)
  assert.ok(!Number.isNaN(Date.parse(body.meta.generated_at)))
  return body
}
