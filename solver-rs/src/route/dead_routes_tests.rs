//! A route that carries input and pays nothing leaves the plan (`dead_routes.rs`). The case of
//! the devnet's WETH → 0xa513… quote at 2^128 wei: a budget-stopped plan sent a second route
//! through a pool the first had drained, and its later legs received 0.

use super::clock::Deadline;
use super::dead_routes::without_dead_routes;
use super::gas::GasPricer;
use super::net::Net;
use super::path::{Overlay, Path};
use super::split::Solution;
use super::swap_memos::SwapMemos;
use super::test_market::{addr, cl_pool, cp_pool, market_of};
use crate::market::{Hop, Market};
use crate::math::U256;

/// Token 1 → token 2: pool 1 concentrated and shallow (liquidity 10^6 over the whole range, about
/// 2.3 · 10^15 of token 1 takes it to its lowest price), pool 2 deep; token 2 → token 3: pool 3.
fn market() -> Market {
    market_of(vec![
        cl_pool(1, "UNIV3", [addr(1), addr(2)], 0, 3_000, None, &[(-887_220, 887_220, 1_000_000)]),
        cp_pool(2, "UNIV2", addr(1), addr(2), 10u128.pow(30), 10u128.pow(30)),
        cp_pool(3, "UNIV2", addr(2), addr(3), 10u128.pow(30), 10u128.pow(30)),
    ])
}

/// The path through `tokens` by the pools `pools` (their indices in the market's inputs).
fn path(market: &Market, tokens: &[u8], pools: &[u32]) -> Path {
    let tokens: Vec<_> = tokens.iter().map(|&t| market.token(&addr(t)).unwrap()).collect();
    let hops = pools
        .iter()
        .enumerate()
        .map(|(k, &pool)| {
            *market.edge(tokens[k], tokens[k + 1]).iter().find(|h| h.pool == pool).unwrap()
        })
        .collect::<Vec<Hop>>();
    Path { tokens, hops }
}

/// Each route's output when the routes run in `order`.
fn outs(market: &Market, paths: &[&Path], order: &[usize], alloc: &[U256]) -> Vec<U256> {
    let mut overlay = Overlay::new(market);
    let mut outs = vec![U256::ZERO; alloc.len()];
    for &i in order {
        if !alloc[i].is_zero() {
            outs[i] = overlay.run(paths[i], alloc[i], None).unwrap().0;
        }
    }
    outs
}

fn solution(alloc: Vec<U256>) -> Solution {
    let order = (0..alloc.len()).collect();
    Solution { alloc, value: Net::default(), order }
}

#[test]
fn a_route_through_a_pool_an_earlier_route_drained_gives_its_input_to_a_live_route() {
    let market = market();
    let (small, deep, pool_3) = (0, 1, 2);
    let first = path(&market, &[1, 2], &[small]);
    let drained = path(&market, &[1, 2, 3], &[small, pool_3]);
    let other = path(&market, &[1, 2], &[deep]);
    let paths = [&first, &drained, &other];
    let amount = U256::from(10u128.pow(15));
    let alloc = vec![amount, amount, amount];
    let before = outs(&market, &paths, &[0, 1, 2], &alloc);
    // The first route takes pool 1's price so low that the second's 10^15 in buys less than a wei.
    assert!(before[1].is_zero() && !before[0].is_zero());

    let kept = without_dead_routes(
        &market,
        &paths,
        &SwapMemos::default(),
        &GasPricer::free(),
        &Deadline::never(),
        solution(alloc),
    )
    .expect("two routes pay");
    assert_eq!(kept.alloc[1], U256::ZERO);
    assert_eq!(kept.alloc.iter().fold(U256::ZERO, |s, a| s + a), amount * U256::from(3));
    let after = outs(&market, &paths, &kept.order, &kept.alloc);
    let paid = |o: &[U256]| o.iter().fold(U256::ZERO, |s, a| s + a);
    assert!(after.iter().zip(&kept.alloc).all(|(o, a)| a.is_zero() || !o.is_zero()));
    // The deep pool takes the input at its price; the drained pool pays less than a wei for it.
    assert_eq!(kept.alloc[2], amount * U256::from(2));
    assert!(paid(&after) > paid(&before));
    assert_eq!(kept.value.gross, paid(&after));
}

#[test]
fn a_plan_whose_every_route_pays_nothing_has_no_route() {
    let market = market();
    let only = path(&market, &[1, 2], &[0]);
    // One wei into the shallow pool buys nothing after its fee; the pool takes it all the same.
    let alloc = vec![U256::from(1u64)];
    assert_eq!(outs(&market, &[&only], &[0], &alloc), vec![U256::ZERO]);
    let kept = without_dead_routes(
        &market,
        &[&only],
        &SwapMemos::default(),
        &GasPricer::free(),
        &Deadline::never(),
        solution(alloc),
    );
    assert!(kept.is_none());
}

#[test]
fn a_plan_with_no_dead_route_is_kept_as_it_is() {
    let market = market();
    let first = path(&market, &[1, 2], &[0]);
    let other = path(&market, &[1, 2], &[1]);
    let alloc = vec![U256::from(100u64), U256::from(10u128.pow(20))];
    let kept = without_dead_routes(
        &market,
        &[&first, &other],
        &SwapMemos::default(),
        &GasPricer::free(),
        &Deadline::never(),
        solution(alloc.clone()),
    )
    .unwrap();
    assert_eq!(kept.alloc, alloc);
    assert_eq!(kept.order, vec![0, 1]);
}
