//! Gyroscope's E-CLP pools on the Balancer V2 Vault as the Vault's `swap` (given in) pays: the
//! balances upscaled by the pool's scaling factors (1e18·10^(18 − decimals), times the rate
//! provider's rate where the token has one, as `getScalingFactors()` gives them at the block), the
//! swap fee taken on the raw input before upscaling (mulUp), the invariant with its error, the
//! published `calcOutGivenIn` in signed fixed point (`eclp_math.rs`, `fixed_point.rs`), the output
//! downscaled rounding down. Tokens in the pool's (sorted) order. Proven against Balancer's own
//! implementation, `@balancer-labs/balancer-maths` (`gyro_eclp_tests.rs`).

mod bound;
mod eclp_math;
mod fixed_point;
#[cfg(test)]
pub mod route_quality_tests;
#[cfg(test)]
#[path = "gyro_eclp_tests.rs"]
mod tests;

pub use eclp_math::{Derived, Params, Vector2};

use super::bound_curve::{BoundCurve, CurveBounded};
use super::cpmm::ReserveString;
use super::curve_memo::CurveMemo;
use super::input::{FromWire, PoolInputError};
use super::registry::DexSpec;
use super::{two_token_direction, PoolError};
use crate::math::checked::{add, div, mul, sub};
use crate::math::signed::I256;
use crate::math::U256;
use serde::Deserialize;

/// A signed decimal string.
#[derive(Clone, Copy, Debug)]
pub struct Signed(pub I256);

impl<'de> Deserialize<'de> for Signed {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Signed, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map(Signed).map_err(serde::de::Error::custom)
    }
}

/// `getECLPParams()`'s parameters (18 decimals).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamsWire {
    pub alpha: Signed,
    pub beta: Signed,
    pub c: Signed,
    pub s: Signed,
    pub lambda: Signed,
}

/// `getECLPParams()`'s derived parameters (38 decimals).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DerivedWire {
    pub tau_alpha_x: Signed,
    pub tau_alpha_y: Signed,
    pub tau_beta_x: Signed,
    pub tau_beta_y: Signed,
    pub u: Signed,
    pub v: Signed,
    pub w: Signed,
    pub z: Signed,
    pub d_sq: Signed,
}

/// Wire state: the Vault's `getPoolTokens(poolId)` balances, the pool's `getScalingFactors()`,
/// `getSwapFeePercentage()` and `getECLPParams()`, at one block.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GyroEclpWire {
    pub balances: [ReserveString; 2],
    pub scaling_factors: [ReserveString; 2],
    pub swap_fee: ReserveString,
    pub params: ParamsWire,
    pub derived: DerivedWire,
}

/// One E-CLP pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GyroEclpPool {
    /// Raw balances in the Vault.
    pub balances: [U256; 2],
    /// 18-decimal scaling factors, decimals and rates.
    pub scaling_factors: [U256; 2],
    /// 18-decimal fee on the input.
    pub swap_fee: U256,
    pub params: Params,
    pub derived: Derived,
    /// The bound curves of this state, built on first use (`pools/curve_memo.rs`).
    pub curves: CurveMemo,
}

fn e18() -> U256 {
    U256::from(1_000_000_000_000_000_000u64)
}

fn mul_down(a: U256, b: U256) -> Result<U256, PoolError> {
    div(mul(a, b)?, e18())
}

fn mul_up(a: U256, b: U256) -> Result<U256, PoolError> {
    let product = mul(a, b)?;
    if product.is_zero() {
        return Ok(product);
    }
    add(div(sub(product, U256::from(1))?, e18())?, U256::from(1))
}

impl GyroEclpPool {
    /// The Vault's `swap` given in: what the recipient gets and the pool's balances after.
    fn swap(
        &self,
        token_in: usize,
        token_out: usize,
        amount: U256,
    ) -> Result<(U256, [U256; 2]), PoolError> {
        two_token_direction(token_in, token_out)?;
        // The Vault refuses a swap of nothing (UNKNOWN_AMOUNT_IN_FIRST_SWAP).
        if amount.is_zero() {
            return Err(PoolError::InsufficientLiquidity);
        }
        let paid = self.paid(&self.prepared()?, token_in, amount)?;
        let mut balances = self.balances;
        balances[token_in] = add(balances[token_in], amount)?;
        balances[token_out] =
            sub(balances[token_out], paid).map_err(|_| PoolError::InsufficientLiquidity)?;
        // The Vault packs each balance in 112 bits (BALANCE_TOTAL_OVERFLOW).
        if balances[token_in] > U256::from(u128::MAX >> 16) {
            return Err(PoolError::Overflow);
        }
        Ok((paid, balances))
    }

