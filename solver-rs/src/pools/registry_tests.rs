use super::*;

#[test]
fn every_dex_id_has_its_own_entry() {
    for dex in DexId::ALL {
        let entry = spec(dex);
        assert_eq!(entry.dex, dex, "{dex} maps to another kind's entry");
        assert!(entry.gas_base > 0, "{dex} has no gas figure");
    }
}

#[test]
fn exactly_the_bitmap_walking_kinds_pay_per_word() {
    for dex in DexId::ALL {
        let entry = spec(dex);
        let walks_bitmap = matches!(
            entry.model,
            Model::Concentrated(ClFlavor::UniswapV3 | ClFlavor::Singleton { .. })
        );
        assert_eq!(
            entry.gas_per_word > 0,
            walks_bitmap,
            "{dex}: gas_per_word {}",
            entry.gas_per_word
        );
    }
}

#[test]
fn leg_gas_adds_base_crossings_and_words() {
    let entry = spec(DexId::Univ3);
    let outcome = SwapOutcome { amount_out: crate::math::U256::from(1), crossings: 3, words: 7 };
    assert_eq!(
        entry.leg_gas_units(&outcome),
        entry.gas_base + 3 * entry.gas_per_crossing + 7 * entry.gas_per_word
    );
    assert_eq!(entry.leg_gas_units(&SwapOutcome::flat(crate::math::U256::ZERO)), entry.gas_base);
}

/// Every kind of the spec's list has a model now; `Model::Unsupported` stays for a kind added to
/// the list before its family (the refusal's mapping is tested in `error_tests.rs`).
#[test]
fn no_kind_is_unsupported() {
    let unsupported: Vec<DexId> = DexId::ALL
        .into_iter()
        .filter(|d| matches!(spec(*d).model, Model::Unsupported { .. }))
        .collect();
    assert_eq!(unsupported, Vec::<DexId>::new());
    assert_eq!(spec(DexId::Curve).model, Model::StableSwap);
    assert_eq!(spec(DexId::MaverickV2).model, Model::MaverickV2);
}

#[test]
fn forks_share_their_family() {
    for dex in [DexId::Univ3, DexId::AlienBaseV3, DexId::PancakeV3, DexId::AerodromeCl] {
        assert_eq!(spec(dex).model, V3);
    }
    assert_eq!(spec(DexId::Univ2).model, Model::ConstantProduct { fee_bps: 30 });
    assert_eq!(spec(DexId::PancakeV2).model, Model::ConstantProduct { fee_bps: 25 });
    for dex in [DexId::Propswap, DexId::Tessera, DexId::Elfomofi, DexId::Feltir] {
        assert_eq!(spec(dex).model, Model::Sampled);
    }
    assert_eq!(spec(DexId::Lunarbase).model, Model::Lunarbase);
}
