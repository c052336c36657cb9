//! How tight the bound curve is: above one swap by at most the tick's width (its linear piece per
//! tick, `bound.rs`), and on a graph of the exhaustive search (`route/convex/exhaustive_tests.rs`,
//! `BOUND_SEED=7`) where the certified bound sits 55 bps above the best routing, the curves
//! account for under 0.1 bps of it: the rest is the dual stopping unconverged.

use super::tests::random_pool;
use super::MaverickPool;
use crate::market::Market;
use crate::math::U256;
use crate::pools::input::PoolInput;
use crate::pools::PoolModel;
use crate::route::clock::Deadline;
use crate::route::convex::certificate::certified_bound;
use crate::route::convex::curve::Curve;
use crate::route::convex::graph::{Graph, Intermediates, Scope};
use crate::route::convex::solve;
use crate::route::search::DexMask;
use crate::route::test_market::{addr, market_of, Rng};

/// The relative gap between the bound and one swap's output, with the tick's width
/// (1.0001^spacing − 1) and the first piece's drift margin; None where the swap is refused or
/// pays under 10^6 units (its floors alone are a large part of it).
fn one_swap_gap(pool: &MaverickPool, token_a_in: bool, amount: U256) -> Option<(f64, f64, f64)> {
    let (i, o) = if token_a_in { (0, 1) } else { (1, 0) };
    let out = f64::from(pool.amount_out(i, o, amount).ok()?.amount_out);
    if out < 1e6 {
        return None;
    }
    let bound = pool.amount_out_bound(i, o, f64::from(amount));
    assert!(out <= bound * (1.0 + 1e-13), "{out} > {bound} for {amount} in on {pool:?}");
    let width = 1.0001f64.powi(i32::try_from(pool.spacing).ok()?) - 1.0;
    let first = pool.next_filled(pool.active_tick, token_a_in)?;
    let drift = pool.price_and_drift(&pool.ticks[first], token_a_in).map_or(f64::NAN, |d| d.1);
    Some(((bound - out) / bound, width, drift))
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p) as usize]
}

#[test]
fn one_swap_sits_under_the_bound_by_at_most_its_ticks_width() {
    let mut rng = Rng(0x0b0d_5ca1);
    let (mut relative, mut spacing_10, mut drifts) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..400 {
        let pool = random_pool(&mut rng);
        for token_a_in in [true, false] {
            let (i, o) = if token_a_in { (0, 1) } else { (1, 0) };
            // From a hundred-millionth of what the book can take to all of it, log-spread.
            let room: f64 = pool.bound_pieces(i, o).iter().map(|p| p.0).sum();
            let amount = room / 10f64.powf(rng.range(0, 8000) as f64 / 1000.0);
            let Some((gap, width, drift)) =
                one_swap_gap(&pool, token_a_in, U256::from(amount as u128))
            else {
                continue;
            };
            // A tick's rate falls by its width in price from edge to edge; the floors add under
            // a unit per 10^6 paid.
            assert!(gap <= width + 1e-6, "gap {gap} above the tick's width {width} on {pool:?}");
            relative.push(gap / width);
            if pool.spacing == 10 {
                spacing_10.push(gap);
            }
            if drift.is_finite() {
                drifts.push(drift);
            }
        }
    }
    for v in [&mut relative, &mut spacing_10, &mut drifts] {
        v.sort_by(f64::total_cmp);
    }
    eprintln!(
        "one swap: {} swaps, gap/width median {:.3}, p90 {:.3}; spacing 10 ({}): median {:.2} bps, p90 {:.2} bps; first-piece drift margin ({} derived) median {:.1e}, max {:.1e}",
        relative.len(),
        percentile(&relative, 0.5),
        percentile(&relative, 0.9),
        spacing_10.len(),
        percentile(&spacing_10, 0.5) * 1e4,
        percentile(&spacing_10, 0.9) * 1e4,
        drifts.len(),
        percentile(&drifts, 0.5),
        drifts.last().copied().unwrap_or(f64::NAN),
    );
    assert!(relative.len() > 400, "only {} swaps measured", relative.len());
}

/// The exhaustive search's graph at `BOUND_SEED=7` (case 175): tokenIn 1 → 3 → 4 → 2 through two
/// Maverick pools in a row (B in both: the walks go down, 21 and 17 ticks of spacing 10) and two
/// Solidly volatile pools at prices 5·10⁴ apart on the last hop, 3.9·10²² of tokenIn.
fn seed7_chain() -> (Market, u128) {
    let pools: Vec<PoolInput> =
        serde_json::from_str(include_str!("fixtures/bound_seed7_chain_pools.json")).unwrap();
    (market_of(pools), 39_445_730_207_527_849_689_088)
}

/// Maximises the concave `f` over [0, total] by ternary search.
fn concave_max(total: f64, f: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.0, total);
    for _ in 0..300 {
        let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if f(m1) < f(m2) {
            lo = m1;
        } else {
            hi = m2;
        }
    }
    f((lo + hi) / 2.0)
}

