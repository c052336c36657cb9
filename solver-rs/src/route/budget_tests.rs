//! The time budget bounds the whole solve. A fake clock on which time is work done (a pool swap,
//! or a curve built or evaluated by the bound, is one unit: `clock::count_work`; a factorisation
//! or solve of the optimizer's model steps and the dual's Newton systems one per 128 products,
//! `clock::count_products`) makes the
//! deadline pass after a chosen amount of work: sweeping the budget over the work of a full solve
//! stops the quote at every deadline check of every phase, deterministically and with no timing
//! assumption, and the work done past the deadline is the overshoot, however few clock readings
//! it took. Whatever stops it, the plan is exact, never below the best single path, says where it
//! stopped, and came at most one route's evaluation, or one model step or Newton system (plus the
//! plan's own replay) past the deadline; or, when nothing was found in time, the error says so.

use super::bound_memos::BoundMemos;
use super::clock::{largest_stretch, phases_entered, work_done, Phase, WorkClock};
use super::convex::graph::{Graph, Intermediates, Scope};
use super::gas::GasPricers;
use super::plan::{Plan, StoppedBy};
use super::quote::{quote_after_wait, RouteSettings, OPTIMIZER_SHARE};
use super::request::QuoteRequest;
use super::search::DexMask;
use super::test_market::{addr, cp_pool, market_of, replay, settings, Rng};
use super::test_pools::{random_pool, FAMILIES};
use crate::address::Address;
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
        Phase::Bound => 4,
        Phase::Optimizer => 5,
        Phase::Resplit => 6,
    }
}
const PHASES: usize = 7;
const PHASE_NAMES: [&str; PHASES] =
    ["search", "probe", "gas", "evaluation", "bound", "optimizer", "resplit"];

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

fn request(extra: &Value) -> QuoteRequest {
    let mut body = json!({
        "tokenIn": addr(1).to_string(), "tokenOut": addr(2).to_string(), "amountIn": (200 * E18).to_string(),
        "slippageBps": 50, "timeBudgetMs": 1,
    });
    body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    serde_json::from_value(body).unwrap()
}

/// A budget no solve here reaches.
const UNBUDGETED: u64 = 1 << 50;

/// Quotes `request` (its timeBudgetMs 1) with the deadline `budget` units of work after the start;
/// also returns the units of work the quote did. [`largest_stretch`] then gives its largest
/// model step or Newton system.
fn ask_on(
    market: &Market,
    settings: &RouteSettings,
    request: &QuoteRequest,
    budget: u64,
    pricers: &GasPricers,
) -> (Result<Plan, SolverError>, u64) {
    let clock = WorkClock { units_per_ms: budget as f64 };
    largest_stretch();
    let before = work_done();
    let result =
        quote_after_wait(market, settings, request, pricers, &BoundMemos::default(), &clock, 0.0);
    (result, work_done() - before)
}

/// Quotes on the small market with the deadline `budget` units of work after the start; also
/// returns the units of work the quote did.
fn ask(
    market: &Market,
    budget: u64,
    extra: &Value,
    pricers: &GasPricers,
) -> (Result<Plan, SolverError>, u64) {
    // One partial path per token and depth: the full and probe searches then keep different ones,
    // so paths must be quoted at the other amount (the evaluation phase has work to cut).
    let settings = RouteSettings { beam: 1, ..settings(addr(4)) };
    ask_on(market, &settings, &request(extra), budget, pricers)
}

/// The phase a quote was in when `budget` units of its work were done, from its log of phases
/// entered ([`phases_entered`]; the first entry is the quote's start).
fn phase_at(log: &[(Phase, u64)], budget: u64) -> Phase {
    let deadline = log[0].1 + budget;
    // The work reached the deadline in the last phase entered before it.
    log.iter().skip(1).take_while(|(_, entered)| *entered < deadline).last().unwrap_or(&log[0]).0
}

