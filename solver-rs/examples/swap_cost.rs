//! The cost of one exact swap per pool family: median ns per `PoolModel::amount_out` call, cold
//! (no memo: `amount_out` keeps nothing between calls), at three sizes of the pool's depth:
//!
//!   cargo run --release -p solver-rs --example swap_cost [repetitions]
//!
//! One representative pool per family: the first of its kind in the devnet fixture
//! `src/route/convex/fixtures/devnet_fresh_both_families_pools.json` (every family the seeded
//! devnet holds), and a legacy Curve meta pool over a 3-coin base built here in the wire format
//! (docs/solver-wire-format.md), which the devnet does not seed.
//!
//! A pool's depth on a side is what it pays at most for `token_in` (the largest output of any
//! input it accepts, found by doubling the input, then bisecting where it starts to refuse),
//! valued in `token_in` at the side's spot price: a constant-product pool's input reserve, a
//! concentrated pool's liquidity on that side. The sizes are 0.01 %, 1 % and 10 % of it.
//! The last column is the swap's `crossings` at 10 % (ticks or bins crossed; a Curve pool's coin
//! count, WOOFi's second half: what the gas model charges per unit, docs/solver-wire-format.md).
//! Each figure is the median over `repetitions` batches (default 301) of a batch's time over its
//! calls (batches of at least about 20 µs).
//!
//! A second table times the convex bound's term of each venue whose coins share one state (Curve
//! StableSwap, its meta pools, WOOFi: `route/convex/pooled.rs`): median ns per evaluation of the
//! venue's joint term (`Budget::joint`, through the side's `Curve::respond`: the term, its flows
//! and its Hessian in the prices) at the rate the exact swap of each size pays on average.
use solver::math::U256;
use solver::pools::input::{decode_state, PoolInput};
use solver::pools::{PoolModel, PoolState};
use solver::route::convex::curve::Curve;
use std::hint::black_box;
use std::time::Instant;

const FIXTURE: &str = "src/route/convex/fixtures/devnet_fresh_both_families_pools.json";
const SIZES: [(&str, f64); 3] = [("0.01 %", 1e-4), ("1 %", 1e-2), ("10 %", 1e-1)];

/// One family's row: its label, which pool of the fixture stands for it, and the side timed.
struct Family {
    label: &'static str,
    picks: fn(&serde_json::Value) -> bool,
    side: (usize, usize),
}

fn model(p: &serde_json::Value) -> &str {
    p["state"]["model"].as_str().unwrap_or("")
}

fn ticks(p: &serde_json::Value) -> usize {
    p["state"]["ticks"].as_array().map_or(0, Vec::len)
}

fn stableswap_coins(p: &serde_json::Value, template: &str) -> usize {
    let state = &p["state"];
    match model(p) == "stableswap" && state["template"] == template && state["base"].is_null() {
        true => state["balances"].as_array().map_or(0, Vec::len),
        false => 0,
    }
}

const FAMILIES: &[Family] = &[
    Family {
        label: "constant product (UNIV2)",
        picks: |p| model(p) == "constant_product",
        side: (0, 1),
    },
    Family {
        label: "Solidly volatile",
        picks: |p| model(p) == "solidly" && p["state"]["stable"] == false,
        side: (0, 1),
    },
    Family {
        label: "Solidly stable",
        picks: |p| model(p) == "solidly" && p["state"]["stable"] == true,
        side: (0, 1),
    },
    Family {
        label: "concentrated (UNIV3, 8 ticks)",
        picks: |p| model(p) == "concentrated" && p["dex"] == "UNIV3" && ticks(p) >= 8,
        side: (0, 1),
    },
    Family {
        label: "concentrated (Algebra, QUICKSWAP_V4, 8 ticks)",
        picks: |p| model(p) == "concentrated" && p["dex"] == "QUICKSWAP_V4" && ticks(p) >= 8,
        side: (0, 1),
    },
    Family {
        label: "Curve StableSwap NG, 2 coins",
        picks: |p| stableswap_coins(p, "ng") == 2,
        side: (0, 1),
    },
    Family {
        label: "Curve StableSwap NG, 3 coins",
        picks: |p| stableswap_coins(p, "ng") == 3,
        side: (0, 1),
    },
    Family {
        label: "Curve legacy meta pool (meta → base coin)",
        picks: |p| p["id"] == META_ID,
        side: (0, 2),
    },
    Family {
        label: "sampled (Curve twocrypto)",
        picks: |p| model(p) == "sampled" && p["dex"] == "CURVE",
        side: (0, 1),
    },
    Family { label: "WOOFi (base → quote)", picks: |p| model(p) == "woofi", side: (1, 0) },
    Family { label: "WOOFi (base → base)", picks: |p| model(p) == "woofi", side: (1, 2) },
    Family { label: "DODO V2 PMM", picks: |p| model(p) == "dodo_pmm", side: (0, 1) },
    Family { label: "Gyroscope E-CLP", picks: |p| model(p) == "gyro_eclp", side: (0, 1) },
    Family { label: "Maverick V2", picks: |p| model(p) == "maverick_v2", side: (0, 1) },
    Family { label: "LunarBase", picks: |p| model(p) == "lunarbase", side: (0, 1) },
];