    /// What every swap on this state computes first: the upscaled balances, the invariant and
    /// its error.
    fn prepared(&self) -> Result<Prepared, PoolError> {
        let [f0, f1] = self.scaling_factors;
        let up = [mul_down(self.balances[0], f0)?, mul_down(self.balances[1], f1)?];
        let (invariant, err) =
            eclp_math::invariant_with_error(up[0], up[1], &self.params, &self.derived)?;
        Ok(Prepared { up, invariant, err, r: eclp_math::invariant_vector(invariant, err)? })
    }

    /// What a swap of `amount` raw units of `token_in` pays, raw (its balance's check aside).
    fn paid(&self, at: &Prepared, token_in: usize, amount: U256) -> Result<U256, PoolError> {
        let token_out = usize::from(token_in == 0);
        let fee = mul_up(amount, self.swap_fee)?;
        let amount_in = mul_down(sub(amount, fee)?, self.scaling_factors[token_in])?;
        let (p, d) = (&self.params, &self.derived);
        let out = eclp_math::out_given_in(at.up, amount_in, token_in == 0, p, d, &at.r)?;
        div(mul(out, e18())?, self.scaling_factors[token_out])
    }
}

/// A state's upscaled balances, invariant (an underestimate), its error and the swaps' vector.
struct Prepared {
    up: [U256; 2],
    invariant: I256,
    err: I256,
    r: Vector2,
}

impl CurveBounded for GyroEclpPool {
    fn exact_swap(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<(U256, Self), PoolError> {
        let (out, balances) = self.swap(token_in, token_out, amount_in)?;
        Ok((out, GyroEclpPool { balances, ..self.clone() }))
    }

    fn first_rate(&self, token_in: usize, token_out: usize) -> Option<f64> {
        self.small_trade_rate(token_in, token_out)
    }

    fn bound_curve(&self, token_in: usize, token_out: usize) -> Option<BoundCurve> {
        self.bound_curve(token_in, token_out)
    }
}

impl FromWire for GyroEclpPool {
    type Wire = GyroEclpWire;

    /// Builds the pool from its wire state; refuses a zero scaling factor and a fee of 100 % or
    /// more (the pool's own bounds on its parameters are the chain's: it was constructed).
    fn from_wire(wire: GyroEclpWire, _: &DexSpec) -> Result<Self, PoolInputError> {
        let invalid = |why: &str| PoolInputError::Invalid(format!("GYROSCOPE_ECLP pool: {why}"));
        if wire.scaling_factors.iter().any(|f| f.0.is_zero()) || wire.swap_fee.0 >= e18() {
            return Err(invalid("scaling factors must be positive and the swap fee below 10^18"));
        }
        let (p, d) = (wire.params, wire.derived);
        let params =
            Params { alpha: p.alpha.0, beta: p.beta.0, c: p.c.0, s: p.s.0, lambda: p.lambda.0 };
        if !(params.alpha.is_positive() && params.alpha < params.beta)
            || params.lambda < fixed_point::one()
        {
            return Err(invalid("0 < alpha < beta and lambda ≥ 1 are required"));
        }
        let derived = Derived {
            tau_alpha: Vector2 { x: d.tau_alpha_x.0, y: d.tau_alpha_y.0 },
            tau_beta: Vector2 { x: d.tau_beta_x.0, y: d.tau_beta_y.0 },
            u: d.u.0,
            v: d.v.0,
            w: d.w.0,
            z: d.z.0,
            d_sq: d.d_sq.0,
        };
        if !derived.d_sq.is_positive() {
            return Err(invalid("dSq must be positive"));
        }
        Ok(GyroEclpPool {
            balances: [wire.balances[0].0, wire.balances[1].0],
            scaling_factors: [wire.scaling_factors[0].0, wire.scaling_factors[1].0],
            swap_fee: wire.swap_fee.0,
            params,
            derived,
            curves: CurveMemo::default(),
        })
    }
}