/// The work a quote whose deadline passed in `phase` may do past it: what always runs (the plan's
/// exact replay: its legs; the optimizer's start when the deadline passed before it: one route
/// and its probe swaps; the gas pricer's direct pools native → tokenOut), plus one evaluation of
/// one route (its swaps and probe swaps), or, stopped in the bound, one evaluation of the dual
/// and its certificate (a curve response per arc, twice). The re-split solves the same dual on
/// sub-problems (`resplit.rs`, `split_token`: from a token of the plan to tokenOut, whose arcs are
/// among the whole graph's), so stopped there it may finish one evaluation of that dual too.
/// From the bound on, a deadline that passes inside a model step of the optimizer or a Newton
/// system of the dual (each runs unchecked: the deadline is checked between them) is found once
/// it ends: one `stretch`, the quote's largest ([`largest_stretch`]).
fn allowed_overshoot(
    plan: &Plan,
    phase: Phase,
    max_hops: u64,
    gas_direct_pools: u64,
    arcs: u64,
    stretch: u64,
) -> u64 {
    let replay: u64 = plan.routes.iter().map(|r| r.legs.len() as u64).sum();
    let route = 2 * max_hops;
    let start = if position(phase) < position(Phase::Optimizer) { route } else { 0 };
    let bound = if matches!(phase, Phase::Bound | Phase::Resplit) { 2 * arcs } else { 0 };
    let step = if position(phase) >= position(Phase::Bound) { stretch } else { 0 };
    replay + start + route + gas_direct_pools + bound + step
}

/// Checks a plan whatever stopped it; returns the phase it stopped in.
fn check_plan(market: &Market, plan: &Plan, gas_free: bool) -> Option<Phase> {
    assert_eq!(
        replay(market, plan),
        plan.expected_amount_out,
        "the plan is not what the pools pay"
    );
    let routed = plan.routes.iter().fold(U256::ZERO, |sum, r| sum + r.amount_in);
    assert_eq!(routed, plan.amount_in, "the routes do not take the whole amount");
    let stopped_in = plan.metadata.stopped_in;
    assert_eq!(plan.metadata.stopped_by == StoppedBy::Budget, stopped_in.is_some());
    if gas_free {
        // The optimizer starts from the best single candidate (quoted whatever the budget).
        let best_single = plan.metadata.candidates.iter().map(|c| c.projected_out).max().unwrap();
        assert!(
            plan.expected_amount_out >= best_single,
            "below the best single path: {} < {best_single}",
            plan.expected_amount_out
        );
    }
    stopped_in
}

/// The budget swept over every unit of work of the unbudgeted solve (and past it): every outcome
/// is checked, its overshoot too, and the phases the sweep stopped in are returned.
fn sweep(
    market: &Market,
    extra: &Value,
    mut each: impl FnMut(u64, &Result<Plan, SolverError>),
) -> [bool; PHASES] {
    let (full, work) = ask(market, UNBUDGETED, extra, &GasPricers::default());
    let full = full.expect("the unbudgeted quote");
    assert_eq!(full.metadata.stopped_by, StoppedBy::Converged);
    let max_hops = extra.get("maxHops").and_then(Value::as_u64).unwrap_or(3);
    let mut seen = [false; PHASES];
    for budget in 1..=work + 2 {
        phases_entered();
        let (result, done) = ask(market, budget, extra, &GasPricers::default());
        let (log, stretch) = (phases_entered(), largest_stretch());
        each(budget, &result);
        if let Ok(plan) = &result {
            if let Some(phase) = check_plan(market, plan, extra.get("gasPriceWei").is_none()) {
                seen[position(phase)] = true;
                // Native D → B: one direct pool; the graph: at most the market's 11 pools both ways.
                let at_deadline = phase_at(&log, budget);
                assert!(
                    position(phase) >= position(at_deadline),
                    "budget {budget}: stopped in {phase:?}, before the deadline's {at_deadline:?}"
                );
                let allowed = allowed_overshoot(plan, at_deadline, max_hops, 1, 22, stretch);
                assert!(done <= budget + allowed, "budget {budget} with {extra}: {done} units, {} past the deadline in {phase:?}, {allowed} allowed; {log:?} {}", done - budget, serde_json::to_string(plan).unwrap());
            }
        }
    }
    // Past the unbudgeted work divided by the optimizer's share, no check finds the deadline or the
    // share passed (docs/solver-optimizer.md, *The optimizer's share of the budget*).
    let past = (work as f64 / OPTIMIZER_SHARE).ceil() as u64 + 2;
    let (plan, _) = ask(market, past, extra, &GasPricers::default());
    assert_eq!(
        serde_json::to_value(plan.expect("a budget past every reading")).unwrap(),
        serde_json::to_value(&full).unwrap(),
        "not the unbudgeted plan"
    );
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
    let missed: Vec<&str> = (0..PHASES).filter(|&p| !seen[p]).map(|p| PHASE_NAMES[p]).collect();
    assert!(missed.is_empty(), "phases no deadline stopped: {missed:?}");
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
            assert!(message.contains("time budget of 1 ms"), "budget {budget}: {message}");
            refused += 1;
        }
        Err(other) => panic!("budget {budget}: {other:?}"),
    });
    assert!(refused > 0 && planned > 0, "{refused} refused, {planned} planned");
    // With the budget to spare, an unreachable token is still refused for its own reason.
    let (unreachable, _) =
        ask(&market, UNBUDGETED, &json!({ "maxHops": 1 }), &GasPricers::default());
    assert!(
        matches!(&unreachable, Err(SolverError::NoRoute { reason: m }) if m.contains("within 1 hops")),
        "{unreachable:?}"
    );
}

