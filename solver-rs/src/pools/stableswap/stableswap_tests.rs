//! The StableSwap model against `test/crosscheck/curve_stableswap.py`, a second implementation of
//! the pools' published math in Python's exact integers written apart from this one, and, on the
//! Python that `scripts/install-vyper.sh` installs, curvesim's pool (wherever A is whole): random
//! pools of 2 to 4 coins (plain, oracle-rated and ERC-4626 coins; decimals 2 to 18), NG, legacy and
//! the original 3pool-era template (2 or 3 coins, A unscaled, its own admin fee),
//! balances skewed up to 10^6:1, ramps of A caught mid-way, off-peg multipliers, and inputs from
//! nothing to far past the pool. What `exchange` pays and when it reverts must be the same.

use super::math::Ramp;
use super::{StableSwapPool, StableSwapWire, Template};
use crate::dex::DexId;
use crate::math::U256;
use crate::pools::input::FromWire;
use crate::pools::registry::spec;
use crate::pools::{PoolError, PoolModel};
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// SplitMix64: a fixed stream of cases, the same on every run.
struct Prng(u64);

impl Prng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in [lo, hi].
    fn int(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }
    fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.int(0, items.len() as u64 - 1) as usize]
    }
    /// Log-uniform in [1, 10^digits) with random low digits.
    fn log_amount(&mut self, digits: u32) -> U256 {
        let exponent = self.int(0, u64::from(digits));
        let mantissa = U256::from(self.int(1, 9_999_999));
        mantissa * U256::from(10).pow(U256::from(exponent)) / U256::from(1_000_000) + U256::from(1)
    }
}

/// The venv's Python, with curvesim: installed first when missing (`scripts/install-vyper.sh`,
/// idempotent; it takes a lock, so when CI installs it beside this test's build, this waits).
fn reference_python() -> (PathBuf, PathBuf) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let install = Command::new("bash")
        .arg(root.join("scripts/install-vyper.sh"))
        .stdout(Stdio::null())
        .status()
        .expect("bash scripts/install-vyper.sh");
    assert!(install.success(), "scripts/install-vyper.sh failed");
    (root.join("build/vyper/venv/bin/python"), root.join("test/crosscheck/curve_stableswap.py"))
}

