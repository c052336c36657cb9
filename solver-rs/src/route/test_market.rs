//! Small markets for routing tests, built through the same wire decoding TypeScript uses.

use crate::address::Address;
use crate::market::Market;
use crate::math::U256;
use crate::pools::clmm::tick_math::get_sqrt_ratio_at_tick;
use crate::pools::input::PoolInput;
use crate::pools::{PoolModel, PoolState};
use crate::route::convex::graph::{Intermediates, Scope};
use crate::route::plan::Plan;
use crate::route::quote::RouteSettings;
use crate::route::search::DexMask;
use serde_json::json;
use std::collections::{BTreeMap, HashMap};

/// Every ordered pair (i, j), i ≠ j, of a venue's `coins` token positions.
pub fn ordered_pairs(coins: usize) -> Vec<(usize, usize)> {
    (0..coins).flat_map(|i| (0..coins).filter(move |&j| j != i).map(move |j| (i, j))).collect()
}

/// The scope of a trade from `from` to `to` in up to `hops` hops, through any token and every dex.
pub fn any_scope(market: &Market, from: Address, to: Address, hops: usize) -> Scope {
    Scope {
        token_in: market.token(&from).unwrap(),
        token_out: market.token(&to).unwrap(),
        max_hops: hops,
        intermediates: Intermediates::Any,
        dexes: DexMask::ALL,
    }
}

/// The devnet's token addresses, as the fixtures of its markets (`convex/fixtures/`) hold them.
pub mod devnet_tokens {
    pub const WETH: &str = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
    pub const USDC: &str = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
    pub const DAI: &str = "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9";
    pub const CBETH: &str = "0x5FC8d32690cc91D4c39d9d3abcBD16989F875707";
    pub const DEGEN: &str = "0x2279B7A0a67DB372996a5FaB50D91eAA73d2eBe6";
    pub const CBBTC: &str = "0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9";
    pub const USDBC: &str = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
    pub const AERO: &str = "0xa513E6E4b8f2a923D98304ec87F64353C4D5C853";
    pub const WSTETH: &str = "0x0165878A594ca255338adfa4d48449f69242Eb8F";
    pub const BRETT: &str = "0x8A791620dd6260079BF849Dc5567aDC3F2FdC318";

    /// Each token's symbol, for traces.
    pub const SYMBOLS: [(&str, &str); 10] = [
        (WETH, "WETH"),
        (USDC, "USDC"),
        (DAI, "DAI"),
        (CBETH, "cbETH"),
        (DEGEN, "DEGEN"),
        (CBBTC, "cbBTC"),
        (USDBC, "USDbC"),
        (AERO, "AERO"),
        (WSTETH, "wstETH"),
        (BRETT, "BRETT"),
    ];

    /// The symbol of a devnet token ("?" for any other address).
    pub fn symbol(a: crate::address::Address) -> &'static str {
        SYMBOLS
            .iter()
            .find(|(s, _)| crate::address::Address::parse(s).ok() == Some(a))
            .map_or("?", |(_, n)| n)
    }
}

/// The devnet's pools one prop AMM keeper tick after the saved state, as the service's market
/// reads them (`ROUTE_QUALITY_DUMP`, `test/routeQualityEmbedded.test.ts`, 2026-11-29: 168 pools,
/// every kind): the ten prop AMM venues fresh (eight sampled, two LUNARBASE), WOOFi's oracle
/// fresh; without `without`.
pub fn devnet_sampled_fresh(without: &[crate::dex::DexId]) -> Market {
    fixture_without(include_str!("convex/fixtures/devnet_sampled_fresh_pools.json"), without)
}

/// [`devnet_sampled_fresh`] as the devnet was before its DODO_V2 pools, its Gyroscope E-CLPs and
/// its sixth Curve pool were seeded (159 pools): the market on which the solve's fixes in
/// `convex/solve_tests.rs` were found, kept so that their tests still check them there.
pub fn devnet_sampled_fresh_before_pmm_eclp(without: &[crate::dex::DexId]) -> Market {
    let pools = include_str!("convex/fixtures/devnet_sampled_fresh_before_pmm_eclp_pools.json");
    fixture_without(pools, without)
}

