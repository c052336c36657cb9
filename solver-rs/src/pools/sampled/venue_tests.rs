//! A sampled venue of three or four tokens (tricrypto-ng): a curve per ordered pair, one state.

use super::*;
use crate::pools::input::{FromWire, PoolInputError};
use crate::route::gas::GasPricers;
use crate::route::quote::quote;
use crate::route::request::QuoteRequest;
use crate::route::test_market::{addr, cp_pool, market_of, settings};
use serde_json::json;

fn u(x: u128) -> U256 {
    U256::from(x)
}

/// Concave samples at `rate` (out per in, in thousandths) falling by a tenth per step of `step`.
fn samples(rate_milli: u128, step: u128) -> Vec<(U256, U256)> {
    let (mut x, mut y, mut r) = (0u128, 0u128, rate_milli);
    (0..8)
        .map(|_| {
            x += step;
            y += step * r / 1000;
            r = r * 9 / 10;
            (u(x), u(y))
        })
        .collect()
}

fn text(samples: &[(U256, U256)]) -> Vec<[String; 2]> {
    samples.iter().map(|(x, y)| [x.to_string(), y.to_string()]).collect()
}

/// The wire state of a venue of `count` tokens with every ordered pair sampled by `of(i, o)`.
fn venue_wire(
    margin_bps: u32,
    count: usize,
    of: impl Fn(usize, usize) -> Vec<(U256, U256)>,
) -> serde_json::Value {
    let pairs: Vec<serde_json::Value> = (0..count)
        .flat_map(|i| (0..count).filter(move |&o| o != i).map(move |o| (i, o)))
        .map(|(i, o)| json!({ "tokenIn": i, "tokenOut": o, "samples": text(&of(i, o)) }))
        .collect();
    json!({ "model": "sampled", "marginBps": margin_bps, "pairs": pairs })
}

/// The pool from a `sampled` wire state (its `model` tag is the family list's, not the state's).
fn decode(mut wire: serde_json::Value) -> Result<SampledPool, PoolInputError> {
    wire.as_object_mut().unwrap().remove("model");
    let spec = crate::pools::registry::spec(crate::dex::DexId::Curve);
    SampledPool::from_wire(serde_json::from_value(wire).unwrap(), &spec)
}

#[test]
fn each_pair_prices_as_a_two_token_direction_with_the_same_samples() {
    let of = |i: usize, o: usize| samples(900 + 37 * (i * 3 + o) as u128, 1_000_000);
    let venue = decode(venue_wire(7, 3, of)).unwrap();
    assert_eq!(venue.token_count(), 3);
    for (i, o) in [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)] {
        let two = SampledPool::new(7, &of(i, o), &[]);
        for amount in [1u128, 999_999, 1_000_000, 3_333_333, 8_000_000] {
            assert_eq!(
                venue.amount_out(i, o, u(amount)),
                two.amount_out(0, 1, u(amount)),
                "{i} → {o} at {amount}"
            );
        }
        assert_eq!(venue.spot_price(i, o), two.spot_price(0, 1));
        assert!(venue.side_curve(i, o, OneWay::default()).is_some());
    }
    assert_eq!(
        venue.amount_out(0, 3, u(1)),
        Err(PoolError::BadDirection { token_in: 0, token_out: 3 })
    );
    assert_eq!(
        venue.amount_out(2, 2, u(1)),
        Err(PoolError::BadDirection { token_in: 2, token_out: 2 })
    );
    // Past the last sample: refused, as a two-token direction is.
    assert_eq!(venue.amount_out(0, 1, u(8_000_001)), Err(PoolError::InsufficientLiquidity));
}