/// One random case in the reference's input form.
fn random_case(prng: &mut Prng) -> Value {
    let template = if prng.chance(0.6) { "ng" } else { prng.pick(&["legacy", "original"]) };
    let (ng, original) = (template == "ng", template == "original");
    let n = if ng { prng.int(2, 4) } else { prng.int(2, 3) } as usize;
    let mut coins = Vec::new();
    let mut balances = Vec::new();
    let whole = prng.log_amount(9);
    for _ in 0..n {
        let kind = if ng { prng.pick(&["plain", "plain", "oracle", "erc4626"]) } else { "plain" };
        let decimals: u64 =
            if kind == "erc4626" { 18 } else { prng.pick(&[2, 6, 6, 8, 12, 18, 18]) };
        let coin = match kind {
            "oracle" => json!({ "decimals": decimals, "kind": kind,
                "oracleRate": prng.int(500_000_000_000_000_000, 3_000_000_000_000_000_000).to_string() }),
            "erc4626" => {
                let underlying: u64 = prng.pick(&[6, 8, 18]);
                let unit = 10u64.pow(underlying as u32);
                json!({ "decimals": decimals, "kind": kind, "underlyingDecimals": underlying,
                    "assetsPerShare": prng.int(unit / 2, unit * 3).to_string() })
            }
            _ => json!({ "decimals": decimals, "kind": kind }),
        };
        coins.push(coin);
        let skew = if prng.chance(0.85) { prng.log_amount(3) } else { prng.log_amount(6) };
        let balance = whole * skew * U256::from(10).pow(U256::from(decimals))
            + U256::from(prng.int(0, 10u64.pow(decimals.min(18) as u32)));
        balances.push(balance);
    }
    // The original template stores A itself, the others A × 100.
    let a_unit = if original { 1 } else { 100 };
    let a0 = prng.pick(&[10u64, 100, 200, 1000, 5000]) * a_unit;
    let ramping = prng.chance(0.45);
    let a1 =
        if ramping { (a0 * prng.int(1, 90) / 10).clamp(a_unit, 1_000_000 * a_unit) } else { a0 };
    let t0 = 1_700_000_000u64;
    let t1 = if ramping { t0 + prng.int(86_400, 30 * 86_400) } else { t0 };
    let timestamp = if ramping { prng.int(t0, t1 + 100) } else { t0 + prng.int(0, 1000) };
    let fee = if prng.chance(0.15) { 0 } else { prng.int(1, 50_000_000) };
    let offpeg = if !ng || prng.chance(0.25) {
        0
    } else {
        let ceiling = (5 * 10u64.pow(19) / fee.max(1)).min(10u64.pow(11));
        prng.int(10_000_000_000, ceiling.max(10_000_000_000))
    };
    let i = prng.int(0, n as u64 - 1) as usize;
    let j = (i + prng.int(1, n as u64 - 1) as usize) % n;
    let dx = if prng.chance(0.04) {
        U256::ZERO
    } else if prng.chance(0.1) {
        balances[i] * U256::from(10u64.pow(6)) + prng.log_amount(40)
    } else {
        (prng.log_amount(30) % (balances[i] * U256::from(10) + U256::from(10))) + U256::from(1)
    };
    let s = |v: U256| v.to_string();
    let admin_fee = prng.pick(&[0u64, 5_000_000_000, 5_000_000_000, 10_000_000_000]);
    let mut case = json!({
        "template": template, "coins": coins,
        "balances": balances.iter().map(|b| s(*b)).collect::<Vec<_>>(),
        "tokenBalanceOut": s(U256::MAX >> 1),
        "initialA": a0.to_string(), "futureA": a1.to_string(),
        "initialATime": t0.to_string(), "futureATime": t1.to_string(),
        "timestamp": timestamp.to_string(), "viewTimestamp": timestamp.to_string(),
        "fee": fee.to_string(), "offpeg": offpeg.to_string(), "i": i, "j": j, "dx": s(dx),
    });
    if original {
        case["adminFee"] = json!(admin_fee.to_string());
    }
    case
}

/// The pool of a reference case, with the rates the reference computed (its `stored_rates`, which
/// the anvil differential holds to the chain's).
fn pool_of(case: &Value, rates: &Value) -> StableSwapPool {
    let wire = json!({
        "template": case["template"], "balances": case["balances"], "rates": rates,
        "fee": case["fee"], "offpegFeeMultiplier": case["offpeg"],
        "initialA": case["initialA"], "futureA": case["futureA"],
        "initialATime": case["initialATime"], "futureATime": case["futureATime"],
        "timestamp": case["timestamp"],
    });
    let mut wire = wire;
    if case["template"] == "original" {
        wire["adminFee"] = case["adminFee"].clone();
    }
    StableSwapPool::from_wire(
        serde_json::from_value::<StableSwapWire>(wire).unwrap(),
        &spec(DexId::Curve),
    )
    .unwrap()
}

