import { deployPancakeV3 } from '../../src/devnet/deployPancakeV3.ts'
import { runV3FamilyDifferential } from './runV3FamilyDifferential.ts'

// PancakeSwap V3: the published PancakeV3Pool bytecode (its pool deployer is ours, see
// deployPancakeV3), read by the PANCAKE_V3 reader (uint32 feeProtocol in slot0).
runV3FamilyDifferential({
  dex: 'PANCAKE_V3',
  seed: Number(process.env.DIFF_SEED ?? 2500),
  states: Number(process.env.DIFF_PANCAKE_V3_STATES ?? 80),
  tiers: [
    { fee: 100, tickSpacing: 1 },
    { fee: 500, tickSpacing: 10 },
    { fee: 2500, tickSpacing: 50 },
    { fee: 10000, tickSpacing: 200 },
  ],
  slot0Signature: 'function slot0() view returns (uint160, int24, uint16, uint16, uint16, uint32, bool)',
  deploy: deployPancakeV3,
})
