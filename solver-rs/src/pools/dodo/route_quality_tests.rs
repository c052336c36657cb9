//! The DODO pools on the embedded market (`route/convex/fixtures/devnet_saved_pools.json`, the
//! saved chain's pools as the service reads them): the worst trades of the route-quality suite
//! with them.

use crate::pools::gyro_eclp::route_quality_tests::assert_within_five_bps;

const USDBC: &str = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
const CBBTC: &str = "0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9";
const DEGEN: &str = "0x2279B7A0a67DB372996a5FaB50D91eAA73d2eBe6";
const DAI: &str = "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9";

/// The suite's worst DODO trades (gap to the bound before, DODO_V2 allowed and the E-CLPs not:
/// 42.3 and 6.2 bps; here, every kind allowed, 0.24 and 0.39 with the slack spread too).
#[test]
fn the_dodo_pools_leave_the_bound_within_five_bps() {
    assert_within_five_bps(&[
        ("USDbC→cbBTC 3-hop $10,000", USDBC, CBBTC, 10_000_000_000, 3),
        ("DEGEN→DAI 3-hop $1,000", DEGEN, DAI, 100_000 * 10u128.pow(18), 3),
    ]);
}
