import {
  type Address,
  type BaseError,
  type CallParameters,
  type CallReturnType,
  decodeFunctionResult,
  encodeFunctionData,
  getContractError,
  type Hex,
  type MulticallParameters,
  multicall3Abi,
  type PublicClient,
  RawContractError,
} from 'viem'
import { readContract } from 'viem/actions'
import { isTransportError } from './isTransportError.ts'

/**
 * The caps of one batch (one `aggregate3` `eth_call`). Why these: public Base nodes bound an
 * `eth_call` by gas (geth's default `RPCGasCap` is 50,000,000; providers use that or less) and by
 * request size (geth's HTTP body limit is 5 MB, some gateways take far less), and answer slowly past
 * a few hundred kilobytes. 500 getters (a V2 read is 3) estimate about 15,000,000 gas, about 100 KB
 * of calldata and about 150 KB of answer (a getter returns at most a few hundred bytes), well inside
 * every limit; a tick-lens scan is estimated by its word count (`estimateGas`), so a batch holds a
 * few spacing-1 scans or dozens of spacing-60 ones.
 */
export const DEFAULT_BATCH_CAPS: BatchCaps = { maxCalls: 500, maxCalldataBytes: 128 * 1024, maxGas: 25_000_000n }

/**
 * Answers of a batch handed to their readers in one turn of the event loop (their decoding runs in
 * that turn). Handed all at once, the embedded market's per-block re-read (the prop AMMs' sampled
 * quotes, decoded by viem) held the idle service's loop for up to 105-168 ms; 16 a turn, 45-59 ms
 * (bench/README.md, *HTTP service*).
 */
const RESOLVED_PER_TURN = 16

/** Gas assumed for a getter: a cold account (2,600), a few cold slots (2,100 each), the call's own cost. */
export const GETTER_GAS_ESTIMATE = 30_000n

export type BatchCaps = {
  /** Calls in one `aggregate3`. */
  maxCalls: number
  /** Bytes of the calls' calldata in one `aggregate3` (the request stays below the nodes' body limits). */
  maxCalldataBytes: number
  /** Estimated gas of one `aggregate3` (below the nodes' `eth_call` gas caps, with room for estimates that are low). */
  maxGas: bigint
}

export type CreateBatchedReadClientParameters = {
  client: PublicClient
  /** The one block every read through this client is pinned to; a read of any other block throws. */
  blockNumber: bigint
  /** Batches sent at once (each one `eth_call`). */
  maxBatchesInFlight: number
  caps?: BatchCaps
  /** Gas a call is expected to use, for the gas cap; undefined: `GETTER_GAS_ESTIMATE`. */
  estimateGas?: (call: { target: Address; callData: Hex }) => bigint | undefined
}

type Answer = { success: boolean; returnData: Hex }
type Entry = {
  target: Address
  callData: Hex
  gas: bigint
  /** Asked alone: it failed without revert data inside a batch (its gas may have run out there). */
  alone: boolean
  resolve: (answer: Answer) => void
  reject: (error: unknown) => void
}
/** Reads that share one `eth_call` context: the same state and block overrides. */
type Lane = { stateOverride?: CallParameters['stateOverride']; blockOverrides?: CallParameters['blockOverrides']; entries: Entry[] }

/**
 * A node refusing a batch for its size (gas, request or answer bytes): an answer, not an outage, so
 * the batch is split. Each node words it its own way (geth "out of gas" / "gas required exceeds",
 * anvil "intrinsic gas too high" when the calldata's gas floor is above the call's gas,
 * gateways "request entity too large", "response size").
 */
const REFUSED_FOR_SIZE =
  /out of gas|gas required exceeds|gas ?limit|gas cap|intrinsic gas|exceeds the limit|too large|too big|response size|body limit|payload/i