#[test]
fn a_gas_pricer_from_a_search_the_deadline_cut_is_not_cached() {
    let market = market(true);
    let gas = json!({ "gasPriceWei": "1000000000" });
    let (full, work) = ask(&market, UNBUDGETED, &gas, &GasPricers::default());
    let full = serde_json::to_value(full.unwrap()).unwrap();
    let mut partial_rates = 0;
    for budget in 1..=work {
        let pricers = GasPricers::default();
        let (cut, _) = ask(&market, budget, &gas, &pricers);
        let cut = serde_json::to_value(cut.unwrap()).unwrap();
        let priced_cut = matches!(
            cut["metadata"]["stoppedIn"].as_str(),
            Some("search" | "probeSearch" | "gasPricing")
        );
        // A cut gas search sees only the direct D → B pool: a worse rate, so a cheaper cost per gas.
        let cost_per_gas = |plan: &Value| {
            plan["gasCostInTokenOut"].as_str().unwrap().parse::<f64>().unwrap()
                / plan["gasUnits"].as_f64().unwrap()
        };
        if priced_cut && cost_per_gas(&cut) < cost_per_gas(&full) * 0.9 {
            partial_rates += 1;
        }
        // The next quote on the same cache must price gas as a fresh solver does.
        let (again, _) = ask(&market, UNBUDGETED, &gas, &pricers);
        assert_eq!(
            serde_json::to_value(again.unwrap()).unwrap(),
            full,
            "budget {budget} left a partial pricer in the cache"
        );
    }
    assert!(partial_rates > 0, "no budget cut the gas search after its direct pool");
}

/// The largest synthetic market of these tests: 2,000 pools of five model families over 40
/// tokens, a quarter of them on four hub tokens (the first is native).
fn large_market() -> Market {
    let mut rng = Rng(0x00b0_d9e7);
    let tokens: Vec<Address> = (1..=40).map(addr).collect();
    let pools = (0..2_000u32)
        .map(|n| {
            let a = if n % 4 == 0 { rng.range(0, 4) } else { rng.range(0, 40) } as usize;
            let b = (a + 1 + rng.range(0, 39) as usize) % 40;
            // The families the trades below were picked on (drawn as before WOOFi vaults were
            // added, so the market and its phases stay the same).
            let family = FAMILIES[rng.range(0, 5) as usize];
            let mut pool = random_pool(&mut rng, family, 0, [tokens[a], tokens[b]]);
            let mut id = [0xee; 20];
            id[..4].copy_from_slice(&n.to_be_bytes());
            pool.id = Address(id).to_string();
            pool
        })
        .collect();
    market_of(pools)
}

