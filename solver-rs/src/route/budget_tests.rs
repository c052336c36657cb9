//! The time budget bounds the whole solve. A fake clock that moves 1 ms forward each time it is
//! read makes the deadline pass at a chosen reading: sweeping the budget over every reading of a
//! full solve stops the quote at every deadline check of every phase, deterministically and with
//! no timing assumption. Whatever stops it, the plan is exact, never below the best single path,
//! and says where it stopped; or, when nothing was found in time, the error says so.

use super::clock::{Phase, SteppingClock};
use super::gas::GasPricers;
use super::plan::{Plan, StoppedBy};
use super::quote::{quote_on_clock, RouteSettings};
use super::request::QuoteRequest;
use super::test_market::{addr, cp_pool, market_of, replay, settings};
use crate::error::SolverError;
use crate::market::Market;
use crate::math::U256;
use serde_json::{json, Value};

const E18: u128 = 1_000_000_000_000_000_000;

/// Every phase, by its position in the solve; the match fails to compile when a phase is added,
/// so the sweep below must then reach it too.
fn position(phase: Phase) -> usize {
    match phase {
        Phase::Search => 0,
        Phase::ProbeSearch => 1,
        Phase::GasPricing => 2,
        Phase::Evaluation => 3,
        Phase::Optimizer => 4,
    }
}
const PHASES: usize = 5;

/// A=1 (in), B=2 (out), C=3, D=4 (native), E=5. Direct, 2-hop and 3-hop paths that share pools;
/// a thin but cheap A → E pool, so the full and probe searches keep different paths through E;
/// and gas priced best through D → C → B (better than the direct D → B pool, so a gas search cut
/// after the direct pools gives a different rate).
fn market(with_direct_pools: bool) -> Market {
    let (a, b, c, d, e) = (addr(1), addr(2), addr(3), addr(4), addr(5));
    let mut pools = vec![
        cp_pool(3, "UNIV2", a, c, 800 * E18, 400 * E18),
        cp_pool(4, "UNIV2", c, b, 400 * E18, 810 * E18),
        cp_pool(5, "PANCAKE_V2", c, b, 100 * E18, 205 * E18),
        cp_pool(6, "UNIV2", a, d, 500 * E18, 5_000 * E18),
        cp_pool(7, "UNIV2", d, b, 5_000 * E18, 1_000 * E18),
        cp_pool(8, "UNIV2", d, c, 10_000 * E18, 1_200 * E18),
        cp_pool(9, "UNIV2", a, e, 50 * E18, 500 * E18),
        cp_pool(10, "UNIV2", e, b, 600 * E18, 1_150 * E18),
        cp_pool(11, "PANCAKE_V2", e, c, 500 * E18, 300 * E18),
    ];
    if with_direct_pools {
        pools.push(cp_pool(1, "UNIV2", a, b, 1_000 * E18, 2_000 * E18));
        pools.push(cp_pool(2, "PANCAKE_V2", a, b, 300 * E18, 610 * E18));
    }
    market_of(pools)
}

fn request(budget_ms: u32, extra: &Value) -> QuoteRequest {
    let mut body = json!({
        "tokenIn": addr(1).to_string(), "tokenOut": addr(2).to_string(), "amountIn": (200 * E18).to_string(),
        "slippageBps": 50, "timeBudgetMs": budget_ms,
    });
    body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    serde_json::from_value(body).unwrap()
}

/// Quotes with the deadline `budget_ms` readings after the start; also returns the readings taken.
fn ask(market: &Market, budget_ms: u32, extra: &Value, pricers: &GasPricers) -> (Result<Plan, SolverError>, u32) {
    let clock = SteppingClock::default();
    // One partial path per token and depth: the full and probe searches then keep different ones,
    // so paths must be quoted at the other amount (the evaluation phase has work to cut).
    let settings = RouteSettings { beam: 1, ..settings(addr(4)) };
    let result = quote_on_clock(market, &settings, &request(budget_ms, extra), pricers, &clock);
    (result, clock.0.get() as u32)
}

/// Checks a plan whatever stopped it; returns the phase it stopped in.
fn check_plan(market: &Market, plan: &Plan, gas_free: bool) -> Option<Phase> {
    assert_eq!(replay(market, plan), plan.expected_amount_out, "the plan is not what the pools pay");
    let routed = plan.routes.iter().fold(U256::ZERO, |sum, r| sum + r.amount_in);
    assert_eq!(routed, plan.amount_in, "the routes do not take the whole amount");
    let stopped_in = plan.metadata.stopped_in;
    assert_eq!(plan.metadata.stopped_by == StoppedBy::Budget, stopped_in.is_some());
    if gas_free {
        // The optimizer starts from the best single candidate (quoted whatever the budget).
        let best_single = plan.metadata.candidates.iter().map(|c| c.projected_out).max().unwrap();
        assert!(plan.expected_amount_out >= best_single, "below the best single path: {} < {best_single}", plan.expected_amount_out);
    }
    stopped_in
}

