import assert from 'node:assert/strict'
import { test } from 'vitest'
import type { Address } from 'viem'
import { cacheTakerRates, dodoTakerOverrides, type ReadTakerRates } from './dodoTakerOverrides.ts'

const taker = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address
const pools = [1, 2].map((n) => ({ id: `0xd${n.toString().padStart(39, '0')}`, feeRateModel: taker(99) }))

/** Rates that depend on every argument, and the reads asked, one entry per read call. */
function rateBook() {
  const reads: string[] = []
  const read: ReadTakerRates = async ({ taker, blockNumber, pools }) => {
    reads.push(`${taker}@${blockNumber}:${pools.map((p) => p.id).join(',')}`)
    return new Map(pools.map((p) => [p.id, BigInt(taker) * 1000n + blockNumber * 10n + BigInt(p.id.slice(-1))]))
  }
  return { reads, read }
}

test("a taker's rates are read once per block and pool, and the cache keeps at most its bound of (taker, block) pairs", async () => {
  const { reads, read } = rateBook()
  const cached = cacheTakerRates(read, 2)
  const first = await cached({ taker: taker(7), blockNumber: 10n, pools })
  assert.deepEqual([...first.values()], [7101n, 7102n])
  assert.deepEqual(await cached({ taker: taker(7), blockNumber: 10n, pools }), first)
  assert.equal(reads.length, 1, 'the same taker in the same block reads nothing again')
  assert.deepEqual([...(await cached({ taker: taker(7), blockNumber: 11n, pools })).values()], [7111n, 7112n], 'a new block reads again')
  await cached({ taker: taker(8), blockNumber: 11n, pools }) // a third pair: the oldest (7 @ 10) goes
  await cached({ taker: taker(7), blockNumber: 10n, pools })
  assert.equal(reads.length, 4)
})

test('a failed read is not kept: the next quote reads again', async () => {
  let fail = true
  const { reads, read } = rateBook()
  const cached = cacheTakerRates(async (args) => {
    if (fail) throw new Error('node down')
    return read(args)
  })
  await assert.rejects(cached({ taker: taker(7), blockNumber: 10n, pools }), /node down/)
  fail = false
  assert.deepEqual([...(await cached({ taker: taker(7), blockNumber: 10n, pools })).values()], [7101n, 7102n])
  assert.equal(reads.length, 1)
})

test('a taker in any letter case is read at its checksummed address (a mixed case that is not the checksum included)', async () => {
  const asked: string[] = []
  const market = {
    pools: () => [
      {
        ref: { dex: 'DODO_V2', dodo: { feeRateModel: taker(99) } },
        input: { id: pools[0]!.id, state: { model: 'dodo_pmm', mtFeeRate: '0' } },
      },
    ],
    freshness: () => ({ blockNumber: 5n }),
  }
  const readRates: ReadTakerRates = async ({ taker, pools }) => {
    asked.push(taker)
    return new Map(pools.map((p) => [p.id, 5n]))
  }
  // The fuzzer's taker: valid by the spec's pattern, its letter case not its EIP-55 checksum.
  const found = await dodoTakerOverrides({
    taker: '0xcFb6BB40CBdc7a0d41d3c023E9bFdbb7a5bb3Cb0',
    allowedDexes: undefined,
    market: market as never,
    readRates,
  })
  assert.deepEqual(asked, ['0xCfB6Bb40cbdc7A0D41d3c023E9BFDbb7A5BB3Cb0'])
  assert.equal(found?.overrides[0]?.mtFeeRate, '5')
})
