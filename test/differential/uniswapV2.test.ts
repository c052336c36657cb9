import type { Abi } from 'viem'
import { deployUniswapV2 } from '../../src/devnet/deployUniswapV2.ts'
import { loadNpmArtifact } from '../../src/devnet/loadNpmArtifact.ts'
import { runConstantProductDifferential } from './runConstantProductDifferential.ts'

// Uniswap V2: the published pair bytecode; the reference is V2's getAmountOut written apart from
// the solver (997/1000 fee, floor).
runConstantProductDifferential({
  dex: 'UNIV2',
  seed: Number(process.env.DIFF_SEED ?? 2002),
  states: Number(process.env.DIFF_V2_STATES ?? 60),
  deploy: async ({ devnet }) => ({
    ...(await deployUniswapV2({ devnet })),
    pairAbi: loadNpmArtifact({ name: 'UniswapV2Pair' }).abi as Abi,
  }),
  reference: (amountIn, reserveIn, reserveOut) => {
    const inWithFee = amountIn * 997n
    return (inWithFee * reserveOut) / (reserveIn * 1000n + inWithFee)
  },
})
