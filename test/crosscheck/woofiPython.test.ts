import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { test } from 'vitest'
import { type Abi, type Address, type Hex, decodeAbiParameters, decodeFunctionResult, encodeFunctionData, parseAbi } from 'viem'
import { multicall3Address } from '../../src/chains/multicall3Address.ts'
import { deployTestToken } from '../../src/devnet/deployTestToken.ts'
import { deployWoofi } from '../../src/devnet/deployWoofi.ts'
import { loadStandInArtifacts } from '../../src/devnet/loadStandInArtifacts.ts'
import { revertToSnapshot } from '../../src/devnet/revertToSnapshot.ts'
import { sendAndWait } from '../../src/devnet/sendAndWait.ts'
import { useDevnet } from '../fixtures/useDevnet.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { createPrng, type Prng } from '../differential/createPrng.ts'
import { testTokenAbi } from '../differential/harnessContracts.ts'
import { runPythonReference } from './runPythonReference.ts'

// The WOOFi stand-ins (contracts/woofi/: WooPPV2, WooracleV2_2, WooRouterV2) on anvil against a
// second implementation of the published math written apart in Python with exact integers
// (woofi.py). Three vaults of a quote token and three bases with random decimals (0 to 18); per
// state: random reserves, fee rates up to 65 %, max notional and max gamma (sometimes tight), two
// oracle posts per base (the second widening the spread when the price moved), a global oracle
// timestamp fresh or stale, staleness windows, Chainlink answers in and out of the bound,
// Chainlink-preferred fallbacks, guardian ranges that sometimes exclude the price, and a paused
// pool now and then. Then five trades in a row on the same vault (sell base, sell quote, base to
// base, the same token on both sides), with admin price posts, time jumps and donations between
// them, through the router or straight to the pool (sometimes with too little sent). Per trade:
// the router's `querySwap` and `tryQuerySwap` (one eth_call with the block's timestamp) and the
// executed swap (the output paid to the recipient, then every reserve, the unclaimed fee and every
// base's oracle price, coeff and spread, or the revert's reason) must equal the reference's.
// Because each trade runs on the state the previous one left, a trade through one pair changing
// the others' state (the shared quote reserve, the fee, both oracle entries of a base-to-base
// trade) is compared too.

const SEED = Number(process.env.CROSSCHECK_SEED ?? 2121)
const STATES = Number(process.env.CROSSCHECK_WOOFI_STATES ?? 50)
const TRADES_PER_STATE = 5
const PYTHON = fileURLToPath(new URL('./woofi.py', import.meta.url))
const RECIPIENT: Address = '0x000000000000000000000000000000000000c0fe'
const E18 = 10n ** 18n
const MAX = (1n << 256n) - 1n

const { WooPPV2, WooracleV2_2, WooRouterV2, WooChainlinkFeed } = loadStandInArtifacts({ protocol: 'woofi' })
const poolAbi = WooPPV2.abi as Abi
const oracleAbi = WooracleV2_2.abi as Abi
const routerAbi = WooRouterV2.abi as Abi
// aggregate3 is payable on chain; declared view here, as it is only ever eth_call'ed (readContract).
const multicallAbi = parseAbi([
  'struct Call3 { address target; bool allowFailure; bytes callData; }',
  'struct Result { bool success; bytes returnData; }',
  'function aggregate3(Call3[] calls) view returns (Result[] returnData)',
  'function getCurrentBlockTimestamp() view returns (uint256 timestamp)',
])

const devnet = useDevnet()

type Vault = { tokens: Address[]; decimals: number[]; pool: Address; oracle: Address; router: Address; feeds: Address[] }
type Outcome = { out: string } | { error: string }
type SwapOutcome = { error: string } | { out: string; reserves: string[]; unclaimedFee: string; infos: string[][] }
type Op = Record<string, unknown> & { op: string }

function decodeRevert(data: Hex | undefined): string {
  if (!data || data === '0x') return 'empty revert'
  if (data.startsWith('0x08c379a0')) return decodeAbiParameters([{ type: 'string' }], `0x${data.slice(10)}`)[0]
  if (data.startsWith('0x4e487b71')) return `panic 0x${decodeAbiParameters([{ type: 'uint256' }], `0x${data.slice(10)}`)[0].toString(16)}`
  return `undecoded ${data.slice(0, 10)}`
}

async function revertReason(hash: Hex): Promise<string> {
  const trace = (await devnet.publicClient.request({
    method: 'debug_traceTransaction' as never,
    params: [hash, { tracer: 'callTracer' }] as never,
  })) as { output?: Hex }
  return decodeRevert(trace.output)
}

