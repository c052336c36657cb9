//! The dual's minimisation where a token has copies in two layers (tokenIn → A → Out and
//! tokenIn → B → A → Out both reach A): the optimum prices both copies alike, on the edge of the
//! region where prices never rise with the layer, and the solve must land there and stop.

use super::{minimise, minimise_from};
use crate::address::Address;
use crate::market::Market;
use crate::route::clock::Deadline;
use crate::route::convex::dual::evaluate;
use crate::route::convex::graph::{Graph, Scope};
use crate::route::test_market::devnet_tokens::*;
use crate::route::test_market::{
    addr, any_scope, cp_pool, devnet_sampled_fresh, devnet_sampled_fresh_before_pmm_eclp,
    market_of, Rng,
};

/// The trade from token 1 to token 2 of the test markets.
fn scope(market: &Market, hops: usize) -> Scope {
    any_scope(market, addr(1), addr(2), hops)
}

/// One trade on `market`, as the bound and the solver see it: the graph of up to `hops` hops, the
/// dual minimised with no deadline, its certified bound, and the plan `quote` gives (`native` the
/// settings' wrapped native token).
struct BoundAndPlan {
    graph: Graph,
    dual: super::Dual,
    bound: f64,
    plan: crate::route::plan::Plan,
}

impl BoundAndPlan {
    fn of(
        market: &Market,
        trade: [Address; 2],
        amount: u128,
        hops: usize,
        native: Address,
    ) -> Self {
        use crate::route::gas::GasPricers;
        use crate::route::quote::quote;
        use crate::route::request::QuoteRequest;
        use crate::route::test_market::settings;
        let [token_in, token_out] = trade;
        let (graph, dual, bound) = dual_and_bound(market, trade, amount, hops);
        let request: QuoteRequest = serde_json::from_value(serde_json::json!({
            "tokenIn": token_in.to_string(), "tokenOut": token_out.to_string(),
            "amountIn": amount.to_string(), "slippageBps": 50, "maxHops": hops,
        }))
        .unwrap();
        let plan = quote(market, &settings(native), &request, &GasPricers::default()).unwrap();
        BoundAndPlan { graph, dual, bound, plan }
    }

    /// The plan's output, after asserting it is at most `bound` and `bound` at most `tolerance`
    /// above it (`label` names the case).
    fn assert_bound_within(&self, bound: f64, tolerance: f64, label: &str) -> f64 {
        let ours = f64::from(self.plan.expected_amount_out);
        assert!(ours <= bound, "{label}: the plan pays {ours}, above the bound {bound}");
        assert!(
            bound <= ours * (1.0 + tolerance),
            "{label}: the bound {bound} is {} bps above the plan's {ours}",
            (bound - ours) / bound * 1e4
        );
        ours
    }
}

/// The graph of `amount` of `trade`'s tokenIn for its tokenOut in up to `hops` hops on `market`,
/// its dual minimised with no deadline, and its certified bound.
fn dual_and_bound(
    market: &Market,
    trade: [Address; 2],
    amount: u128,
    hops: usize,
) -> (Graph, super::Dual, f64) {
    use crate::route::convex::certificate::certified_bound;
    use crate::route::convex::graph_sides::per_side;
    let scope = any_scope(market, trade[0], trade[1], hops);
    let graph = Graph::build(market, &scope).unwrap();
    let sides = per_side(market, &scope, &graph, &Deadline::never());
    let dual = super::minimise_with(&graph, sides.as_ref(), amount as f64, &Deadline::never());
    let bound = f64::from(certified_bound(&graph, &dual.prices, amount as f64).unwrap());
    (graph, dual, bound)
}

/// The devnet's token addresses the fixtures hold.
fn devnet(token: &str) -> Address {
    Address::parse(token).unwrap()
}

/// tokenIn (1), tokenOut (2), A (3), B (4): pools In–A, In–B, A–B, A–Out, B–Out of random depths
/// and prices near 1, so 3-hop walks In→A→B→Out and In→B→A→Out compete with the 2-hop ones.
fn diamond(rng: &mut Rng) -> Market {
    let (tin, out, a, b) = (addr(1), addr(2), addr(3), addr(4));
    let pairs = [(tin, a), (tin, b), (a, b), (a, out), (b, out)];
    let pools = pairs
        .iter()
        .enumerate()
        .map(|(k, &(x, y))| {
            let depth = rng.log_amount(20, 24);
            let price = rng.range(8_000, 12_000) as f64 / 10_000.0;
            cp_pool(k as u8 + 1, "UNIV2", x, y, depth, (depth as f64 * price) as u128)
        })
        .collect();
    market_of(pools)
}

/// Every case converges, and at the prices reached every token's copies together send on what
/// they receive (g = what reaches tokenOut + Σ π·(inflow − outflow), so then g is what a
/// conserved flow delivers): the bound is the optimum, not just an upper bound on it.
#[test]
fn a_token_in_two_layers_converges() {
    let mut rng = Rng(0xd0a1_0001);
    let mut two_layer_cases = 0;
    for case in 0..100 {
        let market = diamond(&mut rng);
        let graph = Graph::build(&market, &scope(&market, 3)).unwrap();
        let layers_of_a =
            graph.copies.iter().filter(|c| c.token == market.token(&addr(3)).unwrap()).count();
        assert_eq!(layers_of_a, 2, "case {case}: A has a copy after one hop and after two");
        two_layer_cases += 1;
        let amount = rng.log_amount(19, 24) as f64;
        let dual = minimise(&graph, amount, &Deadline::never());
        assert!(dual.converged, "case {case}: the dual stopped unconverged at {:?}", dual.prices);
        let at = evaluate(&graph, &dual.prices, amount, false);
        if std::env::var("DUMP").is_ok_and(|v| v == case.to_string()) {
            eprintln!(
                "copies {:?}\nprices {:?}\ngradient {:?}",
                graph.copies, dual.prices, at.gradient
            );
            for t in at.trades.iter().flatten() {
                let a = graph.arcs[t.arc];
                eprintln!(
                    "arc {} {}->{:?} in {} out {}",
                    t.arc, a.from, a.to, t.response.input, t.response.output
                );
            }
        }
        // Every copy's inflow minus outflow (tokenIn's inflow: amountIn), summed over each token's
        // copies and valued at their price, within 10⁻⁶ of g: flow is conserved (Newton stops on
        // its decrement, which is quadratic in this).
        for token in [1u8, 3, 4] {
            let index = market.token(&addr(token)).unwrap();
            let copies: Vec<usize> =
                (0..graph.copies.len()).filter(|&c| graph.copies[c].token == index).collect();
            let excess: f64 = copies.iter().map(|&c| at.gradient[c]).sum();
            assert!(
                (excess * dual.prices[copies[0]]).abs() <= 1e-6 * at.value,
                "case {case}: token {token} has excess {excess}"
            );
        }
    }
    assert_eq!(two_layer_cases, 100);
}