#[test]
fn exchange_equals_an_independent_implementation_and_curvesim() {
    let mut prng = Prng(2121);
    let cases: Vec<Value> = (0..3000).map(|_| random_case(&mut prng)).collect();
    let (python, script) = reference_python();
    let mut child = Command::new(&python)
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{} {}: {e}", python.display(), script.display()));
    let input: String = cases.iter().map(|c| format!("{c}\n")).collect();
    // Written from its own thread: the reference answers line by line, and a pipe holds only so
    // much of either side.
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(output.status.success(), "the reference failed");
    let answers: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), cases.len());
    let (mut paid, mut reverted, mut curvesim, mut fractional, mut mismatches) =
        (0, 0, 0, 0, vec![]);
    let mut original_paid = 0;
    for (k, (case, answer)) in cases.iter().zip(&answers).enumerate() {
        let pool = pool_of(case, &answer["rates"]);
        let (i, j) = (case["i"].as_u64().unwrap() as usize, case["j"].as_u64().unwrap() as usize);
        let dx: U256 = case["dx"].as_str().unwrap().parse().unwrap();
        let ours = pool.amount_out(i, j, dx).map(|o| o.amount_out.to_string());
        let theirs = answer["exchange"]["out"].as_str().map(str::to_owned);
        if super::math::amp_at(&pool.ramp, pool.timestamp).unwrap() % U256::from(100) != U256::ZERO
        {
            fractional += 1;
        }
        match (&ours, &theirs) {
            (Ok(a), Some(b)) if a == b => {
                paid += 1;
                original_paid += usize::from(pool.template == Template::Original);
            }
            (Err(_), None) => reverted += 1,
            _ => mismatches
                .push(format!("case {k}: ours {ours:?}, reference {}", answer["exchange"])),
        }
        if let (Ok(a), Some(b)) = (&ours, answer["curvesim"].as_str()) {
            if b != "skipped" {
                curvesim += 1;
                if a != b {
                    mismatches.push(format!("case {k}: ours {a}, curvesim {b}"));
                }
            }
        }
        // apply pays what amount_out quotes; the input coin's balance grows by dx, the output's
        // falls by what is paid and the admin's share, the others stay (the anvil differential
        // holds these balances to the pool's own after the swap).
        if let Ok((outcome, next)) = pool.apply(i, j, dx) {
            assert_eq!(Ok(outcome.amount_out.to_string()), ours);
            for (c, (after, before)) in next.balances.iter().zip(&pool.balances).enumerate() {
                match c {
                    c if c == i => assert_eq!(*after, *before + dx),
                    c if c == j => assert!(*after + outcome.amount_out <= *before),
                    _ => assert_eq!(after, before),
                }
            }
        }
    }
    eprintln!(
        "stableswap vs reference: {} cases, {paid} paid ({original_paid} of the original template), {reverted} reverted, {fractional} at a fractional A, {curvesim} against curvesim ({})",
        cases.len(),
        python.display()
    );
    assert!(
        mismatches.is_empty(),
        "{} mismatches: {:?}",
        mismatches.len(),
        &mismatches[..mismatches.len().min(5)]
    );
    assert!(paid > 2000 && reverted > 100 && fractional > 300, "{paid} {reverted} {fractional}");
    assert!(original_paid > 300, "only {original_paid} original-template cases paid");
    // curvesim answered (its pool loads from the venv): without it the test would prove less, silently.
    assert!(curvesim > 1000, "only {curvesim} cases compared with curvesim");
}

fn two_coin_pool(template: Template) -> StableSwapPool {
    let ten6 = U256::from(1_000_000u64);
    StableSwapPool {
        template,
        balances: vec![ten6 * ten6, ten6 * ten6],
        rates: vec![U256::from(10).pow(U256::from(30)); 2],
        fee: U256::from(4_000_000u64),
        offpeg_fee_multiplier: U256::from(20_000_000_000u64),
        admin_fee: super::math::ADMIN_FEE,
        ramp: Ramp {
            initial_a: U256::from(20_000u64),
            future_a: U256::from(20_000u64),
            initial_time: U256::ZERO,
            future_time: U256::ZERO,
        },
        timestamp: U256::from(1u64),
        base: None,
    }
}

#[test]
fn a_pair_outside_the_pool_or_the_same_coin_twice_is_refused() {
    let pool = two_coin_pool(Template::Ng);
    for (i, j) in [(0, 0), (0, 2), (2, 1)] {
        assert_eq!(
            pool.amount_out(i, j, U256::from(1000)),
            Err(PoolError::BadDirection { token_in: i, token_out: j })
        );
        assert_eq!(pool.amount_out_bound(i, j, 1000.0), 0.0);
        assert_eq!(pool.spot_price(i, j), 0.0);
    }
    // NG refuses a zero input; the legacy template swaps it (and pays nothing).
    assert!(pool.amount_out(0, 1, U256::ZERO).is_err());
}