/// The market of a fixture's pools (the solver's input as JSON), without the kinds `without`.
fn fixture_without(pools: &str, without: &[crate::dex::DexId]) -> Market {
    use crate::pools::input::PoolInput;
    let inputs: Vec<PoolInput> = serde_json::from_str(pools).unwrap();
    market_of(inputs.into_iter().filter(|p| !without.contains(&p.dex)).collect())
}

/// The address `0x<n repeated 20 times>` (n < 256), handy for tokens and pools.
pub fn addr(n: u8) -> Address {
    Address([n; 20])
}

/// A constant-product pool of `dex` ("UNIV2" 30 bps, "PANCAKE_V2" 25 bps) between two tokens.
pub fn cp_pool(
    id: u8,
    dex: &str,
    token0: Address,
    token1: Address,
    reserve0: u128,
    reserve1: u128,
) -> PoolInput {
    pool_input(
        id,
        dex,
        [token0, token1],
        json!({ "model": "constant_product", "reserves": [reserve0.to_string(), reserve1.to_string()] }),
    )
}

/// A sampled venue of `dex` with `margin_bps`, selling token0 along `zero_for_one` and token1 along
/// `one_for_zero` ([amountIn, amountOut] samples; empty: no trading that way).
pub fn sampled_pool(
    id: u8,
    dex: &str,
    tokens: [Address; 2],
    margin_bps: u32,
    zero_for_one: &[(U256, U256)],
    one_for_zero: &[(U256, U256)],
) -> PoolInput {
    let wire = |samples: &[(U256, U256)]| {
        samples.iter().map(|(x, y)| [x.to_string(), y.to_string()]).collect::<Vec<_>>()
    };
    pool_input(
        id,
        dex,
        tokens,
        json!({
            "model": "sampled", "marginBps": margin_bps, "zeroForOne": wire(zero_for_one), "oneForZero": wire(one_for_zero)
        }),
    )
}

/// A DODO_V2 pool (`variant` dvm, dsp or dpp; token 0 the base) at price `i` (18 decimals) with
/// its slippage `k`, reserves, stored targets and R state, and LP and maintainer fee rates.
#[allow(clippy::too_many_arguments)]
pub fn dodo_pool(
    id: u8,
    tokens: [Address; 2],
    variant: &str,
    i: u128,
    k: u128,
    reserves: [u128; 2],
    targets: [u128; 2],
    r_state: u8,
    fees: [u128; 2],
) -> PoolInput {
    let s = |v: u128| v.to_string();
    pool_input(
        id,
        "DODO_V2",
        tokens,
        json!({
            "model": "dodo_pmm", "variant": variant, "i": s(i), "k": s(k),
            "baseReserve": s(reserves[0]), "quoteReserve": s(reserves[1]),
            "baseTarget": s(targets[0]), "quoteTarget": s(targets[1]), "rState": r_state,
            "lpFeeRate": s(fees[0]), "mtFeeRate": s(fees[1]),
        }),
    )
}

/// A MAVERICK_V2 pool of two 18-decimal tokens (token 0 is A) with tick `spacing`, its active
/// tick, the fees of A in and B in (18 decimals), the protocol's share in thousandths and its
/// ticks as (tick, reserve A, reserve B).
pub fn maverick_pool(
    id: u8,
    tokens: [Address; 2],
    spacing: u32,
    active: i32,
    fees: [u128; 2],
    protocol_share_d3: u8,
    ticks: &[(i32, u128, u128)],
) -> PoolInput {
    let ticks: Vec<serde_json::Value> =
        ticks.iter().map(|(t, a, b)| json!([t, a.to_string(), b.to_string()])).collect();
    pool_input(
        id,
        "MAVERICK_V2",
        tokens,
        json!({
            "model": "maverick_v2", "tickSpacing": spacing, "tokenScales": ["1", "1"],
            "fees": [fees[0].to_string(), fees[1].to_string()],
            "protocolFeeRatioD3": protocol_share_d3, "activeTick": active, "ticks": ticks,
        }),
    )
}