/**
 * A client for reading many pools at one block in few RPC calls: the `call`, `readContract` and
 * `multicall` reads made through it while they are pending are coalesced into shared Multicall3
 * `aggregate3` calls (`allowFailure` on every call, so one pool's revert never fails its
 * batch-mates), cut by `caps`, at most `maxBatchesInFlight` at a time. Every other action is the
 * wrapped client's.
 *
 * Semantics kept from one `eth_call` per read:
 * - every batch is pinned to `blockNumber`; reads with different state or block overrides never
 *   share a batch;
 * - a read that reverts fails only itself, as the wrapped client would fail it (viem's contract
 *   errors); a failure without revert data inside a batch of several (which is what a call starved
 *   of gas by the batch looks like) is asked again alone before it counts;
 * - a batch the node refuses as a whole with an answer (out of gas, too large) is split in two and
 *   both halves asked again, down to one call;
 * - a transport failure (`isTransportError`: no answer, or a node error other than a refusal for
 *   size) rejects every pending and later read through this client.
 *
 * @example
 * const batched = createBatchedReadClient({ client, blockNumber, maxBatchesInFlight: 8 })
 * const [input0, input1] = await Promise.all(pairs.map((pair) => readUniswapV2Pool({ client: batched, pair, blockNumber })))
 * // both pairs read through one Multicall3 aggregate3 eth_call at blockNumber
 */
