//! Random pools of every model family, for routing tests that must cover them all.

use crate::address::Address;
use crate::math::U256;
use crate::pools::input::PoolInput;
use crate::pools::PoolState;
use crate::route::test_market::{
    cl_pool, cp_pool, curve_pool, dodo_pool, gyro_eclp_pool, lunarbase_pool, maverick_pool,
    pool_input, sampled_pool, solidly_pool, Rng,
};
use serde_json::json;

/// The model families: `family_of` fails to compile when a pool state is added without a family
/// here, and the tests that use them check every family is in their markets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    ConstantProduct,
    SolidlyVolatile,
    SolidlyStable,
    Concentrated,
    Sampled,
    Woofi,
    /// Curve StableSwap: a venue of shared state, bounded by its joint term. Not in [`FAMILIES`]:
    /// its bound leaves out the LPs' half of the fee, so it is checked by its own tests
    /// (`convex/exhaustive_tests.rs`, *pooled*) rather than against the others' tightness.
    StableSwap,
    Dodo,
    GyroEclp,
    Lunarbase,
    MaverickV2,
}
pub const FAMILIES: [Family; 10] = [
    Family::ConstantProduct,
    Family::SolidlyVolatile,
    Family::SolidlyStable,
    Family::Concentrated,
    Family::Sampled,
    Family::Woofi,
    Family::Dodo,
    Family::GyroEclp,
    Family::Lunarbase,
    Family::MaverickV2,
];

pub fn family_of(state: &PoolState) -> Family {
    match state {
        PoolState::ConstantProduct(_) => Family::ConstantProduct,
        PoolState::Solidly(p) if matches!(p.curve, crate::pools::solidly::Curve::Volatile) => {
            Family::SolidlyVolatile
        }
        PoolState::Solidly(_) => Family::SolidlyStable,
        PoolState::Concentrated(_) => Family::Concentrated,
        PoolState::Sampled(_) => Family::Sampled,
        PoolState::Woofi(_) => Family::Woofi,
        PoolState::StableSwap(_) => Family::StableSwap,
        PoolState::Dodo(_) => Family::Dodo,
        PoolState::GyroEclp(_) => Family::GyroEclp,
        PoolState::Lunarbase(_) => Family::Lunarbase,
        PoolState::MaverickV2(_) => Family::MaverickV2,
    }
}

/// A concave sampled curve for `scale` of input at a rate near 1, falling along the samples.
fn samples(rng: &mut Rng, scale: u128) -> Vec<(U256, U256)> {
    let (mut x, mut y, mut rate) = (0u128, 0u128, 0.9 + rng.range(0, 200) as f64 / 1000.0);
    (0..rng.range(2, 6))
        .map(|_| {
            let dx = scale / 4 + rng.range(0, 1000) as u128 * (scale / 1000);
            x += dx;
            y += (dx as f64 * rate) as u128;
            rate *= 0.5 + rng.range(0, 500) as f64 / 1000.0;
            (U256::from(x), U256::from(y))
        })
        .collect()
}

