use crate::market::Market;
use crate::route::bound_memos::BoundMemos;
use crate::route::clock::{Clock, MonotonicClock, SteppingClock};
use crate::route::gas::GasPricers;
use crate::route::quote::quote_after_wait;
use crate::route::request::QuoteRequest;
use crate::route::test_market::{addr, cp_pool, market_of, settings};
use serde_json::{json, Value};

const E18: u128 = 1_000_000_000_000_000_000;

/// tokens: A=1 (in), B=2 (out), C=3 (connector): two direct pools and a 2-hop path (reserves in
/// whole tokens), so a 200 A trade splits.
fn market() -> Market {
    let (a, b, c) = (addr(1), addr(2), addr(3));
    let pools = [
        (1, "UNIV2", a, b, 1_000, 2_000),
        (2, "PANCAKE_V2", a, b, 300, 610),
        (3, "UNIV2", a, c, 800, 400),
        (4, "UNIV2", c, b, 400, 810),
    ];
    market_of(
        pools.map(|(id, dex, x, y, rx, ry)| cp_pool(id, dex, x, y, rx * E18, ry * E18)).into(),
    )
}

/// The plan of A → B (200 A unless `extra` says otherwise) as JSON, asked with `timePhases`, on
/// `bounds` (the snapshot's memos) and `clock`.
fn ask(market: &Market, bounds: &BoundMemos, clock: &dyn Clock, extra: Value) -> Value {
    let mut request = json!({
        "tokenIn": addr(1).to_string(), "tokenOut": addr(2).to_string(),
        "amountIn": (200 * E18).to_string(), "slippageBps": 50, "gasPriceWei": "1000000000",
        "timeBudgetMs": 10_000, "timePhases": true,
    });
    request.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    let request: QuoteRequest = serde_json::from_value(request).expect("request");
    let (settings, pricers) = (settings(addr(3)), GasPricers::default());
    let plan = quote_after_wait(market, &settings, &request, &pricers, bounds, clock, 0.0);
    serde_json::to_value(plan.expect("a route")).expect("plan")
}

/// Whether `plan` was solved (it has the phases it was asked for) rather than remembered.
fn solved(plan: &Value) -> bool {
    plan["metadata"].get("phaseMs").is_some()
}

fn without_phases(mut plan: Value) -> Value {
    plan["metadata"].as_object_mut().unwrap().remove("phaseMs");
    plan
}

#[test]
fn a_repeat_on_the_snapshot_is_the_first_plan_without_a_solve() {
    let (market, bounds) = (market(), BoundMemos::default());
    let first = ask(&market, &bounds, &MonotonicClock, json!({}));
    assert!(solved(&first) && first["metadata"].get("stoppedIn").is_none(), "{first}");
    assert!(first["routes"].as_array().unwrap().len() > 1, "a trade this deep splits");
    let repeat = ask(&market, &bounds, &MonotonicClock, json!({}));
    assert!(!solved(&repeat), "the repeat is remembered: no phase ran");
    assert_eq!(repeat, without_phases(first.clone()), "the identical plan");
    // And the plan a snapshot that never saw the first quote gives.
    let alone = ask(&market, &BoundMemos::default(), &MonotonicClock, json!({}));
    assert_eq!(without_phases(alone), repeat);
    // Another budget is the same request: the plan ran to its end, what any budget that lets it gives.
    let sooner = ask(&market, &bounds, &MonotonicClock, json!({ "timeBudgetMs": 5 }));
    assert_eq!(sooner, repeat);
}

#[test]
fn any_other_request_is_solved_and_so_is_a_new_snapshot() {
    let (market, bounds) = (market(), BoundMemos::default());
    let first = ask(&market, &bounds, &MonotonicClock, json!({}));
    let others = [
        json!({ "amountIn": (200 * E18 + 1).to_string() }),
        json!({ "slippageBps": 51 }),
        json!({ "maxHops": 1 }),
        json!({ "splitEnabled": false }),
        json!({ "enforcePoolDisjoint": true }),
        json!({ "allowedDexes": ["UNIV2"] }),
        json!({ "gasPriceWei": "1000000001" }),
        json!({ "tokenIn": addr(3).to_string() }),
    ];
    for other in others {
        let plan = ask(&market, &bounds, &MonotonicClock, other.clone());
        assert!(solved(&plan), "{other} is another request: solved");
        assert!(!solved(&ask(&market, &bounds, &MonotonicClock, other.clone())), "{other} again");
    }
    // The owner is made anew per snapshot (`Solver::update_market`): a new one solves again.
    let fresh = ask(&market, &BoundMemos::default(), &MonotonicClock, json!({}));
    assert!(solved(&fresh));
    assert_eq!(without_phases(fresh), without_phases(first));
}

#[test]
fn a_plan_the_budget_cut_is_never_served_again() {
    let (market, bounds) = (market(), BoundMemos::default());
    // A clock that passes 1 ms at every reading: the budget runs out within the first phases.
    let cut = |bounds: &BoundMemos| {
        ask(&market, bounds, &SteppingClock::default(), json!({ "timeBudgetMs": 2 }))
    };
    let first = cut(&bounds);
    assert!(first["metadata"].get("stoppedIn").is_some(), "{first}");
    let again = cut(&bounds);
    assert!(solved(&again), "a cut plan is not remembered: the repeat solves again");
    let whole = ask(&market, &bounds, &MonotonicClock, json!({}));
    assert!(solved(&whole) && whole["metadata"].get("stoppedIn").is_none(), "{whole}");
    // Once a solve ran to its end, a repeat with a budget that would cut it gets that plan.
    let served = cut(&bounds);
    assert!(!solved(&served) && served["metadata"].get("stoppedIn").is_none(), "{served}");
}

#[test]
fn a_request_with_pool_overrides_is_not_remembered() {
    let (market, memos) = (market(), super::PlanMemos::default());
    let with_overrides: QuoteRequest = serde_json::from_value(json!({
        "tokenIn": addr(1).to_string(), "tokenOut": addr(2).to_string(), "amountIn": "1000",
        "slippageBps": 50, "poolOverrides": [{ "poolId": addr(9).to_string(), "mtFeeRate": "0" }],
    }))
    .expect("request");
    let plain = QuoteRequest { pool_overrides: None, ..with_overrides.clone() };
    let (settings, pricers, bounds) =
        (settings(addr(3)), GasPricers::default(), BoundMemos::default());
    let plan =
        quote_after_wait(&market, &settings, &plain, &pricers, &bounds, &MonotonicClock, 0.0)
            .expect("a route");
    memos.keep(&with_overrides, &plan);
    assert!(memos.get(&with_overrides).is_none());
    memos.keep(&plain, &plan);
    assert!(memos.get(&plain).is_some(), "the same request without overrides is remembered");
}
