// The WASM solver's request/reply channel between the main thread and its worker
// (bindings/wasmSolver.ts, bindings/serveWasmSolver.mjs), in shared memory: requests and replies
// written as UTF-8 into growable SharedArrayBuffers and the other side woken through an Atomics
// slot, so a call costs neither side a structured clone nor a message event. Calls are answered in
// order; two buffers each way, used in turn, let the main thread write the next call while the
// worker runs one and the worker answer it before the main thread has read the last answer, so
// neither waits for the other, and one wake-up of the main thread may find two answers.
// Text longer than a buffer may grow to goes through a MessagePort beside them, read synchronously
// (receiveMessageOnPort) when the slot says so. Plain JavaScript: the worker runs without a
// TypeScript loader.
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads'

/** The operations a request may name, by index. */
export const OPS = ['applyBlock', 'upsertPools', 'removePools', 'quote', 'simulate', 'waterfill']
/** A reply's status: the result, a solver error (its fault as JSON), or a trap (the worker exits). */
export const REPLY_OK = 0
export const REPLY_FAILED = 1
export const REPLY_TRAPPED = 2

// Int32 slots of the header: the last request written (the main thread writes it, the worker
// waits on it) and the last one answered (the worker writes it, the main thread waits on it); then
// per request buffer its operation and UTF-8 length, per reply buffer its status and UTF-8 length
// (a length of -1: the text went through the port). Call `seq` uses the buffers `seq % 2`.
const REQUEST_SEQ = 0
const REPLY_SEQ = 1
const OP = [2, 3]
const REQUEST_BYTES = [4, 5]
const STATUS = [6, 7]
const REPLY_BYTES = [8, 9]
/** Float64 slots 5 and 6 (bytes 40-55): when each buffer's request was made, `performance.timeOrigin + performance.now()`. */
const MADE_AT = [5, 6]
const HEADER_BYTES = 56
const THROUGH_PORT = -1
/** Calls the main thread may have sent and not read the reply of: one running, one waiting. */
export const MAX_IN_FLIGHT = 2

/** The default text buffers: 64 KiB at first (a quote or its plan, with room), growing to 4 MiB. */
export const DEFAULT_TEXT_BYTES = { initial: 1 << 16, max: 1 << 22 }

/**
 * The main thread's end of a new channel, and what the worker needs to open its own (pass `shared`
 * in `workerData` and `shared.port` in the `transferList`).
 *
 * @param {{ initial: number, max: number }} [textBytes] each text buffer's first and largest size
 * @example
 * const { channel, shared } = createCallChannel()
 * new Worker(url, { workerData: { channel: shared }, transferList: [shared.port] })
 */
export function createCallChannel(textBytes = DEFAULT_TEXT_BYTES) {
  const { port1, port2 } = new MessageChannel()
  const header = new SharedArrayBuffer(HEADER_BYTES)
  const buffer = () => new SharedArrayBuffer(textBytes.initial, { maxByteLength: Math.max(textBytes.initial, textBytes.max) })
  const shared = { header, requests: [buffer(), buffer()], replies: [buffer(), buffer()] }
  return { channel: openCallChannel({ ...shared, port: port1 }), shared: { ...shared, port: port2 } }
}

/**
 * One end of a channel over its shared buffers.
 *
 * @param {{ header: SharedArrayBuffer, requests: SharedArrayBuffer[], replies: SharedArrayBuffer[], port: import('node:worker_threads').MessagePort }} shared
 * @example
 * const channel = openCallChannel(workerData.channel) // in the worker
 */
export function openCallChannel({ header, requests, replies, port }) {
  // Unreferenced: a port that only carries the rare long text must not hold the process open.
  port.unref()
  const area = (buffer, lengthSlot) => ({ buffer, bytes: Buffer.from(buffer), lengthSlot })
  return {
    slots: new Int32Array(header),
    madeAt: new Float64Array(header),
    requests: requests.map((buffer, k) => area(buffer, REQUEST_BYTES[k])),
    replies: replies.map((buffer, k) => area(buffer, REPLY_BYTES[k])),
    port,
    abandoned: false,
  }
}

/** Writes `value` into `area`, growing it when needed, or posts it when it cannot fit. */
function writeText(channel, area, value) {
  const { buffer } = area
  // UTF-8 takes at most 3 bytes per UTF-16 unit: only a long text needs measuring.
  if (value.length * 3 > area.bytes.length) {
    const needed = Buffer.byteLength(value)
    if (needed > buffer.maxByteLength) {
      channel.port.postMessage(value)
      channel.slots[area.lengthSlot] = THROUGH_PORT
      return
    }
    if (needed > buffer.byteLength) buffer.grow(Math.min(buffer.maxByteLength, Math.max(needed, 2 * buffer.byteLength)))
  }
  // A view made before the buffer grew is shorter than the buffer now.
  if (area.bytes.length !== buffer.byteLength) area.bytes = Buffer.from(buffer)
  channel.slots[area.lengthSlot] = area.bytes.write(value, 0, 'utf8')
}

