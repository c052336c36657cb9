import type { UpstreamId } from '../UpstreamAdapter.ts'
import { kyberSwapStandIn } from './apis/kyberSwapStandIn.ts'
import { odosStandIn } from './apis/odosStandIn.ts'
import { oneInchStandIn } from './apis/oneInchStandIn.ts'
import { openOceanStandIn } from './apis/openOceanStandIn.ts'
import { veloraStandIn } from './apis/veloraStandIn.ts'
import { zeroExStandIn } from './apis/zeroExStandIn.ts'
import type { StandInApi } from './StandInApi.ts'

/** The stand-in of every upstream API (registry.test.ts checks it covers the registry). */
export const standInApis: Record<UpstreamId, StandInApi> = {
  '0x': zeroExStandIn,
  '1inch': oneInchStandIn,
  kyberswap: kyberSwapStandIn,
  odos: odosStandIn,
  velora: veloraStandIn,
  openocean: openOceanStandIn,
}
