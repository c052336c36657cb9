//! DODO V2's PMM pools (DVM, DSP, DPP) as their `sellBase` and `sellQuote` pay: the published
//! pricing with its R states (`pmm.rs`), the LP fee and the maintainer fee each floored off the
//! output, the maintainer's rate being the one its fee-rate model gives the transaction's sender
//! (the pools pass `tx.origin`, docs/dex-kinds.md "DODO_V2"), so a quote is for one sender.
//! Tokens are listed base first, then quote. Proven against `test/crosscheck/dodo_pmm.py`, a second
//! implementation written apart (`dodo_tests.rs`).

mod bound;
mod pmm;
mod real;
#[cfg(test)]
mod route_quality_tests;
#[cfg(test)]
#[path = "dodo_tests.rs"]
mod tests;

pub use pmm::{PmmState, RState, ONE};

use super::bound_curve::{BoundCurve, CurveBounded};
use super::cpmm::ReserveString;
use super::curve_memo::CurveMemo;
use super::input::{FromWire, PoolInputError};
use super::registry::DexSpec;
use super::PoolError;
use crate::math::checked::{add, sub};
use crate::math::U256;
use serde::Deserialize;

/// Which of DODO's three PMM pools.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// Vending machine: no stored targets, always read as R above one with a quote target of 0.
    Dvm,
    /// Stable pool: stored targets and R.
    Dsp,
    /// Private pool: stored targets and R, re-priced by its owner.
    Dpp,
}

/// Wire state: `getPMMStateForCall()` (i, K, B, Q, B0, Q0, R; targets stored or already adjusted,
/// both give the same pool), `_LP_FEE_RATE_` and the maintainer's rate for the quote's sender,
/// `_MT_FEE_RATE_MODEL_.getFeeRate(sender)`, all 18-decimal fixed point.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DodoWire {
    pub variant: Variant,
    pub i: ReserveString,
    pub k: ReserveString,
    pub base_reserve: ReserveString,
    pub quote_reserve: ReserveString,
    pub base_target: ReserveString,
    pub quote_target: ReserveString,
    /// 0 (one), 1 (above one) or 2 (below one); ignored for a DVM.
    pub r_state: u64,
    pub lp_fee_rate: ReserveString,
    pub mt_fee_rate: ReserveString,
}

/// One DODO V2 pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DodoPool {
    pub variant: Variant,
    /// The PMM state with both targets filled in (`adjustedTarget`).
    pub state: PmmState,
    pub lp_fee_rate: U256,
    pub mt_fee_rate: U256,
    /// The bound curves of this state, built on first use (`pools/curve_memo.rs`).
    pub curves: CurveMemo,
}

/// The pools store reserves and targets as uint112.
fn u112_max() -> U256 {
    U256::from(u128::MAX >> 16)
}

/// 10^36: the largest price the pools accept.
const MAX_I: U256 = U256::from_limbs([0xb34b_9f10_0000_0000, 0x00c0_97ce_7bc9_0715, 0, 0]);

impl DodoPool {
    /// `sellBase` (token 0 in) or `sellQuote` (token 1 in): the trader's output and the pool after.
    fn swap(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<(U256, DodoPool), PoolError> {
        let sell_base = super::two_token_direction(token_in, token_out)?;
        let s = self.state;
        let (gross, new_r) =
            if sell_base { s.sell_base(amount_in)? } else { s.sell_quote(amount_in)? };
        let mt_fee = pmm::fee_of(gross, self.mt_fee_rate)?;
        let out = sub(sub(gross, pmm::fee_of(gross, self.lp_fee_rate)?)?, mt_fee)?;
        let paid = add(out, mt_fee)?;
        let (b, q) = if sell_base {
            (add(s.b, amount_in)?, sub(s.q, paid).map_err(|_| PoolError::InsufficientLiquidity)?)
        } else {
            (sub(s.b, paid).map_err(|_| PoolError::InsufficientLiquidity)?, add(s.q, amount_in)?)
        };
        // A DVM never stores R; the others store the new R with the sold side's target
        // (uint112, checked) when R changes.
        let r = if self.variant == Variant::Dvm { s.r } else { new_r };
        let changed_target = if sell_base { s.b0 } else { s.q0 };
        if (r != s.r && changed_target > u112_max()) || b > u112_max() || q > u112_max() {
            return Err(PoolError::Overflow);
        }
        let state = PmmState { b, q, r, ..s }.adjusted()?;
        Ok((out, DodoPool { state, ..self.clone() }))
    }

    /// 1 − LP fee − maintainer fee, as a real number (0 when the fees take everything).
    fn keep(&self) -> f64 {
        let fees = f64::from(self.lp_fee_rate) + f64::from(self.mt_fee_rate);
        (1.0 - fees / f64::from(ONE)).max(0.0)
    }
}

impl CurveBounded for DodoPool {
    fn exact_swap(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<(U256, Self), PoolError> {
        self.swap(token_in, token_out, amount_in)
    }

    fn first_rate(&self, token_in: usize, token_out: usize) -> Option<f64> {
        self.marginal_rate(token_in, token_out)
    }

    fn bound_curve(&self, token_in: usize, token_out: usize) -> Option<BoundCurve> {
        self.bound_curve(token_in, token_out)
    }
}

impl FromWire for DodoPool {
    type Wire = DodoWire;

    /// Builds the pool from its wire state; refuses what the pools refuse at construction (i of 0
    /// or over 10^36, K or the LP fee over one) and reserves or targets beyond uint112.
    fn from_wire(wire: DodoWire, _: &DexSpec) -> Result<Self, PoolInputError> {
        let invalid = |why: &str| PoolInputError::Invalid(format!("DODO pool: {why}"));
        let (i, k) = (wire.i.0, wire.k.0);
        if i.is_zero() || i > MAX_I || k > ONE || wire.lp_fee_rate.0 > ONE {
            return Err(invalid("i must be 1 to 10^36, k and lpFeeRate at most 10^18"));
        }
        let stored =
            [wire.base_reserve.0, wire.quote_reserve.0, wire.base_target.0, wire.quote_target.0];
        if stored.iter().any(|v| *v > u112_max()) {
            return Err(invalid("reserves and targets are uint112"));
        }
        let (b0, q0, r) = match wire.variant {
            Variant::Dvm => (U256::ZERO, U256::ZERO, RState::AboveOne),
            Variant::Dsp | Variant::Dpp => (
                wire.base_target.0,
                wire.quote_target.0,
                RState::from_stored(wire.r_state).ok_or_else(|| invalid("rState is 0, 1 or 2"))?,
            ),
        };
        let state = PmmState { i, k, b: stored[0], q: stored[1], b0, q0, r }
            .adjusted()
            .map_err(|e| invalid(&format!("its targets cannot be derived: {e}")))?;
        Ok(DodoPool {
            variant: wire.variant,
            state,
            lp_fee_rate: wire.lp_fee_rate.0,
            mt_fee_rate: wire.mt_fee_rate.0,
            curves: CurveMemo::default(),
        })
    }
}
#[cfg(test)]
#[path = "route_quality_diagnosis_tests.rs"]
mod route_quality_diagnosis_tests;
