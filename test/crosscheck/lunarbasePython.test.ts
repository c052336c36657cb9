import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { test } from 'vitest'
import { type Abi, type Address, type Hex, decodeErrorResult, encodeFunctionData, parseAbi } from 'viem'
import { multicall3Address } from '../../src/chains/multicall3Address.ts'
import { deployContractAndWait } from '../../src/devnet/deployContractAndWait.ts'
import { deployTestToken } from '../../src/devnet/deployTestToken.ts'
import { loadStandInArtifacts } from '../../src/devnet/loadStandInArtifacts.ts'
import { sendAndWait } from '../../src/devnet/sendAndWait.ts'
import { useDevnet } from '../fixtures/useDevnet.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { createPrng, type Prng } from '../differential/createPrng.ts'
import { testTokenAbi } from '../differential/harnessContracts.ts'
import { runPythonReference } from './runPythonReference.ts'

// The LunarBase stand-in (contracts/lunarbase/LunarPool.sol) on anvil against a second
// implementation of the published formula, written apart in Python with exact integers
// (lunarbase_pool.py): random pools (anchor over the whole uint160 range, directional fees up to the
// 100 % sentinel, maximum punishment, reserves from empty to the uint112 ceiling, block delays,
// callers whitelisted or paying a multiplier up to 2^200), each traded three times in a row so the
// punishment a swap leaves in its direction's fee prices the next one. Per trade: the pool's quote
// (eth_call from the executing caller, at a known block) and the executed swap (output, fee, the
// stored fees and reserves after it, the recipient's balance, or the revert's name) must equal the
// reference's exactly; stale states quote 0 and revert `StalePrice` in both.

const SEED = Number(process.env.CROSSCHECK_SEED ?? 2424)
const STATES = Number(process.env.CROSSCHECK_LUNARBASE_STATES ?? 50)
const TRADES_PER_STATE = 3
const PYTHON = fileURLToPath(new URL('./lunarbase_pool.py', import.meta.url))
const MAX_U24 = (1n << 24n) - 1n
const MAX_U112 = (1n << 112n) - 1n
const Q192 = 1n << 192n
const RECIPIENT: Address = '0x00000000000000000000000000000000000c0ffe'
const FAR_DEADLINE = (1n << 64n) - 1n

const { LunarPool } = loadStandInArtifacts({ protocol: 'lunarbase' })
const poolAbi = LunarPool.abi as Abi
const blockNumberAbi = parseAbi(['function getBlockNumber() view returns (uint256)'])

const devnet = useDevnet()

type PoolState = {
  anchor: bigint
  feeAsk: bigint
  feeBid: bigint
  maxPunishment: bigint
  reserveX: bigint
  reserveY: bigint
  blockDelay: bigint
  whitelisted: boolean
  multiplier: bigint
}
type Outcome = { out: string; fee: string; feeAsk?: string; feeBid?: string; reserveX?: string; reserveY?: string } | { error: string }
type TradeRecord = { xToY: boolean; amountIn: bigint; minOut: bigint; quoteBlock: bigint; swapBlock: bigint; quote: Outcome; swap: Outcome }

function randomFee(prng: Prng): bigint {
  if (prng.chance(0.1)) return prng.pick([MAX_U24, MAX_U24 - 1n, 0n])
  return prng.chance(0.7) ? prng.bigint(0n, (1n << 24n) / 50n) : prng.bigint(0n, MAX_U24)
}

