import assert from 'node:assert/strict'
import { test } from 'vitest'
import { createAdmissionControl } from './createAdmissionControl.ts'

test('bounds per key and overall; a release frees its slot once; other keys keep their share', () => {
  const off = createAdmissionControl({ maxConcurrent: 1, maxConcurrentPerKey: 1, maxEventLoopDelayMs: 0 })
  assert.ok(off.enter('x').admitted, 'a delay bound of 0 never sheds on delay')
  off.close()
  const admission = createAdmissionControl({ maxConcurrent: 3, maxConcurrentPerKey: 2, maxEventLoopDelayMs: 10_000 })
  const a1 = admission.enter('a')
  const a2 = admission.enter('a')
  assert.ok(a1.admitted && a2.admitted)
  const a3 = admission.enter('a')
  assert.equal(a3.admitted, false)
  assert.equal(!a3.admitted && a3.reason, 'key')
  const b1 = admission.enter('b')
  assert.ok(b1.admitted, 'a key at its bound does not starve another')
  const c1 = admission.enter('c')
  assert.equal(!c1.admitted && c1.reason, 'service')
  assert.match(!c1.admitted ? c1.message : '', /^overloaded: 3 solves in flight \(bound 3\)/)
  if (a1.admitted) {
    a1.release()
    a1.release()
  }
  assert.equal(admission.inFlight(), 2, 'released once however often called')
  assert.ok(admission.enter('c').admitted)
  admission.close()
})

test('a late event loop sheds new solves until it catches up', async () => {
  const admission = createAdmissionControl({ maxConcurrent: 100, maxConcurrentPerKey: 100, maxEventLoopDelayMs: 150, windowMs: 100 })
  // Past the first window (not counted: the start's own work), with the sampler running.
  await new Promise((resolve) => setTimeout(resolve, 150))
  // A timer due at once puts the next turn's JavaScript timers (the window's among them, due during
  // the block) before the delay sampler's: the order a loaded machine gives by chance, in which a
  // window that reset its statistic before the sampler saw the block lost the block.
  setTimeout(() => {}, 1)
  const until = Date.now() + 400
  while (Date.now() < until) {
    // Block the loop: the delay histogram sees it late.
  }
  // The first window after the block reports it, whichever of the sampler and the window timer runs first.
  let shed = admission.enter('k')
  for (let i = 0; i < 40 && shed.admitted; i++) {
    shed.release()
    await new Promise((resolve) => setTimeout(resolve, 10))
    shed = admission.enter('k')
  }
  assert.equal(!shed.admitted && shed.reason, 'eventLoop')
  assert.ok(admission.eventLoopDelayMs() > 150)
  let admitted = false
  for (let i = 0; i < 50 && !admitted; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    admitted = admission.enter('k').admitted
  }
  assert.ok(admitted, 'admitted again once the loop is on time')
  admission.close()
})
