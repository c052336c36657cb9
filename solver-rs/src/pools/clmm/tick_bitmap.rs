//! `TickBitmap.nextInitializedTickWithinOneWord`, emulated on the sorted tick list: the V3 and
//! singleton swap loops step to the next initialized tick *or the edge of the current 256-tick
//! bitmap word*, whichever is nearer, and each step rounds; so the word edges must be reproduced
//! exactly, not just the initialized ticks.

use super::tick_list::{InitializedTick, TickList};
use crate::pools::PoolError;

/// The next tick a V3 step targets from `tick`: at or below it when `lte` (price falling), above it
/// otherwise, never leaving the 256-compressed-tick word that holds the search start. Returns the
/// tick and, when it is initialized, its liquidityNet and price. Not clamped to MIN/MAX_TICK (the caller does,
/// as the pool does).
pub fn next_initialized_tick_within_one_word(
    ticks: &TickList,
    tick: i32,
    tick_spacing: i32,
    lte: bool,
) -> Result<(i32, Option<InitializedTick>), PoolError> {
    if tick_spacing <= 0 {
        return Err(PoolError::InvalidState(format!("tick spacing {tick_spacing}")));
    }
    let spacing = i64::from(tick_spacing);
    // Compressed ticks round toward −∞ (the contract decrements after truncating a negative).
    let compressed = i64::from(tick).div_euclid(spacing);
    let to_tick = |c: i64| -> Result<i32, PoolError> {
        c.checked_mul(spacing).and_then(|t| i32::try_from(t).ok()).ok_or(PoolError::Overflow)
    };
    if lte {
        // Word of `compressed`; search bits at or below its position in that word.
        // A compressed tick is an i32 over a positive spacing: none of these i64 sums saturates.
        let word_start = compressed.saturating_sub(compressed.rem_euclid(256));
        match ticks.initialized_at_or_below(to_tick(compressed)?) {
            Some(t) if i64::from(t.tick) >= word_start.saturating_mul(spacing) => {
                Ok((t.tick, Some(t)))
            }
            _ => Ok((to_tick(word_start)?, None)),
        }
    } else {
        // Start from the next compressed tick; search bits at or above it in its word.
        let start = compressed.saturating_add(1);
        let word_end = start.saturating_sub(start.rem_euclid(256)).saturating_add(255);
        match ticks.initialized_above(to_tick(compressed)?) {
            Some(t) if i64::from(t.tick) <= word_end.saturating_mul(spacing) => {
                Ok((t.tick, Some(t)))
            }
            _ => Ok((to_tick(word_end)?, None)),
        }
    }
}

#[cfg(test)]
#[path = "tick_bitmap_tests.rs"]
mod tests;
