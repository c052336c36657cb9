import type { DexId } from '../../bindings/types.ts'
import { aerodromeCl } from './aerodromeCl.ts'
import { aerodromeV2 } from './aerodromeV2.ts'
import { alienBaseV3 } from './alienBaseV3.ts'
import { curveKinds } from './curveKinds.ts'
import { dodoV2 } from './dodoV2.ts'
import { gyroscopeEclp } from './gyroscopeEclp.ts'
import { hydrex } from './hydrex.ts'
import { maverickV2 } from './maverickV2.ts'
import type { PoolAdapter } from './PoolAdapter.ts'
import { createPropAmmAdapter } from './propAmm/createPropAmmAdapter.ts'
import type { PropAmmDexId } from './propAmm/propAmmDexIds.ts'
import { pancakeInfinityCl } from './pancakeInfinityCl.ts'
import { pancakeV2 } from './pancakeV2.ts'
import { pancakeV3 } from './pancakeV3.ts'
import { quickswapV4 } from './quickswapV4.ts'
import { uniswapV2 } from './uniswapV2.ts'
import { uniswapV3 } from './uniswapV3.ts'
import { uniswapV4 } from './uniswapV4.ts'
import { woofi } from './woofi/woofi.ts'

export type RegistryEntry = { status: 'present'; adapter: PoolAdapter } | { status: 'absent'; reason: string }

const noLeg = 'no executable leg yet'
/** The prop AMMs: configured venues, sampled through their own quote views, re-quoted before a plan is answered (docs/prop-amms.md). */
const propAmm = (dex: PropAmmDexId): RegistryEntry => ({ status: 'present', adapter: createPropAmmAdapter({ dex }) })

/**
 * The only TypeScript list of DEX kinds: every spec `DexId` maps to its adapter, or is explicitly
 * absent with the reason (registry.test.ts fails when a spec kind has no entry).
 *
 * @example
 * const entry = adapterRegistry.UNIV3
 * // → { status: 'present', adapter: uniswapV3 }; adapterRegistry.WOOFI → { status: 'absent', reason }
 * if (entry.status === 'present') await entry.adapter.readPool({ client, ref, blockNumber })
 */
export const adapterRegistry: { readonly [K in DexId]: RegistryEntry } = {
  UNIV2: { status: 'present', adapter: uniswapV2 },
  UNIV3: { status: 'present', adapter: uniswapV3 },
  ALIEN_BASE_V3: { status: 'present', adapter: alienBaseV3 },
  PANCAKE_V3: { status: 'present', adapter: pancakeV3 },
  UNIV4: { status: 'present', adapter: uniswapV4 },
  QUICKSWAP_V4: { status: 'present', adapter: quickswapV4 },
  HYDREX: { status: 'present', adapter: hydrex },
  AERODROME_V2LIKE: { status: 'present', adapter: aerodromeV2 },
  AERODROME_CL: { status: 'present', adapter: aerodromeCl },
  PANCAKE_V2: { status: 'present', adapter: pancakeV2 },
  PANCAKE_INFINITY_CL: { status: 'present', adapter: pancakeInfinityCl },
  CURVE: { status: 'present', adapter: curveKinds },
  PROPSWAP: propAmm('PROPSWAP'),
  TESSERA: propAmm('TESSERA'),
  ELFOMOFI: propAmm('ELFOMOFI'),
  LUNARBASE: propAmm('LUNARBASE'),
  FELTIR: propAmm('FELTIR'),
  DODO_V2: { status: 'present', adapter: dodoV2 },
  WOOFI: { status: 'present', adapter: woofi },
  GYROSCOPE_ECLP: { status: 'present', adapter: gyroscopeEclp },
  MAVERICK_V2: { status: 'present', adapter: maverickV2 },
}
