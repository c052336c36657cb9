//! The joint budget's inequality (`joint.rs`) against the exact integer swap: random vaults (the
//! cross-check's generator, `woofi_tests.rs`) and random runs of swaps through every pair, base to
//! base included, each on the state the last left (the oracle's posts excluded: one plan). After
//! every swap, with P the prices when the run started, V_P − Σ_b G_b has not fallen, and neither
//! has Σ_t P_t·d_t·in_t − Σ_t P_t·out_t/k_t − Σ_b G_b, past the budget's slack. The same runs must
//! break the inequality with the keeps stated twice over, or the check proves little; they are
//! also run against it without G and with each pair's whole spread and fee as the keeps (counted,
//! printed). Each swap is also given a random hop of three, in any order with the others: each
//! hop's swaps keep the vault's per-hop constraint (`hop.rs`), and break it with the oracle's room
//! in the block taken away or halved.

use super::hop::hop_budget;
use super::joint::{joint_budget, potential};
use super::tests::{near, pool_of, random_case};
use super::WoofiPool;
use crate::math::U256;
use crate::pools::PoolModel;
use crate::route::convex::curve::MAX_SWAPS_PER_POOL;
use crate::route::test_market::Rng;

fn pow10(e: u32) -> U256 {
    U256::from(10).pow(U256::from(e))
}

/// One swap's flows: (token in, raw in, token out, raw out).
pub(super) type Flow = (usize, f64, usize, f64);

/// A random run of `count` swaps on `start` through every pair, amounts from a hundredth of a unit
/// to a million units of the token sold: the swaps that paid, each with the vault after it.
pub(super) fn random_run(rng: &mut Rng, start: &WoofiPool, count: usize) -> Vec<(Flow, WoofiPool)> {
    let n = start.token_count() as u64;
    let mut pool = start.clone();
    let mut run = Vec::new();
    for _ in 0..count {
        let from = rng.range(0, n) as usize;
        let to = ((from as u64 + rng.range(1, n)) % n) as usize;
        let amount = match by_gamma(rng, &pool, from, to) {
            // Half the swaps sized by the γ they move the price by, from 10⁻⁷ to the guard's
            // most: a large one then a small one against it is where G matters.
            Some(amount) if rng.range(0, 2) == 0 => amount,
            _ => {
                let decimals = start.tokens[from].unit.to_string().len() as u32 - 1;
                let exponent = (decimals + rng.range(0, 9) as u32).saturating_sub(2);
                near(rng, pow10(exponent), 1)
            }
        };
        if let Ok((o, next)) = pool.apply(from, to, amount) {
            let flow = (from, f64::from(amount), to, f64::from(o.amount_out));
            run.push((flow, next.clone()));
            pool = next;
        }
    }
    run
}

/// An input of `from` whose swap to `to` moves the base it trades by a random γ up to its guard.
fn by_gamma(rng: &mut Rng, pool: &WoofiPool, from: usize, to: usize) -> Option<U256> {
    let base = if from == 0 { to } else { from };
    let state = pool.price_state(base).ok()?;
    let (coeff, max) = (f64::from(state.coeff), f64::from(pool.tokens[base].max_gamma) / 1e18);
    let quote_unit = f64::from(pool.tokens[0].unit);
    if !(coeff > 0.0 && max > 1e-7) {
        return None;
    }
    let gamma = 10f64.powf(-7.0 + rng.range(0, 1000) as f64 / 1000.0 * (max.log10() + 7.0));
    let quote = gamma * quote_unit * 1e18 / coeff;
    let per_raw = |t: usize| -> Option<f64> {
        let price = f64::from(pool.price_state(t).ok()?.price);
        Some(price * quote_unit / (1e8 * f64::from(pool.tokens[t].unit)))
    };
    let raw = if from == 0 { quote } else { quote / per_raw(from)? };
    (1.0..1e36).contains(&raw).then(|| U256::from(raw as u128))
}

/// Keeps as a wrong statement would take them: each pair's whole spread and fee on the output,
/// the fee on a purchase's input left valued at P (no correction for the price the base is
/// bought at).
fn naive_keeps(pool: &WoofiPool) -> Vec<f64> {
    let n = pool.token_count();
    let s = |b: usize| f64::from(pool.oracles[b - 1].spread) / 1e18;
    let f = |t: usize| f64::from(pool.tokens[t].fee_rate) / 1e5;
    let mut keeps = vec![(1..n).map(|b| (1.0 - s(b)) * (1.0 - f(b))).fold(0.0, f64::max)];
    for b in 1..n {
        let mut k = (1.0 - s(b)) * (1.0 - f(b));
        for b1 in (1..n).filter(|&b1| b1 != b) {
            let h = s(b).max(s(b1)) / 2.0;
            k = k.max((1.0 - h) * (1.0 - h) * (1.0 - f(b).max(f(b1))));
        }
        keeps.push(k);
    }
    keeps
}