function randomState(prng: Prng): PoolState {
  const reserve = () =>
    prng.chance(0.04)
      ? 0n
      : prng.chance(0.04)
        ? MAX_U112 - prng.bigint(0n, 10n ** 6n)
        : prng.logBigint(prng.chance(0.1) ? 1n : 10n ** 4n, 1n << 100n)
  const whitelisted = prng.chance(0.4)
  return {
    // Mostly prices between 2^-52 and 2^68; sometimes anywhere in uint160, or zero.
    anchor: prng.chance(0.02) ? 0n : prng.chance(0.1) ? prng.logBigint(1n, (1n << 160n) - 1n) : prng.logBigint(1n << 70n, 1n << 130n),
    feeAsk: randomFee(prng),
    feeBid: randomFee(prng),
    maxPunishment: prng.chance(0.25) ? 0n : prng.chance(0.1) ? MAX_U24 : prng.bigint(1n, (1n << 24n) / 4n),
    reserveX: reserve(),
    reserveY: reserve(),
    // Mostly a window that outlasts the three trades; sometimes one they cross.
    blockDelay: BigInt(prng.chance(0.7) ? prng.int(8, 40) : prng.int(0, 4)),
    whitelisted,
    multiplier: prng.chance(0.05) ? 1n << 200n : prng.pick([0n, 1n, 2n, 3n, 10n, 100n]),
  }
}

/** An input whose value is a random share of the output side's reserve (sometimes more than all). */
function randomAmount(prng: Prng, s: PoolState, xToY: boolean): bigint {
  if (prng.chance(0.05)) return prng.pick([0n, 1n, (1n << 256n) - 1n, MAX_U112])
  const anchorSquared = s.anchor * s.anchor
  const outReserve = xToY ? s.reserveY : s.reserveX
  const full = anchorSquared === 0n ? outReserve : xToY ? (outReserve * Q192) / anchorSquared : (outReserve * anchorSquared) / Q192
  const share = prng.logBigint(1n, 1_000_000n)
  const scaled = (full * share * (prng.chance(0.1) ? 3n : 1n)) / 1_000_000n
  if (scaled >= 1n << 256n) return (1n << 256n) - 1n
  return scaled > 0n ? scaled : prng.logBigint(1n, 10n ** 6n)
}

/** The revert's name from the transaction's trace: an error of the pool's ABI, or `overflow` for a bare revert or a panic. */
async function revertName(hash: Hex): Promise<string> {
  const trace = (await devnet.publicClient.request({
    method: 'debug_traceTransaction' as never,
    params: [hash, { tracer: 'callTracer' }] as never,
  })) as { output?: Hex }
  return decodeRevert(trace.output)
}

function decodeRevert(data: Hex | undefined): string {
  if (!data || data === '0x' || data.startsWith('0x4e487b71')) return 'overflow'
  try {
    return decodeErrorResult({ abi: poolAbi, data }).errorName
  } catch {
    return `undecoded ${data.slice(0, 10)}`
  }
}

async function read<T>(
  pool: Address,
  functionName: string,
  args: readonly unknown[] = [],
  account?: Address,
  blockNumber?: bigint,
): Promise<T> {
  return (await devnet.publicClient.readContract({ address: pool, abi: poolAbi, functionName, args, account, blockNumber })) as T
}

