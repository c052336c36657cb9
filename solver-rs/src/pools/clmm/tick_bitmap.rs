//! `TickBitmap.nextInitializedTickWithinOneWord`, emulated on the sorted tick list: the V3 and
//! singleton swap loops step to the next initialized tick *or the edge of the current 256-tick
//! bitmap word*, whichever is nearer, and each step rounds; so the word edges must be reproduced
//! exactly, not just the initialized ticks.

use super::tick_list::TickList;
use crate::pools::PoolError;

/// The next tick a V3 step targets from `tick`: at or below it when `lte` (price falling), above it
/// otherwise, never leaving the 256-compressed-tick word that holds the search start. Returns the
/// tick and, when it is initialized, its liquidityNet. Not clamped to MIN/MAX_TICK (the caller does,
/// as the pool does).
pub fn next_initialized_tick_within_one_word(
    ticks: &TickList,
    tick: i32,
    tick_spacing: i32,
    lte: bool,
) -> Result<(i32, Option<i128>), PoolError> {
    if tick_spacing <= 0 {
        return Err(PoolError::InvalidState(format!("tick spacing {tick_spacing}")));
    }
    let spacing = i64::from(tick_spacing);
    // Compressed ticks round toward −∞ (the contract decrements after truncating a negative).
    let compressed = i64::from(tick).div_euclid(spacing);
    let to_tick = |c: i64| -> Result<i32, PoolError> {
        i32::try_from(c * spacing).map_err(|_| PoolError::Overflow)
    };
    if lte {
        // Word of `compressed`; search bits at or below its position in that word.
        let word_start = compressed - compressed.rem_euclid(256);
        match ticks.at_or_below(to_tick(compressed)?) {
            Some((t, net)) if i64::from(t) >= word_start * spacing => Ok((t, Some(net))),
            _ => Ok((to_tick(word_start)?, None)),
        }
    } else {
        // Start from the next compressed tick; search bits at or above it in its word.
        let start = compressed + 1;
        let word_end = start - start.rem_euclid(256) + 255;
        match ticks.above(to_tick(compressed)?) {
            Some((t, net)) if i64::from(t) <= word_end * spacing => Ok((t, Some(net))),
            _ => Ok((to_tick(word_end)?, None)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The v3-core TickBitmap.spec.ts fixture: ticks -200, -55, -4, 70, 78, 84, 139, 240, 535
    /// initialized at spacing 1.
    fn fixture() -> TickList {
        TickList::from_sorted([-200, -55, -4, 70, 78, 84, 139, 240, 535].iter().map(|t| (*t, 1)).collect())
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
        assert_eq!(next_initialized_tick_within_one_word(&empty, -1, 60, true).unwrap(), (-256 * 60, None));
        assert_eq!(next_initialized_tick_within_one_word(&empty, -1, 60, false).unwrap(), (255 * 60, None));
        assert_eq!(next_initialized_tick_within_one_word(&empty, -61, 60, false).unwrap(), (-60, None));
        assert_eq!(next_initialized_tick_within_one_word(&empty, -60, 60, false).unwrap(), (255 * 60, None));
        let list = TickList::from_sorted(vec![(-120, 9)]);
        assert_eq!(next_initialized_tick_within_one_word(&list, -61, 60, true).unwrap(), (-120, Some(9)));
        assert_eq!(next_initialized_tick_within_one_word(&list, -121, 60, true).unwrap(), (-256 * 60, None));
    }
}