const META_ID: &str = "0xmeta";

/// A legacy meta pool (A 200, 4 bps, 1 M of its coin) over a legacy 3-coin base pool (1 M of
/// each coin, 3 M LP tokens), every coin of 18 decimals: the shapes of `meta_bound_tests.rs`.
fn meta_pool() -> serde_json::Value {
    let wire = |balances: usize| {
        serde_json::json!({
            "model": "stableswap", "template": "legacy",
            "balances": vec!["1000000000000000000000000"; balances],
            "rates": vec!["1000000000000000000"; balances], "fee": "4000000",
            "offpegFeeMultiplier": "0", "initialA": "20000", "futureA": "20000",
            "initialATime": "0", "futureATime": "0", "timestamp": "1" })
    };
    let mut state = wire(2);
    let mut base = wire(3);
    base.as_object_mut().expect("object").remove("model");
    state["base"] = base;
    state["baseSupply"] = "3000000000000000000000000".into();
    state["basePool"] = "0xb000000000000000000000000000000000000001".into();
    let token = |n: u8| format!("0x{n:040x}");
    serde_json::json!({ "id": META_ID, "dex": "CURVE",
        "tokens": [token(1), token(2), token(3), token(4)], "state": state })
}

/// The largest output the side pays for any input it accepts (to the unit where it refuses past
/// a limit, to 1e-12 where the output only saturates; inputs too small to pay are passed over).
fn max_out(pool: &PoolState, (i, j): (usize, usize)) -> f64 {
    let out = |a: U256| pool.amount_out(i, j, a).ok().map(|o| o.amount_out);
    let (mut ok, mut best) = (U256::ZERO, U256::ZERO);
    let mut amount = U256::from(1u8);
    let refused = loop {
        match out(amount) {
            Some(o)
                if best.is_zero()
                    || f64::from(o.saturating_sub(best)) > f64::from(best) * 1e-12 =>
            {
                (ok, best) = (amount, o.max(best));
            }
            Some(_) => break None,
            // Too little to pay a unit (a pool may refuse that): not yet its limit.
            None if best.is_zero() => {}
            None => break Some(amount),
        }
        match amount.checked_mul(U256::from(2u8)) {
            Some(next) => amount = next,
            None => break None,
        }
    };
    if let Some(mut refused) = refused {
        while refused - ok > U256::from(1u8) {
            let mid = ok + (refused - ok) / U256::from(2u8);
            match out(mid) {
                Some(o) => (ok, best) = (mid, o.max(best)),
                None => refused = mid,
            }
        }
    }
    f64::from(best)
}

/// Median ns per `amount_out` call over `repetitions` batches.
fn median_ns(pool: &PoolState, (i, j): (usize, usize), amount: U256, repetitions: usize) -> f64 {
    median_ns_of(|| pool.amount_out(black_box(i), j, black_box(amount)).is_ok(), repetitions)
}

