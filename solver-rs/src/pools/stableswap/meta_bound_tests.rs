//! The meta venue's budget against the exact meta model (no chain, no server): random legacy meta
//! pools over random legacy base pools of 2 or 3 coins, random runs of swaps through the venue
//! (coin → base coin, base coin → coin, base coin → base coin, mixed in any order), valued at
//! random prices: the joint term is never below what a run is worth, and one pair's curve never
//! below what a run on that pair alone pays.

use super::math::{get_d, Ramp};
use super::{MetaBase, StableSwapPool, Template};
use crate::dex::DexId;
use crate::math::U256;
use crate::pools::input::FromWire;
use crate::pools::registry::spec;
use crate::pools::stableswap::VpCache;
use crate::pools::PoolModel;
use crate::route::convex::pooled::{Budget, CoinPrices, Second};
use crate::route::test_market::{ordered_pairs, Rng};

fn pow10(d: u32) -> U256 {
    U256::from(10u64).pow(U256::from(d))
}

fn plain(rng: &mut Rng, balances: Vec<U256>, decimals: &[u32]) -> StableSwapPool {
    let amp = U256::from([5u64, 50, 200, 2000][rng.range(0, 4) as usize] * 100);
    StableSwapPool {
        template: Template::Legacy,
        balances,
        rates: decimals.iter().map(|&d| pow10(36 - d)).collect(),
        fee: U256::from(
            [1_000_000u64, 4_000_000, 10_000_000, 40_000_000][rng.range(0, 4) as usize],
        ),
        offpeg_fee_multiplier: U256::ZERO,
        admin_fee: super::math::ADMIN_FEE,
        ramp: Ramp {
            initial_a: amp,
            future_a: amp,
            initial_time: U256::ZERO,
            future_time: U256::ZERO,
        },
        timestamp: U256::from(1u64),
        base: None,
    }
}

/// A random meta venue: a base pool of 2 or 3 coins (balances up to 3× apart, 6 or 18 decimals,
/// a virtual price from 1 to 1.1), and a meta pool holding 1 % to 60 % of its LP supply against
/// 0.3× to 3× that in its coin.
pub(in crate::pools::stableswap) fn random_meta(rng: &mut Rng) -> StableSwapPool {
    let n = rng.range(2, 4) as usize;
    let tokens = rng.log_amount(4, 8) as f64;
    let decimals = |rng: &mut Rng| if rng.range(0, 3) == 0 { 6 } else { 18 };
    let base_decimals: Vec<u32> = (0..n).map(|_| decimals(rng)).collect();
    let amount = |rng: &mut Rng, tokens: f64, d: u32| {
        U256::from(
            (tokens * (0.4 + rng.range(0, 800) as f64 / 1000.0) * 10f64.powi(d as i32)) as u128,
        )
    };
    let balances = base_decimals.iter().map(|&d| amount(rng, tokens, d)).collect();
    let base = plain(rng, balances, &base_decimals);
    let amp = super::math::amp_at(&base.ramp, base.timestamp).unwrap();
    let d = get_d(&base.xp().unwrap(), amp, base.template.invariant()).unwrap();
    let vp_milli = 1000 + rng.range(0, 100);
    let supply = d * U256::from(1000u64) / U256::from(vp_milli);
    let share = (1 + rng.range(0, 60)) as f64 / 100.0;
    let lp = U256::from((f64::from(supply) * share) as u128);
    let coin_decimals = decimals(rng);
    let coin_tokens = f64::from(lp) / 1e18 * (0.3 + rng.range(0, 2700) as f64 / 1000.0);
    let coin = U256::from((coin_tokens * 10f64.powi(coin_decimals as i32)) as u128);
    let meta = plain(rng, vec![coin, lp], &[coin_decimals, 18]);
    StableSwapPool { base: Some(Box::new(MetaBase { pool: base, supply, cache: None })), ..meta }
}

