//! What the market takes: venues of 2 to 4 distinct tokens, as many as their state prices.

use super::Market;
use crate::address::Address;
use crate::pools::input::PoolInput;
use serde_json::json;

const A: &str = "0x1000000000000000000000000000000000000001";
const B: &str = "0x1000000000000000000000000000000000000002";
const C: &str = "0x1000000000000000000000000000000000000003";

fn pool(tokens: &[&str]) -> PoolInput {
    serde_json::from_value(json!({
        "id": "0xa000000000000000000000000000000000000001", "dex": "UNIV2", "tokens": tokens,
        "state": { "model": "constant_product", "reserves": ["1000000", "1000000"] }
    }))
    .unwrap()
}

fn refusal(tokens: &[&str]) -> String {
    Market::default().upsert(vec![pool(tokens)]).unwrap_err().to_string()
}

#[test]
fn a_venue_holds_two_to_four_distinct_tokens() {
    assert_eq!(Market::default().upsert(vec![pool(&[A, B])]).unwrap(), 1);
    assert!(refusal(&[A]).contains("expected 2 to 4 tokens, got 1"));
    assert!(refusal(&[A, B, C, A, B]).contains("expected 2 to 4 tokens, got 5"));
    assert!(refusal(&[A, A]).contains(&format!("holds {A} twice")));
    assert!(refusal(&[A, B, A]).contains(&format!("holds {A} twice")));
}

#[test]
fn a_venue_lists_as_many_tokens_as_its_state_prices() {
    // A constant-product state prices two tokens: three listed is refused, not half priced.
    assert!(refusal(&[A, B, C]).contains("3 tokens listed, its state prices 2"));
}

#[test]
fn a_venue_of_n_tokens_has_an_edge_per_ordered_pair() {
    let mut market = Market::default();
    market.upsert(vec![pool(&[A, B])]).unwrap();
    let (a, b) = (
        market.token(&Address::parse(A).unwrap()).unwrap(),
        market.token(&Address::parse(B).unwrap()).unwrap(),
    );
    assert_eq!(market.edge(a, b).len(), 1);
    assert_eq!((market.edge(a, b)[0].token_in, market.edge(a, b)[0].token_out), (0, 1));
    assert_eq!((market.edge(b, a)[0].token_in, market.edge(b, a)[0].token_out), (1, 0));
}

#[test]
fn an_update_shares_the_pools_it_does_not_touch_with_the_market_before() {
    // The same entry, not a copy: a copied state starts with empty memos (a DODO pool's or an
    // E-CLP's bound curves, `pools/curve_memo.rs`), built again at the next quote of every block.
    let other = |id: &str| {
        let mut input = pool(&[A, C]);
        input.id = id.into();
        input
    };
    let mut before = Market::default();
    before
        .upsert(vec![pool(&[A, B]), other("0xa000000000000000000000000000000000000002")])
        .unwrap();
    let (kept, moved) = (
        before.pool_by_id("0xa000000000000000000000000000000000000001").unwrap(),
        before.pool_by_id("0xa000000000000000000000000000000000000002").unwrap(),
    );
    let mut after = before.clone();
    after.upsert(vec![other("0xa000000000000000000000000000000000000002")]).unwrap();
    assert!(std::ptr::eq(before.pool(kept), after.pool(kept)));
    assert!(!std::ptr::eq(before.pool(moved), after.pool(moved)));
    // A new per-leg overhead changes every entry (each one's gas): copies.
    let mut costlier = after.clone();
    costlier.set_leg_overhead_gas(1_000);
    assert!(!std::ptr::eq(after.pool(kept), costlier.pool(kept)));
    assert_eq!(costlier.pool(kept).spec.gas_base, after.pool(kept).spec.gas_base + 1_000);
}

const BASE: &str = "0xb000000000000000000000000000000000000001";
const META: &str = "0xb000000000000000000000000000000000000002";
const META2: &str = "0xb000000000000000000000000000000000000003";

