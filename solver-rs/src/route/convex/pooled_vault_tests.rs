//! WOOFi's vault as one pooled venue with a linear budget (`pools/woofi/joint.rs`,
//! `pooled_linear.rs`) on the devnet's market one prop AMM keeper tick after the saved state (the
//! fixture `devnet_sampled_fresh_pools.json`: the vault's oracle fresh, the prop AMM venues
//! re-priced): the trades through the vault's middle bases that its per-side curves left 150 to
//! 530 bps above the plan.

use crate::address::Address;
use crate::market::Market;
use crate::route::convex::graph::Graph;
use crate::route::test_market::devnet_tokens::*;
use crate::route::test_market::{any_scope, bounded_quote, devnet_sampled_fresh};

/// Whether the trade's graph holds a pooled venue with a linear budget (the vault's joint term).
fn vault_is_joint(market: &Market, trade: [Address; 2], hops: usize) -> bool {
    let scope = any_scope(market, trade[0], trade[1], hops);
    let graph = Graph::build(market, &scope).unwrap();
    graph.venues.iter().any(|v| v.pooled.as_ref().is_some_and(|p| p.budget.is_linear()))
}

/// The fixture's trades through the vault (docs/dex-kinds.md, WOOFI, *Route quality*).
pub(crate) const CASES: [(&str, &str, u128, usize); 10] = [
    (CBBTC, WETH, 1_666_666_700, 1),
    (CBETH, CBBTC, 3_030_303_000_000_000_000, 2),
    (WETH, CBBTC, 3_333_333_333_333_333_333, 2),
    (CBETH, USDC, 30_303_000_000_000_000, 2),
    (CBETH, USDC, 3_030_303_000_000_000_000, 2),
    (USDC, BRETT, 100_000_000, 3),
    (USDC, CBETH, 100_000_000, 3),
    (WSTETH, CBETH, 28_169_000_000_000_000, 3),
    (USDC, WETH, 10_000_000_000, 3),
    (DEGEN, DAI, 100_000_000 * 1_000_000_000_000_000_000, 3),
];

