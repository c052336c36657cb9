use super::BoundMemos;
use crate::math::U256;
use crate::route::convex::graph::{Intermediates, Scope};
use crate::route::convex::Flows;
use crate::route::search::DexMask;
use std::cell::Cell;

fn scope(intermediates: Intermediates) -> Scope {
    Scope { token_in: 0, token_out: 1, max_hops: 2, intermediates, dexes: DexMask::ALL }
}

fn flows(bound: u64) -> Option<Flows> {
    Some(Flows { bound: Some(U256::from(bound)), routed: Vec::new() })
}

fn bound_of(flows: Option<Flows>) -> Option<U256> {
    flows.and_then(|f| f.bound)
}

#[test]
fn a_trade_is_routed_once_and_another_amount_again() {
    let (memos, routed) = (BoundMemos::default(), Cell::new(0));
    let route = |bound| {
        routed.set(routed.get() + 1);
        flows(bound)
    };
    let any = scope(Intermediates::Any);
    let at = |amount: u64, bound| {
        bound_of(memos.get_or_route(
            &any,
            U256::from(amount),
            (8, U256::ZERO),
            || route(bound),
            || true,
        ))
    };
    assert_eq!(at(100, 7), Some(U256::from(7)));
    assert_eq!(at(100, 9), Some(U256::from(7)), "the same trade: the remembered bound");
    assert_eq!(routed.get(), 1);
    assert_eq!(at(101, 9), Some(U256::from(9)), "another amount is routed again");
    assert_eq!(routed.get(), 2);
    // Fewer paths asked for is another answer (the decomposition's limit).
    let fewer = memos.get_or_route(&any, U256::from(100), (4, U256::ZERO), || route(5), || true);
    assert_eq!(bound_of(fewer), Some(U256::from(5)));
    // A best candidate paying another amount is another answer (where the solve stops).
    let paid = U256::from(6);
    let nearer = memos.get_or_route(&any, U256::from(100), (8, paid), || route(6), || true);
    assert_eq!(bound_of(nearer), Some(U256::from(6)));
    assert_eq!(routed.get(), 4);
}

#[test]
fn a_cut_solve_and_a_sub_problem_are_not_remembered() {
    let memos = BoundMemos::default();
    let any = scope(Intermediates::Any);
    let amount = U256::from(100);
    let cut = memos.get_or_route(&any, amount, (8, U256::ZERO), || flows(3), || false);
    assert_eq!(bound_of(cut), Some(U256::from(3)));
    let again = memos.get_or_route(&any, amount, (8, U256::ZERO), || flows(7), || true);
    assert_eq!(bound_of(again), Some(U256::from(7)), "the cut bound was not kept");
    let sub = scope(Intermediates::Except(vec![2]));
    memos.get_or_route(&sub, amount, (8, U256::ZERO), || flows(4), || true);
    let sub_again = memos.get_or_route(&sub, amount, (8, U256::ZERO), || flows(6), || true);
    assert_eq!(bound_of(sub_again), Some(U256::from(6)));
}

#[test]
fn the_connectors_are_selected_once_per_settings() {
    let (memos, selected) = (BoundMemos::default(), Cell::new(0));
    let select = |tokens: Vec<u32>| {
        selected.set(selected.get() + 1);
        tokens
    };
    let mut settings = crate::route::test_market::settings(crate::route::test_market::addr(1));
    assert_eq!(memos.connectors(&settings, Some(0), || select(vec![3, 4])), vec![3, 4]);
    assert_eq!(memos.connectors(&settings, Some(0), || select(vec![5])), vec![3, 4]);
    assert_eq!(selected.get(), 1, "the same settings: the remembered selection");
    assert_eq!(memos.connectors(&settings, None, || select(vec![5])), vec![5], "another native");
    settings.default_connector_count = 2;
    assert_eq!(memos.connectors(&settings, None, || select(vec![6])), vec![6], "another count");
    assert_eq!(selected.get(), 3);
}
