//! The tree Fynd executes: shared hops merged into one swap, the amount collected at a middle
//! token re-split by share (remainder to the smallest), topological order, cycles refused.

use super::tree::execute;
use crate::market::{Hop, Market};
use crate::math::U256;
use crate::pools::PoolModel;
use crate::route::path::Path;
use crate::route::test_market::{addr, cp_pool, market_of};

const E18: u128 = 1_000_000_000_000_000_000;

/// A=1 → X=3 through pools 1 and 2, X → B=2 through pools 3 and 4, and X ↔ Y=4 pools for cycles.
fn market() -> Market {
    let (a, b, x, y) = (addr(1), addr(2), addr(3), addr(4));
    market_of(vec![
        cp_pool(1, "UNIV2", a, x, 1_000 * E18, 2_000 * E18),
        cp_pool(2, "PANCAKE_V2", a, x, 400 * E18, 790 * E18),
        cp_pool(3, "UNIV2", x, b, 2_000 * E18, 3_000 * E18),
        cp_pool(4, "UNIV2", x, b, 900 * E18, 1_400 * E18),
        cp_pool(5, "UNIV2", a, y, 1_000 * E18, 1_000 * E18),
        cp_pool(6, "UNIV2", x, y, 1_000 * E18, 1_000 * E18),
        cp_pool(7, "UNIV2", y, b, 1_000 * E18, 1_500 * E18),
    ])
}

/// The path through the pools with these ids (`cp_pool` ids), from tokenIn.
fn path(market: &Market, ids: &[u8]) -> Path {
    let mut tokens = vec![market.token(&addr(1)).unwrap()];
    let mut hops = Vec::new();
    for id in ids {
        let pool =
            market.pool_by_id(&crate::address::Address([0xa0 ^ id; 20]).to_string()).unwrap();
        let at = *tokens.last().unwrap();
        let entry = market.pool(pool);
        let side = entry.tokens.iter().position(|t| *t == at).unwrap();
        hops.push(Hop { pool, token_in: side as u8, token_out: 1 - side as u8 });
        tokens.push(entry.tokens[1 - side]);
    }
    Path { tokens, hops }
}

fn pay(market: &Market, hop: Hop, amount: U256) -> U256 {
    market
        .pool(hop.pool)
        .state
        .amount_out(hop.token_in as usize, hop.token_out as usize, amount)
        .unwrap()
        .amount_out
}

fn floor_share(total: U256, share: f64) -> U256 {
    total * U256::from((share * 1e18) as u64) / U256::from(1_000_000_000_000_000_000u64)
}

#[test]
fn shared_hops_merge_and_the_middle_token_re_splits_its_whole_amount_by_share() {
    let market = market();
    let (p13, p14, p23) = (path(&market, &[1, 3]), path(&market, &[1, 4]), path(&market, &[2, 3]));
    let amount = U256::from(300 * E18);
    let tree = execute(&market, &[(&p13, 0.5), (&p14, 0.2), (&p23, 0.3)], amount).unwrap();

    // One swap per pool: pool 1 carries 0.7 (first, the larger share), pool 2 the remainder.
    let ids: Vec<_> = tree.swaps.iter().map(|s| s.hop).collect();
    assert_eq!(ids, vec![p13.hops[0], p23.hops[0], p13.hops[1], p14.hops[1]]);
    let first = floor_share(amount, 0.7);
    assert_eq!(tree.swaps[0].amount_in, first);
    assert_eq!(tree.swaps[1].amount_in, amount - first);
    // X collects both outputs, then pool 3 takes 0.8 of it (0.5 + 0.3) and pool 4 the rest:
    // a re-split of the pooled amount, not each path carrying its own pool's output on.
    let collected = pay(&market, p13.hops[0], first) + pay(&market, p23.hops[0], amount - first);
    let to_three = floor_share(collected, 0.8);
    assert_eq!(
        (tree.swaps[2].amount_in, tree.swaps[3].amount_in),
        (to_three, collected - to_three)
    );
    let out = pay(&market, p13.hops[1], to_three) + pay(&market, p14.hops[1], collected - to_three);
    assert_eq!(tree.amount_out, out);
    let gas: u64 = tree.swaps.iter().map(|s| s.gas_units).sum();
    assert_eq!((tree.gas_units, tree.longest_walk), (gas, 2));
}

#[test]
fn a_token_waits_for_every_swap_that_delivers_it() {
    let market = market();
    // A → X (pool 1) → B, and A → Y (pool 5) → X (pool 6) → B: X is reached after one and two hops.
    let (short, long) = (path(&market, &[1, 3]), path(&market, &[5, 6, 3]));
    let tree = execute(&market, &[(&short, 0.6), (&long, 0.4)], U256::from(100 * E18)).unwrap();
    let order: Vec<_> = tree.swaps.iter().map(|s| s.hop.pool).collect();
    let pools = |p: &Path| p.hops.iter().map(|h| h.pool).collect::<Vec<_>>();
    // Pool 3 (X → B, merged) runs once, after both pool 1 and pool 6 have delivered X.
    assert_eq!(order, vec![pools(&short)[0], pools(&long)[0], pools(&long)[1], pools(&short)[1]]);
    let delivered = tree.swaps[0].amount_out + tree.swaps[2].amount_out;
    assert_eq!(tree.swaps[3].amount_in, delivered);
    assert_eq!(tree.longest_walk, 3);
}

#[test]
fn paths_crossing_two_middle_tokens_in_opposite_orders_cannot_run() {
    let market = market();
    // A → X → Y → B and A → Y → X → B: X waits for Y and Y for X.
    let (xy, yx) = (path(&market, &[1, 6, 7]), path(&market, &[5, 6, 3]));
    assert!(execute(&market, &[(&xy, 0.5), (&yx, 0.5)], U256::from(10 * E18)).is_none());
}

#[test]
fn every_unit_is_spent_even_when_shares_do_not_sum_to_one() {
    let market = market();
    let (p13, p23) = (path(&market, &[1, 3]), path(&market, &[2, 3]));
    // Shares are normalised per token: 0.3 / 0.1 is a 3:1 split of the whole amount.
    let amount = U256::from(7 * E18 + 3);
    let tree = execute(&market, &[(&p13, 0.3), (&p23, 0.1)], amount).unwrap();
    assert_eq!(tree.swaps[0].amount_in + tree.swaps[1].amount_in, amount);
    assert_eq!(tree.swaps[0].amount_in, floor_share(amount, 0.3 / (0.3 + 0.1)));
}