/// The raw balance of venue coin `k` (the meta pool's coin, then the base pool's).
fn balance(pool: &StableSwapPool, k: usize) -> f64 {
    let base = pool.base.as_ref().unwrap();
    f64::from(if k == 0 { pool.balances[0] } else { base.pool.balances[k - 1] })
}

/// What one raw unit of venue coin `k` is worth, in 18-decimal units.
fn worth(pool: &StableSwapPool, k: usize) -> f64 {
    let base = pool.base.as_ref().unwrap();
    f64::from(if k == 0 { pool.rates[0] } else { base.pool.rates[k - 1] }) / 1e36
}

/// Per coin, the raw amounts `swaps` (coin in, coin out, amount in) put in and took out, and the
/// venue's state after them; the swaps the venue refuses are skipped.
fn run(
    pool: &StableSwapPool,
    swaps: &[(usize, usize, u128)],
) -> (Vec<f64>, Vec<f64>, StableSwapPool) {
    let coins = pool.coins();
    let (mut ins, mut outs) = (vec![0.0; coins], vec![0.0; coins]);
    let mut state = pool.clone();
    for &(i, j, dx) in swaps.iter().filter(|s| s.2 > 0) {
        let Ok((outcome, next)) = state.apply(i, j, U256::from(dx)) else { continue };
        ins[i] += dx as f64;
        outs[j] += f64::from(outcome.amount_out);
        state = next;
    }
    (ins, outs, state)
}

fn random_swaps(
    rng: &mut Rng,
    pool: &StableSwapPool,
    pairs: &[(usize, usize)],
) -> Vec<(usize, usize, u128)> {
    (0..rng.range(1, 9))
        .map(|_| {
            let (i, j) = pairs[rng.range(0, pairs.len() as u64) as usize];
            let scale = 10f64.powf(rng.range(0, 4000) as f64 / 1000.0 - 4.5);
            (i, j, ((balance(pool, i) * scale) as u128).max(1))
        })
        .collect()
}

/// At random prices near the coins' worth, the venue's joint term bounds what its own trade (as
/// swaps), `extra` runs and 39 random runs are worth: the runs checked and how many mixed the meta
/// pool's paths with the base pool's own exchange.
pub(in crate::pools::stableswap) fn runs_stay_under_the_joint_term(
    rng: &mut Rng,
    pool: &StableSwapPool,
    budget: &Budget,
    case: usize,
    extra: &[Vec<(usize, usize, u128)>],
) -> (usize, usize) {
    let coins = pool.coins();
    let (mut checked, mut across) = (0, 0);
    assert_eq!(budget.coins.len(), coins);
    let prices: Vec<CoinPrices> = (0..coins)
        .map(|k| {
            let w = worth(pool, k) * (1.0 + rng.range(0, 200) as f64 / 1e4 - 0.01);
            let spread = 1.0 + rng.range(0, 3) as f64 / 1e4;
            CoinPrices { tender: Some(w * spread), receive: Some(w) }
        })
        .collect();
    let joint = budget.joint(&prices);
    let bound = joint.value + 1e-12 * joint.magnitude;
    let pairs = ordered_pairs(coins);
    // The joint's own trade as swaps (each deposit over the withdrawals by the budget they
    // spend), then random runs.
    let spent: f64 = joint.budget.iter().filter(|b| **b < 0.0).map(|b| -b).sum();
    let mut planned = Vec::new();
    for t in (0..coins).filter(|&t| joint.inputs[t] > 0.0) {
        for u in (0..coins).filter(|&u| joint.budget[u] < 0.0) {
            planned.push((t, u, (joint.inputs[t] * -joint.budget[u] / spent) as u128));
        }
    }
    let runs = std::iter::once(planned).chain(extra.iter().cloned());
    let runs = runs.chain((1..40).map(|_| random_swaps(rng, pool, &pairs))).collect::<Vec<_>>();
    for swaps in runs {
        let (ins, outs, _) = run(pool, &swaps);
        let value: f64 = (0..coins)
            .map(|t| prices[t].receive.unwrap() * outs[t] - prices[t].tender.unwrap() * ins[t])
            .sum();
        checked += 1;
        across += usize::from(
            swaps.iter().any(|s| s.0 > 0 && s.1 > 0) && swaps.iter().any(|s| s.0 == 0 || s.1 == 0),
        );
        assert!(
                value <= bound,
                "case {case}: a run {swaps:?} ({ins:?} in, {outs:?} out) is worth {value}, above the joint term {bound}"
            );
    }
    (checked, across)
}

