//! The budget against work with no route evaluated in it: the split optimizer's model steps (an
//! active-set solve over the open routes, a factorisation per pass) and the dual's Newton systems.
//! The work clock counts their products (`clock::count_products`), so a loop of them between two
//! deadline checks shows as overshoot: the gas pruning's round of predictions, one model step per
//! open route, ran unchecked until f404bac and took about 2 ms past a 1 ms budget on the
//! 10,000-pool 1-hop 100× trade (51 open routes), unseen by these tests while they counted swaps
//! and curves only.

use super::*;

/// `n` constant-product pools between A (1, the native token) and B (2), each a little deeper and
/// a little dearer than the last, so a large trade opens every one of them.
fn parallel_market(n: u8) -> Market {
    let (a, b) = (addr(1), addr(2));
    market_of(
        (0..n)
            .map(|k| {
                let (k, dex) = (u128::from(k), if k % 2 == 0 { "UNIV2" } else { "PANCAKE_V2" });
                cp_pool(n_id(k), dex, a, b, (100 + 10 * k) * E18, (200 + 19 * k) * E18)
            })
            .collect(),
    )
}

fn n_id(k: u128) -> u8 {
    u8::try_from(k + 1).expect("at most 255 pools")
}

/// Budgets spread evenly over a phase's unbudgeted work.
const SWEEP: u64 = 24;

/// A 1-hop trade across 40 parallel pools, gas priced: the gas-free optimum opens every pool, and
/// the pruning predicts each open route's closure with a model step (40 routes wide). A deadline
/// anywhere in the optimizer's work stops it within one model step (and one route's evaluation,
/// and the plan's replay): before f404bac a deadline inside a round of predictions was found only
/// after the whole round, 40 model steps later.
#[test]
fn a_deadline_in_the_gas_pruning_stops_it_within_one_model_step() {
    let market = parallel_market(40);
    let settings = settings(addr(1));
    let request = large_request(1, 2, 2_000 * E18, 1, "1000000000");
    let (full, work, log) = unbudgeted(&market, &settings, &request);
    let full = full.expect("the unbudgeted quote");
    let open = full.routes.len();
    assert!(open >= 32, "{open} routes: the pruning's model steps would be small");
    let entered = |phase: Phase| log.iter().position(|(p, _)| *p == phase);
    let k = entered(Phase::Optimizer).expect("an optimizer phase");
    let (start, end) = (log[k].1 - log[0].1, log.get(k + 1).map_or(work, |next| next.1 - log[0].1));
    let mut largest_seen = 0;
    for i in 1..=SWEEP {
        let budget = start + (end - start) * i / (SWEEP + 1);
        let (result, done) = ask_on(&market, &settings, &request, budget, &GasPricers::default());
        let stretch = largest_stretch();
        largest_seen = largest_seen.max(stretch);
        let plan = result.unwrap_or_else(|e| panic!("budget {budget}: {e}"));
        assert_eq!(replay(&market, &plan), plan.expected_amount_out, "budget {budget}");
        let allowed = allowed_overshoot(&plan, Phase::Optimizer, 1, 40, 0, stretch);
        assert!(
            done <= budget + allowed,
            "budget {budget} of {work}: {} units past it, {allowed} allowed (a model step: {stretch})",
            done - budget
        );
        assert_eq!(plan.metadata.stopped_in, Some(Phase::Optimizer), "budget {budget} of {work}");
    }
    // The model steps weigh: a 40-route factorisation is about 66 units of work.
    assert!(largest_seen >= 66, "the largest model step was {largest_seen} units");
}
