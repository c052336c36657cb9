import { newRequestId } from '../http/newRequestId.ts'

/**
 * A plan id: `plan_` and 26 characters, time-ordered then 80 random bits (the request id's form).
 *
 * @example
 * newPlanId(Date.now()) // 'plan_01jd3x…'
 */
export function newPlanId(now: number): string {
  return `plan_${newRequestId(now).slice('req_'.length)}`
}