#[test]
fn the_meta_venue_budget_bounds_every_run_through_the_meta_and_base_pools() {
    let mut rng = Rng(0x3e7a);
    let (mut checked, mut across) = (0, 0);
    let mut one_swap: [Vec<f64>; 3] = Default::default();
    for case in 0..300 {
        let pool = random_meta(&mut rng);
        let coins = pool.coins();
        let budget = pool.budget().expect("a meta venue's budget");
        let (runs, mixed) = runs_stay_under_the_joint_term(&mut rng, &pool, &budget, case, &[]);
        checked += runs;
        across += mixed;
        let pairs = ordered_pairs(coins);
        // One swap of 1 % of the input's balance per kind of pair: the curve's excess over it.
        for (kind, t, u) in [(0, 0, 1), (1, 1, 0), (2, 1, 2)] {
            let dx = U256::from((balance(&pool, t) / 100.0) as u128);
            if let Ok(out) = pool.amount_out(t, u, dx) {
                let out = f64::from(out.amount_out);
                if out > 0.0 {
                    one_swap[kind].push(budget.pair_value(t, u, f64::from(dx)) / out - 1.0);
                }
            }
        }
        // One pair alone: its curve bounds a run on it.
        let (t, u) = pairs[rng.range(0, pairs.len() as u64) as usize];
        let swaps: Vec<_> = random_swaps(&mut rng, &pool, &[(t, u)]);
        let (ins, outs, _) = run(&pool, &swaps);
        let curve = budget.pair_value(t, u, ins[t]);
        assert!(
            outs[u] <= curve * (1.0 + 1e-12),
            "case {case}: {t}→{u} {swaps:?} paid {}, curve {curve}",
            outs[u]
        );
    }
    assert!(checked > 10_000 && across > 2_000, "only {checked} runs, {across} across both pools");
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
    };
    let [a, b, c] = &mut one_swap;
    eprintln!(
        "{checked} runs under the meta venue's joint term ({across} mixing the meta pool and the base pool's own exchange); one pair's curve over one swap of 1 % of the input balance, median: coin → base {:.1e}, base → coin {:.1e}, base → base {:.1e}",
        median(a), median(b), median(c)
    );
}

/// The venue with the pre-factory template's cache fresh at a price `below` (a fraction) under the
/// base pool's virtual price now.
fn with_stale_cache(pool: &StableSwapPool, below: f64) -> StableSwapPool {
    let mut pool = pool.clone();
    let base = pool.base.as_mut().unwrap();
    let vp = base.virtual_price().unwrap();
    let cut = U256::from((f64::from(vp) * below) as u128);
    base.cache = Some(VpCache { virtual_price: vp - cut, updated: base.pool.timestamp });
    pool
}

#[test]
fn a_cached_price_below_the_claim_is_a_gain_the_bound_allows_for() {
    // The LP token rated at a stale price 0.05 % to 3 % below its claim: the meta coin buys it
    // cheap (coin → base coin: LP tokens out at the stored price, withdrawn at the base pool's),
    // which the budget holds only with L₀·(vp₀ − stored) in its slack.
    let mut rng = Rng(0x7c4d);
    let (mut checked, mut across) = (0, 0);
    for case in 0..150 {
        let below = [0.0005, 0.003, 0.01, 0.03][case % 4];
        let pool = with_stale_cache(&random_meta(&mut rng), below);
        let budget = pool.budget().expect("a meta venue's budget");
        let coin = balance(&pool, 0);
        let sell_coin: Vec<_> = (1..pool.coins())
            .flat_map(|j| [0.01, 0.1, 0.3, 1.0].map(|share| vec![(0, j, (coin * share) as u128)]))
            .collect();
        let (runs, mixed) =
            runs_stay_under_the_joint_term(&mut rng, &pool, &budget, case, &sell_coin);
        checked += runs;
        across += mixed;
    }
    assert!(checked > 5_000 && across > 500, "only {checked} runs, {across} across both pools");
}

