import type { Address } from 'viem'
import type { SplitAllocation, SplitResponse } from '../http/schemas/upstream.ts'
import type { QuoteRequest, QuoteRoutePlan } from '../quote/quoteTypes.ts'
import { askUpstream } from './askUpstream.ts'
import type { GasCostInTokenOut } from './createGasCostPricer.ts'
import { describeUpstreamFailure } from './describeUpstreamFailure.ts'
import { prepareUpstreamRequest } from './prepareUpstreamRequest.ts'
import { planL1FeeWei } from './planL1FeeWei.ts'
import { quoteLocally } from './quoteLocally.ts'
import { type Sample, sampleSources, type SourceSamples } from './sampleSources.ts'
import { allocateAcrossCurves } from './split/allocateAcrossCurves.ts'
import type { CurvePoint } from './split/CurvePoint.ts'
import { interpolateCurve } from './split/interpolateCurve.ts'
import { transactionWire } from './transactionWire.ts'
import type { UpstreamTransaction } from './UpstreamAdapter.ts'
import type { LocalSource, UpstreamContext } from './UpstreamContext.ts'

export type SplitAcrossSourcesParameters = {
  ctx: UpstreamContext
  request: QuoteRequest
  local: LocalSource
  /** Where the caller's integrator fee (`feeBps` > 0) goes: every source is asked to charge it. */
  feeRecipient?: Address
  /** Sizes asked of our solver (default 8). */
  localSamples?: number
  /** Most sizes asked of one upstream (default 6; fewer when its rate limit says so). */
  maxUpstreamSamples?: number
  onBug?: (error: unknown) => void
}

/** With a taker, the exact executable calls after the allocation get this share of the budget. */
const EXECUTABLE_PHASE_SHARE = 0.4

/** One source's final piece of the trade, signed amounts (a net may be negative on a tiny trade). */
type Piece = {
  sourceId: string
  amountIn: bigint
  net: bigint
  output: bigint
  gasUnits: bigint
  plan?: QuoteRoutePlan
  transaction?: UpstreamTransaction
  exact: boolean
}

/**
 * POST /quote/split: the best allocation of one trade across the sources (our solver included
 * when it can quote), compared with the single best source. Each source is sampled at several
 * sizes within its rate limit and the deadline (sampleSources); its answers net of its gas form a
 * concave piecewise-linear curve with a fixed cost at zero (the gas of one more transaction), and
 * the allocation maximising the total over those curves is exact (allocateAcrossCurves). Amounts
 * are then what each source answered for exactly that size when it did, else the chord between
 * its samples (a lower bound on a concave curve). With a `taker`, every upstream piece is asked
 * again for an executable quote for exactly its size, and our own piece is issued as a quoteId.
 * A split whose final total is below the best single source is never returned: that source alone
 * is. With `feeBps` > 0 every source's answers are after the caller's fee (each upstream charges it
 * in its own parameters; one that cannot is left out with a line), so the curves compare alike.
 * See docs/upstreams.md.
 *
 * @example
 * const answer = await splitAcrossSources({ ctx, request, local })
 * answer.allocations // [{ sourceId: 'local', amountIn: '600…', … }, { sourceId: '0x', amountIn: '400…', … }]
 */
