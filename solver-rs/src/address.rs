//! 20-byte account addresses and the hex ids of pools.

use crate::error::SolverError;
use serde::{de::Error, Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// An account address. Parsed case-insensitively; written in lowercase hex.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Address(pub [u8; 20]);

fn hex_digit(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        b'A'..=b'F' => Some(byte - b'A' + 10),
        _ => None,
    }
}

impl Address {
    /// Parses `0x` followed by exactly 40 hex digits.
    pub fn parse(text: &str) -> Result<Address, SolverError> {
        let bad = || {
            SolverError::invalid(
                "address",
                format!("{text:?} is not a 0x-prefixed 20-byte address"),
            )
        };
        let digits = text.strip_prefix("0x").ok_or_else(bad)?.as_bytes();
        if digits.len() != 40 {
            return Err(bad());
        }
        let mut bytes = [0u8; 20];
        for (k, pair) in digits.chunks_exact(2).enumerate() {
            let (hi, lo) =
                (hex_digit(pair[0]).ok_or_else(bad)?, hex_digit(pair[1]).ok_or_else(bad)?);
            bytes[k] = hi << 4 | lo;
        }
        Ok(Address(bytes))
    }
}

impl Address {
    /// `0x` and 40 lowercase hex digits, as ASCII bytes (every plan writes dozens of addresses).
    fn hex(&self) -> [u8; 42] {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut out = [0u8; 42];
        out[..2].copy_from_slice(b"0x");
        for (i, byte) in self.0.iter().enumerate() {
            out[2 + 2 * i] = DIGITS[usize::from(byte >> 4)];
            out[3 + 2 * i] = DIGITS[usize::from(byte & 0xf)];
        }
        out
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(std::str::from_utf8(&self.hex()).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Serialize for Address {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let hex = self.hex();
        serializer.serialize_str(std::str::from_utf8(&hex).map_err(serde::ser::Error::custom)?)
    }
}

impl<'de> Deserialize<'de> for Address {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Address::parse(&text).map_err(|e| D::Error::custom(e.reason()))
    }
}

/// Normalises a pool id: `0x` + 40 hex digits (an address) or 64 (a bytes32 pool id), lowercased.
pub fn normalize_pool_id(text: &str) -> Result<String, SolverError> {
    let valid = text.strip_prefix("0x").is_some_and(|d| {
        (d.len() == 40 || d.len() == 64) && d.bytes().all(|b| hex_digit(b).is_some())
    });
    if !valid {
        return Err(SolverError::invalid(
            "id",
            format!("pool id {text:?} is neither a 20-byte address nor a 32-byte pool id"),
        ));
    }
    Ok(text.to_ascii_lowercase())
}

#[cfg(test)]
#[path = "address_tests.rs"]
mod tests;