#[test]
fn a_cache_is_used_while_fresh_then_refreshed_and_stored_by_every_path() {
    let mut rng = Rng(0x91e3);
    let pool = with_stale_cache(&random_meta(&mut rng), 0.01);
    let stored = pool.base.as_ref().unwrap().cache.unwrap();
    let at = |pool: &StableSwapPool, timestamp: u64| {
        let mut pool = pool.clone();
        pool.timestamp = U256::from(timestamp);
        pool.base.as_mut().unwrap().pool.timestamp = U256::from(timestamp);
        pool
    };
    let dx = U256::from((balance(&pool, 0) / 100.0) as u128);
    let updated = u64::try_from(stored.updated).unwrap();
    // Fresh through updated + 600: the stored price, and the cache left as it was.
    let fresh = at(&pool, updated + 600);
    let (paid_fresh, next) = fresh.apply(0, 1, dx).unwrap();
    assert_eq!(next.base.as_ref().unwrap().cache, Some(stored));
    // Expired one second later: the base pool's price (above the stored one: more coin per LP
    // token, so fewer LP tokens for the coin), stored with the block's timestamp by any path.
    let expired = at(&pool, updated + 601);
    let vp = expired.base.as_ref().unwrap().virtual_price().unwrap();
    let (paid_expired, _) = expired.apply(0, 1, dx).unwrap();
    assert!(paid_expired.amount_out < paid_fresh.amount_out);
    let refreshed = Some(VpCache { virtual_price: vp, updated: U256::from(updated + 601) });
    for (i, j) in ordered_pairs(pool.coins()) {
        let dx = U256::from((balance(&pool, i) / 1000.0) as u128);
        let (_, next) = expired.apply(i, j, dx).unwrap();
        assert_eq!(next.base.as_ref().unwrap().cache, refreshed, "{i} → {j}");
    }
    // Without a cache (MetaUSD) the price is the base pool's at any timestamp.
    let mut uncached = fresh.clone();
    uncached.base.as_mut().unwrap().cache = None;
    assert_eq!(uncached.apply(0, 1, dx).unwrap().0.amount_out, paid_expired.amount_out);
}

#[test]
fn a_meta_wire_state_is_a_market_venue_of_its_underlying_coins() {
    let wire = |template: &str, balances: usize| {
        serde_json::json!({
            "template": template, "balances": vec!["1000000000000000000000"; balances],
            "rates": vec!["1000000000000000000"; balances], "fee": "4000000",
            "offpegFeeMultiplier": "0", "initialA": "20000", "futureA": "20000",
            "initialATime": "0", "futureATime": "0", "timestamp": "1" })
    };
    let meta = |base: serde_json::Value, supply: &str| {
        let mut w = wire("legacy", 2);
        w["base"] = base;
        w["baseSupply"] = supply.into();
        w["basePool"] = "0xb000000000000000000000000000000000000001".into();
        serde_json::from_value::<crate::pools::stableswap::StableSwapWire>(w).unwrap()
    };
    let pool = StableSwapPool::from_wire(
        meta(wire("legacy", 3), "3000000000000000000000"),
        &spec(DexId::Curve),
    )
    .unwrap();
    assert_eq!(pool.coins(), 4);
    assert!(pool.budget().is_some());
    assert!(pool.spot_price(0, 2) > 0.9 && pool.spot_price(0, 2) < 1.0);
    // NG templates, a base of 4 coins and an empty supply are refused.
    assert!(StableSwapPool::from_wire(meta(wire("ng", 2), "1"), &spec(DexId::Curve)).is_err());
    assert!(StableSwapPool::from_wire(meta(wire("legacy", 4), "1"), &spec(DexId::Curve)).is_err());
    assert!(StableSwapPool::from_wire(meta(wire("legacy", 2), "0"), &spec(DexId::Curve)).is_err());
    // A meta pool names its base pool (the market keeps the two one venue by it).
    let mut unnamed = meta(wire("legacy", 2), "1");
    unnamed.base_pool = None;
    assert!(StableSwapPool::from_wire(unnamed, &spec(DexId::Curve)).is_err());
}