/// Newton alone (`minimise_from`, no warm start) from every copy's price times `factor(copy)` of
/// the warm-started optimum, on 20 draws of the 3-hop diamond: the g reached and whether it says
/// it converged, per case; panics naming the first case that misses.
fn newton_from_far_prices(seed: u64, factor: fn(usize) -> f64) {
    let mut rng = Rng(seed);
    for case in 0..20 {
        let market = diamond(&mut rng);
        let graph = Graph::build(&market, &scope(&market, 3)).unwrap();
        let amount = rng.log_amount(19, 24) as f64;
        let optimum = minimise(&graph, amount, &Deadline::never());
        assert!(optimum.converged, "case {case}: the warm-started solve did not converge");
        let prices: Vec<f64> =
            optimum.prices.iter().enumerate().map(|(c, p)| p * factor(c)).collect();
        let dual = minimise_from(&graph, prices, amount, &Deadline::never());
        let (reached, best) = (dual.evaluation.value, optimum.evaluation.value);
        assert!(
            dual.converged && (reached - best).abs() <= 1e-9 * best,
            "case {case}: g {reached} against the optimum's {best}, converged {}, prices {:?} \
             against {:?}",
            dual.converged,
            dual.prices,
            optimum.prices
        );
    }
}

/// MAX_MOVE's trust region: Newton started with every copy's price 10⁸ times its optimum, or 10⁸
/// times below it, reaches the optimum (g within 10⁻⁹ of the warm-started solve's) and says it
/// converged. Far above, no venue trades (g is flat: the flat prices' clip); far below, every
/// venue drains its pool (g is steep); a step moves no price by more than half. It fails today:
/// one draw (case 11) stops unconverged with g 1.8·10⁻⁶ above the optimum, tokenIn's copy 0.02 %
/// above its price there. Open (issue 20); run with
/// `cargo test --release -p solver-rs -- --ignored newton_from_every`.
#[test]
#[ignore = "fails today: Newton from far prices stops unconverged on one draw (issue 20)"]
fn newton_from_every_price_far_above_or_below_the_optimum_reaches_it() {
    newton_from_far_prices(0xd0a1_0002, |_| 1e8);
    newton_from_far_prices(0xd0a1_0002, |_| 1e-8);
}

/// The same with the copies alternately 10⁸ above and below (tokenIn's copy above): it fails
/// today: case 1 stops unconverged with g 0.04 % above the optimum, tokenIn's copy 8 % and the
/// copies 2 and 3 (one token in two layers) 21 % below their prices there. Open (issue 20); run
/// with `cargo test --release -p solver-rs -- --ignored newton_from_mixed`.
#[test]
#[ignore = "fails today: Newton from mixed far prices stops unconverged (issue 20)"]
fn newton_from_mixed_far_prices_reaches_the_optimum() {
    newton_from_far_prices(0xd0a1_0002, |c| if c % 2 == 0 { 1e8 } else { 1e-8 });
}

/// The devnet market's pools between cbBTC and DAI (the embedded market as `npm start` seeds it,
/// read at one block): cbBTC reaches DAI through WETH or USDC, and USDC's pools to DAI are
/// stablecoin pools deep within a basis point of par. Two defects stalled the dual there with the
/// bound 2.2 times what any plan pays: the warm start priced USDC's copy, which no flow reached in
/// its first sweep, at twice its first unit's worth (a bisection that sent zero excess up), and
/// from there Newton's steps on a flat stretch of g (no venue trading, a zero Hessian) were as long
/// as the gradient over the damping floor, so forty halvings never made them small enough to
/// accept. The bound now lands within a basis point of the plan the solver quotes.
#[test]
fn a_copy_no_flow_reaches_at_first_is_priced_at_its_worth() {
    use crate::pools::input::PoolInput;
    let inputs: Vec<PoolInput> =
        serde_json::from_str(include_str!("fixtures/devnet_cbbtc_dai_pools.json")).unwrap();
    let market = market_of(inputs);
    // $1,000, $10,000 and $100,000 of cbBTC (8 decimals).
    for amount in [1_666_700u128, 16_666_700, 166_667_000] {
        let checked =
            BoundAndPlan::of(&market, [devnet(CBBTC), devnet(DAI)], amount, 2, devnet(WETH));
        let dual = &checked.dual;
        assert!(dual.converged, "{amount}: the dual stopped unconverged at {:?}", dual.prices);
        let bound = checked.plan.metadata.upper_bound.expect("a bound in the metadata");
        checked.assert_bound_within(f64::from(bound), 1e-4, &amount.to_string());
    }
}

