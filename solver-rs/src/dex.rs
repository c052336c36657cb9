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
#[path = "dex_tests.rs"]
mod tests;