/// The two budgets' left sides Σ_t [m_jt·(z_t − x_t) + n_jt·ln(z_t/x_t)] + level_j(D) at a venue
/// state (z_t the raw balance in the first budget's units, D the base pool's invariant), and the
/// sums of their terms' magnitudes. The meta budget's level term is φ_ℓ(z(D)), an upper end on its
/// LP balance's term; the test checks the budget with the LP balance's own term too.
/// Also counts, in `below`, the states only the chord's piece below D₁ holds (D eliminated).
fn second_budget_at(budget: &Budget, state: &StableSwapPool, below: &mut usize) -> [(f64, f64); 2] {
    let base = state.base.as_ref().unwrap();
    let amp = super::math::amp_at(&base.pool.ramp, base.pool.timestamp).unwrap();
    let d =
        f64::from(get_d(&base.pool.xp().unwrap(), amp, base.pool.template.invariant()).unwrap());
    let second = budget.second.as_ref().unwrap();
    let level = second.level.as_ref().unwrap();
    let mut out = [(0.0, 0.0); 2];
    for (j, (left, magnitude)) in out.iter_mut().enumerate() {
        let mut terms = Vec::new();
        for (t, c) in budget.coins.iter().enumerate() {
            let z = balance(state, t) * c.scale;
            let [m, n] = second.coefficients[t][j];
            terms.push(m * (z - c.x));
            terms.push(if n > 0.0 { n * (z / c.x).ln() } else { 0.0 });
        }
        if j == 0 {
            let z = level.per_d * d + level.offset;
            terms.push(z - level.lp);
            terms.push(level.lp_kappa * (z / level.lp).ln());
        } else {
            terms.push(-level.a * (d - level.d1));
            terms.push(-level.log * (d / level.d1).ln());
        }
        *left = terms.iter().sum();
        *magnitude = terms.iter().map(|t| t.abs()).sum::<f64>() + second.slack[j];
    }
    assert!(d >= level.floor, "the base pool's D {d} fell below the floor {}", level.floor);
    // The pairs with D eliminated: the chord's pieces (one of the two holds) and the floor's.
    let chord = second.also.as_ref().expect("the eliminated pairs");
    let either = [Some(&**chord), chord.or.as_deref()];
    let holds = |pair: &Second| {
        let (left, magnitude) = eliminated_at(budget, pair, state);
        left >= -pair.slack[1] - 1e-12 * magnitude
    };
    assert!(either.iter().flatten().any(|&p| holds(p)), "D eliminated: neither chord piece holds");
    *below += usize::from(!holds(chord));
    if let Some(floor) = chord.also.as_deref() {
        assert!(holds(floor), "D eliminated: the floor's pair fails");
    }
    out
}

/// A pair with D eliminated: its second budget's left side at a venue state, and its terms'
/// magnitude.
fn eliminated_at(budget: &Budget, pair: &Second, state: &StableSwapPool) -> (f64, f64) {
    let mut terms = Vec::new();
    for (t, c) in budget.coins.iter().enumerate() {
        let z = balance(state, t) * c.scale;
        let [m, n] = pair.coefficients[t][1];
        terms.push(m * (z - c.x));
        terms.push(if n > 0.0 { n * (z / c.x).ln() } else { 0.0 });
    }
    (terms.iter().sum(), terms.iter().map(|t| t.abs()).sum::<f64>() + pair.slack[1])
}

