// The WASM solver's request/reply channel between the main thread and its worker
// (bindings/wasmSolver.ts, bindings/serveWasmSolver.mjs), in shared memory: one call at a time, its
// text written as UTF-8 into a growable SharedArrayBuffer and the other side woken through an
// Atomics slot, so a call costs neither side a structured clone nor a message event. Text longer
// than the buffer may grow to goes through a MessagePort beside it, read synchronously
// (receiveMessageOnPort) when the slot says so. Plain JavaScript: the worker runs without a
// TypeScript loader.
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads'

/** The operations a request may name, by index. */
export const OPS = ['applyBlock', 'upsertPools', 'removePools', 'quote', 'simulate', 'waterfill']
/** A reply's status: the result, a solver error (its fault as JSON), or a trap (the worker exits). */
export const REPLY_OK = 0
export const REPLY_FAILED = 1
export const REPLY_TRAPPED = 2

// Int32 slots of the header: the last request written (the main thread writes it, the worker waits
// on it), the last request answered (the worker writes it, the main thread waits on it), the
// request's operation, the reply's status, and the text's UTF-8 length (-1: sent through the port).
const REQUEST_SEQ = 0
const REPLY_SEQ = 1
const OP = 2
const STATUS = 3
const TEXT_BYTES = 4
/** Float64 slot 3 (bytes 24-31): when the call was made, `performance.timeOrigin + performance.now()`. */
const MADE_AT = 3
const HEADER_BYTES = 32
const THROUGH_PORT = -1

/** The default text buffer: 64 KiB at first (a quote and its plan, with room), growing to 4 MiB. */
export const DEFAULT_TEXT_BYTES = { initial: 1 << 16, max: 1 << 22 }

/**
 * The main thread's end of a new channel, and what the worker needs to open its own (pass `shared`
 * in `workerData` and `shared.port` in the `transferList`).
 *
 * @param {{ initial: number, max: number }} [textBytes] the text buffer's first and largest size
 * @example
 * const { channel, shared } = createCallChannel()
 * new Worker(url, { workerData: { channel: shared }, transferList: [shared.port] })
 */
export function createCallChannel(textBytes = DEFAULT_TEXT_BYTES) {
  const { port1, port2 } = new MessageChannel()
  const header = new SharedArrayBuffer(HEADER_BYTES)
  const text = new SharedArrayBuffer(textBytes.initial, { maxByteLength: Math.max(textBytes.initial, textBytes.max) })
  return { channel: openCallChannel({ header, text, port: port1 }), shared: { header, text, port: port2 } }
}

/**
 * One end of a channel over its shared buffers.
 *
 * @param {{ header: SharedArrayBuffer, text: SharedArrayBuffer, port: import('node:worker_threads').MessagePort }} shared
 * @example
 * const channel = openCallChannel(workerData.channel) // in the worker
 */
export function openCallChannel({ header, text, port }) {
  // Unreferenced: a port that only carries the rare long text must not hold the process open.
  port.unref()
  return { slots: new Int32Array(header), madeAt: new Float64Array(header), text, bytes: Buffer.from(text), port, abandoned: false }
}

/** Writes `value` into the text buffer, growing it when needed, or posts it when it cannot fit. */
function writeText(channel, value) {
  const { text } = channel
  // UTF-8 takes at most 3 bytes per UTF-16 unit: only a long text needs measuring.
  if (value.length * 3 > channel.bytes.length) {
    const needed = Buffer.byteLength(value)
    if (needed > text.maxByteLength) {
      channel.port.postMessage(value)
      channel.slots[TEXT_BYTES] = THROUGH_PORT
      return
    }
    if (needed > text.byteLength) text.grow(Math.min(text.maxByteLength, Math.max(needed, 2 * text.byteLength)))
  }
  // A view made before the other side grew the buffer is shorter than the buffer now.
  if (channel.bytes.length !== text.byteLength) channel.bytes = Buffer.from(text)
  channel.slots[TEXT_BYTES] = channel.bytes.write(value, 0, 'utf8')
}

/** The text the other side wrote last. */
function readText(channel) {
  const length = channel.slots[TEXT_BYTES]
  if (length === THROUGH_PORT) return receiveMessageOnPort(channel.port).message
  if (channel.bytes.length !== channel.text.byteLength) channel.bytes = Buffer.from(channel.text)
  return channel.bytes.toString('utf8', 0, length)
}

/**
 * Main thread: writes a call and wakes the worker; returns the call's sequence number. The previous
 * call must have been answered (its reply read).
 *
 * @param {ReturnType<typeof openCallChannel>} channel
 * @param {string} op one of `OPS`
 * @param {string} payload the operation's JSON
 * @param {number} madeAt when the call was made (`performance.timeOrigin + performance.now()`)
 * @example
 * const seq = sendRequest(channel, 'quote', JSON.stringify(request), performance.timeOrigin + performance.now())
 */
export function sendRequest(channel, op, payload, madeAt) {
  writeText(channel, payload)
  channel.slots[OP] = OPS.indexOf(op)
  channel.madeAt[MADE_AT] = madeAt
  const seq = channel.slots[REQUEST_SEQ] + 1
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
    if (answered === seq || channel.abandoned) return
    const wait = Atomics.waitAsync(channel.slots, REPLY_SEQ, answered)
    if (wait.async) await wait.value
  }
}

/**
 * Main thread: the reply to call `seq` (read once: the next request overwrites it), or undefined
 * while it is not answered.
 *
 * @param {ReturnType<typeof openCallChannel>} channel
 * @param {number} seq
 * @example
 * const reply = readReply(channel, seq) // { status: REPLY_OK, text: '{"routes":…}' }
 */
export function readReply(channel, seq) {
  if (Atomics.load(channel.slots, REPLY_SEQ) !== seq) return undefined
  return { status: channel.slots[STATUS], text: readText(channel) }
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
 * Worker: blocks (`Atomics.wait`: the worker has nothing else to do) until the call after `answered`
 * arrives; returns it.
 *
 * @param {ReturnType<typeof openCallChannel>} channel
 * @param {number} answered the last call this worker answered (0 before the first)
 * @example
 * const { seq, op, payload, madeAt } = takeRequest(channel, 0)
 */
export function takeRequest(channel, answered) {
  while (Atomics.load(channel.slots, REQUEST_SEQ) === answered) Atomics.wait(channel.slots, REQUEST_SEQ, answered)
  const seq = Atomics.load(channel.slots, REQUEST_SEQ)
  return { seq, op: OPS[channel.slots[OP]], payload: readText(channel), madeAt: channel.madeAt[MADE_AT] }
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
  writeText(channel, text)
  channel.slots[STATUS] = status
  Atomics.store(channel.slots, REPLY_SEQ, seq)
  Atomics.notify(channel.slots, REPLY_SEQ)
}