/// Trades on the large market (tokenIn, tokenOut, amountIn), 3 hops, gas priced: the first
/// whose unbudgeted solve spends enough work in a phase is the one a test stops there.
const LARGE_TRADES: [(u8, u8, u128); 6] = [
    (9, 17, 100_000 * E18),
    (12, 30, 10_000 * E18),
    (5, 2, 1_000_000 * E18),
    (21, 33, 100_000 * E18),
    (2, 3, 300_000 * E18),
    (7, 28, 30_000 * E18),
];

/// A trade on the large market, timeBudgetMs 1 (the work clock sets what a millisecond is).
fn large_request(
    from: u8,
    to: u8,
    amount: u128,
    max_hops: u8,
    gas_price_wei: &str,
) -> QuoteRequest {
    serde_json::from_value(json!({
        "tokenIn": addr(from).to_string(), "tokenOut": addr(to).to_string(), "amountIn": amount.to_string(),
        "slippageBps": 50, "timeBudgetMs": 1, "maxHops": max_hops, "gasPriceWei": gas_price_wei,
    }))
    .unwrap()
}

/// The unbudgeted quote of `request`, its units of work and its log of phases entered.
fn unbudgeted(
    market: &Market,
    settings: &RouteSettings,
    request: &QuoteRequest,
) -> (Result<Plan, SolverError>, u64, Vec<(Phase, u64)>) {
    phases_entered();
    let (plan, work) = ask_on(market, settings, request, UNBUDGETED, &GasPricers::default());
    (plan, work, phases_entered())
}

/// On the large market, a trade from token `from` to `to` over at most `max_hops`: the direct pools
/// of the gas pricer (native, token 1, to tokenOut) and the arcs of the bound's graph, the
/// overshoot's terms ([`allowed_overshoot`]).
fn gas_direct_pools_and_arcs(market: &Market, from: u8, to: u8, max_hops: usize) -> (u64, u64) {
    let (token_in, token_out) =
        (market.token(&addr(from)).unwrap(), market.token(&addr(to)).unwrap());
    let gas_direct = market.edge(market.token(&addr(1)).unwrap(), token_out).len() as u64;
    let scope = Scope {
        token_in,
        token_out,
        max_hops,
        intermediates: Intermediates::Any,
        dexes: DexMask::ALL,
    };
    (gas_direct, Graph::build(market, &scope).map_or(0, |g| g.arcs.len()) as u64)
}

/// A 1 ms budget, a millisecond being half the work the unbudgeted solve of a trade spends before
/// the middle of `phase`: the quote stops in `phase`, exact, within the overshoot
/// [`allowed_overshoot`] allows.
fn stops_within_one_evaluation(phase: Phase) {
    let market = large_market();
    let settings = settings(addr(1));
    for (from, to, amount) in LARGE_TRADES {
        let request = large_request(from, to, amount, 3, "1000000000");
        let (full, work, log) = unbudgeted(&market, &settings, &request);
        if full.is_err() {
            continue;
        }
        let Some(k) = log.iter().position(|(p, _)| *p == phase) else { continue };
        let (start, end) = (log[k].1, log.get(k + 1).map_or(log[0].1 + work, |next| next.1));
        if end - start < 8 {
            continue;
        }
        let budget = start + (end - start) / 2 - log[0].1;
        let (result, done) = ask_on(&market, &settings, &request, budget, &GasPricers::default());
        let stretch = largest_stretch();
        let plan = result.unwrap_or_else(|e| panic!("{from} → {to}, budget {budget}: {e}"));
        assert_eq!(
            replay(&market, &plan),
            plan.expected_amount_out,
            "the plan is not what the pools pay"
        );
        assert_eq!(
            plan.metadata.stopped_in,
            Some(phase),
            "{from} → {to}, budget {budget} of {work} units"
        );
        let (gas_direct, arcs) = gas_direct_pools_and_arcs(&market, from, to, 3);
        let allowed = allowed_overshoot(&plan, phase, 3, gas_direct, arcs, stretch);
        assert!(done <= budget + allowed, "{from} → {to} stopped in {phase:?}: {} units past a budget of {budget}, {allowed} allowed", done - budget);
        return;
    }
    panic!("no trade's solve spent enough work in {phase:?} to stop it there");
}

