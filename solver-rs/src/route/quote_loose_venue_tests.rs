//! The quote where the bound relaxes a venue loosely (WOOFi's vault): its plan is never below the
//! plan of the same request without that venue (`quote.rs`, `convex_start`).

use crate::address::Address;
use crate::dex::DexId;
use crate::market::Market;
use crate::pools::input::PoolInput;
use crate::route::gas::GasPricers;
use crate::route::quote::{quote, RouteSettings};
use crate::route::request::QuoteRequest;
use crate::route::test_market::market_of;

const WETH: &str = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const CBETH: &str = "0x5fc8d32690cc91d4c39d9d3abcbd16989f875707";
const DEGEN: &str = "0x2279b7a0a67db372996a5fab50d91eaa73d2ebe6";

/// The embedded market's pools as `routeQualityEmbedded`'s re-priced run quotes them
/// (`ROUTE_QUALITY_WOOFI=1 ROUTE_QUALITY_DUMP=…`, the prop AMMs re-priced, WOOFi's oracle fresh).
fn embedded_repriced() -> (Market, Vec<DexId>) {
    let inputs: Vec<PoolInput> =
        serde_json::from_str(include_str!("fixtures/embedded_repriced_pools.json")).unwrap();
    let mut dexes: Vec<DexId> = inputs.iter().map(|p| p.dex).collect();
    dexes.sort();
    dexes.dedup();
    (market_of(inputs), dexes)
}

/// The service's settings: 8 candidates, a beam of 3, the 8 best-connected connectors and WETH.
fn service_settings() -> RouteSettings {
    RouteSettings {
        native_token: Some(Address::parse(WETH).unwrap()),
        connectors: None,
        default_connector_count: 8,
        default_time_budget_ms: 10_000,
        max_candidates: 8,
        beam: 3,
    }
}

/// The plan's output for `amount_in` of `token_in` in up to `hops` hops, gas free, on `dexes`.
fn paid(
    market: &Market,
    (token_in, token_out): (&str, &str),
    amount_in: &str,
    dexes: &[DexId],
) -> f64 {
    let request: QuoteRequest = serde_json::from_value(serde_json::json!({
        "tokenIn": token_in, "tokenOut": token_out, "amountIn": amount_in, "slippageBps": 50,
        "maxHops": 3, "timeBudgetMs": 10_000, "gasPriceWei": "0", "allowedDexes": dexes,
    }))
    .unwrap();
    let plan = quote(market, &service_settings(), &request, &GasPricers::default()).unwrap();
    f64::from(plan.expected_amount_out)
}

/// DEGEN→cbETH 3-hop 100× ($1M) with the vault in scope: the bound's optimum routes part of the
/// flow through the vault, whose relaxation is loose there, and its paths and start left the plan
/// 445 bps below the bound, while the same request without WOOFi (a plan of the vault-on request
/// too) paid 5.6 bps below it: the optimum without the vault is now a second start.
#[test]
fn a_plan_with_the_vault_in_scope_pays_what_the_plan_without_it_pays() {
    let (market, dexes) = embedded_repriced();
    let without: Vec<DexId> = dexes.iter().copied().filter(|d| *d != DexId::Woofi).collect();
    let trade = (DEGEN, CBETH);
    let amount_in = "100000000000000000000000000";
    let (with_vault, without_vault) =
        (paid(&market, trade, amount_in, &dexes), paid(&market, trade, amount_in, &without));
    // The two ascents stop at their own bounds' closeness, so equal plans may differ in the last
    // digits: 0.01 bps is allowed (the plan was 445 bps short).
    assert!(
        with_vault >= without_vault * (1.0 - 1e-6),
        "with the vault {with_vault}, without {without_vault}: {:.1} bps short",
        (without_vault - with_vault) / without_vault * 1e4
    );
}