/// Exhaustive search's graph that found it (`exhaustive_tests.rs`, the lead's draw of 330 graphs,
/// case 99): tokenIn (1) → tokenOut (2) through one shallow constant-product pool, and through B
/// (3) and C (4) on a 3-hop path whose middle hop is a Solidly stable pool of 5·10⁵ tokens and whose
/// last is a constant-product pool of a few tokens. The warm start's sweeps flooded C (its pool to
/// tokenOut took the middle pool's whole output) and then starved it; the last sweep left B priced
/// for flooded C and C back at its first unit, so the stable pool looked able to sell its whole
/// reserve for nothing: g at 10⁴ times the optimum. Newton, whose steps move a price by at most
/// half, spent its 80 iterations walking the prices down and back up, and the bound stayed 348 bps
/// above the best plan. Newton now starts from the sweep with the lowest g.
#[test]
fn a_sweep_that_leaves_a_deep_pool_draining_is_not_where_newton_starts() {
    use crate::pools::input::PoolInput;
    use crate::route::test_market::{cl_pool, solidly_pool};
    let (tin, out, b, c) = (addr(1), addr(2), addr(3), addr(4));
    let positions = [
        (-2520, 180, 252_348_077_248_058_064_896),
        (-1980, -300, 4_518_559_443_749_235_589_120),
        (-600, -180, 651_628_394_060_842_795_008),
    ];
    let pools: Vec<PoolInput> = vec![
        cp_pool(1, "PANCAKE_V2", tin, out, 4_008_667_176_273_042_432, 162_554_875_575_047_847_936),
        cl_pool(2, "UNIV3", [tin, b], -720, 3000, None, &positions),
        cp_pool(3, "UNIV2", b, tin, 19_543_394_557_753_962_496, 9_660_508_789_898_121_052_160),
        solidly_pool(
            4,
            [b, c],
            [563_637_655_825_956_007_313_408, 476_273_819_172_932_794_974_208],
            true,
            [18, 18],
            1,
        ),
        cp_pool(5, "PANCAKE_V2", c, out, 1_603_245_390_690_035_200, 6_208_690_342_300_624_896),
    ];
    let market = market_of(pools);
    let amount: u128 = 18_323_144_223_712_186_368;
    let checked = BoundAndPlan::of(&market, [tin, out], amount, 3, out);
    assert_eq!(checked.graph.copies.len(), 3, "tokenIn, B after one hop, C after two");
    let dual = &checked.dual;
    assert!(dual.converged, "the dual stopped unconverged at {:?}", dual.prices);
    // Exhaustive search's best routing of this trade is 1.34215552677·10²⁰, the plan's too.
    checked.assert_bound_within(checked.bound, 1e-5, "the trade");
}

/// The devnet market's pools that hold DAI or DEGEN (the embedded market as `npm start` seeds it,
/// read at one block, without the DODO and E-CLP pools the route-quality suite leaves out): DAI
/// reaches DEGEN through WETH or USDC, and two of its venues to USDC are Curve pools (pooled
/// venues). At the warm start of DAI→DEGEN no venue takes DAI at its price and USDC's only term
/// with curvature was a Curve pool's withdrawal funded by its slack alone, whose Hessian is 0 but
/// came out −10⁻¹⁵ (a subtraction of two equal numbers, `pooled.rs`, `schur`): no damping up to
/// 10¹² made Newton's matrix positive, Newton never took a step, and the bound stayed at the
/// first-unit worth of the whole amount through USDC, 63 bps above the plan at 0.1× ($1,000) and
/// 1,280 bps at 100× (`test/routeQualityEmbedded.test.ts`, the former Curve rule).
#[test]
fn a_pooled_venue_trading_on_its_slack_alone_lets_newton_step() {
    use crate::pools::input::PoolInput;
    let inputs: Vec<PoolInput> =
        serde_json::from_str(include_str!("fixtures/devnet_dai_degen_pools.json")).unwrap();
    let market = market_of(inputs);
    // $100 to $1,000,000 of DAI (18 decimals): the route-quality suite's 0.01× to 100×.
    for dollars in [100u128, 1_000, 10_000, 100_000, 1_000_000] {
        let amount = dollars * 10u128.pow(18);
        let checked =
            BoundAndPlan::of(&market, [devnet(DAI), devnet(DEGEN)], amount, 2, devnet(WETH));
        let pooled = checked.graph.venues.iter().any(|v| v.pooled.is_some());
        assert!(pooled, "a Curve pool on the graph");
        let dual = &checked.dual;
        assert!(dual.converged, "${dollars}: the dual stopped unconverged at {:?}", dual.prices);
        checked.assert_bound_within(checked.bound, 1e-4, &format!("${dollars}"));
    }
}

/// The devnet market's pools without those of cbBTC, cbETH, wstETH, DEGEN and BRETT (the embedded
/// market at one block, without DODO and E-CLP): USDbC→AERO 3-hop, $100. A copy that only a Curve
/// pool's roundings' allowance reaches (DAI after one hop: received whatever its price, taken by no
/// venue near it) has no curvature, so its Newton step is its gradient over the damping floor, far
/// past `MAX_MOVE`. The trust region shortened the whole step to it, which scaled every curved
/// price's step by about 10⁻⁷: the solve crawled, stalled, and the corners' passes stopped 88 bps
/// above the plan. A flat price is now clipped on its own, and the solve converges.
#[test]
fn a_flat_price_does_not_shorten_the_curved_ones_steps() {
    use crate::pools::input::PoolInput;
    let inputs: Vec<PoolInput> =
        serde_json::from_str(include_str!("fixtures/devnet_usdbc_aero_pools.json")).unwrap();
    let market = market_of(inputs);
    let trade = [devnet(USDBC), devnet(AERO)];
    let checked = BoundAndPlan::of(&market, trade, 100_000_000, 3, devnet(WETH));
    let dual = &checked.dual;
    assert!(dual.converged, "the dual stopped unconverged at {:?}", dual.prices);
    checked.assert_bound_within(checked.bound, 1e-4, "USDbC→AERO $100");
}