/// A GYROSCOPE_ECLP pool of two 18-decimal tokens without rates, priced 0.998 to 1.002 with the
/// peg at 1 and λ 500 (the parameters `gyroEclpParams` derives for them), fee `swap_fee` (18
/// decimals).
pub fn gyro_eclp_pool(
    id: u8,
    tokens: [Address; 2],
    balances: [u128; 2],
    swap_fee: u128,
) -> PoolInput {
    let one = "1000000000000000000";
    pool_input(
        id,
        "GYROSCOPE_ECLP",
        tokens,
        json!({
            "model": "gyro_eclp", "balances": [balances[0].to_string(), balances[1].to_string()],
            "scalingFactors": [one, one], "swapFee": swap_fee.to_string(),
            "params": { "alpha": "998000000000000000", "beta": "1002000000000000000",
                "c": "707106781186547524", "s": "707106781186547524", "lambda": "500000000000000000000" },
            "derived": {
                "tauAlphaX": "-44757161695912980431391782564368475822",
                "tauAlphaY": "89424809068434134901920781563608214692",
                "tauBetaX": "44685607492011320941712813799012565930",
                "tauBetaY": "89460586199006664525309053225623156993",
                "u": "44721384593962150635849022928322256796",
                "v": "89442697633720399612208448013106583028",
                "w": "17888565286264811673854507926079149",
                "z": "-35777101950829744798921768965282682",
                "dSq": "99999999999999999886624093342106115200" },
        }),
    )
}

/// A LUNARBASE pool (token 0 is X) at `anchor_x64` · 2^32 (the Q64.96 anchor), fees
/// `[ask, bid]` and a maximum punishment in Q24, fresh at its block, for a whitelisted caller.
pub fn lunarbase_pool(
    id: u8,
    tokens: [Address; 2],
    anchor_x64: u128,
    fees: [u32; 2],
    max_punishment: u32,
    reserves: [u128; 2],
) -> PoolInput {
    let anchor: crate::math::U256 = crate::math::U256::from(anchor_x64) << 32;
    pool_input(
        id,
        "LUNARBASE",
        tokens,
        json!({
            "model": "lunarbase", "anchorPrice": anchor.to_string(),
            "feeAskX24": fees[0].to_string(), "feeBidX24": fees[1].to_string(),
            "maxPunishmentX24": max_punishment.to_string(),
            "reserveX": reserves[0].to_string(), "reserveY": reserves[1].to_string(),
            "feeMultiplier": "1", "latestUpdateBlock": "100", "blockDelay": "10", "block": "101",
            "paused": false,
        }),
    )
}

/// An AERODROME_V2LIKE pool: volatile or stable, with the tokens' decimals counts.
pub fn solidly_pool(
    id: u8,
    tokens: [Address; 2],
    reserves: [u128; 2],
    stable: bool,
    decimals: [u32; 2],
    fee_bps: u32,
) -> PoolInput {
    pool_input(
        id,
        "AERODROME_V2LIKE",
        tokens,
        json!({
            "model": "solidly", "reserves": [reserves[0].to_string(), reserves[1].to_string()],
            "stable": stable, "decimals": decimals, "feeBps": fee_bps
        }),
    )
}

