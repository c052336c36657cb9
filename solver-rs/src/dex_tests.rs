use super::*;

/// The spec's DexId list, copied from section 2 of the API specification.
const SPEC_DEX_IDS: [&str; 21] = [
    "UNIV2",
    "UNIV3",
    "UNIV4",
    "AERODROME_V2LIKE",
    "AERODROME_CL",
    "PANCAKE_V2",
    "PANCAKE_V3",
    "PANCAKE_INFINITY_CL",
    "HYDREX",
    "QUICKSWAP_V4",
    "ALIEN_BASE_V3",
    "CURVE",
    "PROPSWAP",
    "TESSERA",
    "ELFOMOFI",
    "LUNARBASE",
    "FELTIR",
    "DODO_V2",
    "WOOFI",
    "GYROSCOPE_ECLP",
    "MAVERICK_V2",
];

#[test]
fn wire_names_match_the_spec_and_round_trip() {
    for (dex, name) in DexId::ALL.iter().zip(SPEC_DEX_IDS) {
        assert_eq!(dex.as_str(), name);
        let json = serde_json::to_string(dex).unwrap();
        assert_eq!(json, format!("\"{name}\""));
        let back: DexId = serde_json::from_str(&json).unwrap();
        assert_eq!(back, *dex);
    }
}

#[test]
fn unknown_names_are_rejected() {
    assert!(serde_json::from_str::<DexId>("\"UNIV5\"").is_err());
    assert!(serde_json::from_str::<DexId>("\"univ2\"").is_err());
}
