use super::*;

#[test]
fn neighbours_and_sentinels() {
    let list = TickList::from_sorted(vec![(-120, 5), (0, 7), (60, -12)]);
    assert_eq!(list.at_or_below(-121), None);
    assert_eq!(list.at_or_below(-120), Some((-120, 5)));
    assert_eq!(list.at_or_below(59), Some((0, 7)));
    assert_eq!(list.above(-120), Some((0, 7)));
    assert_eq!(list.above(60), None);
    assert_eq!(list.algebra_prev(-500), (MIN_TICK, 0));
    assert_eq!(list.algebra_next(60), (MAX_TICK, 0));
    assert_eq!(list.liquidity_at(-1), Some(5));
    assert_eq!(list.liquidity_at(0), Some(12));
    assert_eq!(list.liquidity_at(60), Some(0));
    assert_eq!(TickList::from_sorted(vec![(0, -1)]).liquidity_at(0), None);
}