#[test]
fn the_first_swap_fixes_the_pair_and_every_other_pair_is_refused() {
    let venue = decode(venue_wire(0, 3, |_, _| samples(1000, 1_000_000))).unwrap();
    // Nothing sold fixes nothing.
    let (outcome, same) = venue.apply(0, 2, U256::ZERO).unwrap();
    assert_eq!((outcome.amount_out, &same), (U256::ZERO, &venue));
    let (first, moved) = venue.apply(0, 2, u(1_500_000)).unwrap();
    // The same pair goes on along its curve: two swaps pay what one swap of their sum pays, at most.
    let (second, moved) = moved.apply(0, 2, u(2_500_000)).unwrap();
    let whole = venue.amount_out(0, 2, u(4_000_000)).unwrap().amount_out;
    assert!(first.amount_out + second.amount_out <= whole);
    assert!(whole - first.amount_out - second.amount_out <= u(1));
    assert_eq!(moved.consumed_in(0, 2), u(4_000_000));
    for (i, o) in [(0, 1), (1, 0), (1, 2), (2, 0), (2, 1)] {
        let refused = moved.amount_out(i, o, u(1)).unwrap_err();
        let why = refused.to_string();
        assert!(matches!(refused, PoolError::Refused(_)), "{i} → {o}: {why}");
        assert!(why.contains("traded 0 → 2") && why.contains(&format!("{i} → {o}")), "{why}");
        assert!(moved.apply(i, o, u(1)).is_err());
        assert_eq!(moved.spot_price(i, o), 0.0);
        assert_eq!(moved.amount_out_bound(i, o, 1e6), 0.0);
        assert!(moved.side_curve(i, o, OneWay::default()).is_none());
        // The untouched venue still prices it.
        assert!(venue.amount_out(i, o, u(1_000)).is_ok());
    }
}

#[test]
fn a_pair_not_listed_does_not_trade_and_two_named_tokens_make_a_two_token_pool() {
    let pairs = json!([{ "tokenIn": 0, "tokenOut": 2, "samples": text(&samples(1000, 10)) }]);
    let venue = decode(json!({ "model": "sampled", "marginBps": 0, "pairs": pairs })).unwrap();
    assert_eq!(venue.token_count(), 3);
    assert_eq!(venue.amount_out(2, 0, u(1)), Err(PoolError::InsufficientLiquidity));
    assert_eq!(venue.amount_out(0, 2, u(10)).unwrap().amount_out, u(10));
    let of = |_: usize, _: usize| samples(950, 1_000);
    let two = decode(venue_wire(3, 2, of)).unwrap();
    assert_eq!(two, SampledPool::new(3, &of(0, 1), &of(1, 0)));
    // A two-token pool keeps its directions apart, as before.
    let (_, moved) = two.apply(0, 1, u(500)).unwrap();
    assert_eq!(moved.amount_out(1, 0, u(500)), two.amount_out(1, 0, u(500)));
}

#[test]
fn malformed_pairs_are_refused_naming_the_field() {
    let pair =
        |i: usize, o: usize| json!({ "tokenIn": i, "tokenOut": o, "samples": [["10", "9"]] });
    for (state, field) in [
        (json!({ "marginBps": 0, "pairs": [pair(0, 4)] }), "pairs[0] (0 → 4)"),
        (json!({ "marginBps": 0, "pairs": [pair(1, 1)] }), "pairs[0] (1 → 1)"),
        (
            json!({ "marginBps": 0, "pairs": [pair(0, 2), pair(0, 2)] }),
            "pairs[1] (0 → 2) is listed twice",
        ),
        (json!({ "marginBps": 0, "pairs": [] }), "no two tokens"),
        (
            json!({ "marginBps": 0, "pairs": [{ "tokenIn": 0, "tokenOut": 2, "samples": [["5", "1"], ["5", "2"]] }] }),
            "pairs[0].samples[1][0]",
        ),
        (
            json!({ "marginBps": 0, "pairs": [pair(0, 1)], "zeroForOne": [], "oneForZero": [] }),
            "not both",
        ),
        (json!({ "marginBps": 0, "zeroForOne": [] }), "not both"),
        (json!({ "marginBps": 0 }), "not both"),
    ] {
        let mut state = state;
        state["model"] = json!("sampled");
        let err = decode(state.clone()).unwrap_err().to_string();
        assert!(err.contains(field), "{state}: {err}");
    }
    let unknown = json!({ "tokenIn": 0, "tokenOut": 1, "samples": [], "x": 1 });
    assert!(serde_json::from_value::<SampledWire>(json!({ "marginBps": 0, "pairs": [unknown] }))
        .is_err());
}