/// What a run breaks, per statement: (the inequality as proven, without G, the naive keeps,
/// the keeps squared), and the smallest margin of the proven one over its slack.
#[derive(Default)]
struct Broken {
    proven: usize,
    without_g: usize,
    naive: usize,
    squared: usize,
    /// The per-hop constraint as proven, with the oracle's room taken away (each weight 1), and
    /// with it halved.
    hop: usize,
    hop_no_room: usize,
    hop_half_room: usize,
}

/// Hops a run's swaps are given (any order: the generator interleaves them).
const HOPS: usize = 3;

/// Each hop's Σ_t w_t·P_t·in_t − Σ_u P_u·out_u/k_u over a run, with the weights as proven, 1,
/// and halfway between, against the slack of the hop's swaps; counts every prefix that breaks.
fn check_hops(start: &WoofiPool, run: &[(Flow, WoofiPool)], hops: &[usize], broken: &mut Broken) {
    let budget = joint_budget(start, MAX_SWAPS_PER_POOL).expect("checked by the caller");
    let hop = hop_budget(start, &budget, MAX_SWAPS_PER_POOL).expect("the joint budget's terms");
    let per_swap = hop.slack / f64::from(MAX_SWAPS_PER_POOL);
    let (mut sums, mut sizes, mut counts) = ([[0.0; 3]; HOPS], [0.0; HOPS], [0usize; HOPS]);
    for (((t, input, u, output), _), &h) in run.iter().zip(hops) {
        let (paid, got) = (budget.coins[*t].price * input, budget.coins[*u].price * output);
        let w = hop.weight[*t];
        let drawn = got / budget.coins[*u].keep;
        for (sum, weight) in sums[h].iter_mut().zip([w, 1.0, 1.0 + (w - 1.0) / 2.0]) {
            *sum += paid * weight - drawn;
        }
        sizes[h] += paid * w + drawn;
        counts[h] += 1;
        let slack = per_swap * counts[h] as f64 + 1e-12 * sizes[h];
        let [proven, no_room, half_room] = sums[h].map(|s| usize::from(s < -slack));
        if proven > 0 {
            eprintln!(
                "hop {h} broken at {t}→{u} {input} → {output}: {:?}, slack {slack}, {hop:?}",
                sums[h]
            );
        }
        broken.hop += proven;
        broken.hop_no_room += no_room;
        broken.hop_half_room += half_room;
    }
}

fn check_run(start: &WoofiPool, run: &[(Flow, WoofiPool)], broken: &mut Broken) {
    let budget = joint_budget(start, MAX_SWAPS_PER_POOL).expect("checked by the caller");
    let per_swap = budget.slack / f64::from(MAX_SWAPS_PER_POOL);
    let price = |t: usize| budget.coins[t].price;
    let keeps: Vec<f64> = budget.coins.iter().map(|c| c.keep).collect();
    let naive = naive_keeps(start);
    let (mut value, mut kept, mut naive_kept, mut squared, mut size) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for (k, ((t, input, u, output), pool)) in run.iter().enumerate() {
        let (paid, got) = (price(*t) * input, price(*u) * output);
        value += paid - got;
        kept += paid * budget.coins[*t].deposit - got / keeps[*u];
        naive_kept += paid - got / naive[*u];
        squared += paid - got / (keeps[*u] * keeps[*u]);
        size += paid + got / (keeps[*u] * keeps[*u]);
        let g = potential(start, pool).expect("the start's terms");
        let slack = per_swap * (k + 1) as f64 + 1e-12 * (size + g.abs());
        if value - g < -slack || kept - g < -slack {
            broken.proven += 1;
            eprintln!("broken at swap {k} ({t}→{u} {input} → {output}): V {value}, kept {kept}, G {g}, slack {slack}, keeps {keeps:?}, prices {:?}, spreads {:?}, fees {:?}, window {}", budget.coins.iter().map(|c| c.price).collect::<Vec<_>>(), start.oracles.iter().map(|o| o.spread.to_string()).collect::<Vec<_>>(), start.tokens.iter().map(|t| t.fee_rate.to_string()).collect::<Vec<_>>(), start.window_open);
        }
        broken.without_g += usize::from(value < -slack);
        broken.naive += usize::from(naive_kept - g < -slack);
        broken.squared += usize::from(squared - g < -slack);
    }
}

