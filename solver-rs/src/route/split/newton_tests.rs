//! The ascent's model step on hand-made models; then the ascent where its model's gradient is
//! off (the measured gradient), on the devnet's pools of cbETH → WETH → DAI: a large trade splits
//! into WETH and through both pools out of it, one a thin Uniswap V2 pool whose fees stay in its
//! reserves, so the routes through it pay more for a unit of their own than the model's final
//! marginal rate says, and steps on the model's gradient fail short of the bound. The trade and
//! its figures: docs/solver-optimizer.md, *3. Allocation*, the measured gradient.

use super::*;
use crate::address::Address;
use crate::pools::input::PoolInput;
use crate::route::gas::GasPricers;
use crate::route::quote::quote;
use crate::route::request::QuoteRequest;
use crate::route::test_market::{market_of, replay, settings};

fn model(share: Vec<f64>, gradient: Vec<f64>, hessian: Vec<f64>) -> Model {
    Model {
        n: share.len(),
        limits: Vec::new(),
        limited: Vec::new(),
        limit_scale: Vec::new(),
        finite: gradient.iter().chain(&hessian).all(|x| x.is_finite()),
        capped: vec![false; share.len()],
        gas_room: f64::INFINITY,
        opening_gas: vec![0.0; share.len()],
        open: (0..share.len()).filter(|&i| share[i] > 0.0).collect(),
        share,
        gradient,
        hessian: hessian.into(),
        amount: 1.0,
        gross: 1e18,
    }
}

#[test]
fn equalises_two_independent_routes() {
    // g_i(s) = g_i + h_i·Δ: from all on route 0 (rate 1.0) with route 1 at 1.2, the step is
    // where both rates meet: 1.0 + 2·d = 1.2 − 2·d → d = 0.05.
    let step = model(vec![1.0, 0.0], vec![1.0, 1.2], vec![-2.0, 0.0, 0.0, -2.0]).step(
        &Rules {
            allowed: &[true, true],
            open_more: true,
            sharing: &[vec![], vec![]],
            disjoint: false,
        },
        0.0,
    );
    assert!(
        (step.delta[0] + 0.05).abs() < 1e-9 && (step.delta[1] - 0.05).abs() < 1e-9,
        "{:?}",
        step.delta
    );
    assert!(step.predicted > 0.0);
}

#[test]
fn a_model_with_non_finite_numbers_proposes_nothing() {
    for (gradient, hessian) in [
        (vec![f64::NAN, 1.0], vec![-1.0, 0.0, 0.0, -1.0]),
        (vec![1.0, 2.0], vec![f64::NEG_INFINITY, 0.0, 0.0, f64::NAN]),
        (vec![f64::INFINITY, 1.0], vec![0.0; 4]),
    ] {
        let step = model(vec![0.5, 0.5], gradient, hessian).step(
            &Rules {
                allowed: &[true, true],
                open_more: true,
                sharing: &[vec![], vec![]],
                disjoint: false,
            },
            INITIAL_DAMPING,
        );
        assert!(step.delta.iter().all(|d| *d == 0.0), "{:?}", step.delta);
        assert_eq!(step.predicted, 0.0);
    }
}

#[test]
fn where_the_models_steps_fail_the_measured_gradient_climbs_within_a_tie_of_the_bound() {
    let inputs: Vec<PoolInput> =
        serde_json::from_str(include_str!("../fixtures/devnet_cbeth_dai_pools.json")).unwrap();
    let market = market_of(inputs);
    let request: QuoteRequest = serde_json::from_value(serde_json::json!({
        "tokenIn": "0x5fc8d32690cc91d4c39d9d3abcbd16989f875707", "tokenOut": "0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9",
        "amountIn": "303030303000000000000", "slippageBps": 50, "maxHops": 2, "gasPriceWei": "0",
    }))
    .unwrap();
    let weth = Address::parse("0x5FbDB2315678afecb367f032d93F642f64180aa3").unwrap();
    let plan = quote(&market, &settings(weth), &request, &GasPricers::default()).unwrap();
    let bound = f64::from(plan.metadata.upper_bound.expect("a bound in the metadata"));
    let ours = f64::from(plan.expected_amount_out);
    assert!(ours <= bound, "the plan pays {ours}, above the bound {bound}");
    // 0.05 bps: where the optimizer stops as close enough (`split::CLOSE_ENOUGH`).
    assert!(
        bound <= ours * (1.0 + 5e-6),
        "the plan pays {ours}, {} bps below the bound {bound}",
        (bound - ours) / bound * 1e4
    );
    assert_eq!(replay(&market, &plan), plan.expected_amount_out);
}
