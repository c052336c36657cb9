//! Routing rules of a quote: what the request asks is what the plan honours.

use super::gas::GasPricers;
use super::quote::quote;
use super::request::QuoteRequest;
use super::test_market::{addr, cp_pool, market_of, replay, settings};
use crate::address::Address;
use crate::error::SolverError;
use crate::market::Market;
use crate::math::U256;
use serde_json::{json, Value};

const E18: u128 = 1_000_000_000_000_000_000;

/// tokens: A=1 (in), B=2 (out), C=3 and D=4 (connectors). Two direct pools, and 2-hop paths that
/// share pools, so splits and sharing both matter.
fn market() -> Market {
    let (a, b, c, d) = (addr(1), addr(2), addr(3), addr(4));
    market_of(vec![
        cp_pool(1, "UNIV2", a, b, 1_000 * E18, 2_000 * E18),
        cp_pool(2, "PANCAKE_V2", a, b, 300 * E18, 610 * E18),
        cp_pool(3, "UNIV2", a, c, 800 * E18, 400 * E18),
        cp_pool(4, "UNIV2", c, b, 400 * E18, 810 * E18),
        cp_pool(5, "PANCAKE_V2", c, b, 100 * E18, 205 * E18),
        cp_pool(6, "UNIV2", a, d, 500 * E18, 5_000 * E18),
        cp_pool(7, "UNIV2", d, b, 5_000 * E18, 1_000 * E18),
    ])
}

fn ask(market: &Market, extra: Value) -> Result<super::plan::Plan, SolverError> {
    let mut request = json!({
        "tokenIn": addr(1).to_string(), "tokenOut": addr(2).to_string(),
        "amountIn": (200 * E18).to_string(), "slippageBps": 50,
    });
    request.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    let request: QuoteRequest = serde_json::from_value(request)
        .map_err(|e| SolverError::invalid("request", e.to_string()))?;
    quote(market, &settings(addr(2)), &request, &GasPricers::default())
}

fn pools_of(plan: &super::plan::Plan) -> Vec<String> {
    plan.routes.iter().flat_map(|r| r.legs.iter().map(|l| l.pool_id.clone())).collect()
}

#[test]
fn a_split_plan_replays_exactly_and_its_minimums_follow_the_slippage() {
    let market = market();
    let plan = ask(&market, json!({})).unwrap();
    assert!(plan.routes.len() > 1, "a trade this deep should split");
    assert_eq!(replay(&market, &plan), plan.expected_amount_out);
    let routes_in: U256 = plan.routes.iter().map(|r| r.amount_in).fold(U256::ZERO, |a, b| a + b);
    assert_eq!(routes_in, plan.amount_in);
    assert_eq!(
        plan.min_amount_out,
        plan.expected_amount_out * U256::from(9_950) / U256::from(10_000)
    );
    for leg in plan.routes.iter().flat_map(|r| &r.legs) {
        assert_eq!(leg.min_out, leg.amount_out * U256::from(9_950) / U256::from(10_000));
    }
    let allocated: U256 =
        plan.metadata.candidates.iter().map(|c| c.allocated_in).fold(U256::ZERO, |a, b| a + b);
    assert_eq!(allocated, plan.amount_in);
    assert_eq!(plan.metadata.selected_paths, plan.routes.len());
    assert!(plan.metadata.candidate_paths >= plan.metadata.candidates.len());
}

#[test]
fn split_disabled_gives_the_best_single_route() {
    let market = market();
    let single = ask(&market, json!({ "splitEnabled": false, "timePhases": true })).unwrap();
    assert_eq!(single.routes.len(), 1);
    let split = ask(&market, json!({})).unwrap();
    assert!(split.expected_amount_out > single.expected_amount_out);
    // The single route is the best of every candidate taking the whole amount.
    let best = single.metadata.candidates.iter().map(|c| c.projected_out).max().unwrap();
    assert_eq!(single.expected_amount_out, best);
}

