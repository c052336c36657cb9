import { leastSquares } from './leastSquares.ts'

/** One executed quote, as the gas calibration sees it. */
export type GasRecord = {
  routes: number
  nativeIn: boolean
  nativeOut: boolean
  feePaid: boolean
  /** Per leg: its kind, the initialized ticks it crossed (solver), the tick-bitmap words it walked past. */
  legs: { dex: string; crossings: number; words: number }[]
  /** A pool used by two legs: its second use is warm and its crossings are not the solver's simulate. */
  repeatedPool: boolean
  /** Legs whose pool an earlier leg already used. */
  repeatedPoolLegs: number
  /** The solver's gas for the plan's legs (the registry's figures per kind, each leg on the state it meets). */
  solverLegGas: number
  calldataGas: number
  gasUsed: number
  gasEstimate: number
}

export type GasFit = {
  /**
   * Router overhead beyond intrinsic and calldata: `call`, `extraRoute`, `nativeIn`, `nativeOut`,
   * `integratorFee`, and `perLeg` when the legs' gas is the solver's (which prices repeated pools
   * itself); `repeatedPool` (one saving for all kinds) when the kinds' figures are fitted.
   */
  overhead: Record<string, number>
  /** Per kind: `base` (one leg) and `perCrossing` (and `perWord` when fitted with words). */
  kinds: Record<string, { base: number; perCrossing: number; perWord?: number }>
  /** (predicted − used) / used of every record under this fit (fitted on the records `fitOn` keeps). */
  errors: number[]
}

/**
 * Least-squares fit of the gas model to executed quotes: gasUsed − 21,000 − calldata gas as a
 * router call cost, extra routes, native and fee extras, and per kind a leg base and a per-crossing
 * cost, optionally a per-empty-bitmap-word cost (the registry's `gas_per_word`). With
 * `legGas: 'solver'` the legs cost what the solver says (`solverLegGas`, the registry as it is)
 * and only the service's terms are fitted, a router cost per leg among them (it cannot be told
 * from the kinds' bases when those are fitted too).
 *
 * @example
 * const fit = fitGasModel({ records, kinds: ['UNIV2', 'UNIV3'], withWords: false, fitOn: (r) => r.legs.every((l) => l.words === 0) })
 * const service = fitGasModel({ records, kinds: [], withWords: false, legGas: 'solver' })
 * // → { overhead: { call, extraRoute, …, perLeg? }, kinds: { UNIV2: { base, perCrossing }, … }, errors: (predicted − used) / used }
 */
export function fitGasModel({
  records,
  kinds,
  withWords,
  fitOn = () => true,
  legGas = 'fit',
}: {
  records: GasRecord[]
  kinds: string[]
  withWords: boolean
  fitOn?: (record: GasRecord) => boolean
  legGas?: 'fit' | 'solver'
}): GasFit {
  const solverLegs = legGas === 'solver'
  const overheadNames = ['call', 'extraRoute', 'nativeIn', 'nativeOut', 'integratorFee', ...(solverLegs ? ['perLeg'] : ['repeatedPool'])]
  const known = (r: GasRecord) => 21_000 + r.calldataGas + (solverLegs ? r.solverLegGas : 0)
  const row = (r: GasRecord) => {
    const x = [1, r.routes - 1, r.nativeIn ? 1 : 0, r.nativeOut ? 1 : 0, r.feePaid ? 1 : 0]
    if (solverLegs) return [...x, r.legs.length]
    x.push(-r.repeatedPoolLegs)
    for (const kind of kinds) {
      const legs = r.legs.filter((l) => l.dex === kind)
      x.push(
        legs.length,
        legs.reduce((s, l) => s + l.crossings, 0),
      )
      if (withWords) x.push(legs.reduce((s, l) => s + l.words, 0))
    }
    return x
  }
  // Relative least squares (rows and targets divided by gas used): the 15 % criterion is relative,
  // and absolute least squares lets a few multi-million-gas trades dominate the fit.
  const fitted = records.filter(fitOn)
  const beta = leastSquares({
    rows: fitted.map((r) => row(r).map((x) => x / r.gasUsed)),
    y: fitted.map((r) => (r.gasUsed - known(r)) / r.gasUsed),
  })
  const overhead = Object.fromEntries(overheadNames.map((name, i) => [name, Math.round(beta[i])]))
  const per = withWords ? 3 : 2
  const fittedKinds = solverLegs
    ? {}
    : Object.fromEntries(
        kinds.map((kind, k) => {
          const at = overheadNames.length + k * per
          return [
            kind,
            {
              base: Math.round(beta[at]),
              perCrossing: Math.round(beta[at + 1]),
              ...(withWords ? { perWord: Math.round(beta[at + 2]) } : {}),
            },
          ]
        }),
      )
  const errors = records.map((r) => {
    const predicted = known(r) + row(r).reduce((s, x, i) => s + x * beta[i], 0)
    return (predicted - r.gasUsed) / r.gasUsed
  })
  return { overhead, kinds: fittedKinds, errors }
}
