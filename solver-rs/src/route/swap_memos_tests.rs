use super::{KeptSwapMemos, SwapMemos};
use crate::market::Market;
use crate::route::bound_memos::BoundMemos;
use crate::route::clock::MonotonicClock;
use crate::route::gas::GasPricers;
use crate::route::quote::quote_after_wait;
use crate::route::request::QuoteRequest;
use crate::route::test_market::{addr, cl_pool, cp_pool, market_of, settings};
use serde_json::json;

const E18: u128 = 1_000_000_000_000_000_000;

/// tokens: A=1 (in), B=2 (out), C=3. Concentrated pools of several positions each, so the trades
/// below cross ticks and walk bitmap words, beside a constant-product pool.
fn market() -> Market {
    let (a, b, c) = (addr(1), addr(2), addr(3));
    let positions = [(-6000, 6000, 10 * E18), (-1200, 1200, 40 * E18), (-120, 120, 200 * E18)];
    market_of(vec![
        cl_pool(1, "UNIV3", [a, b], 0, 3000, None, &positions),
        cl_pool(2, "UNIV3", [a, c], 60, 500, None, &positions[1..]),
        cl_pool(3, "UNIV3", [c, b], -60, 3000, None, &positions),
        cp_pool(4, "UNIV2", a, b, 100 * E18, 100 * E18),
    ])
}

/// The plan of `amount` A → B as JSON, quoted with `bounds` (the snapshot's memos).
fn plan_json(market: &Market, bounds: &BoundMemos, amount: u128, split: bool) -> String {
    let request: QuoteRequest = serde_json::from_value(json!({
        "tokenIn": addr(1).to_string(), "tokenOut": addr(2).to_string(),
        "amountIn": amount.to_string(), "slippageBps": 50, "maxHops": 2,
        "splitEnabled": split, "gasPriceWei": "1000000000", "timeBudgetMs": 10_000,
    }))
    .expect("request");
    let (settings, pricers) = (settings(addr(3)), GasPricers::default());
    let plan =
        quote_after_wait(market, &settings, &request, &pricers, bounds, &MonotonicClock, 0.0)
            .expect("a route");
    serde_json::to_string(&plan).expect("plan")
}

#[test]
fn quotes_on_one_snapshot_leave_their_walks_to_the_next_with_the_same_plans() {
    let market = market();
    let kept = BoundMemos::default();
    for (amount, split) in [(30 * E18, true), (3 * E18, false), (31 * E18, true), (E18 / 7, true)] {
        let alone = plan_json(&market, &BoundMemos::default(), amount, split);
        assert_eq!(plan_json(&market, &kept, amount, split), alone, "{amount} split {split}");
        let memos = kept.swaps().take();
        assert!(memos.checkpoints() > 1, "the quote's walks are kept for the next one");
        kept.swaps().keep(memos);
    }
}

#[test]
fn of_two_quotes_at_once_the_first_memos_back_are_kept() {
    let (market, bounds) = (market(), BoundMemos::default());
    plan_json(&market, &bounds, 30 * E18, true);
    let kept = KeptSwapMemos::default();
    let (first, second) = (kept.take(), kept.take());
    assert_eq!((first.checkpoints(), second.checkpoints()), (0, 0), "nothing kept yet");
    kept.keep(bounds.swaps().take());
    let walked = kept.take();
    assert!(walked.checkpoints() > 1);
    let steps = walked.checkpoints();
    kept.keep(walked);
    kept.keep(SwapMemos::default());
    assert_eq!(kept.take().checkpoints(), steps, "the memos kept first stay");
}

#[test]
fn the_snapshots_memos_may_be_shared_by_the_addons_threads() {
    // The addon quotes on worker threads, each holding the snapshot's memos (`ffi/napi.rs`).
    fn shared<T: Send + Sync>() {}
    shared::<KeptSwapMemos>();
    shared::<BoundMemos>();
}
