//! The spec's `DexId`: every venue kind the API can name.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One DEX kind, spelled on the wire exactly as the spec's `DexId` enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum DexId {
    #[serde(rename = "UNIV2")]
    Univ2,
    #[serde(rename = "UNIV3")]
    Univ3,
    #[serde(rename = "UNIV4")]
    Univ4,
    #[serde(rename = "AERODROME_V2LIKE")]
    AerodromeV2Like,
    #[serde(rename = "AERODROME_CL")]
    AerodromeCl,
    #[serde(rename = "PANCAKE_V2")]
    PancakeV2,
    #[serde(rename = "PANCAKE_V3")]
    PancakeV3,
    #[serde(rename = "PANCAKE_INFINITY_CL")]
    PancakeInfinityCl,
    #[serde(rename = "HYDREX")]
    Hydrex,
    #[serde(rename = "QUICKSWAP_V4")]
    QuickswapV4,
    #[serde(rename = "ALIEN_BASE_V3")]
    AlienBaseV3,
    #[serde(rename = "CURVE")]
    Curve,
    #[serde(rename = "PROPSWAP")]
    Propswap,
    #[serde(rename = "TESSERA")]
    Tessera,
    #[serde(rename = "ELFOMOFI")]
    Elfomofi,
    #[serde(rename = "LUNARBASE")]
    Lunarbase,
    #[serde(rename = "FELTIR")]
    Feltir,
    #[serde(rename = "DODO_V2")]
    DodoV2,
    #[serde(rename = "WOOFI")]
    Woofi,
    #[serde(rename = "GYROSCOPE_ECLP")]
    GyroscopeEclp,
    #[serde(rename = "MAVERICK_V2")]
    MaverickV2,
}

impl DexId {
    /// Every kind, in the spec's order.
    pub const ALL: [DexId; 21] = [
        DexId::Univ2,
        DexId::Univ3,
        DexId::Univ4,
        DexId::AerodromeV2Like,
        DexId::AerodromeCl,
        DexId::PancakeV2,
        DexId::PancakeV3,
        DexId::PancakeInfinityCl,
        DexId::Hydrex,
        DexId::QuickswapV4,
        DexId::AlienBaseV3,
        DexId::Curve,
        DexId::Propswap,
        DexId::Tessera,
        DexId::Elfomofi,
        DexId::Lunarbase,
        DexId::Feltir,
        DexId::DodoV2,
        DexId::Woofi,
        DexId::GyroscopeEclp,
        DexId::MaverickV2,
    ];

    /// The wire spelling (`"UNIV3"`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            DexId::Univ2 => "UNIV2",
            DexId::Univ3 => "UNIV3",
            DexId::Univ4 => "UNIV4",
            DexId::AerodromeV2Like => "AERODROME_V2LIKE",
            DexId::AerodromeCl => "AERODROME_CL",
            DexId::PancakeV2 => "PANCAKE_V2",
            DexId::PancakeV3 => "PANCAKE_V3",
            DexId::PancakeInfinityCl => "PANCAKE_INFINITY_CL",
            DexId::Hydrex => "HYDREX",
            DexId::QuickswapV4 => "QUICKSWAP_V4",
            DexId::AlienBaseV3 => "ALIEN_BASE_V3",
            DexId::Curve => "CURVE",
            DexId::Propswap => "PROPSWAP",
            DexId::Tessera => "TESSERA",
            DexId::Elfomofi => "ELFOMOFI",
            DexId::Lunarbase => "LUNARBASE",
            DexId::Feltir => "FELTIR",
            DexId::DodoV2 => "DODO_V2",
            DexId::Woofi => "WOOFI",
            DexId::GyroscopeEclp => "GYROSCOPE_ECLP",
            DexId::MaverickV2 => "MAVERICK_V2",
        }
    }
}

impl fmt::Display for DexId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spec's DexId list, copied from section 2 of the API specification.
    const SPEC_DEX_IDS: [&str; 21] = [
        "UNIV2", "UNIV3", "UNIV4", "AERODROME_V2LIKE", "AERODROME_CL", "PANCAKE_V2", "PANCAKE_V3",
        "PANCAKE_INFINITY_CL", "HYDREX", "QUICKSWAP_V4", "ALIEN_BASE_V3", "CURVE", "PROPSWAP",
        "TESSERA", "ELFOMOFI", "LUNARBASE", "FELTIR", "DODO_V2", "WOOFI", "GYROSCOPE_ECLP",
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
}