/** The text the other side wrote last into `area`. */
function readText(channel, area) {
  const length = channel.slots[area.lengthSlot]
  if (length === THROUGH_PORT) return receiveMessageOnPort(channel.port).message
  if (area.bytes.length !== area.buffer.byteLength) area.bytes = Buffer.from(area.buffer)
  return area.bytes.toString('utf8', 0, length)
}

/**
 * Main thread: writes a call and wakes the worker; returns the call's sequence number. At most
 * `MAX_IN_FLIGHT` calls may be sent and their replies not read.
 *
 * @param {ReturnType<typeof openCallChannel>} channel
 * @param {string} op one of `OPS`
 * @param {string} payload the operation's JSON
 * @param {number} madeAt when the call was made (`performance.timeOrigin + performance.now()`)
 * @example
 * const seq = sendRequest(channel, 'quote', JSON.stringify(request), performance.timeOrigin + performance.now())
 */
export function sendRequest(channel, op, payload, madeAt) {
  const seq = channel.slots[REQUEST_SEQ] + 1
  // Call seq - 2 left this buffer: the worker read it before it answered it, and the answer was read.
  const slot = seq % 2
  writeText(channel, channel.requests[slot], payload)
  channel.slots[OP[slot]] = OPS.indexOf(op)
  channel.madeAt[MADE_AT[slot]] = madeAt
  Atomics.store(channel.slots, REQUEST_SEQ, seq)
  Atomics.notify(channel.slots, REQUEST_SEQ)
  return seq
}

/**
 * Main thread: resolves once call `seq` is answered, or once the channel is abandoned (its worker
 * gone). Never blocks: it waits with `Atomics.waitAsync`.
 *
 * @param {ReturnType<typeof openCallChannel>} channel
 * @param {number} seq
 * @example
 * await whenReplied(channel, seq)
 */
export async function whenReplied(channel, seq) {
  for (;;) {
    const answered = Atomics.load(channel.slots, REPLY_SEQ)
    if (answered >= seq || channel.abandoned) return
    const wait = Atomics.waitAsync(channel.slots, REPLY_SEQ, answered)
    if (wait.async) await wait.value
  }
}

/**
 * Main thread: the reply to call `seq` (read once: call `seq + 2` overwrites it), or undefined
 * while it is not answered.
 *
 * @param {ReturnType<typeof openCallChannel>} channel
 * @param {number} seq
 * @example
 * const reply = readReply(channel, seq) // { status: REPLY_OK, text: '{"routes":…}' }
 */
export function readReply(channel, seq) {
  if (Atomics.load(channel.slots, REPLY_SEQ) < seq) return undefined
  const slot = seq % 2
  return { status: channel.slots[STATUS[slot]], text: readText(channel, channel.replies[slot]) }
}

/**
 * Main thread: the worker is gone; whoever waits for a reply on this channel stops waiting.
 *
 * @param {ReturnType<typeof openCallChannel>} channel
 * @example
 * abandon(channel)
 */
export function abandon(channel) {
  channel.abandoned = true
  Atomics.notify(channel.slots, REPLY_SEQ)
}

/**
 * Worker: blocks (`Atomics.wait`: the worker has nothing else to do) until the call after `taken`
 * is written; returns it, read out of its request buffer.
 *
 * @param {ReturnType<typeof openCallChannel>} channel
 * @param {number} taken the last call this worker took (0 before the first)
 * @example
 * const { seq, op, payload, madeAt } = takeRequest(channel, 0)
 */
export function takeRequest(channel, taken) {
  while (Atomics.load(channel.slots, REQUEST_SEQ) === taken) Atomics.wait(channel.slots, REQUEST_SEQ, taken)
  const seq = taken + 1
  const slot = seq % 2
  return {
    seq,
    op: OPS[channel.slots[OP[slot]]],
    payload: readText(channel, channel.requests[slot]),
    madeAt: channel.madeAt[MADE_AT[slot]],
  }
}

/**
 * Worker: answers call `seq` and wakes the main thread.
 *
 * @param {ReturnType<typeof openCallChannel>} channel
 * @param {number} seq
 * @param {number} status `REPLY_OK`, `REPLY_FAILED` or `REPLY_TRAPPED`
 * @param {string} text the result, or the fault's JSON
 * @example
 * sendReply(channel, seq, REPLY_OK, solver.quote(payload))
 */
export function sendReply(channel, seq, status, text) {
  // The answer to call seq - 2 left this buffer: the main thread read it before it sent call seq.
  const slot = seq % 2
  writeText(channel, channel.replies[slot], text)
  channel.slots[STATUS[slot]] = status
  Atomics.store(channel.slots, REPLY_SEQ, seq)
  Atomics.notify(channel.slots, REPLY_SEQ)
}
