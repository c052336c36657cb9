//! The WOOFi vault model against `test/crosscheck/woofi.py`, a second implementation of the
//! published WooPPV2/WooracleV2_2 math in Python's exact integers written apart from this one (and
//! itself checked against the stand-ins on anvil, `woofiPython.test.ts`). Random vaults of a quote
//! token and 1 to 3 bases (decimals 0 to 18): reserves, balances above them, unclaimed fees, fee
//! rates up to 65 %, max notional and max gamma (sometimes tight), posted prices in and out of the
//! Chainlink bound, fresh and stale, Chainlink fallbacks, guardian ranges that sometimes exclude
//! the price, a paused vault now and then. Then several trades in a row on the one vault (sell
//! base, sell quote, base to base, every pair), each on the state the one before left: what it
//! pays or that it reverts, then every reserve, the unclaimed fee and every base's price, coeff
//! and spread, must be the reference's. 400 vaults by default; `WOOFI_CASES` runs more.
//! Also: the convex bound's curve is above every sequence of trades through the vault.

use super::{WoofiPool, WoofiWire};
use crate::dex::DexId;
use crate::math::U256;
use crate::pools::input::FromWire;
use crate::pools::registry::spec;
use crate::pools::shape::pieces_value;
use crate::pools::{PoolError, PoolModel};
use crate::route::test_market::Rng;
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn u(x: u128) -> U256 {
    U256::from(x)
}

fn pow10(e: u32) -> U256 {
    U256::from(10).pow(U256::from(e))
}

/// A random amount near `scale`: scale · 10^[-spread, spread] with random low digits.
pub(super) fn near(rng: &mut Rng, scale: U256, spread: u32) -> U256 {
    let up = rng.log_amount(0, spread.saturating_mul(2)) + 1;
    scale * u(up) / pow10(spread) + u(u128::from(rng.range(0, 1000)))
}

fn pick<T: Copy>(rng: &mut Rng, items: &[T]) -> T {
    items[rng.range(0, items.len() as u64) as usize]
}