/// The graph's relaxation optimum from its curves (everything through both Maverick pools, then the
/// best split of the last hop) and the exact models' (one swap of the total through each shared
/// pool, the best split after: above any plan, which swaps a shared pool route after route).
fn seed7_optima(market: &Market, amount: u128) -> (f64, f64, [f64; 2]) {
    let state = |pool: u32| &market.pool(pool).state;
    let curve = |pool: u32| Curve::of(state(pool), 1, 0).expect("a curve");
    let chained = curve(1).value(curve(0).value(amount as f64));
    let relaxed = concave_max(chained, |s| curve(2).value(s) + curve(3).value(chained - s));
    let exact = |pool: u32, x: U256| {
        state(pool).amount_out(1, 0, x).map_or(0.0, |o| f64::from(o.amount_out))
    };
    let first = state(0).amount_out(1, 0, U256::from(amount)).unwrap().amount_out;
    let second = state(1).amount_out(1, 0, first).unwrap().amount_out;
    let x = f64::from(second);
    let best =
        concave_max(x, |s| exact(2, U256::from(s as u128)) + exact(3, U256::from((x - s) as u128)));
    let gap = |pool: u32, x: U256, out: U256| {
        let bound = state(pool).amount_out_bound(1, 0, f64::from(x));
        (bound - f64::from(out)) / bound
    };
    (relaxed, best, [gap(0, U256::from(amount), first), gap(1, first, second)])
}

#[test]
fn on_the_seed7_chain_the_curves_are_within_a_tenth_of_a_bps_of_the_best_routing() {
    let (market, amount) = seed7_chain();
    let (relaxed, best, hops) = seed7_optima(&market, amount);
    eprintln!(
        "seed-7 chain: one swap {:.2} and {:.2} bps under the Maverick bounds; relaxation optimum {relaxed:.6e}, exact {best:.6e}, {:.4} bps apart",
        hops[0] * 1e4,
        hops[1] * 1e4,
        (relaxed - best) / relaxed * 1e4
    );
    // Each hop's curve is 2 to 5 bps above its swap, but the extra tokens (6.8 bps more) reach a
    // last hop whose pools take 10^3 and 1 times their own reserve of it: they pay next to
    // nothing more there.
    assert!(best <= relaxed && relaxed <= best * (1.0 + 1e-5), "{relaxed} vs {best}");
}

#[test]
#[ignore = "the solve's, issue 24: the dual stops unconverged 55 bps above its optimum"]
fn on_the_seed7_chain_the_certified_bound_is_the_relaxations_optimum() {
    let (market, amount) = seed7_chain();
    let scope = Scope {
        token_in: market.token(&addr(1)).unwrap(),
        token_out: market.token(&addr(2)).unwrap(),
        max_hops: 3,
        intermediates: Intermediates::Any,
        dexes: DexMask::ALL,
    };
    let graph = Graph::build(&market, &scope).unwrap();
    let dual = solve::minimise(&graph, amount as f64, &Deadline::never());
    let certified = f64::from(certified_bound(&graph, &dual.prices, amount as f64).unwrap());
    let (relaxed, best, _) = seed7_optima(&market, amount);
    eprintln!(
        "seed-7 chain: certified {certified:.6e} (converged {}), relaxation optimum {relaxed:.6e}, exact {best:.6e}: {:.2} bps above the optimum",
        dual.converged,
        (certified - relaxed) / certified * 1e4
    );
    assert!(certified >= relaxed * (1.0 - 1e-9), "the certificate is below the relaxation");
    // Measured now: certified 2.348127e22 (not converged), relaxation optimum 2.335178e22: 55 bps.
    assert!(certified <= relaxed * (1.0 + 1e-6), "{certified} vs the optimum {relaxed}");
}

/// What a tighter curve could reach: a run of up to 8 swaps in one direction against one swap of
/// its total on the starting pool (the tick's own curve, which the linear piece per tick lies
/// above). Where no run pays more than one swap, the single swap's curve is the least a bound
/// needs.
#[test]
fn a_run_of_swaps_against_one_swap_of_its_total() {
    let mut rng = Rng(0x0b0d_7a11);
    let cases = std::env::var("CROSSCHECK_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(120);
    let (mut runs, mut above, mut worst, mut worst_units) = (0usize, 0usize, 0f64, U256::ZERO);
    for _ in 0..cases * 2 {
        let start = random_pool(&mut rng);
        for (i, o) in [(0, 1), (1, 0)] {
            let room: f64 = start.bound_pieces(i, o).iter().map(|p| p.0).sum();
            let (mut pool, mut total_in, mut total_out) = (start.clone(), U256::ZERO, U256::ZERO);
            for _ in 0..8 {
                let pay = room / 10f64.powf(rng.range(500, 8000) as f64 / 1000.0);
                let pay = U256::from(pay as u128).max(U256::from(1u8));
                let Ok((outcome, next)) = pool.apply(i, o, pay) else { break };
                total_in += pay;
                total_out += outcome.amount_out;
                pool = next;
                let Ok(single) = start.amount_out(i, o, total_in) else { break };
                runs += 1;
                if total_out > single.amount_out {
                    let excess = total_out - single.amount_out;
                    above += 1;
                    worst = worst.max(f64::from(excess) / f64::from(single.amount_out));
                    worst_units = worst_units.max(excess);
                }
            }
        }
    }
    eprintln!(
        "{runs} runs, {above} pay more than one swap of their total, by at most {worst:.1e} ({worst_units} units)"
    );
    // Measured at CROSSCHECK_CASES=3000: 4,582 of 96,000 runs pay more, by at most 2.4·10⁻¹⁷ of
    // it (16,506,304 units of 10²⁴: the 18-decimal floors), so the single swap's curve would need
    // a relative margin, not units per swap.
    assert!(runs > cases * 4 && worst <= 1e-15, "{runs} runs, {worst} ({worst_units} units)");
}
