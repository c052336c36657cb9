//! The memoised swap loop (`tick_walk.rs`) against the plain one: the same output, crossings,
//! word edges and end state, or the same error, for every flavour, for sequences of swaps through
//! one pool that share one memo (as the routes of one allocation do, and the allocations of one
//! quote), in both directions, from states on and off the walk, with fees up to V4's 100%.

use super::pool_tests::{layout_strategy, pool, word_edge_layout, Layout, KINDS};
use super::tick_walk::TickWalk;
use super::ClPool;
use crate::dex::DexId;
use crate::math::U256;
use crate::pools::PoolModel;
use proptest::prelude::*;

/// Swaps `(zero_for_one, amount)` one after another from `start`, plain and memoised with `walks`,
/// and checks each pair of results.
fn compare(
    start: &ClPool,
    swaps: &[(bool, u128)],
    walks: &mut [TickWalk; 2],
) -> Result<(), TestCaseError> {
    let (mut plain, mut memoised) = (start.clone(), start.clone());
    for (k, &(zero_for_one, amount)) in swaps.iter().enumerate() {
        let (i, j) = if zero_for_one { (0, 1) } else { (1, 0) };
        let expected = plain.apply(i, j, U256::from(amount));
        let got = memoised.apply_memoized(i, j, U256::from(amount), walks);
        match (expected, got) {
            (Ok((expected, after)), Ok((got, memoised_after))) => {
                prop_assert_eq!(&got, &expected, "swap {} of {:?}", k, swaps);
                prop_assert_eq!(memoised_after.state, after.state, "swap {} of {:?}", k, swaps);
                (plain, memoised) = (after, memoised_after);
            }
            (Err(expected), Err(got)) => {
                prop_assert_eq!(got, expected, "swap {} of {:?}", k, swaps)
            }
            (expected, got) => {
                prop_assert!(false, "swap {k} of {swaps:?}: {expected:?} plain, {got:?} memoised")
            }
        }
    }
    Ok(())
}

fn swaps_strategy() -> impl Strategy<Value = Vec<(bool, u128)>> {
    // Amounts on a log scale, so that both single-step swaps and swaps through the whole pool occur.
    prop::collection::vec((any::<bool>(), 0u32..26, 1u128..1000), 1..8).prop_map(|raw| {
        raw.into_iter()
            .map(|(zfo, exponent, mantissa)| (zfo, mantissa * 10u128.pow(exponent) / 100 + 1))
            .collect()
    })
}

fn kind_strategy() -> impl Strategy<Value = DexId> {
    prop::sample::select(KINDS.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn memoised_swaps_are_the_plain_swaps(layout in layout_strategy(), dex in kind_strategy(), first in swaps_strategy(), second in swaps_strategy()) {
        let pool = pool(dex, &layout);
        let mut walks: [TickWalk; 2] = Default::default();
        // Two sequences from the same state on one memo: the second starts on a walk the first built.
        compare(&pool, &first, &mut walks)?;
        compare(&pool, &second, &mut walks)?;
        compare(&pool, &first, &mut walks)?;
    }

    #[test]
    fn memoised_swaps_from_word_edges(layout in word_edge_layout(), dex in kind_strategy(), swaps in swaps_strategy()) {
        let pool = pool(dex, &layout);
        let mut walks: [TickWalk; 2] = Default::default();
        compare(&pool, &swaps, &mut walks)?;
        compare(&pool, &swaps, &mut walks)?;
    }

    #[test]
    fn memoised_swaps_at_any_fee(layout in layout_strategy(), fee_pips in prop::sample::select(vec![0u32, 1, 3000, 999_999, 1_000_000]), swaps in swaps_strategy()) {
        // V4 admits fees up to 100%, where a step never reaches its target with input left.
        let pool = pool(DexId::Univ4, &Layout { fee_pips, ..layout });
        let mut walks: [TickWalk; 2] = Default::default();
        compare(&pool, &swaps, &mut walks)?;
        compare(&pool, &swaps, &mut walks)?;
    }
}

#[test]
fn a_deep_swap_is_one_jump_the_second_time() {
    // Spacing 1, one position 100 words wide: the first swap walks ~35 empty word edges; the same
    // swap again on the memo takes a jump and the last partial step, and pays the same.
    let layout = Layout {
        sqrt_price_x96: super::tick_math::get_sqrt_ratio_at_tick(12_800).unwrap(),
        spacing: 1,
        fee_pips: 500,
        protocol_fee: None,
        positions: vec![(0, 25_600, 10u128.pow(18))],
    };
    let pool = pool(DexId::Univ3, &layout);
    let mut walks: [TickWalk; 2] = Default::default();
    let amount = U256::from(3 * 10u128.pow(17));
    let first = pool.swap_memoized(true, amount, Some(&mut walks[1])).unwrap();
    let checkpoints = walks[1].len();
    assert!(checkpoints >= 30, "{checkpoints} checkpoints");
    let again = pool.swap_memoized(true, amount, Some(&mut walks[1])).unwrap();
    assert_eq!(again, first);
    assert_eq!(again, pool.swap(true, amount).unwrap());
    assert_eq!(walks[1].len(), checkpoints, "the second swap needed no new step");
}

#[test]
fn a_walk_booked_at_another_fee_is_not_used() {
    // A pool whose fee follows its state (Slipstream's dynamic fee) swaps at the fee of the tick
    // it starts from: a walk booked at one fee must not serve a swap at another.
    let layout = |fee_pips| Layout {
        sqrt_price_x96: super::tick_math::get_sqrt_ratio_at_tick(12_800).unwrap(),
        spacing: 1,
        fee_pips,
        protocol_fee: None,
        positions: vec![(0, 25_600, 10u128.pow(18))],
    };
    let (low, high) = (pool(DexId::Univ3, &layout(500)), pool(DexId::Univ3, &layout(3000)));
    let mut walks: [TickWalk; 2] = Default::default();
    let amount = U256::from(3 * 10u128.pow(17));
    low.swap_memoized(true, amount, Some(&mut walks[1])).unwrap();
    assert_eq!(
        high.swap_memoized(true, amount, Some(&mut walks[1])).unwrap(),
        high.swap(true, amount).unwrap()
    );
}

/// A swap whose input runs out exactly on a crossing out of the only position stops there, as the
/// contract's loop does, not at the price limit past the free word edges beyond it (a memo once
/// jumped over those and counted 3,744 word edges the pool never steps through).
#[test]
fn a_swap_that_spends_its_input_on_a_crossing_stops_there() {
    let layout = Layout {
        sqrt_price_x96: U256::from(2_419_609_724_479_288_094_453_115_463u128),
        spacing: 1,
        fee_pips: 8689,
        protocol_fee: None,
        positions: vec![(-71278, -71277, 100_000_000)],
    };
    let mut walks: [TickWalk; 2] = Default::default();
    compare(&pool(DexId::Univ3, &layout), &[(true, 2), (false, 2)], &mut walks).unwrap();
}