#[test]
fn a_second_meta_venue_budget_keeps_the_base_pools_curvature_over_every_run() {
    let mut rng = Rng(0x5b2c);
    let (mut checked, mut across, mut below) = (0, 0, 0);
    // Per size (1 %, 10 %, 50 % of the input's balance), one base → base swap: what the first
    // budget's pair curve and the curve over both budgets allow over what the swap pays.
    let mut over: [[Vec<f64>; 2]; 3] = Default::default();
    for case in 0..300 {
        let pool = random_meta(&mut rng);
        let both = pool.budget().unwrap();
        let Some(second) = both.second.as_ref() else { continue };
        let coins = pool.coins();
        let pairs = ordered_pairs(coins);
        for _ in 0..40 {
            let swaps = random_swaps(&mut rng, &pool, &pairs);
            let (_, _, end) = run(&pool, &swaps);
            checked += 1;
            across += usize::from(
                swaps.iter().any(|s| s.0 > 0 && s.1 > 0)
                    && swaps.iter().any(|s| s.0 == 0 || s.1 == 0),
            );
            for (j, (left, magnitude)) in
                second_budget_at(&both, &end, &mut below).into_iter().enumerate()
            {
                assert!(
                    left >= -second.slack[j] - 1e-12 * magnitude,
                    "case {case}: after {swaps:?} budget {j} is {left}, below −{}",
                    second.slack[j]
                );
            }
        }
        let first = Budget { second: None, ..both.clone() };
        for (k, share) in [0.01, 0.1, 0.5].into_iter().enumerate() {
            let dx = (balance(&pool, 1) * share) as u128;
            let Ok(out) = pool.amount_out(1, 2, U256::from(dx)) else { continue };
            let out = f64::from(out.amount_out);
            if out > 0.0 {
                over[k][0].push(first.pair_value(1, 2, dx as f64) / out - 1.0);
                over[k][1].push(both.pair_value(1, 2, dx as f64) / out - 1.0);
            }
        }
    }
    assert!(checked > 10_000 && across > 2_000, "only {checked} runs, {across} across both pools");
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
    };
    for (k, [a, b]) in over.iter_mut().enumerate() {
        eprintln!(
            "base → base, one swap of {} % of the input's balance, excess over what it pays, median: first budget {:.1e}, both budgets {:.1e}",
            [1, 10, 50][k],
            median(a),
            median(b)
        );
    }
    eprintln!(
        "{checked} runs under the curvature budget ({across} mixing both pools, {below} held by the chord's piece below D₁ alone)"
    );
    // The chord's piece below D₁ is needed: without it the pair with D eliminated and no floor
    // term fails on these runs.
    assert!(below > 0, "no run needed the chord's piece below D₁");
}

/// What one exact swap of venue coin t for u is worth at `tender` per raw t and `receive` per raw
/// u, at its best size on a grid of 2,000 sizes from 10⁻⁶ to all of t's balance.
fn best_swap(pool: &StableSwapPool, t: usize, u: usize, tender: f64, receive: f64) -> f64 {
    (0..=2000)
        .filter_map(|k| {
            let dx = balance(pool, t) * 10f64.powf(-6.0 + 6.0 * k as f64 / 2000.0);
            let out = pool.amount_out(t, u, U256::from(dx as u128)).ok()?;
            Some(receive * f64::from(out.amount_out) - tender * dx)
        })
        .fold(0.0, f64::max)
}

