//! The LUNARBASE model against `test/crosscheck/lunarbase_pool.py`, a second implementation of
//! LunarBase's published math written apart in Python's exact integers (itself equal to the
//! stand-in on anvil, `test/crosscheck/lunarbasePython.test.ts`): random pools (anchors over the
//! whole uint160 range, directional fees up to the 100 % sentinel, maximum punishments, reserves
//! from empty to the uint112 ceiling, whitelisted callers or multipliers up to 2^200, fresh, stale
//! and paused states), each traded several times in a row, each trade on the state the model's
//! `apply` left (the punishment a swap stores prices the next). Each trade's output, fee, stored
//! fees and reserves, or its revert's name, must be the reference's. Also: the bound curve is never
//! below what a run of swaps pays. Runs python3, no chain. `CROSSCHECK_CASES` sets the number of
//! pools (default 300).

use super::{LunarbasePool, LunarbaseWire, MAX_FEE};
use crate::dex::DexId;
use crate::math::U256;
use crate::pools::bound_curve::BoundCurve;
use crate::pools::input::FromWire;
use crate::pools::json_lines::{repo_path, run_json_lines};
use crate::pools::registry::spec;
use crate::pools::{PoolError, PoolModel};
use crate::route::test_market::Rng;
use serde_json::{json, Value};

const TRADES_PER_POOL: usize = 4;