/// The devnet's WETH/cbBTC pools, WOOFi's vault fresh (the prop AMM keeper's heartbeat). Its curve
/// for any plan prices WETH at the top of the Chainlink bound and cbBTC at its bottom (1 % each
/// way): 179 to 198 bps above the plan on every size, water-filling paying what the plan pays. A
/// plan only sells tokenIn and only buys tokenOut, so neither price can move in its favour
/// (`pools/woofi/bound.rs`), and the bound is the plan's within 1 bps, the vault in the plan at
/// the large size.
#[test]
fn woofis_vault_bounds_a_plan_at_its_prices_now_for_the_plans_own_tokens() {
    use crate::dex::DexId;
    use crate::pools::input::PoolInput;
    let inputs: Vec<PoolInput> =
        serde_json::from_str(include_str!("fixtures/devnet_weth_cbbtc_woofi_pools.json")).unwrap();
    let market = market_of(inputs);
    // $100 and $1,000,000 of WETH at $3,000.
    for (amount, vault_in_plan) in
        [(33_333_000_000_000_000u128, false), (333_333_333 * 10u128.pow(12), true)]
    {
        // Not asserted converged: at the large size the dual ends unconverged with its price at
        // the vault's rate (a linear piece's corner, as the sampled curves' corner stall in
        // docs/solver-optimizer.md), yet the certified bound from there is the plan's.
        let checked =
            BoundAndPlan::of(&market, [devnet(WETH), devnet(CBBTC)], amount, 1, devnet(WETH));
        let legs = || checked.plan.routes.iter().flat_map(|r| r.legs.iter());
        assert_eq!(legs().any(|l| l.dex == DexId::Woofi), vault_in_plan, "{amount}: WOOFi's share");
        checked.assert_bound_within(checked.bound, 1e-4, &amount.to_string());
    }
}

/// The devnet's pools one prop AMM keeper tick after the saved state (WOOFi's oracle fresh, the
/// LUNARBASE venues re-priced), the kinds `routeQualityEmbedded` leaves out left out (GYROSCOPE_ECLP,
/// DODO_V2, the sampled prop AMMs), and `without` too.
fn prop_amms_fresh(without: &[crate::dex::DexId]) -> Market {
    use crate::pools::input::PoolInput;
    let inputs: Vec<PoolInput> =
        serde_json::from_str(include_str!("fixtures/devnet_prop_amms_fresh_pools.json")).unwrap();
    market_of(inputs.into_iter().filter(|p| !without.contains(&p.dex)).collect())
}

/// Quotes `amount` of `token_in` for `token_out` in up to `hops` hops on `market`, with the service's
/// settings (8 candidates, a beam of 3, the 8 best-connected connectors and WETH) and a converged
/// budget: the plan's output and its certified bound.
fn quote_as_the_service(
    market: &Market,
    token_in: &str,
    token_out: &str,
    amount: u128,
    hops: usize,
) -> (f64, f64) {
    use crate::route::gas::GasPricers;
    use crate::route::quote::{quote, RouteSettings};
    use crate::route::request::QuoteRequest;
    let settings = RouteSettings {
        native_token: Some(devnet(WETH)),
        connectors: None,
        default_connector_count: 8,
        default_time_budget_ms: 10_000,
        max_candidates: 8,
        beam: 3,
    };
    let request: QuoteRequest = serde_json::from_value(serde_json::json!({
        "tokenIn": token_in, "tokenOut": token_out, "amountIn": amount.to_string(),
        "slippageBps": 50, "maxHops": hops, "timeBudgetMs": 10_000,
    }))
    .unwrap();
    let plan = quote(market, &settings, &request, &GasPricers::default()).unwrap();
    let bound = plan.metadata.upper_bound.expect("a bound");
    (f64::from(plan.expected_amount_out), f64::from(bound))
}

/// DEGEN→DAI 3-hop 100× ($1M) with WOOFi's vault fresh: water-filling over these pools pays
/// 962,352 DAI (its allocation as our routes 962,350: `routeQualityEmbedded`'s figures), and the
/// bound is 984,052. Our plan paid 742,166: the dual stopped where WOOFi's cbETH→WETH side, one
/// linear piece 98,000 cbETH wide (the vault's per-swap cap times the swaps a plan may make),
/// is at its corner (its rate times WETH's price equal to cbETH's), WETH's second copy priced
/// below its first, and its flows (WETH bought for nothing from a vault that holds 3,333) left the
/// optimizer a start and routes that all go through one DEGEN/WETH pool. The copies the side joins
/// at its corner now move as one (`corners.rs`, `Corners`).
#[test]
fn a_vaults_linear_side_does_not_pin_the_dual_away_from_the_optimum() {
    let market = prop_amms_fresh(&[crate::dex::DexId::Lunarbase]);
    let (ours, bound) = quote_as_the_service(&market, DEGEN, DAI, 100_000_000 * 10u128.pow(18), 3);
    let waterfill = 962_350_279_193_050_597_255_844.0;
    assert!(bound >= waterfill, "the bound {bound} below water-filling's {waterfill}");
    assert!(
        ours >= waterfill * (1.0 - 1e-6),
        "ours {ours}, water-filling {waterfill}, bound {bound}"
    );
}

/// cbETH→USDC 2-hop 1× ($10,000) with WOOFi's vault and the LUNARBASE venues on the market: the
/// dual reported convergence at a bound of 2.2·10²⁰ raw USDC against a plan of 1.0·10¹⁰: LUNARBASE's
/// WETH→USDC curve pays 64 raw USDC for its first raw WETH unit (a piece one unit wide), WOOFi's
/// cbETH→WETH side is one linear piece 98,000 cbETH wide, and the prices sat on both corners (WETH
/// at 64, cbETH at the vault's rate times that), where the pieces' stand-in curvature made
/// Newton's decrement vanish. The tokenIn copy's whole amountIn is left unsent there (flow is not
/// conserved), which a converged minimum of g cannot leave: the solve may say converged only
/// where flow is conserved, and then its bound is the plan's within the vault's relaxation (2 %,
/// below).
#[test]
fn a_solve_stuck_on_two_corners_is_not_reported_converged() {
    let market = prop_amms_fresh(&[]);
    let amount = 3_030_303_000_000_000_000u128;
    let (ours, _) = quote_as_the_service(&market, CBETH, USDC, amount, 2);
    let (_, dual, bound) = dual_and_bound(&market, [devnet(CBETH), devnet(USDC)], amount, 2);
    assert!(
        !dual.converged || bound <= ours * 1.02,
        "converged with the bound {bound} far above the plan's {ours}, at {:?}",
        dual.prices
    );
}

