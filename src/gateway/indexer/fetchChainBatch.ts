import { type Abi, type Address, decodeEventLog, getAddress, type Hex, type Log, type PublicClient } from 'viem'
import { feeLockerAbi } from '../launchpad/feeLockerAbi.ts'
import { launchFactoryAbi } from '../launchpad/launchFactoryAbi.ts'
import { launchTokenAbi } from '../launchpad/launchTokenAbi.ts'
import { vestingVaultAbi } from '../launchpad/vestingVaultAbi.ts'
import type { BlockHeader, ChainBatch, DecodedLog } from './ChainBatch.ts'
import type { LaunchpadAddresses } from './LaunchpadAddresses.ts'
import { uniswapV3PoolEvents } from './uniswapV3PoolEvents.ts'

/** Largest address list in one `eth_getLogs` (providers cap it; 500 is under every common cap). */
const ADDRESSES_PER_QUERY = 500
/** Parallel header and receipt reads. */
const CONCURRENCY = 8

export type FetchChainBatchParameters = {
  client: PublicClient
  launchpad: LaunchpadAddresses
  /** Launched tokens and their pools known before this range. */
  known: { tokens: Address[]; pools: Address[] }
  fromBlock: bigint
  toBlock: bigint
}

/**
 * Reads one range of blocks: the launchpad's own logs first (they name the tokens and pools
 * launched in the range), then the logs of every launched token and pool, the headers of the
 * blocks involved, and the sender of every swap's transaction (from the block's receipts). Logs
 * the launchpad's ABIs do not describe are skipped (a pool's Mint, Burn, Collect).
 *
 * @example
 * const batch = await fetchChainBatch({ client, launchpad, known: { tokens, pools }, fromBlock: 100n, toBlock: 199n })
 * // → { fromBlock: 100n, toBlock: 199n, logs: [decoded, in chain order], blocks: Map(block → header), … }
 */
export async function fetchChainBatch({ client, launchpad, known, fromBlock, toBlock }: FetchChainBatchParameters): Promise<ChainBatch> {
  const decoded: DecodedLog[] = []
  const own = await client.getLogs({ address: [launchpad.factory, launchpad.feeLocker, launchpad.vestingVault], fromBlock, toBlock })
  const tokens = new Set(known.tokens.map((a) => getAddress(a)))
  const pools = new Set(known.pools.map((a) => getAddress(a)))
  const sourceOf = new Map<string, { source: DecodedLog['source']; abi: Abi }>([
    [getAddress(launchpad.factory), { source: 'factory', abi: launchFactoryAbi }],
    [getAddress(launchpad.feeLocker), { source: 'feeLocker', abi: feeLockerAbi }],
    [getAddress(launchpad.vestingVault), { source: 'vestingVault', abi: vestingVaultAbi }],
  ])
  for (const log of own) {
    const entry = decode(log, sourceOf.get(getAddress(log.address))!)
    if (!entry) continue
    decoded.push(entry)
    if (entry.eventName === 'TokenLaunched') {
      tokens.add(getAddress(entry.args.token as Address))
      pools.add(getAddress(entry.args.pool as Address))
    }
  }
  const watched = [...tokens, ...pools]
  for (let i = 0; i < watched.length; i += ADDRESSES_PER_QUERY) {
    const logs = await client.getLogs({ address: watched.slice(i, i + ADDRESSES_PER_QUERY), fromBlock, toBlock })
    for (const log of logs) {
      const address = getAddress(log.address)
      const entry = decode(
        log,
        tokens.has(address) ? { source: 'token', abi: launchTokenAbi } : { source: 'pool', abi: uniswapV3PoolEvents },
      )
      if (entry) decoded.push(entry)
    }
  }
  decoded.sort((a, b) => (a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1))

  const numbers = [...new Set([...decoded.map((l) => l.blockNumber), toBlock])]
  const headers = await mapLimited(numbers, async (blockNumber): Promise<BlockHeader> => {
    const block = await client.getBlock({ blockNumber })
    return { number: block.number, hash: block.hash, parentHash: block.parentHash, timestamp: block.timestamp }
  })
  const blocks = new Map(headers.map((h) => [h.number, h]))

  const swapBlocks = [...new Set(decoded.filter((l) => l.eventName === 'Swap').map((l) => l.blockNumber))]
  const senders = new Map<Hex, Address>()
  await mapLimited(swapBlocks, async (blockNumber) => {
    const receipts = (await client.request({
      method: 'eth_getBlockReceipts' as never,
      params: [`0x${blockNumber.toString(16)}`] as never,
    })) as { transactionHash: Hex; from: Address }[]
    for (const r of receipts) senders.set(r.transactionHash.toLowerCase() as Hex, getAddress(r.from))
  })
  return { fromBlock, toBlock, logs: decoded, blocks, senders }
}

function decode(log: Log, { source, abi }: { source: DecodedLog['source']; abi: Abi }): DecodedLog | undefined {
  try {
    const { eventName, args } = decodeEventLog({ abi, data: log.data, topics: log.topics, strict: true })
    return {
      source,
      address: getAddress(log.address),
      eventName: eventName as unknown as string,
      args: args as unknown as Record<string, unknown>,
      blockNumber: log.blockNumber!,
      logIndex: log.logIndex!,
      transactionHash: log.transactionHash!.toLowerCase() as Hex,
    }
  } catch {
    return undefined
  }
}

async function mapLimited<T, R>(items: T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length)
  let next = 0
  const workers = Array.from({ length: Math.min(CONCURRENCY, items.length) }, async () => {
    while (next < items.length) {
      const i = next++
      out[i] = await fn(items[i])
    }
  })
  await Promise.all(workers)
  return out
}