fn cases_count() -> usize {
    std::env::var("CROSSCHECK_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(300)
}

fn pick<T: Copy>(rng: &mut Rng, items: &[T]) -> T {
    items[rng.range(0, items.len() as u64) as usize]
}

fn chance(rng: &mut Rng, percent: u64) -> bool {
    rng.range(0, 100) < percent
}

/// Log-uniform in [2^lo, 2^hi) (hi ≤ 256), at full 256-bit width.
fn log2_amount(rng: &mut Rng, lo: u32, hi: u32) -> U256 {
    let bits = rng.range(u64::from(lo), u64::from(hi)) as usize;
    let mut v = U256::from_limbs([rng.next(), rng.next(), rng.next(), rng.next()]);
    v >>= 256 - bits.max(1);
    v | (U256::from(1u8) << bits.saturating_sub(1))
}

fn random_fee(rng: &mut Rng) -> u32 {
    if chance(rng, 10) {
        return pick(rng, &[MAX_FEE, MAX_FEE - 1, 0]);
    }
    if chance(rng, 70) {
        rng.range(0, (1 << 24) / 50) as u32
    } else {
        rng.range(0, u64::from(MAX_FEE) + 1) as u32
    }
}

fn random_pool(rng: &mut Rng) -> LunarbasePool {
    let u112 = U256::from(u128::MAX >> 16);
    let reserve = |rng: &mut Rng| {
        if chance(rng, 4) {
            U256::ZERO
        } else if chance(rng, 4) {
            u112 - U256::from(rng.range(0, 1_000_000))
        } else {
            let lo = if chance(rng, 10) { 1 } else { 14 };
            log2_amount(rng, lo, 100)
        }
    };
    let (reserve_x, reserve_y) = (reserve(rng), reserve(rng));
    let anchor = if chance(rng, 2) {
        U256::ZERO
    } else if chance(rng, 10) {
        log2_amount(rng, 1, 160)
    } else {
        log2_amount(rng, 70, 130)
    };
    let latest_update_block = rng.range(1_000, 1_000_000);
    let block_delay = if chance(rng, 70) { rng.range(8, 40) } else { rng.range(0, 5) };
    // Mostly fresh; sometimes up to a block past the delay.
    let age = if chance(rng, 60) { 0 } else { rng.range(0, block_delay + 2) };
    let multiplier = if chance(rng, 40) {
        U256::from(1u8)
    } else if chance(rng, 5) {
        U256::from(1u8) << 200
    } else {
        U256::from(pick(rng, &[0u64, 1, 2, 3, 10, 100]))
    };
    let s = |v: U256| v.to_string();
    let wire = json!({
        "anchorPrice": s(anchor), "feeAskX24": random_fee(rng).to_string(),
        "feeBidX24": random_fee(rng).to_string(),
        "maxPunishmentX24": (if chance(rng, 25) { 0 } else if chance(rng, 10) { MAX_FEE } else { rng.range(1, (1 << 24) / 4) as u32 }).to_string(),
        "reserveX": s(reserve_x), "reserveY": s(reserve_y), "feeMultiplier": s(multiplier),
        "latestUpdateBlock": latest_update_block.to_string(), "blockDelay": block_delay.to_string(),
        "block": (latest_update_block + age).to_string(), "paused": chance(rng, 3),
    });
    LunarbasePool::from_wire(
        serde_json::from_value::<LunarbaseWire>(wire).unwrap(),
        &spec(DexId::Lunarbase),
    )
    .unwrap()
}

/// An input worth a random share of the output side's reserve (sometimes 3 times it, or an edge).
fn random_amount(rng: &mut Rng, pool: &LunarbasePool, x_to_y: bool) -> U256 {
    if chance(rng, 5) {
        return pick(rng, &[U256::ZERO, U256::from(1u8), U256::MAX, U256::from(u128::MAX >> 16)]);
    }
    let q192 = U256::from(1u8) << 192;
    let squared = pool.anchor * pool.anchor;
    let out_reserve = if x_to_y { pool.reserve_y } else { pool.reserve_x };
    let full = if squared.is_zero() {
        out_reserve
    } else if x_to_y {
        out_reserve.saturating_mul(q192) / squared
    } else {
        out_reserve.saturating_mul(squared) / q192
    };
    let share = U256::from(rng.log_amount(0, 6).max(1));
    let scaled = full.saturating_mul(share).saturating_mul(U256::from(if chance(rng, 10) {
        3u8
    } else {
        1
    })) / U256::from(1_000_000u32);
    if scaled.is_zero() {
        U256::from(rng.log_amount(0, 6).max(1))
    } else {
        scaled
    }
}

/// The reference's case: the pool and its trades (a paused pool's swaps are refused before the
/// reference is asked: it does not model the pause).
fn case_of(pool: &LunarbasePool, trades: &[(bool, U256)]) -> Value {
    let block = pool.block.to_string();
    json!({
        "anchor": pool.anchor.to_string(), "feeAsk": pool.fee_ask.to_string(),
        "feeBid": pool.fee_bid.to_string(), "maxPunishment": pool.max_punishment.to_string(),
        "reserveX": pool.reserve_x.to_string(), "reserveY": pool.reserve_y.to_string(),
        "latestUpdateBlock": pool.latest_update_block.to_string(),
        "blockDelay": pool.block_delay.to_string(), "multiplier": pool.multiplier.to_string(),
        "trades": trades.iter().map(|(x_to_y, amount)| json!({
            "xToY": x_to_y, "amountIn": amount.to_string(), "minOut": "0",
            "quoteBlock": block, "swapBlock": block,
        })).collect::<Vec<_>>(),
    })
}

/// Our outcome in the reference's words: the swap's record, or the revert's name.
fn ours_as_reference(
    pool: &LunarbasePool,
    x_to_y: bool,
    amount: U256,
) -> (Value, Option<LunarbasePool>) {
    let (token_in, token_out) = if x_to_y { (0, 1) } else { (1, 0) };
    match pool.apply(token_in, token_out, amount) {
        Ok((outcome, next)) => {
            let (before, after) = if x_to_y {
                (pool.reserve_y, next.reserve_y)
            } else {
                (pool.reserve_x, next.reserve_x)
            };
            let fee = before - after - outcome.amount_out;
            let record = json!({
                "out": outcome.amount_out.to_string(), "fee": fee.to_string(),
                "feeAsk": next.fee_ask.to_string(), "feeBid": next.fee_bid.to_string(),
                "reserveX": next.reserve_x.to_string(), "reserveY": next.reserve_y.to_string(),
            });
            (record, Some(next))
        }
        Err(e) => {
            let name = match &e {
                PoolError::Overflow | PoolError::DivisionByZero => "overflow".to_string(),
                PoolError::InsufficientLiquidity => "SwapImpossible".to_string(),
                PoolError::Refused(why) => why.split(':').next().unwrap_or_default().to_string(),
                other => format!("{other:?}"),
            };
            (json!({ "error": name }), None)
        }
    }
}

#[test]
fn swaps_equal_an_independent_implementation() {
    let mut rng = Rng(0x1a2b_2424);
    let pools: Vec<LunarbasePool> = (0..cases_count()).map(|_| random_pool(&mut rng)).collect();
    let trades: Vec<Vec<(bool, U256)>> = pools
        .iter()
        .map(|pool| {
            (0..TRADES_PER_POOL)
                .map(|_| {
                    let x_to_y = chance(&mut rng, 50);
                    (x_to_y, random_amount(&mut rng, pool, x_to_y))
                })
                .collect()
        })
        .collect();
    let unpaused: Vec<usize> = (0..pools.len()).filter(|&n| !pools[n].paused).collect();
    let cases: Vec<Value> = unpaused.iter().map(|&n| case_of(&pools[n], &trades[n])).collect();
    let answers =
        run_json_lines("python3", &[repo_path("test/crosscheck/lunarbase_pool.py")], &cases);
    let mut tally: std::collections::BTreeMap<String, usize> = Default::default();
    let mut mismatches = Vec::new();
    let (mut punished, mut multiplied) = (0, 0);
    for (case, &n) in unpaused.iter().enumerate() {
        let mut pool = pools[n].clone();
        for (t, &(x_to_y, amount)) in trades[n].iter().enumerate() {
            let (ours, next) = ours_as_reference(&pool, x_to_y, amount);
            let reference = &answers[case]["trades"][t]["swap"];
            if &ours != reference {
                mismatches.push(format!(
                    "pool {n} trade {t}: ours {ours}, reference {reference}; {}",
                    cases[case]
                ));
            }
            let key = ours.get("error").and_then(Value::as_str).unwrap_or("paid").to_string();
            *tally.entry(key).or_default() += 1;
            if let Some(next) = next {
                let (before, after) = if x_to_y {
                    (pool.fee_bid, next.fee_bid)
                } else {
                    (pool.fee_ask, next.fee_ask)
                };
                punished += usize::from(after > before);
                multiplied += usize::from(pool.multiplier > U256::from(1u8) && ours["fee"] != "0");
                pool = next;
            }
        }
    }
    // The pause is not the reference's: every paused pool refuses every trade, by the pause.
    for n in (0..pools.len()).filter(|&n| pools[n].paused) {
        for &(x_to_y, amount) in &trades[n] {
            let (ours, _) = ours_as_reference(&pools[n], x_to_y, amount);
            assert_eq!(ours, json!({ "error": "EnforcedPause" }), "pool {n}");
        }
    }
    eprintln!(
        "LUNARBASE vs lunarbase_pool.py: {} mismatches; {tally:?}; {punished} raised their fee, {multiplied} paid a multiplied fee",
        mismatches.len()
    );
    assert!(mismatches.is_empty(), "{:#?}", &mismatches[..mismatches.len().min(5)]);
    let count = |k: &str| tally.get(k).copied().unwrap_or(0);
    assert!(count("paid") > cases_count(), "{tally:?}");
    for kind in ["StalePrice", "SwapImpossible", "overflow"] {
        assert!(count(kind) > 0, "the {kind} path went untested: {tally:?}");
    }
    assert!(punished > 10 && multiplied > 10, "{punished} punished, {multiplied} multiplied");
}

#[test]
fn a_stale_or_paused_pool_refuses_and_has_no_curve() {
    let mut rng = Rng(0x57a1_e000);
    let mut pool = loop {
        let pool = random_pool(&mut rng);
        if !pool.paused && pool.fresh() && pool.first_rate(0, 1).is_some() {
            break pool;
        }
    };
    pool.block = pool.latest_update_block + pool.block_delay;
    let refused = pool.amount_out(0, 1, U256::from(1000u32)).unwrap_err();
    assert!(
        matches!(&refused, PoolError::Refused(why) if why.starts_with("StalePrice")),
        "{refused:?}"
    );
    assert!(pool.bound_curve(0, 1).is_none() && pool.amount_out_bound(0, 1, 1e6) == 0.0);
    pool.block -= 1;
    assert!(pool.bound_curve(0, 1).is_some());
    pool.paused = true;
    let refused = pool.amount_out(0, 1, U256::from(1000u32)).unwrap_err();
    assert!(matches!(&refused, PoolError::Refused(why) if why.starts_with("EnforcedPause")));
    assert!(pool.bound_curve(0, 1).is_none());
}

#[test]
fn the_bound_is_never_below_a_run_of_swaps() {
    let mut rng = Rng(0x0b0d_2424);
    let mut checked = 0;
    for _ in 0..cases_count() {
        let start = random_pool(&mut rng);
        for (token_in, token_out) in [(0, 1), (1, 0)] {
            let Some(line) = start.bound_curve(token_in, token_out) else { continue };
            let (mut pool, mut total_in, mut total_out) = (start.clone(), 0.0, 0.0);
            for _ in 0..8 {
                let amount = random_amount(&mut rng, &pool, token_in == 0)
                    / U256::from(rng.range(1, 20))
                    + U256::from(1u8);
                let Ok((outcome, next)) = pool.apply(token_in, token_out, amount) else { break };
                total_in += f64::from(amount);
                total_out += f64::from(outcome.amount_out);
                pool = next;
                let bound = line.value(total_in);
                assert!(
                    total_out <= bound * (1.0 + 1e-13),
                    "{total_out} > {bound} after {total_in} in on {start:?}"
                );
                assert_eq!(start.amount_out_bound(token_in, token_out, total_in), bound);
                let state = crate::pools::PoolState::Lunarbase(start.clone());
                let curve =
                    crate::route::convex::curve::Curve::of(&state, token_in, token_out).unwrap();
                assert!(curve.value(total_in) >= bound * (1.0 - 1e-12));
                checked += 1;
            }
        }
    }
    assert!(checked > cases_count(), "{checked}");
}

/// Trades of up to the output reserve's worth, each as 64 equal swaps in a row (the run that
/// comes closest to the bound: each swap stores its punishment for the next): the run pays at most
/// the bound, and the bound is within what the punishment's split leaves (half a 64th of the
/// punishment of the whole trade), its tangents' tolerance, the anchor's floors, the punishment's
/// ceilings and the slack. The first rate's line up
/// to the reserve (the bound before) is not, on a fifth of these trades (the others too small for
/// their punishment to show).
#[test]
fn the_bound_follows_the_punishment_a_run_of_swaps_pays() {
    let mut rng = Rng(0x7164_2424);
    let (mut checked, mut line_loose) = (0, 0);
    for _ in 0..cases_count() * 4 {
        let mut start = random_pool(&mut rng);
        start.multiplier = U256::from(1u8);
        start.max_punishment = rng.range(1 << 14, 1 << 22) as u32;
        let x_to_y = chance(&mut rng, 50);
        let (token_in, token_out) = if x_to_y { (0, 1) } else { (1, 0) };
        let Some(curve) = start.bound_curve(token_in, token_out) else { continue };
        let whole = random_amount(&mut rng, &start, x_to_y);
        let part = whole / U256::from(64u8);
        if part.is_zero() || whole > U256::from(1u8) << 120 {
            continue;
        }
        let (mut pool, mut paid) = (start.clone(), 0.0);
        let mut complete = true;
        for _ in 0..64 {
            match pool.apply(token_in, token_out, part) {
                Ok((outcome, next)) => {
                    paid += f64::from(outcome.amount_out);
                    pool = next;
                }
                Err(_) => complete = false,
            }
        }
        let total_in = f64::from(part) * 64.0;
        let bound = curve.value(total_in);
        assert!(paid <= bound * (1.0 + 1e-12), "{paid} > {bound} on {start:?}");
        if !complete || paid < 1e9 {
            continue;
        }
        // The punishment of the whole trade, as a share of its output: the run pays 65/128 of it,
        // the bound counts half.
        let rate = start.first_rate(token_in, token_out).unwrap();
        let one_swap_fee = f64::from(start.punishment(x_to_y, part * U256::from(64u8)).unwrap());
        let stored = f64::from(if x_to_y { start.fee_bid } else { start.fee_ask });
        let price = rate / (1.0 - stored / 16_777_216.0);
        let split_gap = price * total_in * one_swap_fee / 16_777_216.0 / 128.0;
        // The anchor's floors: a swap's gross is short of its input's value by up to √P + 1.
        let floors = 64.0 * (price.sqrt() + 2.0);
        // The punishment's ceiling: each swap stores at least one unit (of 2²⁴) more.
        let ceilings = price * total_in * 32.5 / 16_777_216.0;
        let allowed = split_gap * 1.01 + 2e-5 * bound + floors + ceilings + 200.0;
        assert!(
            bound - paid <= allowed,
            "the bound {bound} is {} bps above the run's {paid} (allowed {}) on {start:?}",
            (bound - paid) / bound * 1e4,
            allowed / bound * 1e4
        );
        let old_line = (rate * total_in).min(f64::from(if x_to_y {
            start.reserve_y
        } else {
            start.reserve_x
        }));
        if old_line - paid > allowed {
            line_loose += 1;
        }
        checked += 1;
    }
    assert!(
        checked > cases_count() / 2 && line_loose * 10 > checked,
        "{checked} checked, the line loose on {line_loose}"
    );
}

/// The devnet's cbBTC/USDC venue one keeper tick after the saved chain (the fixture
/// `route/convex/fixtures/devnet_sampled_fresh_pools.json`): X is cbBTC (8 decimals, about 599 raw
/// USDC a raw unit), fees 3 bps, a maximum punishment of 1 %.
fn devnet_cbbtc_venue() -> LunarbasePool {
    let n = |v: &str| U256::from_str_radix(v, 10).unwrap();
    LunarbasePool {
        anchor: n("1939583179009958444122450793353"),
        fee_ask: 5033,
        fee_bid: 5033,
        max_punishment: 167_772,
        reserve_x: n("666666700"),
        reserve_y: n("400000000000"),
        multiplier: U256::from(1u8),
        latest_update_block: 672,
        block_delay: 10,
        block: 673,
        paused: false,
    }
}

/// The integral of the fee-taken rate alone (no allowance for the fee's floors).
fn fee_taken_integral(pool: &LunarbasePool, token_in: usize, token_out: usize) -> BoundCurve {
    let (falling, _) = pool.fee_taken_rate(token_in, token_out).unwrap();
    BoundCurve::falling(falling, 0.0, f64::INFINITY).unwrap()
}

/// Why the bound allows a raw unit a swap: the fee is floored, so each swap of a run may pay up to a
/// raw unit above the rate, and a run of 64 swaps of about $4 (each one's gross chosen where the
/// fee's fraction is largest, its input the least that buys that gross) collects it on nearly every
/// swap: 60 raw cbBTC and more above the integral of the rate. The bound is above the run.
#[test]
fn a_run_collects_the_fees_floor_on_each_swap() {
    let start = devnet_cbbtc_venue();
    let (token_in, token_out) = (1, 0);
    let integral = fee_taken_integral(&start, token_in, token_out);
    let bound = start.bound_curve(token_in, token_out).unwrap();
    // Selling Y the gross is ⌊⌊a·s⌋·s⌋ (s = 2⁹⁶/anchor): the least input buying a gross g is
    // about ⌈⌈g/s⌉/s⌉.
    let root = start.price_x_in_y().sqrt();
    let (mut pool, mut total_in, mut total_out) = (start.clone(), 0.0, 0.0);
    for _ in 0..64 {
        // (what the swap gains over the integral, its input, its output, the pool after)
        let mut best: Option<(f64, U256, f64, LunarbasePool)> = None;
        let before = integral.value(total_in);
        for gross in 6_000u64..7_500 {
            let least = ((gross as f64 * root).ceil() * root).ceil() as u128;
            for amount in least.saturating_sub(2)..least + 3 {
                let amount = U256::from(amount);
                let Ok((outcome, next)) = pool.apply(token_in, token_out, amount) else { continue };
                let (a, out) = (f64::from(amount), f64::from(outcome.amount_out));
                let gain = out - (integral.value(total_in + a) - before);
                if best.as_ref().is_none_or(|b| gain > b.0) {
                    best = Some((gain, amount, out, next));
                }
            }
        }
        let (_, amount, out, next) = best.unwrap();
        total_in += f64::from(amount);
        total_out += out;
        pool = next;
        assert!(
            total_out <= bound.value(total_in),
            "{total_out} above the bound after {total_in} in"
        );
    }
    let above = total_out - integral.value(total_in);
    assert!(above > 60.0, "the run pays {above} raw above the integral, {total_in} raw USDC in");
    let allowance = bound.value(total_in) - integral.value(total_in);
    assert!(allowance <= 64.0 + 1e-9 * bound.value(total_in), "{allowance}");
}
