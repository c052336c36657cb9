//! The `sampled` model's wire state and its checks (docs/solver-wire-format.md).

use super::{PairSamples, SampledPool, BPS};
use crate::math::decimal::parse_u256;
use crate::math::U256;
use crate::pools::input::{FromWire, PoolInputError};
use crate::pools::registry::DexSpec;
use serde::Deserialize;

/// Most tokens a sampled venue holds (a pool's token list holds at most four).
pub const MAX_TOKENS: usize = 4;

/// Wire state: the margin and the samples, `[amountIn, amountOut]` decimal strings in raw token
/// units, amountIn strictly ascending; an empty list means no trading that way. Either both
/// two-token directions (`zeroForOne`, `oneForZero`) or `pairs`, not both.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SampledWire {
    /// Safety margin in bps floored off every output, 0..=10 000.
    pub margin_bps: u32,
    /// Samples selling token0 for token1.
    #[serde(default)]
    pub zero_for_one: Option<Vec<[String; 2]>>,
    /// Samples selling token1 for token0.
    #[serde(default)]
    pub one_for_zero: Option<Vec<[String; 2]>>,
    /// Samples per ordered pair of a venue of 2 to 4 tokens (its token count is the highest
    /// index named + 1); a pair not listed does not trade.
    #[serde(default)]
    pub pairs: Option<Vec<SampledPairWire>>,
}

/// One ordered pair's samples.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SampledPairWire {
    /// Index of the token sold, in the pool's token list.
    pub token_in: usize,
    /// Index of the token bought.
    pub token_out: usize,
    pub samples: Vec<[String; 2]>,
}

fn invalid(why: String) -> PoolInputError {
    PoolInputError::Invalid(format!("sampled {why}"))
}

fn parse_samples(
    samples: &[[String; 2]],
    field: &str,
) -> Result<Vec<(U256, U256)>, PoolInputError> {
    let mut parsed = Vec::with_capacity(samples.len());
    for (i, [amount_in, amount_out]) in samples.iter().enumerate() {
        let x = parse_u256(amount_in)
            .map_err(|e| invalid(format!("{field}[{i}][0] (amountIn): {e}")))?;
        let y = parse_u256(amount_out)
            .map_err(|e| invalid(format!("{field}[{i}][1] (amountOut): {e}")))?;
        if x.is_zero() {
            return Err(invalid(format!(
                "{field}[{i}][0] (amountIn) is 0: samples start above zero"
            )));
        }
        if let Some(&(prev, _)) = parsed.last() {
            if x <= prev {
                return Err(invalid(format!(
                    "{field}[{i}][0] (amountIn) {x} is not above the previous {prev}: inputs must strictly ascend"
                )));
            }
        }
        parsed.push((x, y));
    }
    Ok(parsed)
}

/// The venue's samples by ordered pair, `(token_in, token_out, samples)`, checked: indices below
/// [`MAX_TOKENS`], no token to itself, each pair once, and at least two tokens named.
fn parse_pairs(pairs: &[SampledPairWire]) -> Result<(usize, Vec<PairSamples>), PoolInputError> {
    let mut parsed: Vec<PairSamples> = Vec::with_capacity(pairs.len());
    let mut count = 0usize;
    for (k, pair) in pairs.iter().enumerate() {
        let (i, o) = (pair.token_in, pair.token_out);
        if i >= MAX_TOKENS || o >= MAX_TOKENS || i == o {
            return Err(invalid(format!(
                "pairs[{k}] ({i} → {o}): indices must differ and be below {MAX_TOKENS}"
            )));
        }
        if parsed.iter().any(|p| (p.0, p.1) == (i, o)) {
            return Err(invalid(format!("pairs[{k}] ({i} → {o}) is listed twice")));
        }
        // Below MAX_TOKENS: no overflow.
        count = count.max(i.max(o).saturating_add(1));
        parsed.push((i, o, parse_samples(&pair.samples, &format!("pairs[{k}].samples"))?));
    }
    if count < 2 {
        return Err(invalid("pairs name no two tokens".to_string()));
    }
    Ok((count, parsed))
}

impl FromWire for SampledPool {
    type Wire = SampledWire;

    /// Builds the pool from its wire state; refuses a margin over 10 000 bps, malformed samples and
    /// pairs, and a state giving both forms or neither, naming the field. Accepted for every
    /// modelled kind, so the registry entry is not consulted.
    fn from_wire(wire: SampledWire, _: &DexSpec) -> Result<Self, PoolInputError> {
        if wire.margin_bps > BPS {
            return Err(invalid(format!("marginBps is {}: at most {BPS}", wire.margin_bps)));
        }
        match (wire.zero_for_one, wire.one_for_zero, wire.pairs) {
            (Some(zero_for_one), Some(one_for_zero), None) => {
                let zero_for_one = parse_samples(&zero_for_one, "zeroForOne")?;
                let one_for_zero = parse_samples(&one_for_zero, "oneForZero")?;
                Ok(SampledPool::new(wire.margin_bps, &zero_for_one, &one_for_zero))
            }
            (None, None, Some(pairs)) => {
                let (count, pairs) = parse_pairs(&pairs)?;
                Ok(SampledPool::of_pairs(wire.margin_bps, count, &pairs))
            }
            _ => Err(invalid(
                "state needs zeroForOne and oneForZero (two tokens) or pairs, not both".to_string(),
            )),
        }
    }
}