export async function splitAcrossSources({
  ctx,
  request,
  local,
  feeRecipient,
  localSamples = 8,
  maxUpstreamSamples = 6,
  onBug,
}: SplitAcrossSourcesParameters): Promise<SplitResponse> {
  const prepared = await prepareUpstreamRequest({ ctx, request, feeRecipient })
  const totalIn = BigInt(request.amountIn)
  const executable = request.taker !== undefined
  const sampleDeadline = executable ? prepared.deadline - Math.floor(prepared.budgetMs * EXECUTABLE_PHASE_SHARE) : prepared.deadline
  const gasPromise: Promise<GasCostInTokenOut> = prepared.gasPriceKnown
    ? ctx.gasCost(request.tokenOut, prepared.gasPriceWei)
    : Promise.resolve({ priced: false, costOf: () => 0n })
  const [{ sources, errors }, gas] = await Promise.all([
    sampleSources({
      ctx,
      request,
      local,
      prepared,
      deadline: sampleDeadline,
      localSamples,
      maxUpstreamSamples,
      reserveCalls: (e) => (executable ? e.executableCalls : 0),
      onBug,
    }),
    gasPromise,
  ])
  // Net of each source's gas and its transaction's L1 data fee, as /quote nets ours: a fixed cost per source used.
  const net = (s: Sample) => s.output - gas.costOf(s.gasUnits, s.l1FeeWei)
  const answered = sources.filter((s) => s.samples.length > 0)

  // The single best source: the highest net answer for the whole amount.
  let single: { source: SourceSamples; sample: Sample } | undefined
  for (const source of answered) {
    const whole = source.samples.find((s) => s.x === totalIn)
    if (whole && (!single || net(whole) > net(single.sample))) single = { source, sample: whole }
  }
  const curves = answered.map((source) => ({ id: source.sourceId, points: netPoints(source.samples, net) }))
  const allocation = allocateAcrossCurves({ curves, totalIn })
  let pieces: Piece[] = (allocation?.allocations ?? []).map(({ id, amountIn }) =>
    estimatePiece(
      answered.find((s) => s.sourceId === id)!,
      amountIn,
      net,
    ),
  )

  // Exact answers for the chosen sizes: our solver always (a quoteId needs its plan), upstreams with a taker.
  pieces = await Promise.all(
    pieces.map(async (piece) => {
      const source = answered.find((s) => s.sourceId === piece.sourceId)!
      if (!source.endpoint) {
        if (piece.plan) return piece
        const outcome = await quoteLocally({
          local,
          request: { ...request, amountIn: piece.amountIn.toString() },
          deadline: prepared.deadline,
          now: ctx.now,
          onBug,
        })
        if (!outcome.plan) {
          errors.push(`local: ${outcome.error} (exact quote for ${piece.amountIn})`)
          return piece
        }
        return exactPiece(
          piece,
          {
            x: piece.amountIn,
            output: BigInt(outcome.plan.expectedAmountOut),
            gasUnits: BigInt(outcome.plan.gasEstimate.gasUnits),
            l1FeeWei: planL1FeeWei(outcome.plan, prepared.gasPriceWei),
            plan: outcome.plan,
          },
          net,
        )
      }
      if (!executable) return piece
      try {
        // Its tokens may all have gone to samples (a burst no larger than one firm quote): wait for them if they come in time.
        const answer = await askUpstream({
          ctx,
          endpoint: source.endpoint,
          trade: prepared.trade(piece.amountIn),
          deadline: prepared.deadline,
          executable: true,
          waitForToken: true,
        })
        return {
          ...exactPiece(
            piece,
            {
              x: piece.amountIn,
              output: answer.outputAmount,
              gasUnits: answer.gasUnits,
              l1FeeWei: ctx.l1FeeWei(answer.transaction, prepared.gasPriceWei),
            },
            net,
          ),
          transaction: answer.transaction,
        }
      } catch (error) {
        errors.push(describeUpstreamFailure(source.sourceId, error, `executable quote for ${piece.amountIn}`))
        return piece
      }
    }),
  )

  const total = pieces.reduce((sum, p) => sum + p.net, 0n)
  if (single && (pieces.length === 0 || total < net(single.sample))) {
    // Never worse than the single best: that source alone, with its answer for the whole amount.
    const kept = pieces.find((p) => p.sourceId === single.source.sourceId && p.amountIn === totalIn)
    pieces = [
      kept ?? {
        sourceId: single.source.sourceId,
        amountIn: totalIn,
        net: net(single.sample),
        output: single.sample.output,
        gasUnits: single.sample.gasUnits,
        plan: single.sample.plan,
        exact: true,
      },
    ]
  }
  const allocations: SplitAllocation[] = []
  for (const piece of pieces) allocations.push(await allocationWire(piece, local))
  const totalNet = pieces.reduce((sum, p) => sum + p.net, 0n)
  const singleNet = single ? net(single.sample) : 0n
  const totalOutput = totalNet > 0n ? totalNet : 0n
  const singleBestOutput = singleNet > 0n ? singleNet : 0n
  const absolute = totalOutput > singleBestOutput ? totalOutput - singleBestOutput : 0n
  return {
    strategy: 'split-aggregator',
    totalInput: totalIn.toString(),
    totalOutput: totalOutput.toString(),
    singleBestOutput: singleBestOutput.toString(),
    singleBestSource: single?.source.sourceId ?? '',
    improvement: {
      absolute: absolute.toString(),
      bps: singleBestOutput > 0n ? Number((absolute * 1_000_000n) / singleBestOutput) / 100 : 0,
    },
    allocations,
    errors,
    fetchedAt: ctx.now(),
    netOfGas: gas.priced,
    samples: sources.map((s) => ({ sourceId: s.sourceId, asked: s.asked, answered: s.samples.length })),
  }
}

