//! The Maverick V2 model against `test/crosscheck/maverick_v2.py`, the second implementation of
//! the published math written apart in Python's exact integers (itself proven against the stand-in
//! on anvil, `test/crosscheck/maverickV2Python.test.ts`): random pools (tick spacing 1 to 200,
//! decimals 6, 8 or 18 on either side, directional fees 0 to 1 %, a protocol share of 0 to 25.5 %
//! of the fee, a book of ticks around the active one, A below it, B above, both or either in it,
//! with gaps), then rounds of one trade a pool, each on the state the model left: either
//! direction, 1 unit to about twice the output side, with a tick limit that is the book's edge
//! (the router's leg), stops the walk early, or lies behind the active tick. The amounts in and
//! out, the new active tick and every tick's reserves must be the reference's; where it reverts,
//! the model must refuse. Also: the bound curve is never below what a run of swaps pays.
//! Runs python3, no chain. `CROSSCHECK_CASES` sets the number of pools (default 120).

use super::{MaverickPool, MaverickWire, Swapped};
use crate::dex::DexId;
use crate::math::U256;
use crate::pools::input::FromWire;
use crate::pools::json_lines::{repo_path, run_json_lines};
use crate::pools::registry::spec;
use crate::pools::{PoolModel, PoolState};
use crate::route::test_market::Rng;
use serde_json::{json, Value};

const ROUNDS: usize = 8;
const SPAN: i32 = 6;

