import { FsBlockstore } from 'blockstore-fs'
import { CID } from 'multiformats/cid'
import { mapDependencyError } from '../problems/mapDependencyError.ts'
import type { DocumentPinner } from './DocumentPinner.ts'

export type CreateBlockstorePinnerParameters = {
  /** The blockstore's directory (created if missing), e.g. `var/ipfs/blocks`. */
  dir: string
}

/**
 * The embedded default: an IPFS blockstore in the process (`blockstore-fs`, the Helia project's
 * filesystem blockstore: one file per block, named by its multihash in base32 and sharded by
 * the name's next-to-last two characters, as Kubo's flatfs shards). A document is one raw block (its CID is
 * the raw codec's), so storing it stores the whole DAG; nothing in this store is ever garbage
 * collected, so a stored block is pinned in Kubo's sense. It is not announced to the IPFS
 * network: the process runs no libp2p node (docs/gateway/ipfs.md says why).
 *
 * @example
 * const pinner = await createBlockstorePinner({ dir: 'var/ipfs/blocks' })
 * await pinner.pin({ cid, bytes })
 * // → the block is a file under var/ipfs/blocks/ (named by its multihash in base32, in its shard folder), kept for good
 */
export async function createBlockstorePinner({
  dir,
}: CreateBlockstorePinnerParameters): Promise<DocumentPinner & { blockstore: FsBlockstore }> {
  const blockstore = new FsBlockstore(dir)
  await blockstore.open()
  return {
    target: 'embedded',
    blockstore,
    pin: async ({ cid, bytes }) => {
      try {
        await blockstore.put(CID.parse(cid), bytes)
      } catch (error) {
        // A full or read-only disk: the pinning dependency failed, never a 500 with its message.
        throw mapDependencyError({ error, dependency: "the gateway's IPFS blockstore" })
      }
    },
    close: () => blockstore.close(),
  }
}
