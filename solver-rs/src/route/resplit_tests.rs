//! The re-split (`resplit.rs`) on the pools of the 100-pool synthetic market's 3-hop 100× trade
//! (seed 7, `bench/dumpSyntheticMarket.ts`): six pools into WETH, one concentrated pool WETH →
//! the middle token that takes less than the first hop delivers, six pools on to tokenOut. The
//! bound's optimum strands WETH, so its flows name no path, and the ascent alone stopped with two
//! routes on two of the six last pools, 68 bps below the bound.

use super::clock::Deadline;
use super::convex::graph::{Intermediates, Scope};
use super::gas::GasPricers;
use super::path::{Overlay, Path};
use super::quote::quote;
use super::request::QuoteRequest;
use super::resplit::resplit;
use super::search::DexMask;
use super::test_market::{market_of, replay, settings};
use crate::address::Address;
use crate::market::{Hop, Market, TokenIdx};
use crate::math::U256;
use crate::pools::input::PoolInput;

const TOKEN_IN: &str = "0x8f5cc528cce7433d3b7f1f1ac071e519b8245536";
const WETH: &str = "0x4200000000000000000000000000000000000006";
const MIDDLE: &str = "0x172e171ad7da56936399f1818870ea9decaadace";
const TOKEN_OUT: &str = "0x7ef881a513b4b4acf2842f3006ab76dbe9bba02d";
/// About $1M of tokenIn: 100x the typical size.
const AMOUNT_IN: &str = "8365259370912533662662656000";

fn market() -> Market {
    let inputs: Vec<PoolInput> =
        serde_json::from_str(include_str!("fixtures/synthetic_stranded_middle_pools.json"))
            .unwrap();
    market_of(inputs)
}

fn token(market: &Market, address: &str) -> TokenIdx {
    market.token(&Address::parse(address).unwrap()).unwrap()
}

/// The path through the fixture's pools `pools` (indices in its file), token to token.
fn path(market: &Market, pools: [u32; 3]) -> Path {
    let tokens: Vec<TokenIdx> =
        [TOKEN_IN, WETH, MIDDLE, TOKEN_OUT].iter().map(|a| token(market, a)).collect();
    let hops = pools
        .iter()
        .enumerate()
        .map(|(k, &pool)| {
            *market
                .edge(tokens[k], tokens[k + 1])
                .iter()
                .find(|h| h.pool == pool)
                .expect("the pool trades that pair")
        })
        .collect::<Vec<Hop>>();
    Path { tokens, hops }
}

fn paid(market: &Market, paths: &[Path], alloc: &[U256]) -> U256 {
    let mut overlay = Overlay::new(market);
    paths
        .iter()
        .zip(alloc)
        .filter(|(_, a)| !a.is_zero())
        .map(|(p, a)| overlay.run(p, *a, None).unwrap().0)
        .fold(U256::ZERO, |s, o| s + o)
}

#[test]
fn a_plan_past_a_drained_middle_pool_splits_its_last_hop_as_the_optimum_does() {
    let market = market();
    let request: QuoteRequest = serde_json::from_value(serde_json::json!({
        "tokenIn": TOKEN_IN, "tokenOut": TOKEN_OUT, "amountIn": AMOUNT_IN, "slippageBps": 50, "maxHops": 3, "gasPriceWei": "0",
    }))
    .unwrap();
    let plan =
        quote(&market, &settings(Address::parse(WETH).unwrap()), &request, &GasPricers::default())
            .unwrap();
    let bound = f64::from(plan.metadata.upper_bound.expect("a bound in the metadata"));
    let ours = f64::from(plan.expected_amount_out);
    assert!(ours <= bound, "the plan pays {ours}, above the bound {bound}");
    assert!(
        bound <= ours * (1.0 + 1e-4),
        "the plan pays {ours}, more than 1 bps below the bound {bound}"
    );
    assert_eq!(replay(&market, &plan), plan.expected_amount_out);
    let mut last: Vec<&str> =
        plan.routes.iter().map(|r| r.legs.last().unwrap().pool_id.as_str()).collect();
    last.sort_unstable();
    last.dedup();
    assert!(last.len() >= 4, "the last hop goes through {} pools: {last:?}", last.len());
}

#[test]
fn the_resplit_keeps_each_routes_prefix_and_what_it_spends_and_pays_more() {
    let market = market();
    // The two routes the ascent stopped at: fixture pools 4 and 0 into WETH, 6 on, 7 and 8 out.
    let paths = vec![path(&market, [4, 6, 7]), path(&market, [0, 6, 8])];
    let alloc = vec![
        U256::from(496_389_240_095_858_616_893_964_288u128),
        U256::from(7_868_870_130_816_675_045_768_691_712u128),
    ];
    let amount_in: U256 = AMOUNT_IN.parse().unwrap();
    assert_eq!(alloc[0] + alloc[1], amount_in);
    let scope = Scope {
        token_in: token(&market, TOKEN_IN),
        token_out: token(&market, TOKEN_OUT),
        max_hops: 3,
        intermediates: Intermediates::Any,
        dexes: DexMask::ALL,
    };
    let memos = crate::route::swap_memos::SwapMemos::default();
    let proposal =
        resplit(&market, &memos, &scope, &paths, &alloc, &[0, 1], 2, 64, &Deadline::never())
            .expect("a re-split");
    assert_eq!(proposal.alloc.iter().fold(U256::ZERO, |s, a| s + *a), amount_in);
    for (prefix, spent) in paths.iter().zip(&alloc) {
        let theirs: U256 = (0..proposal.paths.len())
            .filter(|&k| proposal.paths[k].hops[..2] == prefix.hops[..2])
            .map(|k| proposal.alloc[k])
            .fold(U256::ZERO, |s, a| s + a);
        assert_eq!(
            theirs,
            *spent,
            "the routes after prefix {:?} spend another amount",
            &prefix.hops[..2]
        );
    }
    // The routes given an amount: the original candidates keep their index, the new ones have none.
    for (k, from) in proposal.from.iter().enumerate() {
        if let Some(i) = from {
            assert_eq!(proposal.paths[k], paths[*i]);
        }
    }
    let last: std::collections::BTreeSet<u32> = (0..proposal.paths.len())
        .filter(|&k| !proposal.alloc[k].is_zero())
        .map(|k| proposal.paths[k].hops[2].pool)
        .collect();
    assert!(last.len() >= 4, "the re-split uses {} last pools", last.len());
    let (before, after) =
        (paid(&market, &paths, &alloc), paid(&market, &proposal.paths, &proposal.alloc));
    assert!(after > before, "the re-split pays {after}, not more than the plan's {before}");
}
