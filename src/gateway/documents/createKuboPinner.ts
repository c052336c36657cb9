import { randomBytes } from 'node:crypto'
import { GatewayProblem } from '../problems/GatewayProblem.ts'
import { mapDependencyError } from '../problems/mapDependencyError.ts'
import type { DocumentPinner } from './DocumentPinner.ts'

export type CreateKuboPinnerParameters = {
  /** Kubo's RPC API (`IPFS_API_URL`, e.g. `http://127.0.0.1:5001`); `/api/v0/…` is appended. */
  apiUrl: string
  /** Deadline of one add, connection to last byte. */
  timeoutMs: number
}

const DEPENDENCY = 'the IPFS node'

/**
 * The add's flags, chosen so Kubo gives the CID computed locally (`computeDocumentCid`): CIDv1,
 * sha2-256, raw leaves (a single-chunk file is then one raw block, the file's own CID), Kubo's
 * default 256 KiB chunker named so a node configured otherwise still answers one block (a document
 * is far smaller), no inlining, no trickle DAG, and `pin=true` (a recursive pin, as Kubo's default:
 * kept from garbage collection). `progress=false`: one event per file, no byte counts.
 */
const ADD_FLAGS = new URLSearchParams({
  'cid-version': '1',
  hash: 'sha2-256',
  'raw-leaves': 'true',
  chunker: 'size-262144',
  inline: 'false',
  trickle: 'false',
  pin: 'true',
  progress: 'false',
})

/** One event of `/api/v0/add`'s newline-delimited JSON (Kubo's `AddEvent`). */
type AddEvent = { Name?: string; Hash?: string; Size?: string; Bytes?: number }

/**
 * Pins documents to a Kubo node through its HTTP RPC API: `POST /api/v0/add` with the document as
 * the one `file` part of a `multipart/form-data` body (`application/octet-stream`, file name
 * `<cid>.json`), the flags above, then checks the CID Kubo answers is the one computed here. Kubo
 * down is `temporarily_unavailable` (503), slower than `timeoutMs` `upstream_timeout` (504), an
 * error answer (Kubo's `{Message, Code, Type: "error"}` with 400 or 500), a body that is not its
 * NDJSON or another CID `upstream_error` (502). The document route then prepares nothing.
 *
 * @example
 * const pinner = createKuboPinner({ apiUrl: 'http://127.0.0.1:5001', timeoutMs: 10_000 })
 * await pinner.pin({ cid, bytes })
 */
export function createKuboPinner({ apiUrl, timeoutMs }: CreateKuboPinnerParameters): DocumentPinner {
  const endpoint = `${apiUrl.replace(/\/+$/, '')}/api/v0/add?${ADD_FLAGS}`
  return {
    target: 'kubo',
    pin: async ({ cid, bytes }) => {
      const boundary = `----gateway-${randomBytes(12).toString('hex')}`
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\n` +
            `Content-Disposition: form-data; name="file"; filename="${cid}.json"\r\n` +
            'Content-Type: application/octet-stream\r\n\r\n',
        ),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ])
      let status: number
      let text: string
      try {
        const res = await fetch(endpoint, {
          method: 'POST',
          body,
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
          signal: AbortSignal.timeout(timeoutMs),
        })
        status = res.status
        text = await res.text()
      } catch (error) {
        throw mapDependencyError({ error, dependency: DEPENDENCY })
      }
      if (status !== 200) throw new GatewayProblem('upstream_error', { detail: `${DEPENDENCY} refused the document (HTTP ${status}).` })
      const events = parseEvents(text)
      // A 200 whose stream failed later carries no final event (Kubo sends the error in its X-Stream-Error trailer).
      const added = events?.findLast((e) => typeof e.Hash === 'string')
      if (!added) throw new GatewayProblem('upstream_error', { detail: `${DEPENDENCY} returned an invalid response.` })
      if (added.Hash !== cid)
        throw new GatewayProblem('upstream_error', {
          detail: `${DEPENDENCY} answered another CID than the document's (${cid}): check its import settings (CIDv1, raw leaves, sha2-256).`,
        })
    },
    close: async () => {},
  }
}

/** Kubo's NDJSON body, or undefined when it is not one. */
function parseEvents(text: string): AddEvent[] | undefined {
  try {
    return text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const event: unknown = JSON.parse(line)
        if (typeof event !== 'object' || event === null || Array.isArray(event)) throw new Error('not an event')
        return event as AddEvent
      })
  } catch {
    return undefined
  }
}