#[test]
fn a_tiny_budget_stops_the_search_within_one_evaluation_on_the_large_market() {
    stops_within_one_evaluation(Phase::Search);
}

#[test]
fn a_tiny_budget_stops_the_probe_search_within_one_evaluation_on_the_large_market() {
    stops_within_one_evaluation(Phase::ProbeSearch);
}

#[test]
fn a_tiny_budget_stops_gas_pricing_within_one_evaluation_on_the_large_market() {
    stops_within_one_evaluation(Phase::GasPricing);
}

#[test]
fn a_tiny_budget_stops_the_evaluation_within_one_evaluation_on_the_large_market() {
    stops_within_one_evaluation(Phase::Evaluation);
}

#[test]
fn a_tiny_budget_stops_the_bound_within_one_evaluation_of_the_dual_on_the_large_market() {
    stops_within_one_evaluation(Phase::Bound);
}

#[test]
fn a_tiny_budget_stops_the_optimizer_within_one_evaluation_on_the_large_market() {
    stops_within_one_evaluation(Phase::Optimizer);
}

#[test]
fn a_tiny_budget_stops_the_resplit_within_one_evaluation_on_the_large_market() {
    stops_within_one_evaluation(Phase::Resplit);
}

/// On a 2-hop trade whose optimizer ends short of the bound (the re-split follows it), a deadline
/// at three quarters of the optimizer's unbudgeted work: its share of the budget (a fraction of the
/// time left) cuts it, the re-split runs before the deadline, the optimizer resumes after it, and
/// the plan is exact, within the overshoot [`allowed_overshoot`] allows for the phase the deadline
/// fell in. Without the share the deadline would stop the optimizer and no re-split would run.
#[test]
fn the_optimizers_share_of_the_budget_leaves_the_resplit_time_before_the_deadline() {
    let market = large_market();
    let settings = settings(addr(1));
    for (from, to, amount) in LARGE_TRADES {
        let request = large_request(from, to, amount, 2, "0");
        let (full, _, log) = unbudgeted(&market, &settings, &request);
        let entered =
            |phase: Phase| log.iter().find(|(p, _)| *p == phase).map(|(_, at)| at - log[0].1);
        let (Ok(_), Some(optimizer), Some(resplit)) =
            (full, entered(Phase::Optimizer), entered(Phase::Resplit))
        else {
            continue;
        };
        if resplit - optimizer < 8 {
            continue;
        }
        let budget = optimizer + (resplit - optimizer) * 3 / 4;
        let (result, done) = ask_on(&market, &settings, &request, budget, &GasPricers::default());
        let (cut, stretch) = (phases_entered(), largest_stretch());
        let plan = result.unwrap_or_else(|e| panic!("{from} → {to}, budget {budget}: {e}"));
        assert_eq!(
            replay(&market, &plan),
            plan.expected_amount_out,
            "the plan is not what the pools pay"
        );
        let resplit_at =
            cut.iter().find(|(p, _)| *p == Phase::Resplit).map(|(_, at)| at - cut[0].1);
        assert!(
            resplit_at.is_some_and(|at| at < budget),
            "{from} → {to}: the re-split was not entered before the deadline at {budget}: {cut:?}"
        );
        let at_deadline = phase_at(&cut, budget);
        assert!(plan
            .metadata
            .stopped_in
            .is_some_and(|p| position(p) >= position(Phase::Optimizer)));
        let (gas_direct, arcs) = gas_direct_pools_and_arcs(&market, from, to, 2);
        let allowed = allowed_overshoot(&plan, at_deadline, 2, gas_direct, arcs, stretch);
        assert!(
            done <= budget + allowed,
            "{from} → {to}: {} units past a budget of {budget}, {allowed} allowed",
            done - budget
        );
        return;
    }
    panic!("no 2-hop trade's optimizer ended short of the bound");
}

#[path = "budget_steps_tests.rs"]
mod steps;