/// A legacy StableSwap state of `n` coins at 1,000 each (18 decimals).
fn stableswap_state(n: usize) -> serde_json::Value {
    json!({
        "model": "stableswap", "template": "legacy", "balances": vec!["1000000000000000000000"; n],
        "rates": vec!["1000000000000000000"; n], "fee": "4000000", "offpegFeeMultiplier": "0",
        "initialA": "20000", "futureA": "20000", "initialATime": "0", "futureATime": "0",
        "timestamp": "1"
    })
}

/// The base pool BASE of coins B and C.
fn base() -> PoolInput {
    serde_json::from_value(
        json!({ "id": BASE, "dex": "CURVE", "tokens": [B, C], "state": stableswap_state(2) }),
    )
    .unwrap()
}

/// A meta pool `id` of coin A over BASE: one venue of A, B and C.
fn meta(id: &str) -> PoolInput {
    let mut state = stableswap_state(2);
    state["base"] = stableswap_state(2);
    state["base"].as_object_mut().unwrap().remove("model");
    state["baseSupply"] = "2000000000000000000000".into();
    state["basePool"] = BASE.into();
    serde_json::from_value(json!({ "id": id, "dex": "CURVE", "tokens": [A, B, C], "state": state }))
        .unwrap()
}

fn live(market: &Market) -> Vec<&'static str> {
    [BASE, META, META2].into_iter().filter(|id| market.pool_by_id(id).is_some()).collect()
}

fn refused(rejected: &[super::Rejected]) -> Vec<&str> {
    rejected.iter().map(|r| r.id.as_str()).collect()
}

#[test]
fn a_meta_pool_and_its_base_pool_are_one_venue_whatever_order_they_arrive_in() {
    // One batch: the base pool's own input is refused, whichever comes first.
    for batch in [vec![base(), meta(META)], vec![meta(META), base()]] {
        let mut market = Market::default();
        let rejected = market.apply(batch, &[]).unwrap();
        assert_eq!(refused(&rejected), [BASE]);
        assert!(
            rejected[0].reason.contains(&format!("held inside venue {META}")),
            "{}",
            rejected[0].reason
        );
        assert_eq!(live(&market), [META]);
        // While the meta pool is live, the base pool's next state is refused too.
        assert_eq!(refused(&market.apply(vec![base()], &[]).unwrap()), [BASE]);
        assert_eq!(live(&market), [META]);
    }
    // The base pool live first: the meta pool's arrival takes it off the market (reported refused).
    let mut market = Market::default();
    assert!(market.apply(vec![base()], &[]).unwrap().is_empty());
    assert_eq!(refused(&market.apply(vec![meta(META)], &[]).unwrap()), [BASE]);
    assert_eq!(live(&market), [META]);
    // Once the meta pool goes, the base pool is a venue of its own again.
    assert!(market.apply(vec![base()], &[META.to_string()]).unwrap().is_empty());
    assert_eq!(live(&market), [BASE]);
    // `upsert` (all or nothing) refuses a batch holding both.
    let error = Market::default().upsert(vec![meta(META), base()]).unwrap_err().to_string();
    assert!(error.contains("held inside venue"), "{error}");
}

#[test]
fn a_second_meta_pool_over_a_held_base_pool_is_refused_until_the_first_goes() {
    let mut market = Market::default();
    let rejected = market.apply(vec![meta(META), meta(META2)], &[]).unwrap();
    assert_eq!(refused(&rejected), [META2]);
    assert!(
        rejected[0].reason.contains(&format!("held by venue {META} already")),
        "{}",
        rejected[0].reason
    );
    assert_eq!(refused(&market.apply(vec![meta(META2)], &[]).unwrap()), [META2]);
    // A new state of the holder itself is no conflict.
    assert!(market.apply(vec![meta(META)], &[]).unwrap().is_empty());
    assert!(market.apply(vec![meta(META2)], &[META.to_string()]).unwrap().is_empty());
    assert_eq!(live(&market), [META2]);
}