#[test]
fn shared_pools_are_simulated_in_route_order_and_disjoint_mode_forbids_them() {
    // One deep A→C pool feeding two medium C→B pools: the best plan goes through A→C twice.
    let (a, b, c) = (addr(1), addr(2), addr(3));
    let market = market_of(vec![
        cp_pool(1, "UNIV2", a, b, 50 * E18, 100 * E18),
        cp_pool(3, "UNIV2", a, c, 100_000 * E18, 100_000 * E18),
        cp_pool(4, "UNIV2", c, b, 1_000 * E18, 2_000 * E18),
        cp_pool(5, "PANCAKE_V2", c, b, 1_000 * E18, 2_010 * E18),
    ]);
    let shared = ask(&market, json!({ "amountIn": (600 * E18).to_string() })).unwrap();
    let pools = pools_of(&shared);
    let mut unique = pools.clone();
    unique.sort();
    unique.dedup();
    assert!(unique.len() < pools.len(), "this trade should reuse a pool across routes: {pools:?}");
    assert_eq!(replay(&market, &shared), shared.expected_amount_out);

    let disjoint =
        ask(&market, json!({ "amountIn": (600 * E18).to_string(), "enforcePoolDisjoint": true }))
            .unwrap();
    let pools = pools_of(&disjoint);
    let mut unique = pools.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), pools.len(), "a pool appears in two routes: {pools:?}");
    assert_eq!(replay(&market, &disjoint), disjoint.expected_amount_out);
    assert!(disjoint.expected_amount_out <= shared.expected_amount_out);
}

#[test]
fn hops_and_dexes_filter_the_paths() {
    let market = market();
    let direct = ask(&market, json!({ "maxHops": 1 })).unwrap();
    assert!(direct.routes.iter().all(|r| r.legs.len() == 1));
    let only_v2 = ask(&market, json!({ "allowedDexes": ["UNIV2"] })).unwrap();
    assert!(only_v2.routes.iter().flat_map(|r| &r.legs).all(|l| l.dex == crate::dex::DexId::Univ2));
    assert!(only_v2
        .metadata
        .candidates
        .iter()
        .all(|c| c.dexes.iter().all(|d| *d == crate::dex::DexId::Univ2)));
    let none = ask(&market, json!({ "allowedDexes": ["UNIV3"] }));
    assert!(matches!(none, Err(SolverError::NoRoute { .. })), "{none:?}");
    let connectors: Vec<Address> = direct.metadata.connectors_considered.clone();
    assert!(!connectors.contains(&addr(1)) && !connectors.contains(&addr(2)));
}

#[test]
fn more_hops_than_the_engine_searches_are_clamped_not_refused() {
    let market = market();
    let deepest =
        serde_json::to_value(ask(&market, json!({ "maxHops": super::request::MAX_HOPS })).unwrap())
            .unwrap();
    // Past u64 a JSON integer arrives as a float; 1e30 written as digits, and as an exponent.
    let huge: Value = serde_json::from_str("1000000000000000000000000000000").unwrap();
    for hops in [json!(5), json!(u64::MAX), huge, json!(1e30)] {
        let plan = ask(&market, json!({ "maxHops": hops.clone() }))
            .unwrap_or_else(|e| panic!("maxHops {hops}: {e}"));
        assert_eq!(
            serde_json::to_value(plan).unwrap(),
            deepest,
            "maxHops {hops} is not the deepest search"
        );
    }
}

#[test]
fn gas_closes_routes_that_do_not_pay_for_themselves() {
    let market = market();
    let free = ask(&market, json!({ "amountIn": (20 * E18).to_string() })).unwrap();
    // At 20 B-units of gas cost per 10^6 gas, a second route costs more than it adds.
    let priced = ask(&market, json!({ "amountIn": (20 * E18).to_string(), "gasPriceWei": (100_000_000_000_000u128).to_string() })).unwrap();
    assert!(free.routes.len() > 1);
    assert_eq!(priced.routes.len(), 1);
    assert_eq!(
        priced.gas_cost_in_token_out,
        U256::from(priced.gas_units) * U256::from(100_000_000_000_000u128)
    );
}

#[test]
fn a_tiny_budget_still_answers_a_valid_plan_no_worse_than_the_best_single_path() {
    let market = market();
    let plan = ask(&market, json!({ "timeBudgetMs": 1 })).unwrap();
    assert_eq!(replay(&market, &plan), plan.expected_amount_out);
    let single = ask(&market, json!({ "splitEnabled": false })).unwrap();
    assert!(plan.expected_amount_out >= single.expected_amount_out);
}

