//! The DODO model against `test/crosscheck/dodo_pmm.py`, a second implementation of DODO's
//! published PMM written apart in Python's exact integers: random DVM, DSP and DPP pools (prices
//! 10^-4 to 10^4 in whole tokens across decimals 6, 8 and 18, K of 0, 1 or between, LP and
//! maintainer fees, every R state with its targets), then runs of trades each on the state the
//! model's `apply` left (either side, 1 unit to twice the input reserve, now and then exactly the
//! amount that brings R back to one). Each trade's output, revert, new R and stored target must
//! be the reference's. Also: the bound curve is never below what a run of swaps pays.
//! Runs python3, no chain. `CROSSCHECK_CASES` sets the number of pools (default 300).

use super::{DodoPool, DodoWire, RState, Variant, ONE};
use crate::dex::DexId;
use crate::math::U256;
use crate::pools::input::FromWire;
use crate::pools::json_lines::{repo_path, run_json_lines};
use crate::pools::registry::spec;
use crate::pools::PoolModel;
use crate::route::test_market::Rng;
use serde_json::{json, Value};

const TRADES_PER_POOL: usize = 6;

fn cases_count() -> usize {
    std::env::var("CROSSCHECK_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(300)
}

fn pick<T: Copy>(rng: &mut Rng, items: &[T]) -> T {
    items[rng.range(0, items.len() as u64) as usize]
}

fn u(v: u128) -> U256 {
    U256::from(v)
}

fn random_pool(rng: &mut Rng) -> DodoPool {
    let variant = pick(rng, &["dvm", "dsp", "dpp"]);
    let (bd, qd) = (pick(rng, &[6u32, 8, 18, 18]), pick(rng, &[6u32, 8, 18, 18]));
    let whole_price = u(rng.log_amount(14, 22));
    let i = (whole_price * U256::from(10).pow(U256::from(qd)) / U256::from(10).pow(U256::from(bd)))
        .max(u(1));
    let k = match rng.range(0, 20) {
        0..=2 => U256::ZERO,
        3..=5 => ONE,
        _ => u(rng.log_amount(14, 18)).min(ONE - u(1)),
    };
    let b =
        u(rng.log_amount(1, 9)) * U256::from(10).pow(U256::from(bd)) + u(rng.range(0, 1000).into());
    let q = b * i / ONE * u(rng.range(1, 4).into()) + u(1);
    let r = rng.range(0, 3);
    let share = |rng: &mut Rng, v: U256| v * u(rng.range(1, 1001).into()) / u(1000);
    let (b0, q0) = match r {
        0 => (b, q),
        1 => (U256::ZERO, share(rng, q)),
        _ => (share(rng, b), U256::ZERO),
    };
    let s = |v: U256| v.to_string();
    let wire = json!({
        "variant": variant, "i": s(i), "k": s(k), "baseReserve": s(b), "quoteReserve": s(q),
        "baseTarget": s(b0), "quoteTarget": s(q0), "rState": r,
        "lpFeeRate": pick(rng, &["0", "100000000000000", "3000000000000000", "10000000000000000"]),
        "mtFeeRate": pick(rng, &["0", "500000000000000", "10000000000000000", "20000000000000000"]),
    });
    DodoPool::from_wire(serde_json::from_value::<DodoWire>(wire).unwrap(), &spec(DexId::DodoV2))
        .unwrap()
}

/// The reference's case for selling `pay` on `pool` (the targets already adjusted: the reference
/// adjusts them again, to the same values).
fn case_of(pool: &DodoPool, sell_base: bool, pay: U256) -> Value {
    let s = &pool.state;
    let kind = match pool.variant {
        Variant::Dvm => 0,
        Variant::Dsp => 1,
        Variant::Dpp => 2,
    };
    let r = match s.r {
        RState::One => 0,
        RState::AboveOne => 1,
        RState::BelowOne => 2,
    };
    json!({
        "kind": kind, "i": s.i.to_string(), "K": s.k.to_string(), "B": s.b.to_string(),
        "Q": s.q.to_string(), "B0": s.b0.to_string(), "Q0": s.q0.to_string(), "R": r,
        "lpFee": pool.lp_fee_rate.to_string(), "mtFee": pool.mt_fee_rate.to_string(),
        "side": if sell_base { "base" } else { "quote" }, "pay": pay.to_string(),
    })
}

fn random_pay(rng: &mut Rng, pool: &DodoPool) -> (bool, U256) {
    let s = &pool.state;
    if pool.variant != Variant::Dvm && rng.range(0, 5) == 0 {
        if s.r == RState::AboveOne && s.b < s.b0 {
            return (true, s.b0 - s.b);
        }
        if s.r == RState::BelowOne && s.q < s.q0 {
            return (false, s.q0 - s.q);
        }
    }
    let sell_base = rng.range(0, 2) == 0;
    let reserve = if sell_base { s.b } else { s.q };
    let limit = reserve * u(2) + u(1);
    (sell_base, (u(rng.log_amount(0, 38)) % limit).max(u(1)))
}

#[test]
fn swaps_equal_an_independent_implementation() {
    let mut rng = Rng(0x0dd0_2207);
    let mut pools: Vec<DodoPool> = (0..cases_count()).map(|_| random_pool(&mut rng)).collect();
    let (mut paid, mut reverted, mut back_to_one, mut mismatches) = (0, 0, 0, Vec::new());
    let mut r_states = std::collections::BTreeSet::new();
    let script = [repo_path("test/crosscheck/dodo_pmm.py")];
    for round in 0..TRADES_PER_POOL {
        let trades: Vec<(bool, U256)> = pools.iter().map(|p| random_pay(&mut rng, p)).collect();
        let cases: Vec<Value> =
            pools.iter().zip(&trades).map(|(p, &(side, pay))| case_of(p, side, pay)).collect();
        let answers = run_json_lines("python3", &script, &cases);
        for (n, (pool, answer)) in pools.iter_mut().zip(&answers).enumerate() {
            let (sell_base, pay) = trades[n];
            let (token_in, token_out) = if sell_base { (0, 1) } else { (1, 0) };
            r_states.insert(format!("{:?}:{:?}", pool.variant, pool.state.r));
            let ours = pool.apply(token_in, token_out, pay);
            let label = format!("round {round} pool {n}: {}", cases[n]);
            match (&ours, answer.get("receive")) {
                (Err(_), None) => reverted += 1,
                (Ok((outcome, next)), Some(receive)) => {
                    let target = if sell_base { pool.state.b0 } else { pool.state.q0 };
                    let new_r = match next.state.r {
                        RState::One => 0,
                        RState::AboveOne => 1,
                        RState::BelowOne => 2,
                    };
                    let same = receive.as_str() == Some(&outcome.amount_out.to_string())
                        && answer["newTarget"].as_str() == Some(&target.to_string())
                        && (pool.variant == Variant::Dvm || answer["newR"] == json!(new_r));
                    if same {
                        paid += 1;
                        back_to_one += usize::from(next.state.r == RState::One);
                        *pool = next.clone();
                    } else {
                        mismatches.push(format!(
                            "{label}: ours {outcome:?} R {new_r}, reference {answer}"
                        ));
                    }
                }
                _ => mismatches.push(format!("{label}: ours {ours:?}, reference {answer}")),
            }
        }
    }
    eprintln!(
        "DODO vs dodo_pmm.py: {paid} paid, {reverted} reverted on both, {back_to_one} back to R one, {} mismatches; states seen {r_states:?}",
        mismatches.len()
    );
    assert!(mismatches.is_empty(), "{:#?}", &mismatches[..mismatches.len().min(5)]);
    assert!(paid > reverted * 2 && r_states.len() >= 7, "{paid} paid, {r_states:?}");
}

/// Runs of `swaps` swaps each way on random pools, each swap of `pay`: what the run has paid is
/// never above the curve at its total (and the convex search's curve is the pool's). How many
/// totals were checked.
fn runs_stay_under_the_bound(
    rng: &mut Rng,
    swaps: u32,
    pay: impl Fn(&mut Rng, &DodoPool) -> U256,
) -> usize {
    let mut checked = 0;
    for _ in 0..cases_count() {
        let start = random_pool(rng);
        for (token_in, token_out) in [(0, 1), (1, 0)] {
            let Some(line) = start.bound_curve(token_in, token_out) else { continue };
            let (mut pool, mut total_in, mut total_out) = (start.clone(), 0.0, 0.0);
            for _ in 0..swaps {
                let pay = pay(rng, &pool);
                let Ok((outcome, next)) = pool.apply(token_in, token_out, pay) else { break };
                total_in += f64::from(pay);
                total_out += f64::from(outcome.amount_out);
                pool = next;
                let bound = line.value(total_in);
                assert!(
                    total_out <= bound * (1.0 + 1e-13),
                    "{total_out} > {bound} after {total_in} in on {start:?}"
                );
                assert_eq!(start.amount_out_bound(token_in, token_out, total_in), bound);
                let state = crate::pools::PoolState::Dodo(start.clone());
                let curve =
                    crate::route::convex::curve::Curve::of(&state, token_in, token_out).unwrap();
                assert!(curve.value(total_in) >= bound * (1.0 - 1e-12));
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn the_bound_is_never_below_a_run_of_swaps() {
    let checked = runs_stay_under_the_bound(&mut Rng(0x0b0d_2207), 8, |rng, pool| {
        let (_, pay) = random_pay(rng, pool);
        pay / u(rng.range(1, 50).into()) + u(1)
    });
    assert!(checked > cases_count() * 4, "{checked}");
}

/// Runs of a plan's most swaps, each of a few raw units: the rounding slack is spread a swap a raw
/// unit (`pools/bound_curve.rs`), so this is where a run of many small swaps meets the bound. At
/// `CROSSCHECK_CASES=3000` it found the quadratic's floored 4ac (`dodo/bound.rs`, `per_swap_slack`):
/// a DVM above one (i = 3.1·10¹², k = 0.0009) paid 312,885 raw base for one raw unit of quote,
/// 5.4 units above its first rate where the slack allowed 4.
#[test]
fn the_bound_is_never_below_a_run_of_the_most_swaps_of_a_few_units() {
    let swaps = crate::route::convex::curve::MAX_SWAPS_PER_POOL;
    let checked = runs_stay_under_the_bound(&mut Rng(0x5_ea11_2207), swaps, |rng, _| {
        u(rng.range(1, 5).into())
    });
    assert!(checked > cases_count() * 64, "{checked}");
}

/// How tight the curve is: its gap above one exact swap, relative, for swaps paying over 10^6
/// raw units (below that the per-swap rounding slack, a few units, is the gap), and the time to
/// build it.
#[test]
fn the_bound_is_tight_over_single_swaps() {
    let mut rng = Rng(0x71c4_2207);
    let (mut gaps, mut built, mut nanos) = (Vec::new(), 0u32, 0u128);
    for _ in 0..cases_count() {
        let pool = random_pool(&mut rng);
        for (token_in, token_out) in [(0, 1), (1, 0)] {
            let started = std::time::Instant::now();
            let Some(curve) = pool.bound_curve(token_in, token_out) else { continue };
            nanos += started.elapsed().as_nanos();
            built += 1;
            for _ in 0..4 {
                let reserve = if token_in == 0 { pool.state.b } else { pool.state.q };
                let pay = (u(rng.log_amount(0, 38)) % (reserve + u(1))).max(u(1));
                let Ok(outcome) = pool.amount_out(token_in, token_out, pay) else { continue };
                let out = f64::from(outcome.amount_out);
                let bound = curve.value(f64::from(pay));
                assert!(
                    out <= bound,
                    "{out} > {bound} for {pay} in, {token_in} to {token_out}, on {pool:?}"
                );
                if out > 1e6 {
                    gaps.push((bound - out) / out);
                }
            }
        }
    }
    gaps.sort_by(f64::total_cmp);
    let at = |q: f64| gaps[((gaps.len() - 1) as f64 * q) as usize] * 1e4;
    eprintln!(
        "DODO bound over {} single swaps: median gap {:.3} bps, 90th percentile {:.2}, worst {:.2}; {} µs a curve",
        gaps.len(),
        at(0.5),
        at(0.9),
        at(1.0),
        nanos / u128::from(built.max(1)) / 1000
    );
    assert!(gaps.len() > cases_count(), "{} swaps", gaps.len());
    assert!(at(0.5) <= 1.0, "median gap {} bps", at(0.5));
}