#[test]
fn the_second_budget_tightens_base_to_base_trades_and_stays_above_the_best_swap() {
    // Base coin 1 tendered at its worth, base coin 2 received at a premium of 0.1 to 5 %: the
    // first budget alone (base coins linear) sells all of coin 2's balance; the two budgets' base
    // pool curvature takes most of that away. Never below the best exact swap.
    let mut rng = Rng(0x77e1);
    let (mut first, mut both) = (Vec::new(), Vec::new());
    for case in 0..200 {
        let pool = random_meta(&mut rng);
        let budget = pool.budget().unwrap();
        if budget.second.is_none() {
            continue;
        }
        let premium = 1.0 + (1 + rng.range(0, 50)) as f64 / 1000.0;
        let (w1, w2) = (worth(&pool, 1), worth(&pool, 2));
        let mut prices = vec![CoinPrices::default(); pool.coins()];
        prices[1].tender = Some(w1);
        prices[2].receive = Some(w2 * premium);
        let best = best_swap(&pool, 1, 2, w1, w2 * premium);
        let alone = Budget { second: None, ..budget.clone() }.joint(&prices).value;
        let joint = budget.joint(&prices);
        assert!(
            joint.value + 1e-12 * joint.magnitude >= best,
            "case {case}: the term {} is below the best swap {best}",
            joint.value
        );
        // Per unit of the input's worth at 1 % of its balance: the excess over the best swap.
        let unit = w1 * balance(&pool, 1) / 100.0;
        first.push((alone - best) / unit);
        both.push((joint.value - best) / unit);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (first, both) = (median(&mut first), median(&mut both));
    eprintln!(
        "base → base at a 0.1-5 % premium, the term's excess over the best swap per 1 % of the input's balance, median: first budget {first:.2e}, both budgets {both:.2e}"
    );
    // Measured: 1.44 with the first alone, 0.47 with both (the base coins' keep of 1 and the meta
    // fee are what is left, docs/solver-optimizer.md).
    assert!(both < 0.5 * first, "both budgets {both} are not below half the first alone {first}");
}

/// Open: the term is the lesser of the first budget's value and the two budgets' (at the
/// multipliers the nested search reaches), so its flows jump where the two cross, and on some
/// venues they move with a price the term does not depend on (the first venue: ∂²/∂0∂0 0 in closed
/// form, 2.4·10³⁶ by differences). The certificate does not rest on it (any λ bounds); Newton's
/// model does.
#[test]
#[ignore = "open: the two-budget flows are not smooth on some venues (docs/solver-optimizer.md)"]
fn the_two_budget_hessian_is_the_derivative_of_its_flows() {
    let mut rng = Rng(0x4e56);
    let mut checked = 0;
    for _ in 0..200 {
        let pool = random_meta(&mut rng);
        let budget = pool.budget().unwrap();
        if budget.second.is_none() {
            continue;
        }
        let coins = pool.coins();
        let prices: Vec<CoinPrices> = (0..coins)
            .map(|k| {
                let w = worth(&pool, k) * (1.0 + rng.range(0, 200) as f64 / 1e4 - 0.01);
                CoinPrices { tender: Some(w * 1.0001), receive: Some(w) }
            })
            .collect();
        let at = budget.joint(&prices);
        if at.inputs.iter().all(|i| *i == 0.0) {
            continue;
        }
        let grad = |j: &crate::route::convex::pooled::Joint, v: usize| {
            if v.is_multiple_of(2) {
                -j.inputs[v / 2]
            } else {
                j.outputs[v / 2]
            }
        };
        let n2 = 2 * coins;
        let scale = (0..n2).map(|k| at.hessian[k * n2 + k].abs()).fold(0.0, f64::max);
        for v in 0..n2 {
            let mut moved = prices.clone();
            let h = 1e-7;
            let t = v / 2;
            let base = if v.is_multiple_of(2) {
                prices[t].tender.unwrap()
            } else {
                prices[t].receive.unwrap()
            };
            if v.is_multiple_of(2) {
                moved[t].tender = Some(base * (1.0 + h));
            } else {
                moved[t].receive = Some(base * (1.0 + h));
            }
            let next = budget.joint(&moved);
            for w in 0..n2 {
                let numeric = (grad(&next, w) - grad(&at, w)) / (base * h);
                let exact = at.hessian[w * n2 + v];
                // Within 1 %: the multipliers come from two nested searches (Newton's model, not
                // the certificate, uses this Hessian).
                assert!(
                    (numeric - exact).abs() <= 1e-2 * scale.max(exact.abs()) + 1e-9,
                    "∂²/∂{v}∂{w}: numeric {numeric}, closed form {exact}; {prices:?} {at:?}"
                );
            }
        }
        checked += 1;
    }
    assert!(checked > 50, "only {checked} venues traded");
}
