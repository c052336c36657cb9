//! A copy's excess (`solve.rs`): the pooled venues whose trade neither tenders from the copy nor,
//! with its inflow computed, delivers to it are not asked for their joint term, and what they
//! would have added to the excess is nothing.

use super::{excess, minimise, sending_venues, touching_venues};
use crate::address::Address;
use crate::route::clock::Deadline;
use crate::route::convex::dual::{pooled_flows_at, pooled_term};
use crate::route::convex::graph::{Graph, Head};
use crate::route::convex::solve_tally::{take, Step};
use crate::route::test_market::devnet_tokens::{USDC, WETH};
use crate::route::test_market::{any_scope, devnet_sampled_fresh};

#[test]
fn an_excess_skips_the_pooled_terms_whose_trade_does_not_touch_the_copy() {
    let market = devnet_sampled_fresh(&[]);
    let (weth, usdc) = (Address::parse(WETH).unwrap(), Address::parse(USDC).unwrap());
    let graph = Graph::build(&market, &any_scope(&market, weth, usdc, 3)).unwrap();
    let prices = minimise(&graph, 1e18, &Deadline::never()).prices;
    let touching = touching_venues(&graph);
    let sending = sending_venues(&graph, &touching);
    // (held, the venues the excess reads, the inflow it is given).
    let cases = [(true, &sending, Some(1e18)), (false, &touching, None)];
    for (held, venues, inflow) in cases {
        let mut skipped = 0usize;
        for c in 0..graph.copies.len() {
            let mut asked = 0u64;
            for &v in &venues[c] {
                let Some(venue) = &graph.venues[v].pooled else { continue };
                if pooled_flows_at(venue, &prices, c, held) {
                    asked += 1;
                    continue;
                }
                skipped += 1;
                // What the excess would have read from it: none.
                pooled_term(venue, &prices).flows(|head, flow| {
                    let read = head == Head::Copy(c) && (flow < 0.0 || !held);
                    assert!(!read, "copy {c}, venue {v}, held {held}: {flow}");
                });
            }
            take();
            excess(&graph, venues, &prices, c, inflow);
            assert_eq!(take()[Step::PooledTerm as usize], asked, "copy {c}, held {held}");
        }
        // The fixture's Curve pools trade coins with copies in two layers: the dearer is skipped.
        assert!(skipped > 0, "no pooled term skipped, held {held}");
    }
}
