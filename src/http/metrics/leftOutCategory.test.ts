import assert from 'node:assert/strict'
import { test } from 'vitest'
import { leftOutCategory } from './leftOutCategory.ts'

test("the market's left-out reasons (docs/real-chain.md wordings) fall into few label values, never the text", () => {
  assert.equal(leftOutCategory('left out at block 9: token 0xabc is on the deny list'), 'deny_list')
  assert.equal(leftOutCategory('left out at block 9: liquidity 12 wei of WETH is below the floor of 1000000000000000000'), 'liquidity')
  assert.equal(
    leftOutCategory(
      'left out at block 9: token 0xabc moves other amounts than asked (fee on transfer or rounding): at block 9, sending 100 …',
    ),
    'token_behaviour',
  )
  assert.equal(leftOutCategory('a V4 pool with hooks is not read (hooks 0x…c000)'), 'hooks')
  assert.equal(leftOutCategory('left out at block 9: solver refused it: zero liquidity'), 'solver_refused')
  assert.equal(leftOutCategory('left out at block 9: paused'), 'venue_closed')
  assert.equal(
    leftOutCategory("left out at block 9: stale: the operator's last update was at block 1, fresh for 5 blocks, not in block 10"),
    'venue_closed',
  )
  assert.equal(leftOutCategory('something new'), 'other')
})