fn cases_count() -> usize {
    std::env::var("CROSSCHECK_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(120)
}

fn pick<T: Copy>(rng: &mut Rng, items: &[T]) -> T {
    items[rng.range(0, items.len() as u64) as usize]
}

pub(super) fn random_pool(rng: &mut Rng) -> MaverickPool {
    let decimals = [pick(rng, &[6u32, 8, 18, 18]), pick(rng, &[6u32, 8, 18, 18])];
    let spacing = pick(rng, &[1i32, 10, 50, 200]);
    let reach = 2000 / spacing;
    let active = rng.range(0, (2 * reach + 1) as u64) as i32 - reach;
    let fee_a = pick(rng, &["0", "100000000000000", "500000000000000", "3000000000000000"]);
    let fee_b = pick(rng, &["0", "100000000000000", "1000000000000000", "10000000000000000"]);
    let mut ticks = Vec::new();
    for tick in active - SPAN..=active + SPAN {
        if tick != active && rng.range(0, 10) < 3 {
            continue;
        }
        let side = rng.range(0, 10);
        let mut amount = || rng.log_amount(12, 25).to_string();
        let (a, b) = match (tick.cmp(&active), side) {
            (std::cmp::Ordering::Less, _) => (amount(), "0".into()),
            (std::cmp::Ordering::Greater, _) => ("0".into(), amount()),
            (_, 0) => (amount(), "0".into()),
            (_, 1) => ("0".into(), amount()),
            _ => (amount(), amount()),
        };
        ticks.push(json!([tick, a, b]));
    }
    let scale = |d: u32| U256::from(10u8).pow(U256::from(18 - d)).to_string();
    let wire = json!({
        "tickSpacing": spacing, "tokenScales": [scale(decimals[0]), scale(decimals[1])],
        "fees": [fee_a, fee_b], "protocolFeeRatioD3": pick(rng, &[0u8, 0, 1, 100, 255]),
        "activeTick": active, "ticks": ticks,
    });
    MaverickPool::from_wire(
        serde_json::from_value::<MaverickWire>(wire).unwrap(),
        &spec(DexId::MaverickV2),
    )
    .unwrap()
}

/// The furthest listed tick holding reserves in the walk's direction (or the active tick): the
/// tick limit the router's leg passes.
fn book_edge(pool: &MaverickPool, token_a_in: bool) -> i32 {
    let filled = pool.ticks.iter().filter(|t| !t.is_empty()).map(|t| t.index);
    if token_a_in {
        filled.max().unwrap_or(pool.active_tick).max(pool.active_tick)
    } else {
        filled.min().unwrap_or(pool.active_tick).min(pool.active_tick)
    }
}

/// A trade: direction, token amount, tick limit.
fn random_trade(rng: &mut Rng, pool: &MaverickPool) -> (bool, U256, i32) {
    let token_a_in = rng.range(0, 2) == 0;
    let out_side: U256 = pool
        .ticks
        .iter()
        .map(|t| t.reserves[usize::from(token_a_in)])
        .fold(U256::ZERO, |s, r| s + r);
    let ceiling =
        out_side * U256::from(2u8) / pool.scales[usize::from(!token_a_in)] + U256::from(2u8);
    let amount = (U256::from(rng.log_amount(0, 26)) % ceiling).max(U256::from(1u8));
    let step = if token_a_in { 1 } else { -1 };
    let limit = match rng.range(0, 10) {
        0..=3 => book_edge(pool, token_a_in),
        4 => pool.active_tick - step * rng.range(1, 3) as i32,
        _ => pool.active_tick + step * rng.range(0, (SPAN + 2) as u64) as i32,
    };
    (token_a_in, amount, limit)
}

fn case_of(pool: &MaverickPool, (token_a_in, amount, limit): (bool, U256, i32)) -> Value {
    let (i, o) = if token_a_in { (0, 1) } else { (1, 0) };
    let ticks: Vec<Value> = pool
        .ticks
        .iter()
        .map(|t| json!([t.index, t.reserves[0].to_string(), t.reserves[1].to_string()]))
        .collect();
    json!({
        "spacing": pool.spacing, "scaleIn": pool.scales[i].to_string(),
        "scaleOut": pool.scales[o].to_string(), "feeIn": pool.fees[i].to_string(),
        "ratioD3": pool.protocol_fee_ratio_d3.to_string(), "active": pool.active_tick,
        "tokenAIn": token_a_in, "amount": amount.to_string(), "limit": limit, "ticks": ticks,
    })
}

fn answer_of(swapped: &Swapped) -> Value {
    let ticks: Vec<Value> = swapped
        .pool
        .ticks
        .iter()
        .map(|t| json!([t.index, t.reserves[0].to_string(), t.reserves[1].to_string()]))
        .collect();
    json!({
        "amountIn": swapped.amount_in.to_string(), "amountOut": swapped.amount_out.to_string(),
        "active": swapped.pool.active_tick, "ticks": ticks,
    })
}

#[test]
fn swaps_equal_an_independent_implementation() {
    let mut rng = Rng(0x3a7e_2209);
    let mut pools: Vec<MaverickPool> = (0..cases_count()).map(|_| random_pool(&mut rng)).collect();
    let (mut paid, mut capped, mut multi_tick, mut refused) = (0, 0, 0, 0);
    let mut mismatches = Vec::new();
    let script = [repo_path("test/crosscheck/maverick_v2.py")];
    for round in 0..ROUNDS {
        let trades: Vec<_> = pools.iter().map(|p| random_trade(&mut rng, p)).collect();
        let cases: Vec<Value> = pools.iter().zip(&trades).map(|(p, t)| case_of(p, *t)).collect();
        let answers = run_json_lines("python3", &script, &cases);
        for (n, pool) in pools.iter_mut().enumerate() {
            let (token_a_in, amount, limit) = trades[n];
            let ours = pool.swap_to_limit(token_a_in, amount, Some(limit));
            let label = format!("round {round} pool {n}: {}", cases[n]);
            match (&ours, answers[n].get("revert")) {
                (Err(_), Some(_)) => refused += 1,
                (Ok(swapped), None) if answer_of(swapped) == answers[n] => {
                    // The solver's swap (no limit) is the limited one when the limit is the
                    // book's edge, and refuses what that one fills partly.
                    if limit == book_edge(pool, token_a_in) {
                        let (i, o) = if token_a_in { (0, 1) } else { (1, 0) };
                        match pool.apply(i, o, amount) {
                            Ok((outcome, next)) => {
                                assert!(!swapped.capped, "{label}");
                                assert_eq!(outcome.amount_out, swapped.amount_out, "{label}");
                                assert_eq!(next, swapped.pool, "{label}");
                                assert_eq!(swapped.amount_in, amount, "{label}");
                            }
                            Err(e) => assert!(swapped.capped, "{label}: {e}"),
                        }
                    }
                    paid += 1;
                    capped += usize::from(swapped.capped);
                    multi_tick += usize::from(swapped.crossings > 0);
                    *pool = swapped.pool.clone();
                }
                _ => mismatches.push(format!("{label}: ours {ours:?}, reference {}", answers[n])),
            }
        }
    }
    eprintln!(
        "Maverick V2 vs maverick_v2.py: {paid} paid ({capped} stopped at their limit, {multi_tick} across ticks), {refused} refused by both, {} mismatches",
        mismatches.len()
    );
    assert!(mismatches.is_empty(), "{:#?}", &mismatches[..mismatches.len().min(5)]);
    assert!(
        paid > refused * 3 && capped > 0 && multi_tick > paid / 10,
        "{paid} {capped} {multi_tick}"
    );
}

#[test]
fn the_bound_is_never_below_a_run_of_swaps() {
    let mut rng = Rng(0x0b0d_2209);
    let (mut checked, mut tight) = (0, 0);
    for _ in 0..cases_count() * 2 {
        let start = random_pool(&mut rng);
        for (token_in, token_out) in [(0, 1), (1, 0)] {
            let state = PoolState::MaverickV2(start.clone());
            let curve = crate::route::convex::curve::Curve::of(&state, token_in, token_out);
            let (mut pool, mut total_in, mut total_out) = (start.clone(), 0.0, 0.0);
            for _ in 0..8 {
                let (_, pay, _) = random_trade(&mut rng, &pool);
                let pay = pay / U256::from(rng.range(1, 20)) + U256::from(1u8);
                let Ok((outcome, next)) = pool.apply(token_in, token_out, pay) else { break };
                total_in += f64::from(pay);
                total_out += f64::from(outcome.amount_out);
                pool = next;
                let bound = start.amount_out_bound(token_in, token_out, total_in);
                assert!(
                    total_out <= bound * (1.0 + 1e-13),
                    "{total_out} > {bound} after {total_in} in on {start:?}"
                );
                let curve = curve.as_ref().expect("a pool that pays has a curve");
                assert!(curve.value(total_in) >= bound * (1.0 - 1e-12));
                tight += usize::from(total_out > bound * 0.99);
                checked += 1;
            }
        }
    }
    eprintln!("{checked} runs checked, {tight} within 1 % of the bound");
    assert!(checked > cases_count() * 4 && tight > checked / 4, "{checked} {tight}");
}

#[test]
fn the_wire_refuses_what_no_pool_holds() {
    let wire = |spacing: u32, scale: &str, fee: &str, ticks: Value| {
        serde_json::from_value::<MaverickWire>(json!({
            "tickSpacing": spacing, "tokenScales": ["1", scale], "fees": [fee, "0"],
            "protocolFeeRatioD3": 0, "activeTick": 0, "ticks": ticks,
        }))
        .map_err(|e| e.to_string())
        .and_then(|w| {
            MaverickPool::from_wire(w, &spec(DexId::MaverickV2)).map_err(|e| e.to_string())
        })
    };
    let one = json!([[0, "1000", "1000"]]);
    assert!(wire(10, "1", "0", one.clone()).is_ok());
    assert!(wire(0, "1", "0", one.clone()).unwrap_err().contains("tickSpacing"));
    assert!(wire(10, "3", "0", one.clone()).unwrap_err().contains("scales"));
    assert!(wire(10, "1", "1000000000000000000", one).unwrap_err().contains("fees"));
    assert!(wire(10, "1", "0", json!([[0, "1", "1"], [0, "2", "2"]]))
        .unwrap_err()
        .contains("twice"));
    assert!(wire(10, "1", "0", json!([[46054, "1", "0"]])).unwrap_err().contains("range"));
    let huge = (U256::from(u128::MAX) + U256::from(1u8)).to_string();
    assert!(wire(10, "1", "0", json!([[0, huge, "0"]])).unwrap_err().contains("uint128"));
}

#[test]
fn a_swap_past_the_listed_ticks_is_refused_and_a_bad_pair_too() {
    let pool = MaverickPool::from_wire(
        serde_json::from_value(json!({
            "tickSpacing": 10, "tokenScales": ["1", "1"], "fees": ["0", "0"],
            "protocolFeeRatioD3": 0, "activeTick": 0,
            "ticks": [[-1, "1000000000000000000", "0"], [0, "10", "1000000000000000000"]],
        }))
        .unwrap(),
        &spec(DexId::MaverickV2),
    )
    .unwrap();
    assert!(pool.amount_out(0, 1, U256::from(10u64.pow(15))).unwrap().amount_out > U256::ZERO);
    assert_eq!(
        pool.amount_out(0, 1, U256::from(10u64.pow(19))),
        Err(crate::pools::PoolError::InsufficientLiquidity)
    );
    assert!(pool.amount_out(0, 0, U256::from(1u8)).is_err());
    assert!(pool.spot_price(0, 1) > 0.9 && pool.spot_price(0, 1) <= 1.0);
}

#[test]
fn the_active_tick_is_bounded_at_its_price_so_no_round_trip_gains() {
    // Spacing 10 (0.1 % a tick), 0.01 % fees both ways, the price mid-tick: bounded at the tick's
    // far edges, the two directions' first rates multiplied to (1 − 0.0001)²·1.001² > 1, a round
    // trip the convex relaxation took for a gain (up to 1,000× loose on such graphs).
    let pool = MaverickPool::from_wire(
        serde_json::from_value(json!({
            "tickSpacing": 10, "tokenScales": ["1", "1"],
            "fees": ["100000000000000", "100000000000000"],
            "protocolFeeRatioD3": 0, "activeTick": 0,
            "ticks": [
                [-1, "1000000000000000000000", "0"],
                [0, "500000000000000000000", "500000000000000000000"],
                [1, "0", "1000000000000000000000"],
            ],
        }))
        .unwrap(),
        &spec(DexId::MaverickV2),
    )
    .unwrap();
    let (up, down) = (pool.bound_pieces(0, 1), pool.bound_pieces(1, 0));
    assert!(up[0].1 * down[0].1 < 1.0, "first rates {} × {} ≥ 1", up[0].1, down[0].1);
    for (token_in, token_out) in [(0, 1), (1, 0)] {
        let small = U256::from(10u64.pow(15));
        let paid = f64::from(pool.amount_out(token_in, token_out, small).unwrap().amount_out);
        let bound = pool.amount_out_bound(token_in, token_out, f64::from(small));
        assert!(paid <= bound && bound <= paid * (1.0 + 1e-6), "{paid} vs bound {bound}");
    }
}