/// Median ns per call of `call` over `repetitions` batches of at least about 20 µs.
fn median_ns_of(mut call: impl FnMut() -> bool, repetitions: usize) -> f64 {
    let started = Instant::now();
    let mut calls = 0u32;
    while started.elapsed().as_micros() < 20 || calls < 1 {
        black_box(call());
        calls += 1;
    }
    let mut per_call: Vec<f64> = (0..repetitions)
        .map(|_| {
            let started = Instant::now();
            for _ in 0..calls {
                black_box(call());
            }
            started.elapsed().as_nanos() as f64 / f64::from(calls)
        })
        .collect();
    per_call.sort_by(f64::total_cmp);
    per_call[per_call.len() / 2]
}

/// The bound-term row of a pooled venue's side (None: the side's curve is not a pooled venue's):
/// ns per `Curve::respond` at the average rate of the exact swap of each size, and the input the
/// term's trade takes at 10 %.
fn term_row(
    pool: &PoolState,
    side: (usize, usize),
    depth: f64,
    repetitions: usize,
) -> Option<String> {
    let curve = Curve::of(pool, side.0, side.1)?;
    if !matches!(curve, Curve::Pooled(_)) {
        return None;
    }
    let mut cells = Vec::new();
    let mut input = 0.0;
    for (_, share) in SIZES {
        let amount = U256::try_from((depth * share).floor()).expect("amount");
        let Ok(outcome) = pool.amount_out(side.0, side.1, amount) else {
            cells.push("refused".to_string());
            continue;
        };
        let rate = f64::from(outcome.amount_out) / f64::from(amount);
        input = curve.respond(rate).input;
        let ns =
            median_ns_of(|| black_box(&curve).respond(black_box(rate)).input > 0.0, repetitions);
        cells.push(format!("{ns:.0}"));
    }
    Some(format!("{} | {input:.3e}", cells.join(" | ")))
}

fn main() {
    let repetitions: usize =
        std::env::args().nth(1).map_or(301, |s| s.parse().expect("repetitions"));
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURE);
    let mut pools: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("JSON");
    pools.push(meta_pool());
    let mut terms = Vec::new();
    println!("| family | pool | side | depth (raw units in) | 0.01 % | 1 % | 10 % | gas crossings at 10 % |");
    println!("|---|---|---|---:|---:|---:|---:|---:|");
    for family in FAMILIES {
        let Some(wire) = pools.iter().find(|p| (family.picks)(p)) else {
            println!("| {} | none in the fixture | | | | | | |", family.label);
            continue;
        };
        let input: PoolInput = serde_json::from_value(wire.clone()).expect("pool input");
        let (dex, id) = (input.dex, input.id.clone());
        let pool = decode_state(dex, input.state).expect("pool state");
        let side = family.side;
        let depth = max_out(&pool, side) / pool.spot_price(side.0, side.1);
        let mut cells = Vec::new();
        let mut crossings = String::new();
        for (_, share) in SIZES {
            let amount = U256::try_from((depth * share).floor()).expect("amount");
            match pool.amount_out(side.0, side.1, amount) {
                Ok(outcome) => {
                    crossings = outcome.crossings.to_string();
                    cells.push(format!("{:.0}", median_ns(&pool, side, amount, repetitions)));
                }
                Err(e) => cells.push(format!("refused ({e:?})")),
            }
        }
        let row = format!(
            "| {} | {dex} {} | {} → {} |",
            family.label,
            &id[..id.len().min(10)],
            side.0,
            side.1
        );
        println!("{row} {depth:.3e} | {} | {crossings} |", cells.join(" | "));
        if let Some(term) = term_row(&pool, side, depth, repetitions) {
            terms.push(format!("{row} {term} |"));
        }
    }
    let sizes: Vec<&str> = SIZES.iter().map(|(name, _)| *name).collect();
    println!("\nns per exact swap (median), at {} of depth", sizes.join(", "));
    println!("\n| pooled venue | pool | side | 0.01 % | 1 % | 10 % | term's input at 10 % |");
    println!("|---|---|---|---:|---:|---:|---:|");
    terms.iter().for_each(|row| println!("{row}"));
    println!(
        "\nns per bound-term evaluation (median), at the exact swap's average rate at each size"
    );
}