export function createBatchedReadClient({
  client,
  blockNumber,
  maxBatchesInFlight,
  caps = DEFAULT_BATCH_CAPS,
  estimateGas = () => undefined,
}: CreateBatchedReadClientParameters): PublicClient {
  const multicallAddress = client.chain?.contracts?.multicall3?.address
  if (!multicallAddress) throw new Error("createBatchedReadClient: the client's chain has no multicall3 address")
  const lanes = new Map<string, Lane>()
  let failed: { error: unknown } | undefined
  let inFlight = 0
  let scheduled = false

  const checkBlock = (asked: bigint | undefined, what: string) => {
    if (asked !== undefined && asked !== blockNumber)
      throw new Error(`${what} at block ${asked} through a client pinned to block ${blockNumber}`)
  }

  const enqueue = (lane: Omit<Lane, 'entries'>, target: Address, callData: Hex, alone = false): Promise<Answer> =>
    new Promise<Answer>((resolve, reject) => {
      if (failed) return reject(failed.error)
      const key = JSON.stringify([lane.stateOverride ?? null, lane.blockOverrides ?? null], (_, v) =>
        typeof v === 'bigint' ? v.toString() : v,
      )
      let queue = lanes.get(key)
      if (!queue) lanes.set(key, (queue = { ...lane, entries: [] }))
      queue.entries.push({ target, callData, gas: estimateGas({ target, callData }) ?? GETTER_GAS_ESTIMATE, alone, resolve, reject })
      schedule()
    })

  const schedule = () => {
    if (scheduled) return
    scheduled = true
    // After the current microtasks: the reads that start together (and the next phase of the pools
    // a batch just answered) are queued before a batch is cut.
    setImmediate(pump)
  }

  /** Takes the next batch from `lane`: its first entry alone if that one must be, else up to the caps. */
  const cut = (lane: Lane): Entry[] => {
    if (lane.entries[0].alone) return lane.entries.splice(0, 1)
    let bytes = 0
    let gas = 0n
    let n = 0
    for (const entry of lane.entries) {
      if (entry.alone) break
      const size = (entry.callData.length - 2) / 2
      if (n > 0 && (n + 1 > caps.maxCalls || bytes + size > caps.maxCalldataBytes || gas + entry.gas > caps.maxGas)) break
      bytes += size
      gas += entry.gas
      n++
    }
    return lane.entries.splice(0, n)
  }

  /**
   * Sends what is ready: full batches (the queue holds more than the caps allow) and calls to be
   * asked alone at once; a partial batch only once nothing is in flight. The answers of the batches
   * in flight start the next phase of their pools (the tick scans after slot0, ...): waiting for
   * them lets that phase of every pool share batches, rather than go out in as many fragments as
   * the batches before it answered at different times.
   */
  const pump = () => {
    scheduled = false
    for (const [key, lane] of lanes) {
      while (inFlight < maxBatchesInFlight && lane.entries.length > 0) {
        const batch = cut(lane)
        if (lane.entries.length === 0 && !batch[0].alone && inFlight > 0) {
          lane.entries.unshift(...batch)
          break
        }
        inFlight++
        void send(lane, batch).finally(() => {
          inFlight--
          schedule()
        })
      }
      if (lane.entries.length === 0) lanes.delete(key)
    }
  }

  const fail = (error: unknown) => {
    failed ??= { error }
    for (const lane of lanes.values()) for (const entry of lane.entries.splice(0)) entry.reject(failed.error)
  }

  const send = async (lane: Lane, batch: Entry[]): Promise<void> => {
    if (failed) return batch.forEach((e) => e.reject(failed!.error))
    let answers: readonly Answer[]
    try {
      const { data } = await client.call({
        to: multicallAddress,
        data: encodeFunctionData({
          abi: multicall3Abi,
          functionName: 'aggregate3',
          args: [batch.map((e) => ({ target: e.target, allowFailure: true, callData: e.callData }))],
        }),
        blockNumber,
        ...(lane.stateOverride ? { stateOverride: lane.stateOverride } : {}),
        ...(lane.blockOverrides ? { blockOverrides: lane.blockOverrides } : {}),
      })
      if (!data) throw new Error(`multicall3 at ${multicallAddress} returned nothing at block ${blockNumber} (no contract there?)`)
      answers = decodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', data })
    } catch (error) {
      const splittable = batch.length > 1 && (REFUSED_FOR_SIZE.test((error as Error)?.message ?? '') || !isTransportError(error))
      if (!splittable && isTransportError(error)) {
        batch.forEach((e) => e.reject(error))
        return fail(error)
      }
      if (!splittable) return batch[0].reject(error)
      const half = Math.ceil(batch.length / 2)
      await Promise.all([send(lane, batch.slice(0, half)), send(lane, batch.slice(half))])
      return
    }
    for (let i = 0; i < batch.length; i++) {
      // The readers of a batch decode its answers in the microtasks its resolutions start: all at
      // once, a batch of prop AMM samples held the event loop for tens of ms. A turn of the loop
      // between slices lets the requests waiting meanwhile (quotes) in; the answers are the same.
      if (i > 0 && i % RESOLVED_PER_TURN === 0) await new Promise<void>((resolve) => setImmediate(resolve))
      const [entry, answer] = [batch[i], answers[i]]
      if (!answer.success && answer.returnData === '0x' && batch.length > 1) {
        enqueue(lane, entry.target, entry.callData, true).then(entry.resolve, entry.reject)
      } else entry.resolve(answer)
    }
  }

  const call = async (parameters: CallParameters): Promise<CallReturnType> => {
    const { to, data, blockNumber: asked, blockTag, stateOverride, blockOverrides, ...rest } = parameters
    // Anything a batch cannot carry (a sender, value, gas, code, a block by tag) is the wrapped client's.
    if (!to || !data || blockTag !== undefined || Object.values(rest).some((v) => v !== undefined)) return client.call(parameters)
    checkBlock(asked, `call to ${to}`)
    const answer = await enqueue({ stateOverride, blockOverrides }, to, data)
    if (!answer.success) throw new RawContractError({ data: answer.returnData, message: `call to ${to} reverted at block ${blockNumber}` })
    return { data: answer.returnData === '0x' ? undefined : answer.returnData }
  }

  const multicall = async (parameters: MulticallParameters) => {
    const { contracts, allowFailure = true, blockNumber: asked, stateOverride, blockOverrides } = parameters
    checkBlock(asked, 'multicall')
    const settled = await Promise.all(
      (contracts as readonly { address: Address; abi: never; functionName: string; args?: readonly unknown[] }[]).map(
        async ({ address, abi, functionName, args }) => {
          try {
            const callData = encodeFunctionData({ abi, functionName, args } as never)
            const answer = await enqueue({ stateOverride, blockOverrides }, address, callData)
            if (!answer.success) throw new RawContractError({ data: answer.returnData })
            return {
              status: 'success' as const,
              result: decodeFunctionResult({ abi, functionName, args, data: answer.returnData } as never) as unknown,
            }
          } catch (error) {
            if (isTransportError(error)) throw error
            return {
              status: 'failure' as const,
              error: getContractError(error as BaseError, { abi, address, args, functionName, docsPath: '/docs/contract/multicall' }),
            }
          }
        },
      ),
    )
    if (allowFailure) return settled
    const failure = settled.find((s) => s.status === 'failure')
    if (failure) throw failure.error
    return settled.map((s) => (s as { result: unknown }).result)
  }

  const batched = { ...client, call, multicall } as unknown as PublicClient
  ;(batched as { readContract: unknown }).readContract = (parameters: never) => readContract(batched, parameters)
  return batched
}
