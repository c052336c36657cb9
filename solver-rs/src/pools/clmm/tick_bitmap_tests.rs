use super::*;

/// The v3-core TickBitmap.spec.ts fixture: ticks -200, -55, -4, 70, 78, 84, 139, 240, 535
/// initialized at spacing 1.
fn fixture() -> TickList {
    TickList::from_sorted(
        [-200, -55, -4, 70, 78, 84, 139, 240, 535].iter().map(|t| (*t, 1)).collect(),
    )
    .unwrap()
}

fn next(tick: i32, lte: bool) -> (i32, bool) {
    let (t, net) = next_initialized_tick_within_one_word(&fixture(), tick, 1, lte).unwrap();
    (t, net.is_some())
}

#[test]
fn upward_matches_v3_vectors() {
    assert_eq!(next(78, false), (84, true));
    assert_eq!(next(-55, false), (-4, true));
    assert_eq!(next(77, false), (78, true));
    assert_eq!(next(-56, false), (-55, true));
    assert_eq!(next(255, false), (511, false));
    assert_eq!(next(-257, false), (-200, true));
    assert_eq!(next(1023, false), (1279, false));
    assert_eq!(next(340, false), (511, false));
    assert_eq!(next(328, false), (511, false));
    assert_eq!(next(508, false), (511, false));
    assert_eq!(next(-2, false), (-1, false));
    assert_eq!(next(383, false), (511, false));
}

#[test]
fn downward_matches_v3_vectors() {
    assert_eq!(next(78, true), (78, true));
    assert_eq!(next(79, true), (78, true));
    assert_eq!(next(258, true), (256, false));
    assert_eq!(next(256, true), (256, false));
    assert_eq!(next(72, true), (70, true));
    assert_eq!(next(-257, true), (-512, false));
    assert_eq!(next(1023, true), (768, false));
    assert_eq!(next(900, true), (768, false));
    assert_eq!(next(-1, true), (-4, true));
}

#[test]
fn negative_ticks_compress_toward_minus_infinity() {
    // Spacing 60: tick -1 compresses to -1 (word -1, covering compressed -256..=-1); upward the
    // search starts at compressed 0, i.e. in word 0.
    let empty = TickList::default();
    assert_eq!(
        next_initialized_tick_within_one_word(&empty, -1, 60, true).unwrap(),
        (-256 * 60, None)
    );
    assert_eq!(
        next_initialized_tick_within_one_word(&empty, -1, 60, false).unwrap(),
        (255 * 60, None)
    );
    assert_eq!(next_initialized_tick_within_one_word(&empty, -61, 60, false).unwrap(), (-60, None));
    assert_eq!(
        next_initialized_tick_within_one_word(&empty, -60, 60, false).unwrap(),
        (255 * 60, None)
    );
    let list = TickList::from_sorted(vec![(-120, 9)]).unwrap();
    let (tick, initialized) = next_initialized_tick_within_one_word(&list, -61, 60, true).unwrap();
    assert_eq!((tick, initialized.map(|t| t.liquidity_net)), (-120, Some(9)));
    assert_eq!(
        next_initialized_tick_within_one_word(&list, -121, 60, true).unwrap(),
        (-256 * 60, None)
    );
}
