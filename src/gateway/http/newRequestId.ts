import { randomBytes } from 'node:crypto'

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'

/**
 * A request identifier, `req_` and 26 characters: 10 of time (ms, base32) so ids sort by arrival,
 * then 16 random ones (80 bits). It is the `X-Request-Id`, the problem's `request_id`, and every
 * log line's `reqId`.
 *
 * @example
 * newRequestId() // 'req_01jd3x…'
 */
export function newRequestId(now = Date.now()): string {
  let time = ''
  let t = now
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time
    t = Math.floor(t / 32)
  }
  const random = [...randomBytes(16)].map((b) => ALPHABET[b & 31]).join('')
  return `req_${time}${random}`
}
