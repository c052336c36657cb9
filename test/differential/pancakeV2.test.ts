import { Pair } from '@pancakeswap/v2-sdk'
import { CurrencyAmount, Token } from '@pancakeswap/swap-sdk-core'
import { deployPancakeV2 } from '../../src/devnet/deployPancakeV2.ts'
import { loadStandInArtifacts } from '../../src/devnet/loadStandInArtifacts.ts'
import { runConstantProductDifferential } from './runConstantProductDifferential.ts'

// PancakeSwap V2: our stand-in pair (contracts/pancake-v2/, the 25 bps K check); the reference is
// PancakeSwap's own SDK (`@pancakeswap/v2-sdk` Pair.getOutputAmount on Base, chain 8453), so the
// chain, the solver and Pancake's code must agree on every trade.
runConstantProductDifferential({
  dex: 'PANCAKE_V2',
  seed: Number(process.env.DIFF_SEED ?? 2525),
  states: Number(process.env.DIFF_PANCAKE_V2_STATES ?? 60),
  deploy: async ({ devnet }) => ({
    ...(await deployPancakeV2({ devnet })),
    pairAbi: loadStandInArtifacts({ protocol: 'pancake-v2' }).PancakePair.abi,
  }),
  reference: (amountIn, reserveIn, reserveOut, { tokenIn, tokenOut }) => {
    const [a, b] = [new Token(8453, tokenIn, 18, 'IN'), new Token(8453, tokenOut, 18, 'OUT')]
    const pair = new Pair(CurrencyAmount.fromRawAmount(a, reserveIn), CurrencyAmount.fromRawAmount(b, reserveOut))
    try {
      return pair.getOutputAmount(CurrencyAmount.fromRawAmount(a, amountIn))[0].quotient
    } catch {
      // The SDK refuses a zero output (InsufficientInputAmountError): the pair pays nothing.
      return 0n
    }
  },
})
