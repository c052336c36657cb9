//! The dual's minimisation where a token has copies in two layers (tokenIn → A → Out and
//! tokenIn → B → A → Out both reach A): the optimum prices both copies alike, on the edge of the
//! region where prices never rise with the layer, and the solve must land there and stop.

use crate::route::convex::dual::evaluate;
use crate::route::convex::graph::{Graph, Intermediates, Scope};
use super::minimise;
use crate::market::Market;
use crate::route::clock::Deadline;
use crate::route::search::DexMask;
use crate::route::test_market::{addr, cp_pool, market_of, Rng};

fn scope(market: &Market, hops: usize) -> Scope {
    Scope {
        token_in: market.token(&addr(1)).unwrap(),
        token_out: market.token(&addr(2)).unwrap(),
        max_hops: hops,
        intermediates: Intermediates::Any,
        dexes: DexMask::ALL,
    }
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
        let layers_of_a = graph.copies.iter().filter(|c| c.token == market.token(&addr(3)).unwrap()).count();
        assert_eq!(layers_of_a, 2, "case {case}: A has a copy after one hop and after two");
        two_layer_cases += 1;
        let amount = rng.log_amount(19, 24) as f64;
        let dual = minimise(&graph, amount, &Deadline::never());
        assert!(dual.converged, "case {case}: the dual stopped unconverged at {:?}", dual.prices);
        let at = evaluate(&graph, &dual.prices, amount, false);
        if std::env::var("DUMP").is_ok_and(|v| v == case.to_string()) {
            eprintln!("copies {:?}\nprices {:?}\ngradient {:?}", graph.copies, dual.prices, at.gradient);
            for t in at.trades.iter().flatten() { let a = graph.arcs[t.arc]; eprintln!("arc {} {}->{:?} in {} out {}", t.arc, a.from, a.to, t.response.input, t.response.output); }
        }
        // Every copy's inflow minus outflow (tokenIn's inflow: amountIn), summed over each token's
        // copies and valued at their price, within 10⁻⁶ of g: flow is conserved (Newton stops on
        // its decrement, which is quadratic in this).
        for token in [1u8, 3, 4] {
            let index = market.token(&addr(token)).unwrap();
            let copies: Vec<usize> = (0..graph.copies.len()).filter(|&c| graph.copies[c].token == index).collect();
            let excess: f64 = copies.iter().map(|&c| at.gradient[c]).sum();
            assert!((excess * dual.prices[copies[0]]).abs() <= 1e-6 * at.value, "case {case}: token {token} has excess {excess}");
        }
    }
    assert_eq!(two_layer_cases, 100);
}

