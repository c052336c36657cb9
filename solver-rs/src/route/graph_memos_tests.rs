use super::GraphMemos;
use crate::route::clock::{Deadline, MonotonicClock};
use crate::route::convex::graph::{Intermediates, Scope};
use crate::route::search::DexMask;
use crate::route::test_market::{addr, cp_pool, market_of};

/// tokenIn (1) → tokenOut (2) directly and through 3.
fn market() -> crate::market::Market {
    let (tin, out, mid) = (addr(1), addr(2), addr(3));
    market_of(vec![
        cp_pool(1, "UNIV2", tin, out, 10u128.pow(21), 10u128.pow(21)),
        cp_pool(2, "UNIV2", tin, mid, 10u128.pow(21), 10u128.pow(21)),
        cp_pool(3, "UNIV2", mid, out, 10u128.pow(21), 10u128.pow(21)),
    ])
}

fn scope(market: &crate::market::Market, intermediates: Intermediates) -> Scope {
    Scope {
        token_in: market.token(&addr(1)).unwrap(),
        token_out: market.token(&addr(2)).unwrap(),
        max_hops: 2,
        intermediates,
        dexes: DexMask::ALL,
    }
}

/// The address of the graph `with_graph` lends (the same graph lent twice has the same one).
fn lent(memos: &GraphMemos, market: &crate::market::Market, scope: &Scope) -> Option<usize> {
    memos.with_graph(market, scope, &Deadline::never(), |g| g as *const _ as usize)
}

#[test]
fn a_pair_is_built_once_and_lent_to_each_quote() {
    let (market, memos) = (market(), GraphMemos::default());
    let any = scope(&market, Intermediates::Any);
    let first = lent(&memos, &market, &any).expect("a graph");
    assert_eq!(lent(&memos, &market, &any), Some(first), "the same graph, taken back out");
    let arcs = memos.with_graph(&market, &any, &Deadline::never(), |g| g.arcs.len());
    assert_eq!(arcs, Some(3), "tokenIn→tokenOut, tokenIn→3, 3→tokenOut");
}

#[test]
fn a_graph_in_use_is_not_lent_twice() {
    let (market, memos) = (market(), GraphMemos::default());
    let any = scope(&market, Intermediates::Any);
    let (outer, inner) = memos
        .with_graph(&market, &any, &Deadline::never(), |outer| {
            (outer as *const _ as usize, lent(&memos, &market, &any).expect("a graph"))
        })
        .expect("a graph");
    assert_ne!(outer, inner, "a quote of the pair at the same time builds its own");
}

#[test]
fn a_cut_build_and_a_sub_problem_are_not_remembered() {
    let (market, memos) = (market(), GraphMemos::default());
    let any = scope(&market, Intermediates::Any);
    let spent = Deadline::after_ms(0, &MonotonicClock);
    let cut = memos.with_graph(&market, &any, &spent, |_| ());
    assert_eq!(cut, None, "past the deadline no graph is built");
    assert!(lent(&memos, &market, &any).is_some(), "the cut build was not remembered as none");
    let sub = scope(&market, Intermediates::Except(vec![market.token(&addr(3)).unwrap()]));
    let (a, b) = (lent(&memos, &market, &sub), lent(&memos, &market, &sub));
    assert!(a.is_some() && b.is_some());
    let arcs = memos.with_graph(&market, &sub, &Deadline::never(), |g| g.arcs.len());
    assert_eq!(arcs, Some(1), "without 3 only the direct pool");
}