/// The same trade: the vault's side at its corner joins cbETH's and WETH's copies (their prices in
/// the vault's rate), which move as one, and the dual converges. It stopped unconverged at cbETH
/// 1.11, WETH 1.000000003 (on LUNARBASE's first 64 raw units, which pay its rounding slack at about
/// one raw USDC each), the bound 3.4·10¹⁸ against a plan of 10¹⁰, for two reasons. The joined
/// group's Newton step was 10⁻¹⁶ of its price: the vault's other sides from cbETH (to cbBTC, to
/// USDC), idle at rates 10⁸ to 10⁹ times their first, reported the stand-in curvature of a piece at
/// its corner (1.8·10³⁴ to cbBTC), as if 98,000 cbETH would trade at once (`dual.rs`,
/// `beyond_reach`). Past that, the solve stopped with cbETH on two of the vault's corners in a row
/// (cbETH→cbBTC, cbBTC→USDC), the bound 1.0196·10¹⁰, unconverged: cbBTC alone has nothing to send
/// with the pieces left out, so its corner to USDC did not carry the group's excess (`Corners::join`
/// now reads the excess of the tender's group). Converged, the bound is 167 bps above the plan
/// (1.0196·10¹⁰ against 1.0026·10¹⁰): the relaxation's own gap, not the solve's (flow is conserved);
/// its flows pass the vault's two sides in a row, each a linear piece at its bound rate
/// (docs/dex-kinds.md, WOOFI), which part of that gap is is not measured.
#[test]
fn copies_joined_by_a_linear_side_at_its_corner_move_as_one() {
    let market = prop_amms_fresh(&[]);
    let amount = 3_030_303_000_000_000_000u128;
    let (ours, _) = quote_as_the_service(&market, CBETH, USDC, amount, 2);
    let (_, dual, bound) = dual_and_bound(&market, [devnet(CBETH), devnet(USDC)], amount, 2);
    assert!(dual.converged, "unconverged at {:?}, the bound {bound}", dual.prices);
    assert!(ours <= bound && bound <= ours * 1.02, "the bound {bound}, the plan {ours}");
}

/// The sampled venues fresh, WOOFi's vault left out: the dual converges on their corners and the
/// bound is within a basis point of the plan at 1, 2 and 3 hops, $100 to $1M (the route-quality
/// suite's fresh describe: medians 0, 0.003 and 0.04 bps). With the vault these are 12.5 bps
/// (cbBTC→WETH 100×) and 163 bps (cbETH→cbBTC 1×), converged (its bound's relaxation), and 10⁶
/// times the plan (wstETH→cbETH 3-hop 0.01×, unconverged on its corners, as below). On the market
/// before the DODO_V2 pools and the E-CLPs (`devnet_sampled_fresh_before_pmm_eclp`): with them
/// DEGEN→DAI 3-hop 100× stops unconverged 0.31 bps above the plan (open; no venue there has a
/// linear budget, so the line search's corner lengths do not apply), the three others within 0.04.
#[test]
fn sampled_venues_fresh_leave_the_bound_within_a_basis_point() {
    let market = devnet_sampled_fresh_before_pmm_eclp(&[crate::dex::DexId::Woofi]);
    for (token_in, token_out, amount, hops) in [
        (CBBTC, WETH, 1_666_666_700, 1),
        (CBETH, CBBTC, 3_030_303_000_000_000_000, 2),
        (DEGEN, DAI, 100_000_000 * 10u128.pow(18), 3),
        (WSTETH, CBETH, 28_169_000_000_000_000, 3),
    ] {
        let (ours, bound) = quote_as_the_service(&market, token_in, token_out, amount, hops);
        let (_, dual, _) =
            dual_and_bound(&market, [devnet(token_in), devnet(token_out)], amount, hops);
        let label = format!("{token_in}→{token_out} {hops}-hop {amount}");
        assert!(dual.converged, "{label}: unconverged, the bound {bound}, the plan {ours}");
        assert!(
            ours <= bound && bound <= ours * (1.0 + 1e-4),
            "{label}: the bound {bound}, the plan {ours}"
        );
    }
}

/// USDC→BRETT 3-hop 0.01× ($100, through 166,700 raw cbBTC), the prop AMMs fresh, WOOFi's vault
/// left out: the bound is 7.8 bps above the plan, water-filling's the same, where the saved chain
/// (the venues stale) gives 4.0. Neither is the sampled venues' nor the dual's. The 4.0 is the
/// rounding allowance of `MAX_SWAPS_PER_POOL` swaps (64 raw cbBTC, `curve/mod.rs`); the 3.8 more
/// is LUNARBASE's USDC→cbBTC venue, whose bound lets each of those swaps pay one raw unit more
/// (`pools/lunarbase/bound.rs`): the dual's flows send it 64 raw USDC for 64 raw cbBTC. With it
/// left out the plan is the same and the bound back at 4.0 bps.
#[test]
fn lunarbases_rounding_allowance_is_the_fresh_gap_at_100_dollars() {
    use crate::dex::DexId::{Lunarbase, Woofi};
    let amount = 100_000_000u128;
    let (ours, with) =
        quote_as_the_service(&devnet_sampled_fresh(&[Woofi]), USDC, BRETT, amount, 3);
    let (alone, without) =
        quote_as_the_service(&devnet_sampled_fresh(&[Woofi, Lunarbase]), USDC, BRETT, amount, 3);
    assert_eq!(ours, alone);
    let bps = |above: f64, of: f64| (above - of) / above * 1e4;
    assert!(bps(without, ours) <= 4.05, "without LUNARBASE the bound {without}, the plan {ours}");
    let extra = bps(with, without);
    assert!((3.7..=3.95).contains(&extra), "LUNARBASE adds {extra} bps (64 raw cbBTC: 3.84)");
}