/// The budget swept over every reading of the unbudgeted solve (and one past it): every outcome
/// is checked, and the phases the sweep stopped in are returned.
fn sweep(market: &Market, extra: &Value, mut each: impl FnMut(u32, &Result<Plan, SolverError>)) -> [bool; PHASES] {
    let (full, readings) = ask(market, 10_000, extra, &GasPricers::default());
    let full = full.expect("the unbudgeted quote");
    assert_eq!(full.metadata.stopped_by, StoppedBy::Converged);
    let mut seen = [false; PHASES];
    for budget in 1..=readings + 1 {
        let (result, _) = ask(market, budget, extra, &GasPricers::default());
        each(budget, &result);
        if let Ok(plan) = &result {
            if let Some(phase) = check_plan(market, plan, extra.get("gasPriceWei").is_none()) {
                seen[position(phase)] = true;
            }
        }
        if budget > readings {
            let plan = result.expect("a budget past every reading");
            assert_eq!(serde_json::to_value(&plan).unwrap(), serde_json::to_value(&full).unwrap(), "not the unbudgeted plan");
        }
    }
    seen
}

#[test]
fn every_deadline_of_a_split_quote_gives_an_exact_plan_and_names_its_phase() {
    let market = market(true);
    let mut seen = [false; PHASES];
    for extra in [json!({}), json!({ "gasPriceWei": "1000000000" }), json!({ "maxHops": 2 })] {
        let phases = sweep(&market, &extra, |budget, result| {
            // Direct pools are always swapped, so a plan always exists.
            assert!(result.is_ok(), "budget {budget} with {extra}: {result:?}");
        });
        (0..PHASES).for_each(|p| seen[p] |= phases[p]);
    }
    assert_eq!(seen, [true; PHASES], "a phase no deadline stopped (in order: search, probe, gas, evaluation, optimizer)");
}

#[test]
fn every_deadline_of_a_single_path_quote_gives_the_best_path_it_found() {
    let market = market(true);
    let seen = sweep(&market, &json!({ "splitEnabled": false }), |budget, result| {
        let plan = result.as_ref().unwrap_or_else(|e| panic!("budget {budget}: {e}"));
        assert_eq!(plan.routes.len(), 1);
    });
    // Without splitting there is no probe search, so nothing to quote at another amount, and no
    // optimizer: only the search has deadlines to stop at.
    assert!(seen[position(Phase::Search)]);
}

#[test]
fn a_search_stopped_before_reaching_token_out_answers_no_route_and_says_why() {
    // No direct pool: a small budget ends the search before any path reaches tokenOut.
    let market = market(false);
    let (mut refused, mut planned) = (0, 0);
    sweep(&market, &json!({}), |budget, result| match result {
        Ok(_) => planned += 1,
        Err(SolverError::NoRoute { reason: message }) => {
            assert!(message.contains(&format!("time budget of {budget} ms")), "{message}");
            refused += 1;
        }
        Err(other) => panic!("budget {budget}: {other:?}"),
    });
    assert!(refused > 0 && planned > 0, "{refused} refused, {planned} planned");
    // With the budget to spare, an unreachable token is still refused for its own reason.
    let (unreachable, _) = ask(&market, 10_000, &json!({ "maxHops": 1 }), &GasPricers::default());
    assert!(matches!(&unreachable, Err(SolverError::NoRoute { reason: m }) if m.contains("within 1 hops")), "{unreachable:?}");
}

#[test]
fn a_gas_pricer_from_a_search_the_deadline_cut_is_not_cached() {
    let market = market(true);
    let gas = json!({ "gasPriceWei": "1000000000" });
    let (full, readings) = ask(&market, 10_000, &gas, &GasPricers::default());
    let full = serde_json::to_value(full.unwrap()).unwrap();
    let mut partial_rates = 0;
    for budget in 1..=readings {
        let pricers = GasPricers::default();
        let (cut, _) = ask(&market, budget, &gas, &pricers);
        let cut = serde_json::to_value(cut.unwrap()).unwrap();
        let priced_cut = matches!(cut["metadata"]["stoppedIn"].as_str(), Some("search" | "probeSearch" | "gasPricing"));
        // A cut gas search sees only the direct D → B pool: a worse rate, so a cheaper cost per gas.
        let cost_per_gas = |plan: &Value| plan["gasCostInTokenOut"].as_str().unwrap().parse::<f64>().unwrap() / plan["gasUnits"].as_f64().unwrap();
        if priced_cut && cost_per_gas(&cut) < cost_per_gas(&full) * 0.9 {
            partial_rates += 1;
        }
        // The next quote on the same cache must price gas as a fresh solver does.
        let (again, _) = ask(&market, 10_000, &gas, &pricers);
        assert_eq!(serde_json::to_value(again.unwrap()).unwrap(), full, "budget {budget} left a partial pricer in the cache");
    }
    assert!(partial_rates > 0, "no budget cut the gas search after its direct pool");
}