/** A source's net answers as a curve from `{0, -gas of its smallest answer}` (the fixed cost of using it). */
function netPoints(samples: Sample[], net: (s: Sample) => bigint): CurvePoint[] {
  const sorted = [...samples].sort((a, b) => (a.x < b.x ? -1 : a.x > b.x ? 1 : 0))
  return [{ x: 0n, y: net({ ...sorted[0], output: 0n }) }, ...sorted.map((s) => ({ x: s.x, y: net(s) }))]
}

/** A piece at `amountIn` from the samples alone: the sample itself, or the chord between the neighbours. */
function estimatePiece(source: SourceSamples, amountIn: bigint, net: (s: Sample) => bigint): Piece {
  const sample = source.samples.find((s) => s.x === amountIn)
  if (sample)
    return {
      sourceId: source.sourceId,
      amountIn,
      net: net(sample),
      output: sample.output,
      gasUnits: sample.gasUnits,
      plan: sample.plan,
      exact: true,
    }
  const sorted = [...source.samples].sort((a, b) => (a.x < b.x ? -1 : a.x > b.x ? 1 : 0))
  const above = sorted.find((s) => s.x > amountIn) ?? sorted[sorted.length - 1]
  const below = [...sorted].reverse().find((s) => s.x < amountIn)
  return {
    sourceId: source.sourceId,
    amountIn,
    net: interpolateCurve(netPoints(source.samples, net), amountIn) ?? net(above),
    output: interpolateCurve([{ x: 0n, y: 0n }, ...sorted.map((s) => ({ x: s.x, y: s.output }))], amountIn) ?? above.output,
    // The larger neighbour's gas: an estimate never below either size's.
    gasUnits: below && below.gasUnits > above.gasUnits ? below.gasUnits : above.gasUnits,
    exact: false,
  }
}

function exactPiece(piece: Piece, answer: Sample, net: (s: Sample) => bigint): Piece {
  return { ...piece, net: net(answer), output: answer.output, gasUnits: answer.gasUnits, plan: answer.plan, exact: true }
}

async function allocationWire(piece: Piece, local: LocalSource): Promise<SplitAllocation> {
  const base = {
    sourceId: piece.sourceId,
    amountIn: piece.amountIn.toString(),
    expectedOutput: (piece.net > 0n ? piece.net : 0n).toString(),
    outputAmount: piece.output.toString(),
    gasEstimate: piece.gasUnits.toString(),
  }
  if (piece.plan) {
    const { quoteId, expiresAt } = await local.issue(piece.plan)
    return { ...base, hasExecutableQuote: true, quoteId, expiresAt }
  }
  if (piece.transaction) return { ...base, hasExecutableQuote: true, transaction: transactionWire(piece.transaction) }
  return { ...base, hasExecutableQuote: false }
}