/// A solve over a three-token venue whose direct pair saturates, beside a constant-product pool
/// from its middle token to the output: the plan trades the venue through one ordered pair only
/// (however many legs), and every leg pays what the model pays replayed in the plan's order. An
/// input beyond one pair's samples (8·10^18) finds no route, though two pairs would hold it. With
/// every pair priced apart (the rule taken out), the 12·10^18 plan traded three pairs of the venue
/// and paid 52 % above the convex bound.
#[test]
fn a_plan_trades_a_venue_through_one_pair_and_replays_exactly() {
    let (a, b, c) = (addr(1), addr(2), addr(3));
    let e18 = 10u128.pow(18);
    let venue: crate::pools::input::PoolInput = serde_json::from_value(json!({
        "id": addr(0x77).to_string(), "dex": "CURVE",
        "tokens": [a.to_string(), b.to_string(), c.to_string()],
        "state": venue_wire(1, 3, |i, o| samples(if (i, o) == (0, 2) { 1000 } else { 990 }, e18)),
    }))
    .unwrap();
    let market = market_of(vec![venue, cp_pool(1, "UNIV2", b, c, 50 * e18, 50 * e18)]);
    let mut venue_legs = 0;
    for amount in [e18, 5 * e18, 7 * e18, 12 * e18] {
        let request: QuoteRequest = serde_json::from_value(json!({
            "tokenIn": a.to_string(), "tokenOut": c.to_string(), "amountIn": amount.to_string(), "slippageBps": 50,
        }))
        .unwrap();
        let plan = quote(&market, &settings(c), &request, &GasPricers::default());
        if amount > 8 * e18 {
            assert!(matches!(plan, Err(crate::error::SolverError::NoRoute { .. })), "{plan:?}");
            continue;
        }
        let plan = plan.unwrap();
        let mut pairs = std::collections::BTreeSet::new();
        let mut states: std::collections::HashMap<String, crate::pools::PoolState> =
            Default::default();
        for route in &plan.routes {
            for leg in &route.legs {
                let entry = market.pool(market.pool_by_id(&leg.pool_id).unwrap());
                let at =
                    |t| entry.tokens.iter().position(|&k| market.token_address(k) == t).unwrap();
                let (i, o) = (at(leg.token_in), at(leg.token_out));
                if leg.pool_id == addr(0x77).to_string() {
                    pairs.insert((i, o));
                    venue_legs += 1;
                }
                let state =
                    states.get(&leg.pool_id).cloned().unwrap_or_else(|| entry.state.clone());
                let (outcome, next) = state.apply(i, o, leg.amount_in).unwrap();
                assert_eq!(outcome.amount_out, leg.amount_out, "{amount}: leg of {}", leg.pool_id);
                states.insert(leg.pool_id.clone(), next);
            }
        }
        assert!(pairs.len() <= 1, "{amount}: the venue traded through {pairs:?}");
        // The convex bound (the venue's best side) still bounds the plan.
        let bound = plan.metadata.upper_bound.expect("a bound on this small market");
        assert!(
            plan.expected_amount_out <= bound,
            "{amount}: {} above the bound {bound}",
            plan.expected_amount_out
        );
    }
    assert!(venue_legs > 0, "no plan used the venue: the test shows nothing");
}

/// A path through two pairs of the venue (A → B → C) that pays the most on the untouched venue: the
/// search finds it, the replay refuses its second pair, so the quote prices it as the replay does
/// (`route/path.rs`, `requote_repeated_venues`) and routes through the pool beside the venue and
/// the venue's direct pair. Before, the optimizer started from that path, found no feasible start
/// and answered no route.
#[test]
fn a_path_through_two_pairs_of_the_venue_is_not_the_plan_s_start() {
    let (a, b, c) = (addr(1), addr(2), addr(3));
    let e18 = 10u128.pow(18);
    let rate = |i: usize, o: usize| match (i, o) {
        (0, 2) => 500,
        _ => 1000,
    };
    let venue: crate::pools::input::PoolInput = serde_json::from_value(json!({
        "id": addr(0x77).to_string(), "dex": "CURVE",
        "tokens": [a.to_string(), b.to_string(), c.to_string()],
        "state": venue_wire(0, 3, |i, o| samples(rate(i, o), e18)),
    }))
    .unwrap();
    let beside =
        crate::route::test_market::sampled_pool(1, "PROPSWAP", [a, c], 0, &samples(900, e18), &[]);
    let market = market_of(vec![venue, beside]);
    let request: QuoteRequest = serde_json::from_value(json!({
        "tokenIn": a.to_string(), "tokenOut": c.to_string(), "amountIn": (e18 / 10).to_string(), "slippageBps": 50,
    }))
    .unwrap();
    let plan = quote(&market, &settings(c), &request, &GasPricers::default()).unwrap();
    for route in &plan.routes {
        assert_eq!(route.legs.len(), 1, "{plan:?}");
    }
    assert!(plan.expected_amount_out > U256::ZERO);
}
