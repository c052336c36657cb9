use super::*;

fn fee(base: u32, k: u64, cap: u32, twap: Option<i32>) -> DynamicSwapFee {
    DynamicSwapFee {
        base_fee_pips: base,
        spacing_fee_pips: 500,
        scaling_factor: k,
        fee_cap_pips: cap,
        twap_tick: twap,
    }
}

#[test]
fn the_published_formula_decided_by_hand() {
    // Base from the spacing (500), K = 1e6 (one pip per tick), 120 ticks from the TWAP: 620.
    assert_eq!(fee(0, 1_000_000, 20_000, Some(-100)).fee_pips(20), 620);
    assert_eq!(fee(0, 1_000_000, 20_000, Some(140)).fee_pips(20), 620);
    // K = 0.25e6: floor(120 · 0.25) = 30 on a custom base of 100.
    assert_eq!(fee(100, 250_000, 20_000, Some(-100)).fee_pips(20), 130);
    // Capped, even by a cap below the base; a cap of 0 is a zero fee.
    assert_eq!(fee(0, 1_000_000, 550, Some(-100)).fee_pips(20), 550);
    assert_eq!(fee(3_000, 0, 1_000, None).fee_pips(0), 1_000);
    assert_eq!(fee(0, 1_000_000, 0, Some(-100)).fee_pips(20), 0);
    // No TWAP (too few observations): the base alone; the 420 indicator: nothing at all.
    assert_eq!(fee(0, 1_000_000, 20_000, None).fee_pips(123_456), 500);
    assert_eq!(fee(ZERO_FEE_INDICATOR, 1_000_000, 20_000, Some(0)).fee_pips(999), 0);
    // The factory refuses an answer above 100,000 and falls back to the spacing's fee.
    assert_eq!(fee(0, MAX_SCALING_FACTOR, 1_000_000, Some(0)).fee_pips(1), 500);
    assert_eq!(fee(0, 99_500_000_000, 1_000_000, Some(0)).fee_pips(1), 100_000);
}

#[test]
fn the_extremes_neither_overflow_nor_panic() {
    let widest = fee(0, MAX_SCALING_FACTOR, 1_000_000, Some(MIN_TICK));
    assert_eq!(widest.fee_pips(MAX_TICK), 500);
    assert_eq!(fee(0, MAX_SCALING_FACTOR, 50_000, Some(MIN_TICK)).fee_pips(MAX_TICK), 50_000);
}