/// One random pool of `family` between `tokens` (raw amounts of every token near 10^18..10^24,
/// prices near 1, so pools of every family compete on the same edges).
pub fn random_pool(rng: &mut Rng, family: Family, id: u8, tokens: [Address; 2]) -> PoolInput {
    let reserve = |rng: &mut Rng| rng.log_amount(18, 24);
    match family {
        Family::ConstantProduct => {
            let dex = if rng.range(0, 2) == 0 { "UNIV2" } else { "PANCAKE_V2" };
            cp_pool(id, dex, tokens[0], tokens[1], reserve(rng), reserve(rng))
        }
        Family::SolidlyVolatile => solidly_pool(
            id,
            tokens,
            [reserve(rng), reserve(rng)],
            false,
            [18, 6],
            rng.range(0, 31) as u32,
        ),
        Family::SolidlyStable => {
            let r0 = reserve(rng);
            let r1 = (r0 as f64 * (0.5 + rng.range(0, 1000) as f64 / 1000.0)) as u128;
            solidly_pool(id, tokens, [r0, r1], true, [18, 18], rng.range(0, 6) as u32)
        }
        Family::Concentrated => {
            let (dex, fee, protocol) = match rng.range(0, 3) {
                0 => ("UNIV3", 3000, None),
                1 => (
                    "UNIV4",
                    500,
                    Some((rng.range(0, 1001) as u32) << 12 | rng.range(0, 1001) as u32),
                ),
                _ => ("QUICKSWAP_V4", 900, None),
            };
            let tick = rng.range(0, 4000) as i32 - 2000;
            let around = tick - tick.rem_euclid(60);
            // Some pools sit in a range with no liquidity: their spot rate is 0.
            let positions: Vec<(i32, i32, u128)> = (0..rng.range(1, 4))
                .map(|_| {
                    let lower = around + 60 * (rng.range(0, 40) as i32 - 30);
                    (lower, lower + 60 * rng.range(1, 60) as i32, rng.log_amount(20, 24))
                })
                .collect();
            cl_pool(id, dex, tokens, tick, fee, protocol, &positions)
        }
        Family::StableSwap => random_curve_pool(rng, id, &tokens),
        Family::Sampled => {
            let scale = reserve(rng);
            let (forward, backward) = (samples(rng, scale), samples(rng, scale));
            sampled_pool(id, "PROPSWAP", tokens, rng.range(0, 50) as u32, &forward, &backward)
        }
        Family::Woofi => {
            let reserves = (reserve(rng), reserve(rng));
            woofi_pool(rng, id, tokens, reserves.0, reserves.1)
        }
        Family::Dodo => {
            let (base, quote) = (reserve(rng), reserve(rng));
            let i = 9 * 10u128.pow(17) + u128::from(rng.range(0, 200_000)) * 10u128.pow(12);
            let k = u128::from(rng.range(1, 1000)) * 10u128.pow(15);
            // Targets: at the reserves (R one), or the side R says is short above its reserve.
            let r = rng.range(0, 3) as u8;
            let targets = match r {
                0 => [base, quote],
                1 => [0, quote / 2],
                _ => [base / 2, 0],
            };
            let variant = ["dvm", "dsp", "dpp"][rng.range(0, 3) as usize];
            let fees = [u128::from(rng.range(0, 31)) * 10u128.pow(14), 0];
            dodo_pool(id, tokens, variant, i, k, [base, quote], targets, r, fees)
        }
        Family::GyroEclp => {
            let r0 = reserve(rng);
            let r1 = (r0 as f64 * (0.2 + rng.range(0, 1600) as f64 / 1000.0)) as u128;
            gyro_eclp_pool(id, tokens, [r0, r1], u128::from(rng.range(1, 30)) * 10u128.pow(14))
        }
        Family::Lunarbase => {
            // An anchor near 1 (2^96 times the root of 0.9 to 1.1), fees up to 30 bps, a
            // punishment up to 1 % for a trade the size of the reserves.
            let root = (0.9 + rng.range(0, 2000) as f64 / 10_000.0).sqrt();
            let anchor = (root * 2f64.powi(64)) as u128;
            let fees = [rng.range(0, 5033) as u32, rng.range(0, 5033) as u32];
            let punishment = rng.range(0, 167_773) as u32;
            lunarbase_pool(id, tokens, anchor, fees, punishment, [reserve(rng), reserve(rng)])
        }
        Family::MaverickV2 => {
            // Ticks of 0.1 % around a price near 1: A below the active tick, B above, both in it.
            let active = rng.range(0, 21) as i32 - 10;
            let ticks: Vec<(i32, u128, u128)> = (active - 8..=active + 8)
                .map(|t| {
                    let (a, b) = (reserve(rng) / 8, reserve(rng) / 8);
                    (t, if t <= active { a } else { 0 }, if t >= active { b } else { 0 })
                })
                .collect();
            let fee = |rng: &mut Rng| u128::from(rng.range(0, 31)) * 10u128.pow(14);
            let fees = [fee(rng), fee(rng)];
            maverick_pool(id, tokens, 10, active, fees, rng.range(0, 256) as u8, &ticks)
        }
    }
}

/// A WOOFi vault of a quote token (`tokens[0]`) and one base at an oracle price near 1 (both of
/// 18 decimals), fresh and within its Chainlink bound; γ reaches 1 % near 10^21 raw quote.
fn woofi_pool(rng: &mut Rng, id: u8, tokens: [Address; 2], quote: u128, base: u128) -> PoolInput {
    let price = 90_000_000 + u128::from(rng.range(0, 20_000_000));
    let token = |reserve: u128| {
        json!({ "decimals": 18, "balance": reserve.to_string(), "reserve": reserve.to_string(),
            "feeRate": "25", "maxGamma": "100000000000000000",
            "maxNotional": "1000000000000000000000000000" })
    };
    pool_input(
        id,
        "WOOFI",
        tokens,
        json!({ "model": "woofi", "tokens": [token(quote), token(base)],
            "oracles": [{ "price": price.to_string(), "coeff": "10000000000000",
                "spread": (rng.range(1, 2000) * 1_000_000_000_000).to_string(),
                "refPrice": price.to_string(), "cloPreferred": false,
                "rangeMin": (price / 2).to_string(), "rangeMax": (price * 2).to_string() }],
            "paused": false, "unclaimedFee": "0", "bound": "10000000000000000",
            "oracleTimestamp": "1000", "staleDuration": "300", "timestamp": "1100" }),
    )
}

/// A random Curve StableSwap pool of `coins` (2 to 4): balances up to 3× apart, 18 or 6 decimals,
/// A from 5 to 2,000, fees from 1 to 40 bps, either template.
pub fn random_curve_pool(rng: &mut Rng, id: u8, coins: &[Address]) -> PoolInput {
    let base = rng.log_amount(20, 24) as f64 / 1e18;
    let decimals: Vec<u32> =
        coins.iter().map(|_| if rng.range(0, 3) == 0 { 6 } else { 18 }).collect();
    let balances: Vec<u128> = decimals
        .iter()
        .map(|&d| {
            let tokens = base * (0.4 + rng.range(0, 800) as f64 / 1000.0);
            (tokens * 10f64.powi(d as i32)) as u128
        })
        .collect();
    let amp = [5u64, 50, 200, 2000][rng.range(0, 4) as usize] * 100;
    let fee = [1_000_000u64, 4_000_000, 10_000_000, 40_000_000][rng.range(0, 4) as usize];
    curve_pool(id, coins, &balances, &decimals, amp, fee, rng.range(0, 2) == 0)
}