/// A concentrated pool of `dex` with tick spacing 60 at the price of `tick`, holding `positions`
/// (lower, upper, liquidity; ticks multiples of 60), with an optional packed protocol fee.
pub fn cl_pool(
    id: u8,
    dex: &str,
    tokens: [Address; 2],
    tick: i32,
    fee_pips: u32,
    protocol_fee: Option<u32>,
    positions: &[(i32, i32, u128)],
) -> PoolInput {
    let mut nets: BTreeMap<i32, i128> = BTreeMap::new();
    for &(lower, upper, liquidity) in positions {
        *nets.entry(lower).or_default() += liquidity as i128;
        *nets.entry(upper).or_default() -= liquidity as i128;
    }
    let active: i128 = nets.range(..=tick).map(|(_, net)| *net).sum();
    let ticks: Vec<(i32, String)> = nets.iter().map(|(t, net)| (*t, net.to_string())).collect();
    let mut state = json!({
        "model": "concentrated", "sqrtPriceX96": get_sqrt_ratio_at_tick(tick).expect("tick in range").to_string(), "tick": tick,
        "liquidity": active.to_string(), "tickSpacing": 60, "feePips": fee_pips, "ticks": ticks
    });
    if let Some(packed) = protocol_fee {
        state["protocolFee"] = packed.into();
    }
    pool_input(id, dex, tokens, state)
}

pub fn pool_input(id: u8, dex: &str, tokens: [Address; 2], state: serde_json::Value) -> PoolInput {
    serde_json::from_value(json!({
        "id": Address([0xa0 ^ id; 20]).to_string(), "dex": dex, "tokens": [tokens[0].to_string(), tokens[1].to_string()], "state": state
    }))
    .expect("valid test pool")
}

/// A Curve StableSwap pool (`ng`, else the legacy template) of `coins` (2 to 4) with `balances`
/// (raw), `decimals`, A as stored (A·100, no ramp) and `fee` out of 10^10.
pub fn curve_pool(
    id: u8,
    coins: &[Address],
    balances: &[u128],
    decimals: &[u32],
    amp: u64,
    fee: u64,
    ng: bool,
) -> PoolInput {
    let rates: Vec<String> =
        decimals.iter().map(|d| (U256::from(10).pow(U256::from(36 - d))).to_string()).collect();
    serde_json::from_value(json!({
        "id": Address([0xa0 ^ id; 20]).to_string(), "dex": "CURVE",
        "tokens": coins.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        "state": {
            "model": "stableswap", "template": if ng { "ng" } else { "legacy" },
            "balances": balances.iter().map(|b| b.to_string()).collect::<Vec<_>>(),
            "rates": rates, "fee": fee.to_string(),
            "offpegFeeMultiplier": if ng { "20000000000" } else { "0" },
            "initialA": amp.to_string(), "futureA": amp.to_string(),
            "initialATime": "0", "futureATime": "0", "timestamp": "1",
        }
    }))
    .expect("valid test pool")
}

/// A market holding `pools`.
pub fn market_of(pools: Vec<PoolInput>) -> Market {
    let mut market = Market::default();
    market.upsert(pools).expect("valid test market");
    market
}

/// Routing settings with `native` as the gas token and every token as a possible connector.
pub fn settings(native: Address) -> RouteSettings {
    RouteSettings {
        native_token: Some(native),
        connectors: None,
        default_connector_count: 16,
        default_time_budget_ms: 10_000,
        max_candidates: 8,
        beam: 4,
    }
}

/// Replays the plan's legs on a private copy of the pools, in plan order, with the exact models.
pub fn replay(market: &Market, plan: &Plan) -> U256 {
    let mut states: HashMap<String, PoolState> = HashMap::new();
    let mut total = U256::ZERO;
    for route in &plan.routes {
        let mut carried = route.amount_in;
        for leg in &route.legs {
            assert_eq!(leg.amount_in, carried, "a leg must take the previous leg's output");
            let slot = market.pool_by_id(&leg.pool_id).unwrap();
            let entry = market.pool(slot);
            let i =
                entry.tokens.iter().position(|t| market.token_address(*t) == leg.token_in).unwrap();
            let state = states.get(&leg.pool_id).cloned().unwrap_or_else(|| entry.state.clone());
            let (outcome, next) = state.apply(i, 1 - i, carried).unwrap();
            states.insert(leg.pool_id.clone(), next);
            assert_eq!(
                outcome.amount_out, leg.amount_out,
                "leg {} is not what the model pays",
                leg.pool_id
            );
            carried = outcome.amount_out;
        }
        assert_eq!(carried, route.amount_out);
        total += carried;
    }
    total
}

