import { join } from 'node:path'
import { compiledContractsPath } from '../artifacts/compiledContractsPath.ts'

/** The protocols whose stand-in contracts live in `contracts/<protocol>/`, one compilation each. */
export const standInProtocols = [
  'aerodrome',
  'slipstream',
  'pancake-v2',
  'pancake-infinity',
  'curve',
  'dodo',
  'gyro',
  'lunarbase',
  'propswap',
  'tessera',
  'elfomofi',
  'feltir',
  'woofi',
  'maverick',
] as const

export type StandInProtocol = (typeof standInProtocols)[number]

export type StandInCompileTargetReturnType = { contractsDir: string; outputFile: string; libraryDirs: string[]; viaIR: true }

/**
 * Where one protocol's stand-ins are compiled from and to: `contracts/<protocol>/` plus the shared
 * `contracts/common/`, into `build/<protocol>.json`, through the IR pipeline.
 *
 * @example
 * const { outputFile } = standInCompileTarget({ protocol: 'aerodrome' }) // …/build/aerodrome.json
 */
export function standInCompileTarget({ protocol }: { protocol: StandInProtocol }): StandInCompileTargetReturnType {
  const { root } = compiledContractsPath()
  return {
    contractsDir: join(root, 'contracts', protocol),
    outputFile: join(root, 'build', `${protocol}.json`),
    libraryDirs: [join(root, 'contracts', 'common')],
    // v4-core's Pool library is too deep for the legacy code generator (v4-core builds via IR too).
    viaIR: true,
  }
}
