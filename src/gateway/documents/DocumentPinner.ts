/** Where a metadata document was pinned: the gateway's own blockstore, or a Kubo node. */
export type PinTarget = 'embedded' | 'kubo'

export type PinDocumentParameters = {
  /** The CID the gateway computed from `bytes` (`computeDocumentCid`). */
  cid: string
  /** The document's exact bytes (canonical JSON). */
  bytes: Uint8Array
}

/**
 * Keeps a metadata document's bytes under its CID so that `ipfs://<cid>` resolves. `pin` resolves
 * once the content is stored and pinned (kept from garbage collection) under exactly that CID; it
 * throws a `GatewayProblem` (`upstream_timeout`, `temporarily_unavailable`, `upstream_error`)
 * when the node fails, is unreachable, is slow or answers another CID.
 */
export type DocumentPinner = {
  target: PinTarget
  pin: (parameters: PinDocumentParameters) => Promise<void>
  close: () => Promise<void>
}