/// A deterministic xorshift generator for reproducible random markets.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo)
    }

    /// Log-uniform in [10^lo_exp, 10^hi_exp).
    pub fn log_amount(&mut self, lo_exp: u32, hi_exp: u32) -> u128 {
        let exp = self.range(u64::from(lo_exp) * 1000, u64::from(hi_exp) * 1000) as f64 / 1000.0;
        10f64.powf(exp) as u128
    }
}

/// A plan as the service quotes it and the bound's dual for the same trade.
pub struct BoundedQuote {
    /// The plan's `expectedAmountOut`, raw units of tokenOut.
    pub ours: f64,
    /// The plan's certified bound (its metadata's `upperBound`).
    pub bound: f64,
    /// Whether the bound's dual, minimised with no deadline over the allowed kinds, converged.
    pub converged: bool,
}

/// `amount` raw units of `token_in` for `token_out` in up to `hops` hops on `market`, every kind
/// allowed, with the service's settings (8 candidates, a beam of 3, the 8 best-connected
/// connectors and `native`) and a converged budget (`test/routeQualityEmbedded.test.ts`).
pub fn bounded_quote(
    market: &Market,
    trade: [Address; 2],
    amount: u128,
    hops: usize,
    native: Address,
) -> BoundedQuote {
    bounded_quote_of(market, trade, amount, hops, native, None)
}

/// [`bounded_quote`] with only `allowed` kinds (the request's `allowedDexes`, the dual's graph the
/// same; None: every kind), the others left on the market as the suite leaves them.
pub fn bounded_quote_of(
    market: &Market,
    trade: [Address; 2],
    amount: u128,
    hops: usize,
    native: Address,
    allowed: Option<&[crate::dex::DexId]>,
) -> BoundedQuote {
    use crate::route::clock::Deadline;
    use crate::route::convex::graph::{Graph, Intermediates, Scope};
    use crate::route::convex::graph_sides::per_side;
    use crate::route::convex::solve::minimise_with;
    use crate::route::gas::GasPricers;
    use crate::route::quote::quote;
    use crate::route::request::QuoteRequest;
    use crate::route::search::DexMask;
    let settings = RouteSettings { default_connector_count: 8, beam: 3, ..settings(native) };
    let mut request = json!({
        "tokenIn": trade[0].to_string(), "tokenOut": trade[1].to_string(),
        "amountIn": amount.to_string(), "slippageBps": 50, "maxHops": hops, "timeBudgetMs": 10_000,
    });
    if let Some(allowed) = allowed {
        request["allowedDexes"] = json!(allowed);
    }
    let request: QuoteRequest = serde_json::from_value(request).expect("a valid request");
    let plan = quote(market, &settings, &request, &GasPricers::default()).expect("a plan");
    let token = |a: &Address| market.token(a).expect("a token of the market");
    let scope = Scope {
        token_in: token(&trade[0]),
        token_out: token(&trade[1]),
        max_hops: hops,
        intermediates: Intermediates::Any,
        dexes: allowed.map_or(DexMask::ALL, DexMask::of),
    };
    let graph = Graph::build(market, &scope).expect("a graph");
    let sides = per_side(market, &scope, &graph, &Deadline::never());
    let dual = minimise_with(&graph, sides.as_ref(), amount as f64, &Deadline::never());
    BoundedQuote {
        ours: f64::from(plan.expected_amount_out),
        bound: f64::from(plan.metadata.upper_bound.expect("a bound in the metadata")),
        converged: dual.converged,
    }
}
