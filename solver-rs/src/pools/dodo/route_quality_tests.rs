//! The DODO pools on the embedded market (`route/convex/fixtures/devnet_saved_pools.json`, the
//! saved chain's pools as the service reads them): the worst trades of the route-quality suite
//! with them.

use crate::pools::gyro_eclp::route_quality_tests::{devnet, saved_market, WETH};
use crate::route::test_market::bounded_quote;

const USDBC: &str = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
const CBBTC: &str = "0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9";
const DEGEN: &str = "0x2279B7A0a67DB372996a5FaB50D91eAA73d2eBe6";
const DAI: &str = "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9";

/// The suite's worst DODO trades (gap to the bound before: 42.3 and 6.2 bps).
#[test]
fn the_dodo_pools_leave_the_bound_within_five_bps() {
    let market = saved_market();
    for (label, token_in, token_out, amount, hops) in [
        ("USDbC→cbBTC 3-hop $10,000", USDBC, CBBTC, 10_000_000_000, 3),
        ("DEGEN→DAI 3-hop $1,000", DEGEN, DAI, 100_000 * 10u128.pow(18), 3),
    ] {
        let q = bounded_quote(
            &market,
            [devnet(token_in), devnet(token_out)],
            amount,
            hops,
            devnet(WETH),
        );
        let gap = (q.bound - q.ours) / q.bound * 1e4;
        eprintln!(
            "{label}: converged {}, gap {gap:.3} bps (ours {}, bound {})",
            q.converged, q.ours, q.bound
        );
        assert!(q.ours <= q.bound && gap <= 5.0, "{label}: gap {gap} bps");
    }
}
