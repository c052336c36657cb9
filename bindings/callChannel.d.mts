// Types of bindings/callChannel.mjs (plain JavaScript, so that the worker runs without a loader).
import type { MessagePort } from 'node:worker_threads'

export type Op = 'applyBlock' | 'upsertPools' | 'removePools' | 'quote' | 'simulate' | 'waterfill'
export declare const OPS: readonly Op[]
export declare const REPLY_OK: 0
export declare const REPLY_FAILED: 1
export declare const REPLY_TRAPPED: 2
export type ReplyStatus = typeof REPLY_OK | typeof REPLY_FAILED | typeof REPLY_TRAPPED

/** Each text buffer's first and largest size, in bytes. */
export type TextBytes = { initial: number; max: number }
export declare const DEFAULT_TEXT_BYTES: TextBytes
/** Calls the main thread may have sent and not read the reply of: one running, one waiting. */
export declare const MAX_IN_FLIGHT: 2

/** What the worker needs to open its end: pass it in `workerData`, its `port` in the `transferList`. */
export type SharedCallChannel = {
  header: SharedArrayBuffer
  requests: SharedArrayBuffer[]
  replies: SharedArrayBuffer[]
  port: MessagePort
}
/** One direction's text buffer, and the header slot holding its text's UTF-8 length. */
export type TextArea = { readonly buffer: SharedArrayBuffer; bytes: Buffer; readonly lengthSlot: number }
/** One end of a channel. */
export type CallChannel = {
  readonly slots: Int32Array
  readonly madeAt: Float64Array
  readonly requests: readonly TextArea[]
  readonly replies: readonly TextArea[]
  readonly port: MessagePort
  abandoned: boolean
}

export declare function createCallChannel(textBytes?: TextBytes): { channel: CallChannel; shared: SharedCallChannel }
export declare function openCallChannel(shared: SharedCallChannel): CallChannel
export declare function sendRequest(channel: CallChannel, op: Op, payload: string, madeAt: number): number
export declare function whenReplied(channel: CallChannel, seq: number): Promise<void>
export declare function readReply(channel: CallChannel, seq: number): { status: ReplyStatus; text: string } | undefined
export declare function abandon(channel: CallChannel): void
export declare function takeRequest(
  channel: CallChannel,
  taken: number,
): { seq: number; op: Op | undefined; payload: string; madeAt: number }
export declare function sendReply(channel: CallChannel, seq: number, status: ReplyStatus, text: string): void