#[test]
fn bad_requests_are_refused_with_the_field_named() {
    let market = market();
    let cases = [
        (json!({ "amountIn": "0" }), "amountIn"),
        (json!({ "slippageBps": 10_001 }), "slippageBps"),
        (json!({ "maxHops": 0 }), "maxHops"),
        (json!({ "maxHops": -1 }), "maxHops"),
        (json!({ "maxHops": 1.5 }), "maxHops"),
        (json!({ "maxHops": "3" }), "maxHops"),
        (json!({ "allowedDexes": [] }), "allowedDexes"),
        (json!({ "timeBudgetMs": 0 }), "timeBudgetMs"),
        (json!({ "tokenOut": addr(1).to_string() }), "same token"),
        (json!({ "amountIn": "1e18" }), "decimal"),
        (json!({ "amountIn": "-5" }), "decimal"),
        (json!({ "tokenIn": "0x12" }), "address"),
        (json!({ "surprise": true }), "surprise"),
        (json!({ "allowedDexes": ["UNIV9"] }), "UNIV9"),
    ];
    for (extra, mention) in cases {
        match ask(&market, extra.clone()) {
            Err(err @ SolverError::InvalidInput { .. }) => {
                assert!(err.to_string().contains(mention), "{extra}: {err}")
            }
            other => panic!("{extra} was not refused as invalid input: {other:?}"),
        }
    }
    let unknown = ask(&market, json!({ "tokenOut": addr(9).to_string() }));
    assert!(
        matches!(unknown, Err(SolverError::NoRoute { ref reason }) if reason.contains("tokenOut")),
        "{unknown:?}"
    );
}

#[test]
fn asked_for_the_metadata_times_each_phase_the_solve_entered_in_order() {
    let market = market();
    assert!(ask(&market, json!({})).unwrap().metadata.phase_ms.is_empty(), "not asked: not timed");
    let plan = ask(&market, json!({ "timePhases": true })).unwrap();
    use super::clock::Phase;
    let phases: Vec<Phase> = plan.metadata.phase_ms.0.iter().map(|(phase, _)| *phase).collect();
    assert_eq!(
        phases,
        [
            Phase::Search,
            Phase::ProbeSearch,
            Phase::GasPricing,
            Phase::Evaluation,
            Phase::Bound,
            Phase::Optimizer,
            Phase::Resplit
        ]
    );
    assert!(plan.metadata.phase_ms.0.iter().all(|(_, ms)| ms.is_finite() && *ms >= 0.0));
    let wire = serde_json::to_value(&plan).unwrap();
    let keys: Vec<&str> = wire["metadata"]["phaseMs"]
        .as_object()
        .expect("phaseMs is an object keyed by phase")
        .keys()
        .map(String::as_str)
        .collect();
    assert!(keys.contains(&"search") && keys.contains(&"optimizer"), "{keys:?}");
    // A single-path quote skips the bound and the re-split: they are not reported.
    let single = ask(&market, json!({ "splitEnabled": false })).unwrap();
    let single: Vec<Phase> = single.metadata.phase_ms.0.iter().map(|(phase, _)| *phase).collect();
    assert!(!single.contains(&Phase::Resplit), "{single:?}");
}

#[test]
fn the_ranking_reads_the_best_first_as_a_stable_sort_of_all_would_give_them() {
    // Scores with many ties (a stable sort keeps tied indices in order), every prefix length.
    for seed in 0..40u64 {
        let len = (seed % 13) as usize;
        let scores: Vec<u64> =
            (0..len as u64).map(|i| (i.wrapping_mul(2_654_435_761) ^ seed) % 4).collect();
        let better = |a: usize, b: usize| scores[b].cmp(&scores[a]);
        let mut sorted: Vec<usize> = (0..len).collect();
        sorted.sort_by(|&a, &b| better(a, b));
        for count in 0..=len.saturating_add(2) {
            let first = super::quote::best_first((0..len).collect(), count, better);
            assert_eq!(first, sorted[..count.min(len)], "scores {scores:?}, count {count}");
        }
    }
}