#[test]
fn every_run_of_swaps_over_every_pair_keeps_the_vaults_joint_budget() {
    let mut rng = Rng(0x0021_b0d6);
    let (mut vaults, mut swaps, mut broken) = (0, 0, Broken::default());
    let runs: usize =
        std::env::var("WOOFI_JOINT_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(900);
    for _ in 0..runs {
        let (_, wire) = random_case(&mut rng);
        let start = pool_of(&wire);
        if joint_budget(&start, MAX_SWAPS_PER_POOL).is_none() {
            continue;
        }
        let run = random_run(&mut rng, &start, 24);
        swaps += run.len();
        vaults += 1;
        check_run(&start, &run, &mut broken);
        let hops: Vec<usize> = run.iter().map(|_| rng.range(0, HOPS as u64) as usize).collect();
        check_hops(&start, &run, &hops, &mut broken);
    }
    eprintln!(
        "{vaults} vaults, {swaps} swaps; wrong statements broken: without G {}, naive keeps {}, keeps squared {}; per hop: without the oracle's room {}, with half of it {}",
        broken.without_g, broken.naive, broken.squared, broken.hop_no_room, broken.hop_half_room
    );
    assert_eq!(broken.proven, 0, "the joint budget broken {} times", broken.proven);
    assert_eq!(broken.hop, 0, "the per-hop constraint broken {} times", broken.hop);
    // The oracle's room is needed: a hop's swaps after other hops moved a price pay more than
    // their inputs at the prices now.
    assert!(broken.hop_no_room > 0, "no hop pays past its inputs at the prices now");
    assert!(broken.hop_half_room > 0, "no hop needs more than half the oracle's room");
    assert!(vaults > 250 && swaps > 3000, "{vaults} vaults, {swaps} swaps");
    // The keeps are not overstated: asking each withdrawal for its keep twice is broken. (Without
    // G, or with the naive keeps, these runs break nothing past the slack: the generator's prices
    // cannot move far inside its bounds, and the slack of its coarsest prices is wide.)
    assert!(broken.squared > 0, "no run pays within the keeps squared");
}

/// On the devnet's vault (1 % Chainlink bound, 1 % max gamma, spreads 2 to 4 bps, a 2.5 bps fee)
/// the conditions hold and the budget's rates are the prices now less about the keeps: the
/// quote's keep is the narrowest pair's, a base's its purchase's corrected for the 1 % bound.
#[test]
fn the_devnet_vaults_budget_is_the_prices_now_less_the_keeps() {
    let vault = super::tests::devnet_vault();
    let budget = joint_budget(&vault, MAX_SWAPS_PER_POOL).expect("the conditions hold");
    let bps = |k: f64| (1.0 - k) * 1e4;
    // USDC: the narrowest spread (cbBTC's 2 bps) and the fee.
    assert!((bps(budget.coins[0].keep) - 4.5).abs() < 0.01, "{:?}", budget.coins[0]);
    for (b, spread) in [(1, 3.0), (2, 2.0), (3, 4.0)] {
        let k = bps(budget.coins[b].keep);
        // The fee valued at up to 1 % below P counts a little less than its 2.5 bps.
        assert!(k > spread + 2.4 && k < spread + 2.5, "base {b}: {k} bps");
    }
    // The roundings of 64 swaps: well under a cent.
    assert!(budget.slack < 10_000.0, "slack {}", budget.slack);
    // Per hop: USDC's deposit may pay up to the 1 % bound more (a purchase at the bound's
    // bottom), a base's up to about 2 % (base to base: sold at the top, bought at the bottom).
    let hop = hop_budget(&vault, &budget, MAX_SWAPS_PER_POOL).expect("the oracle prices");
    let pct = |w: f64| (w - 1.0) * 100.0;
    assert!((pct(hop.weight[0]) - 1.0).abs() < 0.01, "{hop:?}");
    for b in 1..4 {
        assert!(pct(hop.weight[b]) > 2.0 && pct(hop.weight[b]) < 2.03, "base {b}: {hop:?}");
    }
    assert!(hop.slack < 1_000.0, "slack {}", hop.slack);
}