/// One random vault and its trades, in the reference's input form, plus the model's wire state.
pub(super) fn random_case(rng: &mut Rng) -> (Value, Value) {
    let bases = rng.range(1, 4) as usize;
    let decimals: Vec<u32> = (0..=bases).map(|_| pick(rng, &[0, 2, 6, 6, 8, 12, 18, 18])).collect();
    let dq = decimals[0];
    let e18 = pow10(18);
    let bound = pick(rng, &[u(10u128.pow(16)), u(10u128.pow(15)), u(5 * 10u128.pow(16))]);
    let quote_answer = near(rng, u(100_000_000), 1);
    let feed_decimals: Vec<u32> = (0..=bases).map(|_| 8).collect();
    let (mut answers, mut infos, mut ranges, mut clo, mut oracles) =
        (vec![quote_answer.to_string()], vec![], vec![], vec![], vec![]);
    let mut tokens = vec![];
    let (mut balances, mut reserves, mut fees, mut gammas, mut notionals) =
        (vec![], vec![], vec![], vec![], vec![]);
    let unclaimed = if rng.range(0, 2) == 0 { U256::ZERO } else { near(rng, pow10(dq), 2) };
    for (t, &d) in decimals.iter().enumerate().take(bases + 1) {
        let reserve = near(rng, pow10(d + 4), 3);
        let extra = if rng.range(0, 4) == 0 { near(rng, pow10(d), 2) } else { U256::ZERO };
        let balance = reserve + extra + if t == 0 { unclaimed } else { U256::ZERO };
        let fee = if rng.range(0, 10) == 0 { rng.range(0, 65_536) } else { rng.range(0, 100) };
        let gamma = if rng.range(0, 5) == 0 {
            near(rng, pow10(14), 2)
        } else {
            near(rng, pow10(17), 1).min(e18)
        };
        let notional = if rng.range(0, 5) == 0 {
            near(rng, pow10(dq + 2), 2)
        } else {
            near(rng, pow10(dq + 7), 2)
        };
        for (list, v) in [
            (&mut balances, balance),
            (&mut reserves, reserve),
            (&mut fees, u(u128::from(fee))),
            (&mut gammas, gamma),
            (&mut notionals, notional),
        ] {
            list.push(v.to_string());
        }
        tokens.push(json!({ "decimals": d, "balance": balance.to_string(),
            "reserve": reserve.to_string(), "feeRate": fee.to_string(),
            "maxGamma": gamma.to_string(), "maxNotional": notional.to_string() }));
        if t == 0 {
            continue;
        }
        // The reference in 8 decimals: base answer · 10^8 / quote answer.
        let base_answer = near(rng, u(10u128.pow(8)), 4);
        let ref_price = base_answer * pow10(8) / quote_answer;
        answers.push(base_answer.to_string());
        let off: u64 = pick(rng, &[0, 0, 1, 5, 9, 20]); // thousandths of the reference
        let price = if rng.range(0, 15) == 0 {
            U256::ZERO
        } else if rng.range(0, 2) == 0 {
            ref_price + ref_price * u(u128::from(off)) / u(1000)
        } else {
            ref_price - ref_price * u(u128::from(off)) / u(1000)
        };
        let spread = near(rng, pow10(15), 1);
        let coeff = near(rng, pow10(9), 3);
        let (lo, hi) = match rng.range(0, 10) {
            0 => (ref_price * u(2), ref_price * u(3)),
            1 => (U256::ZERO, ref_price / u(2)),
            _ => (ref_price / u(2), ref_price * u(2)),
        };
        let preferred = rng.range(0, 2) == 0;
        infos.push(json!([price.to_string(), coeff.to_string(), spread.to_string()]));
        ranges.push(json!([lo.to_string(), hi.to_string()]));
        clo.push(json!(preferred));
        oracles.push(json!({ "price": price.to_string(), "coeff": coeff.to_string(),
            "spread": spread.to_string(), "refPrice": ref_price.to_string(),
            "cloPreferred": preferred, "rangeMin": lo.to_string(), "rangeMax": hi.to_string() }));
    }
    let oracle_ts = 1_700_000_000u64;
    let stale = 300u64;
    let now =
        oracle_ts + if rng.range(0, 5) == 0 { rng.range(301, 900) } else { rng.range(0, 300) };
    let paused = rng.range(0, 25) == 0;
    let ops: Vec<Value> = (0..8)
        .map(|_| {
            let from = rng.range(0, bases as u64 + 1);
            let mut to = rng.range(0, bases as u64 + 1);
            if to == from && rng.range(0, 8) != 0 {
                to = (to + 1) % (bases as u64 + 1);
            }
            let d = decimals[from as usize];
            let amount = near(rng, pow10(d + 1), 3);
            json!({ "op": "swap", "from": from, "to": to, "amount": amount.to_string(),
                "minOut": "0", "viaRouter": true, "blockTs": now.to_string() })
        })
        .collect();
    let case = json!({
        "decimals": decimals,
        "pool": { "balances": balances, "reserves": reserves, "feeRates": fees,
            "maxGamma": gammas, "maxNotional": notionals,
            "unclaimedFee": unclaimed.to_string(), "paused": paused },
        "oracle": { "infos": infos, "timestamp": oracle_ts.to_string(),
            "staleDuration": stale.to_string(), "bound": bound.to_string(), "ranges": ranges,
            "answers": answers, "feedDecimals": feed_decimals, "cloPreferred": clo },
        "ops": ops,
    });
    let wire = json!({ "model": "woofi", "tokens": tokens, "oracles": oracles, "paused": paused,
        "unclaimedFee": unclaimed.to_string(), "bound": bound.to_string(),
        "oracleTimestamp": oracle_ts.to_string(), "staleDuration": stale.to_string(),
        "timestamp": now.to_string() });
    (case, wire)
}

pub(super) fn pool_of(wire: &Value) -> WoofiPool {
    let mut wire = wire.clone();
    wire.as_object_mut().unwrap().remove("model");
    WoofiPool::from_wire(serde_json::from_value::<WoofiWire>(wire).unwrap(), &spec(DexId::Woofi))
        .unwrap()
}

/// Runs the reference over `cases`, one JSON line each way.
fn reference(cases: &[Value]) -> Vec<Value> {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../test/crosscheck/woofi.py");
    let mut child = Command::new("python3")
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("python3 {}: {e}", script.display()));
    let input: String = cases.iter().map(|c| format!("{c}\n")).collect();
    // From its own thread: the reference answers line by line and a pipe holds only so much.
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(output.status.success(), "the reference failed");
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The vault's state as the reference reports it after a swap.
fn reported(pool: &WoofiPool, out: U256) -> Value {
    json!({
        "out": out.to_string(),
        "reserves": pool.tokens.iter().map(|t| t.reserve.to_string()).collect::<Vec<_>>(),
        "unclaimedFee": pool.unclaimed_fee.to_string(),
        "infos": pool.oracles.iter()
            .map(|o| vec![o.price.to_string(), o.coeff.to_string(), o.spread.to_string()])
            .collect::<Vec<_>>(),
    })
}