async function blockTimestamp(blockNumber: bigint): Promise<bigint> {
  return (await devnet.publicClient.getBlock({ blockNumber })).timestamp
}

const write = (address: Address, abi: Abi, functionName: string, args: readonly unknown[]) =>
  writeContractAndWait({ devnet, address, abi, functionName, args })

/** A random price of one whole base in quote units, 8 decimals: $0.0001 to $100,000. */
const randomPrice = (prng: Prng) => prng.logBigint(10n ** 4n, 10n ** 13n)

/** `price` moved by up to ±`bps` basis points. */
const nudge = (prng: Prng, price: bigint, bps: number) => (price * BigInt(10_000 + prng.int(-bps, bps))) / 10_000n

test(
  `WOOFI: the stand-in vault's queries and swaps equal an independent Python implementation on ${STATES * TRADES_PER_STATE} trades`,
  { timeout: 1_200_000 },
  async () => {
    const prng = createPrng({ seed: SEED })
    const vaults: Vault[] = []
    for (let v = 0; v < 3; v++) {
      const decimals = [prng.pick([6, 6, 8, 18]), ...[0, 1, 2].map(() => prng.pick([0, 2, 6, 8, 8, 12, 18, 18]))]
      const tokens: Address[] = []
      for (const [k, d] of decimals.entries()) {
        const token = await deployTestToken({ devnet, name: `W${v}${k}`, symbol: `W${v}${k}`, decimals: d })
        await write(token, testTokenAbi as Abi, 'mint', [devnet.account, 1n << 200n])
        tokens.push(token)
      }
      const deployed = await deployWoofi({
        devnet,
        quoteToken: tokens[0],
        baseTokens: tokens.slice(1),
        weth: tokens[1],
        feedAnswers: [10n ** 8n, 10n ** 8n, 10n ** 8n, 10n ** 8n],
      })
      for (const token of tokens) await write(token, testTokenAbi as Abi, 'approve', [deployed.router, MAX])
      vaults.push({ tokens, decimals, ...deployed })
    }
    let base = await devnet.testClient.snapshot()

    const records: { vault: number; input: Record<string, unknown>; results: (Record<string, Outcome> | SwapOutcome)[] }[] = []
    const gas: Record<string, bigint[]> = { sellBase: [], sellQuote: [], baseToBase: [] }
    for (let s = 0; s < STATES; s++) {
      base = await revertToSnapshot({ testClient: devnet.testClient, id: base })
      const vi = s % vaults.length
      const { tokens, decimals, pool, oracle, router, feeds } = vaults[vi]
      const ops: Op[] = []
      const results: (Record<string, Outcome> | SwapOutcome)[] = []

      // Reserves: about $1k to $100M a token (sometimes almost nothing), synced from balances.
      const prices = [10n ** 8n, randomPrice(prng), randomPrice(prng), randomPrice(prng)]
      const wholeOf = (k: number, usd: bigint) => (usd * 10n ** 8n * 10n ** BigInt(decimals[k])) / prices[k]
      const balances = prices.map((_, k) => (prng.chance(0.05) ? prng.bigint(0n, 1000n) : wholeOf(k, prng.logBigint(1_000n, 100_000_000n))))
      for (const [k, token] of tokens.entries()) {
        if (balances[k] > 0n) await write(token, testTokenAbi as Abi, 'mint', [pool, balances[k]])
        await write(pool, poolAbi, 'sync', [token])
      }
      // Token infos: fee rates (1e5 = 100 %), max gamma and max notional (in quote units).
      const quoteUnit = 10n ** BigInt(decimals[0])
      const tokenInfos = tokens.map(() => ({
        feeRate: prng.chance(0.1) ? prng.int(0, 65_535) : prng.int(0, 100),
        maxGamma: prng.chance(0.08)
          ? prng.logBigint(1n, 10n ** 16n)
          : prng.chance(0.5)
            ? 10n ** 18n
            : prng.logBigint(10n ** 16n, 10n ** 18n),
        maxNotional: prng.chance(0.08)
          ? prng.logBigint(1n, 100_000n * quoteUnit)
          : prng.logBigint(10_000_000n * quoteUnit, (1n << 128n) - 1n),
      }))
      for (const [k, token] of tokens.entries())
        await write(pool, poolAbi, 'setTokenInfo', [token, tokenInfos[k].feeRate, tokenInfos[k].maxGamma, tokenInfos[k].maxNotional])

      // The oracle: a first state per base, then the state traded on (its spread widened when the price moved).
      const now = (await devnet.publicClient.getBlock()).timestamp
      const staleDuration = prng.chance(0.8) ? 300n : BigInt(prng.int(0, 3600))
      for (let b = 1; b <= 3; b++) {
        for (let post = 0; post < 2; post++) {
          const price = post === 0 ? nudge(prng, prices[b], 300) : prng.chance(0.03) ? 0n : prices[b]
          const spread = prng.chance(0.1) ? prng.bigint(0n, E18 / 2n) : prng.bigint(0n, 10n ** 16n)
          // coeff: 1e-9 per dollar of notional is typical; sometimes far steeper.
          const coeff = prng.chance(0.1) ? prng.logBigint(1n, 10n ** 16n) : prng.logBigint(10n ** 6n, 10n ** 10n)
          const fresh = prng.chance(0.9)
          const ts = fresh
            ? now - BigInt(prng.int(0, Math.min(200, Number(staleDuration))))
            : now - staleDuration - BigInt(prng.int(1, 500))
          await write(oracle, oracleAbi, 'postState', [tokens[b], price, spread, coeff, ts])
          ops.push({ op: 'postState', base: b, price: `${price}`, spread: `${spread}`, coeff: `${coeff}`, ts: `${ts}` })
        }
      }
      const bound = prng.chance(0.9) ? 10n ** 16n : prng.pick([0n, 10n ** 14n, 5n * 10n ** 16n, E18])
      await write(oracle, oracleAbi, 'setStaleDuration', [staleDuration])
      await write(oracle, oracleAbi, 'setBound', [bound])
      // Chainlink: the quote's feed within 0.1 %, the bases' mostly within 0.6 % of the Wooracle price, sometimes off by up to 5 %.
      const answers = prices.map((p, k) => nudge(prng, p, k === 0 ? 10 : prng.chance(0.9) ? 60 : 500))
      for (const [k, feed] of feeds.entries()) await write(feed, WooChainlinkFeed.abi as Abi, 'setAnswer', [answers[k], now])
      const cloPreferred = [1, 2, 3].map(() => prng.chance(0.3))
      const ranges = [1, 2, 3].map((b) =>
        prng.chance(0.08) ? [prices[b], prices[b] * 2n] : prng.chance(0.05) ? [0n, prices[b] / 2n] : [prices[b] / 20n, prices[b] * 20n],
      )
      for (let b = 1; b <= 3; b++) {
        await write(oracle, oracleAbi, 'setCloPreferred', [tokens[b], cloPreferred[b - 1]])
        await write(oracle, oracleAbi, 'setRange', [tokens[b], ranges[b - 1][0], ranges[b - 1][1]])
      }
      const paused = prng.chance(0.03)
      if (paused) await write(pool, poolAbi, 'pause', [])

      for (let t = 0; t < TRADES_PER_STATE; t++) {
        if (prng.chance(0.1)) {
          // A time jump: the next block comes up to 250 s later (the oracle may go stale).
          const latest = (await devnet.publicClient.getBlock()).timestamp
          await devnet.testClient.setNextBlockTimestamp({ timestamp: latest + BigInt(prng.int(1, 250)) })
          await devnet.testClient.mine({ blocks: 1 })
        }
        if (prng.chance(0.1)) {
          const b = prng.int(1, 3)
          const price = nudge(prng, prices[b], 200)
          const receipt = await write(oracle, oracleAbi, 'postPrice', [tokens[b], price])
          ops.push({ op: 'postPrice', base: b, price: `${price}`, blockTs: `${await blockTimestamp(receipt.blockNumber)}` })
        }
        if (prng.chance(0.08)) {
          const token = prng.int(0, 3)
          const amount = wholeOf(token, prng.logBigint(1n, 100_000n))
          await write(tokens[token], testTokenAbi as Abi, 'mint', [pool, amount])
          ops.push({ op: 'donate', token, amount: `${amount}` })
        }
        // The pair: sell base, sell quote, base to base; rarely one token on both sides.
        const roll = prng.next()
        const [from, to] =
          roll < 0.3 ? [prng.int(1, 3), 0] : roll < 0.6 ? [0, prng.int(1, 3)] : roll < 0.95 ? prng.pickTwo([1, 2, 3]) : [prng.int(0, 3), -1]
        const toIndex = to === -1 ? from : to
        // The input's value: a share of the output reserve's value (sometimes more than all of it).
        const outUsd = (balances[toIndex] * prices[toIndex]) / 10n ** 8n / 10n ** BigInt(decimals[toIndex])
        const usd = (outUsd * prng.logBigint(1n, 1_500_000n)) / 1_000_000n
        const amount = prng.chance(0.03) ? prng.pick([0n, 1n]) : wholeOf(from, usd > 0n ? usd : prng.logBigint(1n, 1000n)) || 1n
        const [fromToken, toToken] = [tokens[from], tokens[toIndex]]

        // The router's two views in one eth_call, with the block timestamp they ran at.
        const calls = [
          {
            target: multicall3Address,
            allowFailure: false,
            callData: encodeFunctionData({ abi: multicallAbi, functionName: 'getCurrentBlockTimestamp' }),
          },
          ...(['querySwap', 'tryQuerySwap'] as const).map((functionName) => ({
            target: router,
            allowFailure: true,
            callData: encodeFunctionData({ abi: routerAbi, functionName, args: [fromToken, toToken, amount] }),
          })),
        ]
        const viewed = (await devnet.publicClient.readContract({
          address: multicall3Address,
          abi: multicallAbi,
          functionName: 'aggregate3',
          args: [calls],
        })) as readonly { success: boolean; returnData: Hex }[]
        const queryTs = decodeAbiParameters([{ type: 'uint256' }], viewed[0].returnData)[0]
        const [query, tryQuery] = viewed
          .slice(1)
          .map((r): Outcome =>
            r.success
              ? { out: `${decodeFunctionResult({ abi: routerAbi, functionName: 'querySwap', data: r.returnData })}` }
              : { error: decodeRevert(r.returnData) },
          )
        ops.push({ op: 'query', from, to: toIndex, amount: `${amount}`, blockTs: `${queryTs}` })
        results.push({ query, tryQuery })

        const quoted = 'out' in query ? BigInt(query.out) : 0n
        const minOut = prng.chance(0.6) ? 0n : quoted + (prng.chance(0.5) ? 1n : 0n)
        const viaRouter = prng.chance(0.8)
        const before = (await devnet.publicClient.readContract({
          address: toToken,
          abi: testTokenAbi,
          functionName: 'balanceOf',
          args: [RECIPIENT],
        })) as bigint
        let receipt
        if (viaRouter) {
          const data = encodeFunctionData({
            abi: routerAbi,
            functionName: 'swap',
            args: [fromToken, toToken, amount, minOut, RECIPIENT, RECIPIENT],
          })
          receipt = await sendAndWait({ devnet, to: router, data, gas: 2_000_000n, throwOnRevert: false, label: 'router swap' })
        } else {
          // Straight to the pool: send the input (sometimes one unit short), then call its swap.
          const sent = amount > 0n && prng.chance(0.2) ? amount - 1n : amount
          if (sent > 0n) await write(fromToken, testTokenAbi as Abi, 'transfer', [pool, sent])
          ops.push({ op: 'donate', token: from, amount: `${sent}` })
          const data = encodeFunctionData({
            abi: poolAbi,
            functionName: 'swap',
            args: [fromToken, toToken, amount, minOut, RECIPIENT, RECIPIENT],
          })
          receipt = await sendAndWait({ devnet, to: pool, data, gas: 2_000_000n, throwOnRevert: false, label: 'pool swap' })
        }
        ops.push({
          op: 'swap',
          from,
          to: toIndex,
          amount: `${amount}`,
          minOut: `${minOut}`,
          viaRouter,
          blockTs: `${await blockTimestamp(receipt.blockNumber)}`,
        })
        if (receipt.status === 'success') {
          const after = (await devnet.publicClient.readContract({
            address: toToken,
            abi: testTokenAbi,
            functionName: 'balanceOf',
            args: [RECIPIENT],
          })) as bigint
          const read = (address: Address, abi: Abi, functionName: string, args: readonly unknown[] = []) =>
            devnet.publicClient.readContract({ address, abi, functionName, args })
          const reserves = await Promise.all(
            tokens.map((token) => read(pool, poolAbi, 'tokenInfos', [token]) as Promise<readonly bigint[]>),
          )
          const infos = await Promise.all(
            tokens.slice(1).map((token) => read(oracle, oracleAbi, 'infos', [token]) as Promise<readonly bigint[]>),
          )
          results.push({
            out: `${after - before}`,
            reserves: reserves.map((r) => `${r[0]}`),
            unclaimedFee: `${await read(pool, poolAbi, 'unclaimedFee')}`,
            infos: infos.map((info) => info.map((v) => `${v}`)),
          })
          if (viaRouter) gas[from === 0 ? 'sellQuote' : toIndex === 0 ? 'sellBase' : 'baseToBase'].push(receipt.gasUsed)
        } else results.push({ error: await revertReason(receipt.transactionHash) })
      }
      records.push({
        vault: vi,
        input: {
          decimals,
          pool: {
            balances: balances.map(String),
            reserves: balances.map(String),
            feeRates: tokenInfos.map((i) => `${i.feeRate}`),
            maxGamma: tokenInfos.map((i) => `${i.maxGamma}`),
            maxNotional: tokenInfos.map((i) => `${i.maxNotional}`),
            unclaimedFee: '0',
            paused,
          },
          oracle: {
            infos: [1, 2, 3].map(() => ['0', '0', '0']),
            timestamp: '0',
            staleDuration: `${staleDuration}`,
            bound: `${bound}`,
            ranges: ranges.map((r) => r.map(String)),
            answers: answers.map(String),
            feedDecimals: [8, 8, 8, 8],
            cloPreferred,
          },
          ops,
        },
        results,
      })
    }

    const answers = runPythonReference<{ results: (Record<string, Outcome> | SwapOutcome)[] }>({
      script: PYTHON,
      cases: records.map((r) => r.input),
    })
    const mismatches: string[] = []
    const tally = { trades: 0, paid: 0, quoted: 0, baseToBasePaid: 0, staleTrades: 0, stalePaid: 0, errors: {} as Record<string, number> }
    for (const [s, record] of records.entries()) {
      const reference = answers[s].results
      assert.equal(
        reference.length,
        record.results.length,
        `state ${s}: ${reference.length} reference results for ${record.results.length}`,
      )
      const swapOps = (record.input.ops as Op[]).filter((o) => o.op === 'query' || o.op === 'swap')
      // Which swaps ran on a stale Wooracle (the last post's timestamp plus the window passed): those
      // paid only through a Chainlink-preferred base's fallback.
      const staleSwaps = new Set<Op>()
      let oracleTs = 0n
      const window = BigInt((record.input.oracle as { staleDuration: string }).staleDuration)
      for (const op of record.input.ops as Op[]) {
        if (op.op === 'postState') oracleTs = BigInt(op.ts as string)
        if (op.op === 'postPrice') oracleTs = BigInt(op.blockTs as string)
        if (op.op === 'swap' && BigInt(op.blockTs as string) > oracleTs + window) staleSwaps.add(op)
      }
      for (const [k, result] of record.results.entries()) {
        if (JSON.stringify(result) !== JSON.stringify(reference[k]))
          mismatches.push(
            `state ${s} (vault ${record.vault}) result ${k} ${JSON.stringify(swapOps[k])}: chain=${JSON.stringify(result)} python=${JSON.stringify(reference[k])}`,
          )
        if (swapOps[k].op === 'query') {
          if ('out' in (result as Record<string, Outcome>).query) tally.quoted++
        } else {
          tally.trades++
          if (staleSwaps.has(swapOps[k])) tally.staleTrades++
          const swap = result as SwapOutcome
          if ('out' in swap) {
            tally.paid++
            if (staleSwaps.has(swapOps[k])) tally.stalePaid++
            if (swapOps[k].from !== 0 && swapOps[k].to !== 0) tally.baseToBasePaid++
          } else tally.errors[swap.error] = (tally.errors[swap.error] ?? 0) + 1
        }
      }
    }
    const median = (xs: bigint[]) => [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))[Math.floor(xs.length / 2)] ?? 0n
    console.log(
      `woofi cross-check (seed ${SEED}): ${tally.trades} trades, ${mismatches.length} mismatches; ${JSON.stringify(tally)}; router swap gas (median, whole tx): ${Object.entries(
        gas,
      )
        .map(([k, v]) => `${k} ${median(v)} (n=${v.length})`)
        .join(', ')}`,
    )
    assert.deepEqual(mismatches.slice(0, 5), [], `${mismatches.length} disagreements between the stand-in and the Python implementation`)
    assert.ok(tally.paid > tally.trades / 4 && tally.baseToBasePaid > 20, `too few paid swaps: ${JSON.stringify(tally)}`)
    assert.ok(
      tally.staleTrades > 20 && tally.stalePaid > 0 && tally.stalePaid < tally.staleTrades,
      `stale oracles went untested: ${JSON.stringify(tally)}`,
    )
    for (const reason of [
      'WooPPV2: !ORACLE_FEASIBLE',
      'WooPPV2: !maxNotionalValue',
      'WooPPV2: !gamma',
      'WooPPV2: base1==base2',
      'panic 0x11',
    ])
      assert.ok((tally.errors[reason] ?? 0) > 0, `the ${reason} path went untested: ${JSON.stringify(tally.errors)}`)
  },
)
