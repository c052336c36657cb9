use super::*;
use crate::dex::DexId;
use crate::pools::registry::spec;
use crate::route::test_market::{addr, cp_pool, market_of};

#[test]
fn a_pool_swapped_earlier_in_the_view_costs_its_kinds_repeated_leg_gas() {
    let market =
        market_of(vec![cp_pool(1, "UNIV2", addr(1), addr(2), 10u128.pow(24), 10u128.pow(24))]);
    let hop = Hop { pool: 0, token_in: 0, token_out: 1 };
    let amount = U256::from(10u128.pow(18));
    let mut overlay = Overlay::new(&market);
    let (_, first) = overlay.swap(hop, amount).unwrap();
    let (_, second) = overlay.swap(hop, amount).unwrap();
    let univ2 = spec(DexId::Univ2);
    assert!(univ2.gas_repeat_saving > 0);
    assert_eq!(first, univ2.gas_base);
    assert_eq!(second, univ2.gas_base - univ2.gas_repeat_saving);
    // A fresh view (another plan) starts cold again.
    assert_eq!(Overlay::new(&market).swap(hop, amount).unwrap().1, univ2.gas_base);
}

/// A path through two pairs of one venue is quoted as the replay runs it: its second swap on the
/// state the first left. A sampled venue of three tokens refuses the second pair (it prices one pair
/// per plan); a Curve pool of three coins pays the overlay's figure, not the untouched pool's.
/// Before, each hop was priced on the untouched venue: the sampled venue's path was quoted whole,
/// and a split whose only start it was answered no route (the seeded tricrypto-ng pool, USDC → cbBTC
/// through CURVE pools only).
#[test]
fn a_path_through_one_venue_twice_is_quoted_on_the_state_its_first_swap_left() {
    use crate::route::test_market::curve_pool;
    let (a, b, c) = (addr(1), addr(2), addr(3));
    let e18 = 10u128.pow(18);
    let samples = serde_json::json!([["1000000000000000000000", "990000000000000000000"]]);
    let pairs: Vec<serde_json::Value> = [(0, 1), (1, 2)]
        .iter()
        .map(|(i, o)| serde_json::json!({ "tokenIn": i, "tokenOut": o, "samples": samples }))
        .collect();
    let venue: crate::pools::input::PoolInput = serde_json::from_value(serde_json::json!({
        "id": addr(0x77).to_string(), "dex": "CURVE", "tokens": [a.to_string(), b.to_string(), c.to_string()],
        "state": { "model": "sampled", "marginBps": 0, "pairs": pairs },
    }))
    .unwrap();
    let stable = curve_pool(2, &[a, b, c], &[e18 * 1000; 3], &[18; 3], 20_000, 4_000_000, true);
    for (input, refused) in [(venue, true), (stable, false)] {
        let market = market_of(vec![input]);
        let t = |x| market.token(&x).unwrap();
        let hop = |i: u8, o: u8| Hop { pool: 0, token_in: i, token_out: o };
        let path = Path { tokens: vec![t(a), t(b), t(c)], hops: vec![hop(0, 1), hop(1, 2)] };
        let amount = U256::from(100 * e18);
        let quoted = quote_path(&market, &path, amount);
        let replayed = Overlay::new(&market).run(&path, amount, None);
        assert_eq!(quoted, replayed);
        assert_eq!(quoted.is_err(), refused, "{quoted:?}");
        // Each hop on the untouched pool: a quote at all (the venue), another figure (the stable
        // pool: its second swap sells the coin its first made scarce, and pays more).
        let untouched = run_hops(&path.hops, amount, |hop, x| {
            let (i, o) = (hop.token_in as usize, hop.token_out as usize);
            let (outcome, _) = market.pool(0).state.apply(i, o, x)?;
            Ok::<_, PoolError>((outcome.amount_out, 0))
        });
        let (untouched, quoted) = (untouched.unwrap().0, quoted.map(|q| q.0));
        assert!(quoted.as_ref().map_or(true, |q| *q != untouched), "{quoted:?} {untouched}");
    }
}