/// A measurement: on every case, the plan the service quotes, the certified bound, the gap, whether
/// the dual converged and whether the vault is one pooled venue with a linear budget (the joint
/// budget set for the test's thread, `JOINT_BOUND` in `pools/woofi/mod.rs`); fails only if a plan
/// beats its bound.
/// `cargo test --release -p solver-rs --features reference -- --ignored --nocapture vault_cases`.
#[test]
#[ignore = "a measurement: prints the vault's cases on the fresh fixture"]
fn the_fixtures_vault_cases() {
    let _joint = crate::pools::woofi::joint_bound_in_tests(true);
    let market = devnet_sampled_fresh(&[]);
    let mut failures = Vec::new();
    for (token_in, token_out, amount, hops) in CASES {
        let trade = [Address::parse(token_in).unwrap(), Address::parse(token_out).unwrap()];
        let weth = Address::parse(WETH).unwrap();
        let q = bounded_quote(&market, trade, amount, hops, weth);
        let joint = vault_is_joint(&market, trade, hops);
        let (ours, bound, converged) = (q.ours, q.bound, q.converged);
        let gap = (bound - ours) / bound * 1e4;
        let label = format!("{}→{} {hops}-hop {amount}", &token_in[..6], &token_out[..6]);
        eprintln!(
            "{label}: ours {ours} bound {bound} gap {gap:.3} bps converged {converged} joint {joint}"
        );
        if ours > bound {
            failures.push(format!("{label}: the plan {ours} above the bound {bound}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A linear budget of three coins (budget units per raw unit 1, 2 and 0.5), 10 units of slack.
fn three_coin_budget() -> super::Budget {
    let coin = |x: f64, scale: f64, keep: f64| super::Coin {
        x,
        scale,
        keep,
        allowance: 0.0,
        linear: true,
    };
    super::Budget {
        coins: vec![coin(1000.0, 1.0, 0.999), coin(500.0, 2.0, 0.998), coin(300.0, 0.5, 0.997)],
        kappa: 0.0,
        slack: 10.0,
        second: None,
    }
}

/// The linear term's closed form: the slack funds the dearest withdrawal first, every coin whose
/// withdrawal pays more than the cheapest deposit is taken whole, and that deposit funds exactly
/// what the slack does not (the flows the one-budget closed form left out at κ = 0). Its value is
/// the linear program's, by enumeration of the budget's split.
#[test]
fn a_linear_budgets_deposit_funds_its_withdrawals() {
    use super::CoinPrices;
    let budget = three_coin_budget();
    assert!(budget.is_linear());
    // Coin 0 tendered at 1.0 (λ = 1 per budget unit); coin 1 received at 2.2 raw-for-raw (q =
    // 2.2·0.998/2 = 1.0978 > λ), coin 2 received at 0.4 (q = 0.4·0.997/0.5 = 0.7976 < λ).
    let prices = [
        CoinPrices { tender: Some(1.0), receive: None },
        CoinPrices { tender: None, receive: Some(2.2) },
        CoinPrices { tender: None, receive: Some(0.4) },
    ];
    let (joint, pairs) = budget.joint_linear(&prices);
    // Coin 1 whole (500 budget units), 10 of them from the slack, 490 deposited as coin 0.
    assert!((joint.outputs[1] - 500.0 * 0.998 / 2.0).abs() < 1e-9, "{joint:?}");
    assert!((joint.inputs[0] - 490.0).abs() < 1e-9, "{joint:?}");
    assert_eq!(joint.outputs[2], 0.0);
    let value = 2.2 * joint.outputs[1] - 1.0 * joint.inputs[0];
    assert!((joint.value - value).abs() < 1e-9, "{} against {value}", joint.value);
    // No split of the budget does better: withdraw w₁ of coin 1 and w₂ of coin 2 (budget units),
    // fund what the slack does not at λ.
    let q = [2.2 * 0.998 / 2.0, 0.4 * 0.997 / 0.5];
    let mut best = f64::NEG_INFINITY;
    for i in 0..=100 {
        for j in 0..=100 {
            let (w1, w2) = (5.0 * f64::from(i), 3.0 * f64::from(j));
            best = best.max(q[0] * w1 + q[1] * w2 - (w1 + w2 - 10.0).max(0.0));
        }
    }
    assert!((joint.value - best).abs() < 1e-9, "{} against {best}", joint.value);
    // Both withdrawals booked with the deposit (the dual reads their corners).
    assert_eq!(pairs.len(), 2);
    assert!(pairs.iter().all(|p| p.from == 0 && p.withdrawal));
}

/// A linear budget's corners as the dual reads them (`dual.rs`, `Piece::Linear`): a withdrawal
/// funded by the deposit and a deposit tied with it, each booked whether or not the graph has an
/// arc between the two coins' copies, with the flows the term gives a hair on either side of the
/// corner's rate as its piece's ends.
#[test]
fn a_linear_budgets_withdrawal_and_tied_deposit_are_booked_as_corners() {
    use super::CoinPrices;
    let budget = three_coin_budget();
    // Coins 0 and 1 tendered at the same price per budget unit (1.0/1 and 2.0/2), coin 2 received
    // at q = 0.6·0.997/0.5 > 1: withdrawn whole, 10 budget units from the slack, 290 bought.
    let prices = |tender_1: f64, receive_2: f64| {
        [
            CoinPrices { tender: Some(1.0), receive: None },
            CoinPrices { tender: Some(tender_1), receive: None },
            CoinPrices { tender: None, receive: Some(receive_2) },
        ]
    };
    let (joint, pairs) = budget.joint_linear(&prices(2.0, 0.6));
    assert!((joint.inputs[0] - 290.0).abs() < 1e-9, "{joint:?}");
    let withdrawal = pairs.iter().find(|p| p.withdrawal).copied().unwrap();
    let tie = pairs.iter().find(|p| !p.withdrawal).copied().unwrap();
    assert_eq!((withdrawal.from, withdrawal.to, tie.from, tie.to), (0, 2, 1, 0));
    let near = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1.0);
    // The tie: coin 1's copy over coin 0's at 2 (the scales' ratio); past it coin 1 funds it all.
    assert!(near(tie.rate, 2.0) && tie.before == (0.0, 0.0), "{tie:?}");
    let (past, _) = budget.joint_linear(&prices(2.0 * (1.0 - 1e-12), 0.6));
    assert!(near(tie.whole.0, past.inputs[1]) && near(tie.whole.1, joint.inputs[0]), "{tie:?}");
    // The withdrawal: coin 0 over coin 2 at 0.997·1/0.5; just above that rate only the slack's
    // part is withdrawn, just below all of it.
    assert!(near(withdrawal.rate, 0.997 / 0.5), "{withdrawal:?}");
    let corner_receive = 1.0 / withdrawal.rate;
    for (receive, end) in [
        (corner_receive * (1.0 - 1e-9), withdrawal.before),
        (corner_receive * (1.0 + 1e-9), withdrawal.whole),
    ] {
        let (at, _) = budget.joint_linear(&prices(2.0, receive));
        assert!(near(at.inputs[0], end.0) && near(at.outputs[2], end.1), "{at:?} against {end:?}");
    }
}