/// cbETH→USDC 2-hop 0.01× ($100) with WOOFi's vault and the prop AMMs fresh: the dual stopped
/// unconverged at a bound of 1.25·10¹⁴ raw USDC against a plan of 1.0026·10⁸ while each side of
/// the vault was one linear piece with the fee left out. With the fee in the curve (its floor's
/// rounding a first piece worth a fraction of a dollar, `pools/woofi/bound.rs`) it converges at
/// 1.0191·10⁸, 162 bps above the plan: the relaxation's own gap (the middle tokens' Chainlink ends).
#[test]
fn the_vaults_corners_at_100_dollars_converge() {
    let market = devnet_sampled_fresh(&[]);
    let amount = 30_303_000_000_000_000u128;
    let (ours, bound) = quote_as_the_service(&market, CBETH, USDC, amount, 2);
    let (_, dual, _) = dual_and_bound(&market, [devnet(CBETH), devnet(USDC)], amount, 2);
    assert!(dual.converged, "unconverged, the bound {bound}, the plan {ours}");
    assert!(ours <= bound && bound <= ours * 1.02, "the bound {bound}, the plan {ours}");
}

/// The fresh fixture as it was when the fixes below were found (before the DODO_V2 pools and the
/// E-CLPs: `devnet_sampled_fresh_before_pmm_eclp`) with WOOFi's joint budget set for this thread
/// (`pools/woofi/mod.rs`): the plan the service quotes (its graphs built on this thread: the joint
/// budget too), and the dual minimised with no deadline and its certified bound.
fn with_the_joint_budget(
    token_in: &str,
    token_out: &str,
    amount: u128,
    hops: usize,
) -> (f64, super::Dual, f64) {
    joint_on(devnet_sampled_fresh_before_pmm_eclp, token_in, token_out, amount, hops)
}

