//! The bound on the embedded market with its Curve meta pool on (`fixtures/devnet_meta_pools.json`,
//! `pooled_meta_diagnosis.rs`): the 3-hop trades whose graphs hold the meta venue's coins in both
//! middle layers.

use super::diagnosis::devnet_meta;
use crate::address::Address;
use crate::route::test_market::bounded_quote;
use crate::route::test_market::devnet_tokens::*;

/// With the first budget's own term beside its D-eliminated pair, DAI→AERO 3-hop 1× ended 4,333
/// bps above the plan and USDbC→cbBTC 3-hop 10× 405 (unconverged: the least of the two switched
/// between them, the first's base coins withdrawing all or nothing); the pair alone holds both
/// within a basis point. USDbC→cbBTC 3-hop 0.01× ended 4,894 bps above with the pair's floor term
/// (K·ln(D₁/D_f), funding a withdrawal of 10²³ raw DAI against no deposit), USDbC→AERO and
/// USDbC→DEGEN 3-hop 0.01× 108 and 245; the chord's two pieces in its place hold them within a
/// basis point (`meta_bound.rs`, *D eliminated*). USDbC→wstETH 3-hop 0.01× ended 32 bps above
/// with the venue's Hessian in the prices computed as own − C·M⁻¹·Cᵀ (a cancelled diagonal beside a
/// cross entry, which Cholesky refuses at any small damping); its Gram form holds it within a basis
/// point (`pooled_meta_schur.rs`).
#[test]
fn the_meta_venues_3_hop_bound_is_within_5_bps_of_the_plan() {
    let market = devnet_meta();
    let weth = Address::parse(WETH).unwrap();
    for (tin, tout, raw) in [
        (DAI, AERO, 10_000_000_000_000_000_000_000u128),
        (USDBC, CBBTC, 100_000_000_000),
        (USDBC, CBBTC, 100_000_000),
        (USDBC, AERO, 100_000_000),
        (USDBC, DEGEN, 100_000_000),
        (USDBC, WSTETH, 100_000_000),
    ] {
        let trade = [Address::parse(tin).unwrap(), Address::parse(tout).unwrap()];
        let quote = bounded_quote(&market, trade, raw, 3, weth);
        let gap_bps = 1e4 * (quote.bound - quote.ours) / quote.bound;
        assert!(quote.bound >= quote.ours, "{tin}→{tout}: the plan {} above the bound", quote.ours);
        assert!(
            gap_bps <= 5.0,
            "{tin}→{tout} {raw}: {gap_bps:.1} bps (plan {}, bound {}, converged {})",
            quote.ours,
            quote.bound,
            quote.converged
        );
    }
}
