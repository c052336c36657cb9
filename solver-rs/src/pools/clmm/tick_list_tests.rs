use super::*;
use crate::pools::clmm::tick_math::get_sqrt_ratio_at_tick;

#[test]
fn neighbours_and_sentinels() {
    let list = TickList::from_sorted(vec![(-120, 5), (0, 7), (60, -12)]).unwrap();
    assert_eq!(list.at_or_below(-121), None);
    assert_eq!(list.at_or_below(-120), Some((-120, 5)));
    assert_eq!(list.at_or_below(59), Some((0, 7)));
    assert_eq!(list.above(-120), Some((0, 7)));
    assert_eq!(list.above(60), None);
    assert_eq!(
        (list.algebra_prev(-500).tick, list.algebra_prev(-500).liquidity_net),
        (MIN_TICK, 0)
    );
    assert_eq!((list.algebra_next(60).tick, list.algebra_next(60).liquidity_net), (MAX_TICK, 0));
    assert_eq!(list.liquidity_at(-1), Some(5));
    assert_eq!(list.liquidity_at(0), Some(12));
    assert_eq!(list.liquidity_at(60), Some(0));
    assert_eq!(TickList::from_sorted(vec![(0, -1)]).unwrap().liquidity_at(0), None);
}

/// The price table is TickMath to the bit: every tick of a list spanning the whole range (the
/// boundaries MIN_TICK, MIN_TICK + 1, MAX_TICK − 1, MAX_TICK, both sides of 0, and every 997th
/// tick between, so each of TickMath's 20 factors is used), through every lookup, and the Algebra
/// sentinels' prices.
#[test]
fn price_table_is_tick_math_at_every_tick() {
    let mut ticks: Vec<i32> = (MIN_TICK..=MAX_TICK).step_by(997).collect();
    ticks.extend([MIN_TICK + 1, -1, 0, 1, MAX_TICK - 1, MAX_TICK]);
    ticks.sort_unstable();
    ticks.dedup();
    let list = TickList::from_sorted(ticks.iter().map(|t| (*t, i128::from(*t))).collect()).unwrap();
    let price = |tick: i32| get_sqrt_ratio_at_tick(tick).unwrap();
    for (index, tick) in ticks.iter().enumerate() {
        let expected = InitializedTick {
            tick: *tick,
            liquidity_net: i128::from(*tick),
            sqrt_price_x96: price(*tick),
        };
        assert_eq!(list.initialized(index), Some(expected), "tick {tick}");
        assert_eq!(list.initialized_at_or_below(*tick), Some(expected), "tick {tick}");
        assert_eq!(list.initialized_above(tick.saturating_sub(1)), Some(expected), "tick {tick}");
    }
    assert_eq!(list.initialized(ticks.len()), None);
    assert_eq!(list.initialized_above(MAX_TICK), None);
    // A list holding no tick answers with the sentinels, at TickMath's boundary prices.
    let empty = TickList::default();
    assert_eq!(empty.algebra_prev(0).sqrt_price_x96, price(MIN_TICK));
    assert_eq!(empty.algebra_next(0).sqrt_price_x96, price(MAX_TICK));
    assert_eq!(empty.algebra_prev(0).tick, MIN_TICK);
    assert_eq!(empty.algebra_next(0).tick, MAX_TICK);
    // No price outside the range: the list refuses the tick (as TickMath's `T`).
    assert!(TickList::from_sorted(vec![(MAX_TICK + 1, 1)]).is_err());
    assert!(TickList::from_sorted(vec![(MIN_TICK - 1, 1)]).is_err());
}
