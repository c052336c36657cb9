import { deployUniswapV3 } from '../../src/devnet/deployUniswapV3.ts'
import { runV3FamilyDifferential } from './runV3FamilyDifferential.ts'

// Uniswap V3: the published UniswapV3Pool bytecode, every fee tier including 100.
runV3FamilyDifferential({
  dex: 'UNIV3',
  seed: Number(process.env.DIFF_SEED ?? 3003),
  states: Number(process.env.DIFF_V3_STATES ?? 80),
  tiers: [
    { fee: 100, tickSpacing: 1 },
    { fee: 500, tickSpacing: 10 },
    { fee: 3000, tickSpacing: 60 },
    { fee: 10000, tickSpacing: 200 },
  ],
  slot0Signature: 'function slot0() view returns (uint160, int24, uint16, uint16, uint16, uint8, bool)',
  deploy: deployUniswapV3,
})