#[test]
fn the_spot_price_is_the_rate_of_a_small_trade_and_the_bound_holds() {
    for template in [Template::Ng, Template::Legacy, Template::Original] {
        let mut pool = two_coin_pool(template);
        if template == Template::Original {
            // The same A of 200, stored as it is.
            pool.ramp.initial_a = U256::from(200u64);
            pool.ramp.future_a = U256::from(200u64);
        }
        pool.balances[1] *= U256::from(3);
        let dx = U256::from(1_000_000u64);
        let out = pool.amount_out(0, 1, dx).unwrap().amount_out;
        let rate = f64::from(out) / 1e6;
        assert!((pool.spot_price(0, 1) / rate - 1.0).abs() < 1e-5, "{template:?}: {rate}");
        assert!(f64::from(out) <= pool.amount_out_bound(0, 1, 1e6));
    }
}

#[test]
fn a_wire_state_of_one_or_five_coins_or_a_zero_rate_is_refused() {
    let wire = |balances: usize, rates: Vec<&str>| {
        serde_json::from_value::<StableSwapWire>(json!({
            "template": "ng", "balances": vec!["1"; balances], "rates": rates, "fee": "0",
            "offpegFeeMultiplier": "0", "initialA": "100", "futureA": "100", "initialATime": "0",
            "futureATime": "0", "timestamp": "0" }))
        .unwrap()
    };
    assert!(StableSwapPool::from_wire(wire(1, vec!["1"]), &spec(DexId::Curve)).is_err());
    assert!(StableSwapPool::from_wire(wire(5, vec!["1"; 5]), &spec(DexId::Curve)).is_err());
    assert!(StableSwapPool::from_wire(wire(2, vec!["1"]), &spec(DexId::Curve)).is_err());
    assert!(StableSwapPool::from_wire(wire(2, vec!["1", "0"]), &spec(DexId::Curve)).is_err());
    assert_eq!(
        StableSwapPool::from_wire(wire(4, vec!["1"; 4]), &spec(DexId::Curve)).unwrap().coins(),
        4
    );
}

#[test]
fn the_admin_fee_is_the_original_templates_alone_and_it_keeps_the_admins_share_out() {
    let wire = |template: &str, admin_fee: Option<&str>| {
        let mut wire = json!({
            "template": template, "balances": ["1000000000000", "1000000000000"],
            "rates": ["1000000000000000000000000000000", "1000000000000000000000000000000"],
            "fee": "4000000", "offpegFeeMultiplier": "0", "initialA": "200", "futureA": "200",
            "initialATime": "0", "futureATime": "0", "timestamp": "0" });
        if let Some(fee) = admin_fee {
            wire["adminFee"] = json!(fee);
        }
        StableSwapPool::from_wire(serde_json::from_value(wire).unwrap(), &spec(DexId::Curve))
    };
    assert!(wire("original", None).is_err());
    assert!(wire("original", Some("10000000001")).is_err());
    assert!(wire("legacy", Some("5000000000")).is_err());
    assert!(wire("ng", Some("5000000000")).is_err());
    // The same swap with no admin fee and with all of it to the admin: the trader is paid the same,
    // the pool keeps the whole fee in the first and none of it in the second.
    let dx = U256::from(10_000_000_000u64);
    let none = wire("original", Some("0")).unwrap().apply(0, 1, dx).unwrap();
    let all = wire("original", Some("10000000000")).unwrap().apply(0, 1, dx).unwrap();
    assert_eq!(none.0.amount_out, all.0.amount_out);
    let kept = none.1.balances[1] - all.1.balances[1];
    let fee = U256::from(4_000_000u64) * (none.0.amount_out + kept) / U256::from(10_000_000_000u64);
    assert!(kept > U256::ZERO && kept.abs_diff(fee) <= U256::from(1), "{kept} {fee}");
}