#[test]
fn sequential_swaps_equal_an_independent_implementation() {
    let count: usize =
        std::env::var("WOOFI_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(400);
    let mut rng = Rng(0x2157_00f1);
    let cases: Vec<(Value, Value)> = (0..count).map(|_| random_case(&mut rng)).collect();
    let inputs: Vec<Value> = cases.iter().map(|c| c.0.clone()).collect();
    let answers = reference(&inputs);
    assert_eq!(answers.len(), cases.len());
    let (mut paid, mut refused, mut mismatches) = (0usize, 0usize, vec![]);
    for (k, ((case, wire), answer)) in cases.iter().zip(&answers).enumerate() {
        let mut pool = pool_of(wire);
        for (t, (op, theirs)) in case["ops"]
            .as_array()
            .unwrap()
            .iter()
            .zip(answer["results"].as_array().unwrap())
            .enumerate()
        {
            let (from, to) =
                (op["from"].as_u64().unwrap() as usize, op["to"].as_u64().unwrap() as usize);
            let amount: U256 = op["amount"].as_str().unwrap().parse().unwrap();
            match pool.apply(from, to, amount) {
                Ok((outcome, next)) => {
                    let ours = reported(&next, outcome.amount_out);
                    if &ours != theirs {
                        mismatches
                            .push(format!("case {k} trade {t}: ours {ours}, theirs {theirs}"));
                    }
                    pool = next;
                    paid += 1;
                }
                Err(e) => {
                    if theirs.get("error").is_none() {
                        mismatches.push(format!("case {k} trade {t}: ours {e}, theirs {theirs}"));
                    }
                    refused += 1;
                }
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} mismatches, first: {:?}",
        mismatches.len(),
        &mismatches[..mismatches.len().min(5)]
    );
    // The generator must reach both sides of the rules, or the comparison proves little.
    assert!(paid > count && refused > count / 4, "paid {paid}, refused {refused}");
}

#[test]
fn the_bound_curve_is_above_every_sequence_of_trades_through_the_vault() {
    let mut rng = Rng(0x0b0_0dd);
    let (mut checked, mut swaps_total, mut tight) = (0, 0, 0usize);
    for _ in 0..300 {
        let (case, wire) = random_case(&mut rng);
        let start = pool_of(&wire);
        let n = start.token_count();
        // Per ordered pair: the output paid in total and the input taken.
        let mut paid = vec![vec![(0f64, 0f64); n]; n];
        // Per token: whether a swap sold it to the vault, bought it from the vault.
        let (mut sold, mut bought) = (vec![false; n], vec![false; n]);
        let mut pool = start.clone();
        for op in case["ops"].as_array().unwrap() {
            let (from, to) =
                (op["from"].as_u64().unwrap() as usize, op["to"].as_u64().unwrap() as usize);
            let amount: U256 = op["amount"].as_str().unwrap().parse().unwrap();
            // One swap from the state now is bounded by its own linear rate.
            if let Ok((o, next)) = pool.apply(from, to, amount) {
                let single = pool.amount_out_bound(from, to, f64::from(amount));
                assert!(
                    f64::from(o.amount_out) <= single * (1.0 + 1e-12),
                    "single swap above its bound"
                );
                paid[from][to].0 += f64::from(amount);
                paid[from][to].1 += f64::from(o.amount_out);
                (sold[from], bought[to]) = (true, true);
                pool = next;
                swaps_total += 1;
            }
        }
        for (i, row) in paid.iter().enumerate() {
            for (j, &(input, output)) in row.iter().enumerate() {
                if output == 0.0 {
                    continue;
                }
                // The curve for any plan, and the tighter one for what this sequence did with
                // the pair's tokens elsewhere (the one it only sold, the one it only bought).
                let one_way =
                    super::OneWay { input_only_sold: !bought[i], output_only_bought: !sold[j] };
                tight += usize::from(one_way != super::OneWay::default());
                for ends in [super::OneWay::default(), one_way] {
                    let pieces = super::sequence_pieces(&start, i, j, 64, ends)
                        .expect("a pair that paid has a curve");
                    let width: f64 = pieces.iter().map(|p| p.0).sum();
                    assert!(input <= width * (1.0 + 1e-12), "input {input} past the width {width}");
                    let bound = pieces_value(&pieces, input);
                    assert!(
                        output <= bound * (1.0 + 1e-12),
                        "{output} above {bound} for {input} ({ends:?}, {pieces:?})"
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 200 && swaps_total > 500, "checked {checked}, swaps {swaps_total}");
    assert!(tight > 50, "only {tight} pairs checked against the one-way curve");
}

/// The devnet's vault one keeper tick after the saved chain (its oracle fresh: the route-quality
/// suite's fresh describe), from the fixture `route/convex/fixtures/devnet_sampled_fresh_pools.json`.
pub(super) fn devnet_vault() -> WoofiPool {
    let pools: Vec<Value> = serde_json::from_str(include_str!(
        "../../route/convex/fixtures/devnet_sampled_fresh_pools.json"
    ))
    .unwrap();
    let vault = pools.iter().find(|p| p["dex"] == "WOOFI").expect("the fixture holds the vault");
    pool_of(&vault["state"])
}

/// A side whose tokens the plan uses one way only (its tokenIn, its tokenOut) is bounded at the
/// prices now: on the devnet's vault, $100 and $10,000 through every pair in one swap pay within
/// 0.5 bps of the curve (γ is 0.1 bps per $10,000 there; the spreads are 2 to 4 bps). The fee
/// (25 of 10⁵, 2.5 bps) was left out of the curve, which stood 2.5 bps above every such swap.
#[test]
fn a_one_way_sides_curve_is_within_half_a_basis_point_of_a_swap_at_the_prices_now() {
    let vault = devnet_vault();
    let n = vault.token_count();
    let usd_per_raw = |t: usize| {
        let unit = f64::from(vault.tokens[t].unit);
        if t == 0 {
            1.0 / unit
        } else {
            f64::from(vault.price_state(t).unwrap().price) / 1e8 / unit
        }
    };
    let ends = super::OneWay { input_only_sold: true, output_only_bought: true };
    let mut checked = 0;
    for i in 0..n {
        for j in (0..n).filter(|&j| j != i) {
            let pieces = super::sequence_pieces(&vault, i, j, 64, ends).expect("a curve");
            for usd in [100.0, 10_000.0] {
                let amount = (usd / usd_per_raw(i)).round();
                let out = vault.amount_out(i, j, U256::from(amount as u128)).unwrap().amount_out;
                let (out, bound) = (f64::from(out), pieces_value(&pieces, amount));
                let bps = (bound - out) / bound * 1e4;
                assert!(
                    (0.0..=0.5).contains(&bps),
                    "{i}→{j} ${usd}: the curve {bound}, the swap {out} ({bps} bps)"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 24);
}

#[test]
fn a_bad_pair_a_paused_vault_and_malformed_wires_are_refused_with_their_values() {
    let mut rng = Rng(7);
    let (_, wire) = random_case(&mut rng);
    let pool = pool_of(&wire);
    let n = pool.token_count();
    assert_eq!(
        pool.amount_out(1, 1, u(1)),
        Err(PoolError::BadDirection { token_in: 1, token_out: 1 })
    );
    assert_eq!(
        pool.amount_out(0, n, u(1)),
        Err(PoolError::BadDirection { token_in: 0, token_out: n })
    );
    let mut paused = pool.clone();
    paused.paused = true;
    assert!(matches!(paused.amount_out(1, 0, u(1)), Err(PoolError::Refused(_))));
    let mut bad = wire.clone();
    bad["tokens"][0]["feeRate"] = json!("65536");
    bad.as_object_mut().unwrap().remove("model");
    let err = WoofiPool::from_wire(serde_json::from_value(bad).unwrap(), &spec(DexId::Woofi))
        .unwrap_err();
    assert!(err.to_string().contains("65536"), "{err}");
    let mut short = wire.clone();
    short["oracles"] = json!([]);
    short.as_object_mut().unwrap().remove("model");
    assert!(
        WoofiPool::from_wire(serde_json::from_value(short).unwrap(), &spec(DexId::Woofi)).is_err()
    );
}