/// One of `test_market`'s fixtures (the market it makes without the kinds given), by name.
type Fixture = (&'static str, fn(&[crate::dex::DexId]) -> Market);

/// The fixture the solve tests' fixes were found on (before the DODO_V2 pools and the E-CLPs) and
/// today's (`test_market`'s), by name: the tests below hold on both.
fn both_fixtures() -> [Fixture; 2] {
    [("before the E-CLPs", devnet_sampled_fresh_before_pmm_eclp), ("today's", devnet_sampled_fresh)]
}

/// On both fixtures ([`both_fixtures`]), WOOFi's joint budget set: the dual converges and the
/// certified bound is at least the plan and at most `tolerance` (a fraction) above it.
fn converges_within_on_both(
    token_in: &str,
    token_out: &str,
    amount: u128,
    hops: usize,
    tolerance: f64,
) {
    for (market, fixture) in both_fixtures() {
        converges_within((market, fixture), [token_in, token_out], amount, hops, tolerance);
    }
}

/// [`converges_within_on_both`] on one fixture (named `market` in the failures).
fn converges_within(
    (market, fixture): Fixture,
    [token_in, token_out]: [&str; 2],
    amount: u128,
    hops: usize,
    tolerance: f64,
) {
    let (ours, dual, bound) = joint_on(fixture, token_in, token_out, amount, hops);
    let label = format!("{market}: {token_in}→{token_out} {hops}-hop {amount}");
    assert!(dual.converged, "{label}: unconverged, the bound {bound}, the plan {ours}");
    let within = ours <= bound && bound <= ours * (1.0 + tolerance);
    assert!(within, "{label}: the bound {bound}, the plan {ours}");
}

/// [`with_the_joint_budget`] on the market `fixture` makes (one of `test_market`'s fixtures).
fn joint_on(
    fixture: fn(&[crate::dex::DexId]) -> Market,
    token_in: &str,
    token_out: &str,
    amount: u128,
    hops: usize,
) -> (f64, super::Dual, f64) {
    let _joint = crate::pools::woofi::joint_bound_in_tests(true);
    let market = fixture(&[]);
    let (ours, _) = quote_as_the_service(&market, token_in, token_out, amount, hops);
    let (graph, dual, bound) =
        dual_and_bound(&market, [devnet(token_in), devnet(token_out)], amount, hops);
    assert!(graph.venues.iter().any(|v| v.pooled.as_ref().is_some_and(|p| p.budget.is_linear())));
    (ours, dual, bound)
}

/// cbETH→cbBTC 2-hop 1× ($10,000) on the vault's joint budget: the dual stopped unconverged
/// 115 bps above the plan with WETH's and USDC's copies both overdrawn and the budget's pair
/// WETH→USDC on its corner, read untaken (WETH has nothing to send). Newton's step raised USDC's
/// price more than WETH's, across the corner, where the whole pair (10,000 WETH for the vault's
/// 30M USDC) starts at once: no length of that step lowers g, and the budget's term has no
/// curvature to tell Newton so. A step across such a hinge now joins its two groups
/// (`join_crossed`): converged, 0.04 bps above the plan (found on the fixture before the E-CLPs;
/// on today's, where it failed from the warm start alone, 0.043 bps converged since the solve
/// starts where the per-side curves' solve ends).
#[test]
fn a_step_across_a_linear_budgets_corner_moves_its_copies_as_one() {
    converges_within_on_both(CBETH, CBBTC, 3_030_303_000_000_000_000, 2, 1e-5);
}

/// USDC→BRETT 3-hop 0.01× ($100) on the vault's joint budget: Newton's decrement fell below its
/// tolerance with WETH's and wstETH's copies overdrawn by 1.6 and 1.8·10⁻⁶ of g, just past the
/// flow test's 10⁻⁶: the curvature is the deep pools' own (10⁶·g in the scaled prices for a $100
/// trade), so the decrement vanishes a step before the flow is conserved. The full step is now
/// taken while it halves the imbalance: converged, at the bound's gap without the solve's stop
/// (8.3 bps: LUNARBASE's rounding allowance and the budget's slack of 64 swaps, 4,609 raw USDC),
/// 8.2 on today's fixture.
#[test]
fn newton_steps_past_a_small_decrement_until_flow_is_conserved() {
    converges_within_on_both(USDC, BRETT, 100_000_000, 3, 8.5e-4);
}

/// cbETH→USDC 2-hop 0.01× ($100) and 1× on the vault's joint budget: once the hinge's copies
/// moved as one, the solve reached its optimum (0.48 and 0.005 bps above the plan), and the flow
/// test still said unconverged: cbETH's copy, overdrawn by 10⁻¹¹ cbETH, counted as driven towards
/// 0 against its first unit's worth, 1.1 raw USDC per wei (a rounding allowance's rate: the
/// curve's first 64 raw units pay about a raw unit each), 3·10⁸ times its price. A copy counts as
/// driven against what its trades get for it (`sold_at`): converged. On today's fixture 0.53 and
/// 0.005 bps, converged: the budget's slack (64 swaps' roundings, 4,609 raw USDC) is 0.46 bps of
/// $100, the other 0.07 not measured.
#[test]
fn a_rounding_allowance_does_not_make_a_copy_look_driven() {
    for amount in [30_303_000_000_000_000u128, 3_030_303_000_000_000_000] {
        converges_within_on_both(CBETH, USDC, amount, 2, 5.5e-5);
    }
}

/// wstETH→cbETH 3-hop 0.01× ($100) with WOOFi's vault, on its per-side curves and on its joint
/// budget: the warm start settled a copy that received nothing in a sweep where it sends nothing,
/// at its first unit's worth, which LUNARBASE's rounding allowance (about a raw unit out for each
/// of a curve's first 64 raw units in) put 10⁸ times above its worth (USDC after one hop); the
/// next sweep priced the copies that tender to it for it, and the sweeps alternated between two
/// states 3·10⁸ and 2·10¹³ times the plan. Newton, halving g a step, stopped unconverged on both:
/// 266 bps above the plan on the per-side curves, 1.4·10⁵ times the plan on the joint budget. A
/// copy settled in the warm start now sends at least what takes it past those allowances
/// (`past_allowances`): converged on both, 266 and 22.7 bps above the plan (on the market before
/// the DODO_V2 pools and the E-CLPs). On today's fixture the per-side solve stops unconverged 75.6
/// bps above the plan (open: the vault's per-side curves are a side's pieces, whose corners the
/// line search's corner lengths do not cover, `solve_corner_steps.rs`), and the joint one
/// converges 4.3 bps above it (`the_line_search_lands_on_a_linear_budgets_corner`).
#[test]
fn the_warm_start_prices_a_copy_past_the_rounding_allowances() {
    let amount = 28_169_000_000_000_000u128;
    let market = devnet_sampled_fresh_before_pmm_eclp(&[]);
    let (ours, dual, bound) = {
        // The per-side curves, whatever `JOINT_BOUND` says.
        let _apart = crate::pools::woofi::joint_bound_in_tests(false);
        let (ours, _) = quote_as_the_service(&market, WSTETH, CBETH, amount, 3);
        let (_, dual, bound) = dual_and_bound(&market, [devnet(WSTETH), devnet(CBETH)], amount, 3);
        (ours, dual, bound)
    };
    assert!(dual.converged, "per side: unconverged, the bound {bound}, the plan {ours}");
    assert!(ours <= bound && bound <= ours * 1.03, "per side: the bound {bound}, the plan {ours}");
    let (ours, dual, bound) = with_the_joint_budget(WSTETH, CBETH, amount, 3);
    assert!(dual.converged, "joint: unconverged, the bound {bound}, the plan {ours}");
    assert!(
        ours <= bound && bound <= ours * (1.0 + 2.5e-3),
        "joint: the bound {bound}, the plan {ours}"
    );
}

/// wstETH→cbETH 3-hop 0.01× ($100) on the vault's joint budget, today's fixture: the solve reported
/// converged with g 20 times the plan. Its flow test let a group pinned to tokenOut pass whatever
/// its excess; the vault's USDC→cbETH pair pinned USDC's copy after two hops, then the budget's
/// pairs and a side's corner joined cbBTC's, WETH's and USDC's other copies to it, WETH's after two
/// hops overdrawn by 4.2·10²⁰ wei: the group 610 times g overdrawn, which no flow through the pin
/// (out of the group, at most its input) balances. A pinned group now passes only where its pins
/// can carry its excess (`Joined::carried`), and the solve is not said converged there.
#[test]
fn a_group_pinned_to_token_out_is_conserved_only_within_what_its_pins_carry() {
    let (ours, dual, bound) =
        joint_on(devnet_sampled_fresh, WSTETH, CBETH, 28_169_000_000_000_000, 3);
    assert!(ours <= bound, "the plan {ours} above the bound {bound}");
    assert!(
        !dual.converged || bound <= ours * 1.02,
        "converged with the bound {bound} {} times the plan {ours}",
        bound / ours
    );
}

/// The warm start settles a copy with its inflow held over the venues it may send to only
/// (`sending_venues`), a venue of one arc by that arc's trade (`lone_input`): its excess there is
/// the same, to the bit, as every touching venue's term gives it (`held_excess_by_terms`),
/// at prices around the optimum and far from it, on 20 draws of the 3-hop diamond (A and B each
/// receive from and send to the A–B pool).
#[test]
fn a_held_inflows_excess_reads_only_the_venues_a_copy_sends_to() {
    use super::{excess, sending_venues, touching_venues};
    let mut lone = 0;
    let mut rng = Rng(0xd0a1_0020);
    for case in 0..20 {
        let market = diamond(&mut rng);
        let graph = Graph::build(&market, &scope(&market, 3)).unwrap();
        let amount = rng.log_amount(19, 24) as f64;
        let optimum = minimise(&graph, amount, &Deadline::never()).prices;
        let touching = touching_venues(&graph);
        let sending = sending_venues(&graph, &touching);
        assert!(sending.iter().zip(&touching).any(|(s, t)| s.len() < t.len()), "case {case}");
        lone += graph.venues.iter().filter(|v| v.arcs.len() == 1).count();
        for draw in 0..20 {
            let prices: Vec<f64> =
                optimum.iter().map(|p| p * rng.range(1, 1_000) as f64 / 100.0).collect();
            for (c, venues) in touching.iter().enumerate() {
                let inflow = Some(rng.log_amount(15, 24) as f64);
                let all = held_excess_by_terms(&graph, venues, &prices, c, inflow);
                let sent = excess(&graph, &sending, &prices, c, inflow);
                assert_eq!(all.to_bits(), sent.to_bits(), "case {case} draw {draw} copy {c}");
            }
        }
    }
    assert!(lone > 0, "no venue of one arc: lone_input untested");
}

/// Copy c's excess with its inflow held at `inflow`, from every venue of `touching` (c's) whole
/// term: what `excess` computed before `sending_venues` and `lone_input`.
fn held_excess_by_terms(
    graph: &Graph,
    touching: &[usize],
    prices: &[f64],
    c: usize,
    inflow: Option<f64>,
) -> f64 {
    use crate::route::convex::dual::{pooled_term, venue_term};
    use crate::route::convex::graph::Head;
    let mut total = inflow.unwrap_or(0.0);
    for &v in touching {
        if let Some(pooled) = &graph.venues[v].pooled {
            pooled_term(pooled, prices).flows(|head, flow| {
                if head == Head::Copy(c) && flow < 0.0 {
                    total += flow;
                }
            });
            continue;
        }
        if let Some(term) = venue_term(graph, v, prices) {
            if term.tender == c {
                total -= term.trade.response.input;
            }
        }
    }
    total
}

/// cbETH→cbBTC 2-hop 1× ($10,000) on the vault's joint budget, today's fixture: Newton from the
/// warm start stopped unconverged with g 38.8 times the plan; started where the per-side curves'
/// solve ends (the same copies) it converges at the plan (`diagnose_vault`, `FROM_SIDES=1`). The
/// solve now starts there wherever a venue has a joint budget (`minimise_with`, `graph_sides.rs`).
#[test]
fn the_joint_solve_starts_where_the_per_side_solve_ends() {
    let today: Fixture = ("today's", devnet_sampled_fresh);
    converges_within(today, [CBETH, CBBTC], 3_030_303_000_000_000_000, 2, 1e-3);
}

/// wstETH→cbETH 3-hop 0.01× ($100) and DEGEN→DAI 3-hop 100× ($1M) on the vault's joint budget,
/// today's fixture: both stopped unconverged, 88.0 and 77.4 bps above the plan, Newton crawling at
/// step lengths 2⁻¹¹ to 2⁻¹⁵ where the budget's copies, flat in its model, stepped across a linear
/// pair's corner that the halvings never landed on. Where the halvings crawl the line search now
/// tries the lengths at which the step meets each pair's corner (`solve_corner_steps.rs`):
/// wstETH→cbETH converges 4.3 bps above the plan; DEGEN→DAI's bound is the same (974,844 DAI) and
/// its plan, built from the dual's flows, pays 974,781 DAI where it paid 967,302 (water-filling
/// 962,398): 0.64 bps, the solve still unconverged there (open).
#[test]
fn the_line_search_lands_on_a_linear_budgets_corner() {
    let today: Fixture = ("today's", devnet_sampled_fresh);
    converges_within(today, [WSTETH, CBETH], 28_169_000_000_000_000, 3, 5e-4);
    let (ours, _, bound) =
        joint_on(devnet_sampled_fresh, DEGEN, DAI, 100_000_000 * 10u128.pow(18), 3);
    assert!(
        ours <= bound && bound <= ours * (1.0 + 1e-4),
        "DEGEN→DAI: the bound {bound}, the plan {ours}"
    );
}

/// cbETH→AERO 3-hop $100 on the vault's joint budget (today's fixture): WETH after one hop tied to
/// WETH after two (300 WETH unsent there), the vault's pairs joining USDC's copy after one hop
/// ($867k overdrawn) and cbBTC's to that tie, so the four copies were one Newton variable whose
/// valued excess was 4·10⁻¹¹ of g: reported converged 9,862 bps above the plan (72.7 times). The
/// join now releases a tie whose shallower part its corners leave overdrawn (`corners.rs`):
/// converged, 15.1 bps above the plan.
#[test]
fn a_tie_the_corners_leave_overdrawn_is_not_one_variable() {
    let today: Fixture = ("today's", devnet_sampled_fresh);
    converges_within(today, [CBETH, AERO], 30_303_000_000_000_000, 3, 2e-3);
}

/// USDC→cbETH 3-hop 1× on the vault's joint budget (today's fixture): the budget tenders WETH from
/// its copy after two hops and gives it at its copy after one, so `monotone` holds the two at one
/// price (and cbBTC's two alike), but the tie rule released them (WETH after one hop overdrawn,
/// 1,027 times g at $100): Newton stepped them apart, `monotone` put them back, and the solve
/// stopped unconverged, 408 bps above the plan (the per-side bound, 261, kept). Such a link is
/// now never released (`ties::locked_links`): converged, 188 bps.
#[test]
fn copies_the_vault_holds_at_one_price_move_as_one() {
    let today: Fixture = ("today's", devnet_sampled_fresh);
    converges_within(today, [USDC, CBETH], 10_000_000_000, 3, 0.02);
}