test(
  `LUNARBASE: the stand-in's quotes and swaps equal an independent Python implementation on ${STATES * TRADES_PER_STATE} trades`,
  { timeout: 900_000 },
  async () => {
    const prng = createPrng({ seed: SEED })
    const accounts = await devnet.walletClient.getAddresses()
    const [owner, caller] = [devnet.account, accounts[1]]
    const x = await deployTestToken({ devnet, name: 'Token X', symbol: 'X', decimals: 18 })
    const y = await deployTestToken({ devnet, name: 'Token Y', symbol: 'Y', decimals: 6 })
    for (const token of [x, y])
      await writeContractAndWait({ devnet, address: token, abi: testTokenAbi, functionName: 'mint', args: [caller, 1n << 250n] })

    const records: { state: PoolState; latestUpdateBlock: bigint; trades: TradeRecord[] }[] = []
    for (let s = 0; s < STATES; s++) {
      const state = randomState(prng)
      const pool = await deployContractAndWait({ devnet, artifact: LunarPool, args: [x, y, owner] })
      const call = (functionName: string, args: readonly unknown[] = []) =>
        writeContractAndWait({ devnet, address: pool, abi: poolAbi, functionName, args })
      if (state.reserveX > 0n)
        await writeContractAndWait({ devnet, address: x, abi: testTokenAbi, functionName: 'mint', args: [pool, state.reserveX] })
      if (state.reserveY > 0n)
        await writeContractAndWait({ devnet, address: y, abi: testTokenAbi, functionName: 'mint', args: [pool, state.reserveY] })
      await call('sync')
      await call('setOperator', [owner, true])
      await call('setBlockDelay', [state.blockDelay])
      await call('setMaxPunishmentX24', [state.maxPunishment])
      if (state.whitelisted) await call('setWhitelist', [caller, true])
      await call('setBlacklistFeeMultiplier', [state.multiplier])
      for (const token of [x, y])
        await writeContractAndWait({
          devnet,
          address: token,
          abi: testTokenAbi,
          functionName: 'approve',
          args: [pool, (1n << 256n) - 1n],
          from: caller,
        })
      await call('upd', [{ anchorPrice: state.anchor, feeAskX24: state.feeAsk, feeBidX24: state.feeBid }])
      const [, , , latestUpdateBlock] = await read<[bigint, number, number, bigint]>(pool, 'state')
      // Let the state age: up to a block past its delay, so fresh and stale states both occur.
      const age = prng.chance(0.6) ? 0 : prng.int(0, Number(state.blockDelay) + 1)
      if (age > 0) await devnet.testClient.mine({ blocks: age })

      const trades: TradeRecord[] = []
      for (let t = 0; t < TRADES_PER_STATE; t++) {
        const xToY = prng.chance(0.5)
        const amountIn = randomAmount(prng, state, xToY)
        const latest = await devnet.publicClient.getBlockNumber()
        const quoteBlock = (await devnet.publicClient.readContract({
          address: multicall3Address,
          abi: blockNumberAbi,
          functionName: 'getBlockNumber',
          blockNumber: latest,
        })) as bigint
        const quote: Outcome = await read<[bigint, bigint, bigint]>(
          pool,
          xToY ? 'quoteXToY' : 'quoteYToX',
          [amountIn],
          caller,
          latest,
        ).then(
          ([out, , fee]) => ({ out: out.toString(), fee: fee.toString() }),
          (error: { cause?: { data?: Hex; raw?: Hex } }) => ({ error: decodeRevert(error.cause?.raw ?? error.cause?.data) }),
        )
        if ('out' in quote) {
          // The address-routed view answers the same.
          const routed = await read<bigint>(pool, 'quoteExactIn', [xToY ? x : y, xToY ? y : x, amountIn], caller, latest)
          assert.equal(routed.toString(), quote.out, `quoteExactIn differs from the directional quote (state ${s}, trade ${t})`)
        }
        // Mostly no minimum; sometimes exactly the quote, sometimes one more than it.
        const quoted = 'out' in quote ? BigInt(quote.out) : 0n
        const minOut = prng.chance(0.6) ? 0n : quoted + (prng.chance(0.5) ? 1n : 0n)
        const received = await devnet.publicClient.readContract({
          address: xToY ? y : x,
          abi: testTokenAbi,
          functionName: 'balanceOf',
          args: [RECIPIENT],
        })
        const data = encodeFunctionData({
          abi: poolAbi,
          functionName: 'swapExactIn',
          args: [
            {
              tokenIn: xToY ? x : y,
              tokenOut: xToY ? y : x,
              recipient: RECIPIENT,
              amountIn,
              amountOutMinimum: minOut,
              deadline: FAR_DEADLINE,
            },
          ],
        })
        const receipt = await sendAndWait({
          devnet,
          to: pool,
          data,
          from: caller,
          gas: 1_000_000n,
          throwOnRevert: false,
          label: 'swapExactIn',
        })
        let swap: Outcome
        if (receipt.status === 'success') {
          const [, feeAsk, feeBid] = await read<[bigint, number, number, bigint]>(pool, 'state')
          const [reserveX, reserveY] = await Promise.all([read<bigint>(pool, 'getXReserve'), read<bigint>(pool, 'getYReserve')])
          const after = await devnet.publicClient.readContract({
            address: xToY ? y : x,
            abi: testTokenAbi,
            functionName: 'balanceOf',
            args: [RECIPIENT],
          })
          const log = receipt.logs.find(
            (l) => l.address.toLowerCase() === pool.toLowerCase() && l.topics.length === 1 && l.data.length === 2 + 64 * 5,
          )
          assert.ok(log, 'a paid swap emits SwapExecuted')
          const fee = BigInt(`0x${log.data.slice(2 + 64 * 4)}`)
          swap = {
            out: (after - received).toString(),
            fee: fee.toString(),
            feeAsk: String(feeAsk),
            feeBid: String(feeBid),
            reserveX: reserveX.toString(),
            reserveY: reserveY.toString(),
          }
        } else swap = { error: await revertName(receipt.transactionHash) }
        trades.push({ xToY, amountIn, minOut, quoteBlock, swapBlock: receipt.blockNumber, quote, swap })
      }
      records.push({ state, latestUpdateBlock, trades })
    }

    const answers = runPythonReference<{ trades: { quote: Outcome; swap: Outcome }[] }>({
      script: PYTHON,
      cases: records.map(({ state, latestUpdateBlock, trades }) => ({
        anchor: state.anchor.toString(),
        feeAsk: state.feeAsk.toString(),
        feeBid: state.feeBid.toString(),
        maxPunishment: state.maxPunishment.toString(),
        reserveX: state.reserveX.toString(),
        reserveY: state.reserveY.toString(),
        latestUpdateBlock: latestUpdateBlock.toString(),
        blockDelay: state.blockDelay.toString(),
        multiplier: (state.whitelisted ? 1n : state.multiplier).toString(),
        trades: trades.map((t) => ({
          xToY: t.xToY,
          amountIn: t.amountIn.toString(),
          minOut: t.minOut.toString(),
          quoteBlock: t.quoteBlock.toString(),
          swapBlock: t.swapBlock.toString(),
        })),
      })),
    })

    const mismatches: string[] = []
    const tally = { paid: 0, quotedPositive: 0, multiplied: 0, punished: 0, errors: {} as Record<string, number> }
    for (const [s, record] of records.entries()) {
      for (const [t, trade] of record.trades.entries()) {
        const reference = answers[s].trades[t]
        for (const kind of ['quote', 'swap'] as const) {
          if (JSON.stringify(trade[kind]) !== JSON.stringify(reference[kind]))
            mismatches.push(
              `state ${s} trade ${t} ${kind}: chain=${JSON.stringify(trade[kind])} python=${JSON.stringify(reference[kind])} ${JSON.stringify({ ...record.state, trade: { ...trade, quote: undefined, swap: undefined } }, (_, v) => (typeof v === 'bigint' ? v.toString() : v))}`,
            )
        }
        if ('out' in trade.quote && trade.quote.out !== '0') tally.quotedPositive++
        if ('out' in trade.swap) {
          tally.paid++
          if (!record.state.whitelisted && record.state.multiplier > 1n && trade.swap.fee !== '0') tally.multiplied++
          const stored = trade.xToY ? trade.swap.feeBid : trade.swap.feeAsk
          if (record.state.maxPunishment > 0n && stored !== String(trade.xToY ? record.state.feeBid : record.state.feeAsk)) tally.punished++
        } else tally.errors[trade.swap.error] = (tally.errors[trade.swap.error] ?? 0) + 1
      }
    }
    console.log(
      `lunarbase cross-check (seed ${SEED}): ${STATES * TRADES_PER_STATE} trades, ${mismatches.length} mismatches; ${JSON.stringify(tally)}`,
    )
    assert.deepEqual(mismatches.slice(0, 5), [], `${mismatches.length} disagreements between the stand-in and the Python implementation`)
    assert.ok(
      tally.paid > STATES / 2 && tally.multiplied > 10 && tally.punished > 10,
      `too few paid, multiplied or punished swaps: ${JSON.stringify(tally)}`,
    )
    for (const kind of ['StalePrice', 'SwapImpossible', 'InsufficientOutput'])
      assert.ok((tally.errors[kind] ?? 0) > 0, `the ${kind} path went untested: ${JSON.stringify(tally.errors)}`)
  },
)
