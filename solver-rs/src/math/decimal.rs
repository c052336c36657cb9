//! Amounts on the wire are decimal strings (`^[0-9]+$`); these serde adapters enforce that.

use super::U256;
use serde::{de::Error, Deserialize, Deserializer, Serializer};

/// Parses a decimal amount: digits only, no sign, no leading `0x`, at most 2^256 - 1.
pub fn parse_u256(text: &str) -> Result<U256, String> {
    if text.is_empty() || text.len() > 78 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("expected a decimal integer string, got {text:?}"));
    }
    U256::from_str_radix(text, 10).map_err(|_| format!("{text} does not fit in 256 bits"))
}

/// Serde `with` module for a `U256` field written as a decimal string.
pub mod u256_string {
    use super::*;

    pub fn serialize<S: Serializer>(value: &U256, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(value)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<U256, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        parse_u256(&text).map_err(D::Error::custom)
    }
}

/// Parses a signed decimal integer string into i128 (liquidity deltas).
pub fn parse_i128(text: &str) -> Result<i128, String> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("expected a signed decimal integer string, got {text:?}"));
    }
    text.parse::<i128>().map_err(|_| format!("{text} does not fit in 128 bits"))
}

#[cfg(test)]
#[path = "decimal_tests.rs"]
mod tests;
