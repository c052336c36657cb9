//! Curve StableSwap pools of 2 to 4 coins, as their `exchange` pays: NG (curvefi/stableswap-ng
//! CurveStableSwapNG.vy v7.0.0: the off-peg dynamic fee, NG's oracle-upkeep bounds), the legacy
//! factory plain template (a static fee) and curve-contract's original 3pool-era template (A
//! unscaled, its own `admin_fee`: [`Template::Original`]). The coins' `stored_rates` (10^(36 − decimals), times an
//! oracle's rate or an ERC-4626 share's value) come in the state as the pool reports them at the
//! block; A follows its ramp to the state's timestamp, which is the block the swap is priced at.
//!
//! What `exchange` pays, not what `get_dy` quotes: NG's views drop A's fraction during a ramp and
//! compute D another way, so the two differ in the last units (docs/dex-kinds.md).
//! Proven against an independent Python implementation and curvesim (`stableswap_tests.rs`) and
//! against Curve's own NG bytecode and the legacy and original stand-ins on anvil
//! (`test/differential/curveStableSwap.test.ts`).

mod bound;
pub(crate) mod math;
mod meta;
mod meta_bound;

pub use meta::{MetaBase, VpCache, BASE_CACHE_EXPIRES};

use super::input::{FromWire, PoolInputError};
use super::registry::DexSpec;
use super::woofi::OneWay;
use super::{PoolError, PoolModel, SwapOutcome};
use crate::math::decimal::u256_string;
use crate::math::U256;
use crate::route::convex::curve::{Curve, PooledSide};
use math::{add, div, mul, sub, Ramp, ADMIN_FEE, FEE_DENOMINATOR, PRECISION};
use serde::Deserialize;

/// Which pool template's `exchange` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Template {
    /// StableSwap-NG: the dynamic fee, a zero input refused, the oracle bounds checked after.
    Ng,
    /// The pre-NG factory plain pools: a static fee, balances in storage checked on the way out.
    Legacy,
    /// curve-contract's original template (the 3pool-era pools, StableSwap3Pool.vy): the legacy
    /// template's swap with A stored unscaled (no A_PRECISION), `get_D` and `get_y` returning
    /// their last iterate at the cap, and the admin's share of the fee its stored `admin_fee`.
    Original,
}

impl Template {
    /// How the template's `get_D` and `get_y` read A.
    pub fn invariant(self) -> math::Invariant {
        match self {
            Template::Original => math::ORIGINAL,
            Template::Ng | Template::Legacy => math::PRECISE,
        }
    }

    /// Whether a meta pool's base pool may be of this template (curve-factory's and curve-contract's
    /// meta pools sit on legacy or original plain pools).
    fn is_plain_base(self) -> bool {
        matches!(self, Template::Legacy | Template::Original)
    }
}

/// An amount as a decimal string.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(transparent)]
pub struct Amount(#[serde(with = "u256_string")] pub U256);

/// Wire state: what the pool's views give at the block (`get_balances()` or `balances(i)`, the
/// pool's own, the admin's share left out; `stored_rates()`, or 10^(36 − decimals) per coin for
/// legacy pools; `fee()`, `offpeg_fee_multiplier()` (NG, else 0), `initial_A`, `future_A`,
/// `initial_A_time`, `future_A_time`; the original template's A unscaled, the others' times 100),
/// the original template's `admin_fee()` and the timestamp the swap is priced at.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StableSwapWire {
    pub template: Template,
    pub balances: Vec<Amount>,
    pub rates: Vec<Amount>,
    pub fee: Amount,
    pub offpeg_fee_multiplier: Amount,
    pub initial_a: Amount,
    pub future_a: Amount,
    pub initial_a_time: Amount,
    pub future_a_time: Amount,
    pub timestamp: Amount,
    /// The original template's `admin_fee()` (out of 10^10), which it stores; the other templates
    /// fix it at half and leave it out.
    #[serde(default)]
    pub admin_fee: Option<Amount>,
    /// A meta pool's base pool (its balances and rates at the block: `rates` then holds the meta
    /// pool's coin rate and any non-zero figure for the LP token, which the swap re-reads as the
    /// base pool's virtual price), with `baseSupply`, its LP token's supply: the venue is then the
    /// meta pool's coin and the base pool's coins ([`StableSwapPool::from_meta_wire`]).
    #[serde(default)]
    pub base: Option<Box<StableSwapWire>>,
    #[serde(default)]
    pub base_supply: Option<Amount>,
    /// A meta pool's base pool's id (its address): the market holds the two as one venue and
    /// refuses the base pool as a venue of its own while the meta pool is on it (`market`).
    #[serde(default)]
    pub base_pool: Option<String>,
    /// A pre-factory meta pool's cache of the base pool's virtual price (`base_virtual_price()`,
    /// `base_cache_updated()`, both or neither): used while `timestamp ≤ baseCacheUpdated + 600`.
    /// Without them (curve-factory's `MetaUSD`) the price is the base pool's at every swap.
    #[serde(default)]
    pub base_virtual_price: Option<Amount>,
    #[serde(default)]
    pub base_cache_updated: Option<Amount>,
}

/// One StableSwap pool's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StableSwapPool {
    pub template: Template,
    /// The pool's own balances per coin (raw units).
    pub balances: Vec<U256>,
    /// `stored_rates()`: 10^18 · (10^18 / 10^decimals) · the coin's rate.
    pub rates: Vec<U256>,
    /// The base fee, out of 10^10.
    pub fee: U256,
    /// NG's off-peg multiplier, out of 10^10 (at most 10^10: no dynamic part).
    pub offpeg_fee_multiplier: U256,
    /// The admin's share of the fee, out of 10^10 (`ADMIN_FEE` but in the original template).
    pub admin_fee: U256,
    pub ramp: Ramp,
    /// The block timestamp the swap is priced at (A's point on its ramp).
    pub timestamp: U256,
    /// A meta pool's base pool: the venue's coins are then the underlying ones (the meta pool's
    /// coin, then the base pool's), each swap its `exchange_underlying`.
    pub base: Option<Box<MetaBase>>,
}

/// The most coins a StableSwap pool holds.
pub const MAX_COINS: usize = 4;

impl StableSwapPool {
    /// A legacy meta pool over a legacy plain base pool of 2 or 3 coins: one venue of the meta
    /// pool's coin and the base pool's coins (`meta.rs`), bounded as one budget (`meta_bound.rs`).
    pub fn from_meta_wire(mut wire: StableSwapWire) -> Result<Self, PoolInputError> {
        let (Some(base), Some(supply), Some(_)) =
            (wire.base.take(), wire.base_supply.take(), wire.base_pool.take())
        else {
            return Err(PoolInputError::Invalid(
                "a meta pool needs its base, its supply and its basePool".into(),
            ));
        };
        let cache =
            match (wire.base_virtual_price.take(), wire.base_cache_updated.take()) {
                (Some(price), Some(updated)) if !price.0.is_zero() => {
                    Some(VpCache { virtual_price: price.0, updated: updated.0 })
                }
                (None, None) => None,
                _ => return Err(PoolInputError::Invalid(
                    "a meta pool's cache needs a non-zero baseVirtualPrice and baseCacheUpdated"
                        .into(),
                )),
            };
        let base = Self::plain_from_wire(*base)?;
        let meta = Self::plain_from_wire(wire)?;
        if meta.template != Template::Legacy || !base.template.is_plain_base() {
            return Err(PoolInputError::Invalid(
                "only the legacy meta template over a legacy or original base pool is modelled"
                    .into(),
            ));
        }
        if meta.coins() != 2 || !(2..=3).contains(&base.coins()) {
            return Err(PoolInputError::Invalid(
                "a meta pool holds 2 coins over a base pool of 2 or 3".into(),
            ));
        }
        if supply.0.is_zero() {
            return Err(PoolInputError::Invalid("a meta pool's base supply is 0".into()));
        }
        if meta.timestamp != base.timestamp {
            // One block: the cache's expiry and both pools' A ramps read the same timestamp.
            return Err(PoolInputError::Invalid(
                "a meta pool and its base pool are priced at one timestamp".into(),
            ));
        }
        Ok(StableSwapPool {
            base: Some(Box::new(MetaBase { pool: base, supply: supply.0, cache })),
            ..meta
        })
    }

    fn plain_from_wire(wire: StableSwapWire) -> Result<Self, PoolInputError> {
        if wire.base.is_some()
            || wire.base_pool.is_some()
            || wire.base_virtual_price.is_some()
            || wire.base_cache_updated.is_some()
        {
            return Err(PoolInputError::Invalid("a base pool of a base pool".into()));
        }
        let n = wire.balances.len();
        if !(2..=MAX_COINS).contains(&n) || wire.rates.len() != n {
            return Err(PoolInputError::Invalid(format!(
                "a StableSwap pool has 2 to 4 coins with a rate each: got {n} balances and {} rates",
                wire.rates.len()
            )));
        }
        if wire.rates.iter().any(|r| r.0.is_zero()) {
            return Err(PoolInputError::Invalid("a StableSwap rate is 0".into()));
        }
        let admin_fee = match (wire.template, wire.admin_fee) {
            (Template::Original, Some(fee)) if fee.0 <= FEE_DENOMINATOR => fee.0,
            (Template::Original, _) => {
                return Err(PoolInputError::Invalid(
                    "the original template needs its adminFee, at most 10^10".into(),
                ))
            }
            (_, None) => ADMIN_FEE,
            (_, Some(_)) => {
                return Err(PoolInputError::Invalid(
                    "only the original template stores an adminFee".into(),
                ))
            }
        };
        Ok(StableSwapPool {
            template: wire.template,
            balances: wire.balances.iter().map(|b| b.0).collect(),
            rates: wire.rates.iter().map(|r| r.0).collect(),
            fee: wire.fee.0,
            offpeg_fee_multiplier: wire.offpeg_fee_multiplier.0,
            admin_fee,
            ramp: Ramp {
                initial_a: wire.initial_a.0,
                future_a: wire.future_a.0,
                initial_time: wire.initial_a_time.0,
                future_time: wire.future_a_time.0,
            },
            timestamp: wire.timestamp.0,
            base: None,
        })
    }

    /// How many coins the pool holds (a meta pool: its underlying coins).
    pub fn coins(&self) -> usize {
        match &self.base {
            Some(base) => base.pool.coins().saturating_add(1),
            None => self.balances.len(),
        }
    }

    fn check_pair(&self, token_in: usize, token_out: usize) -> Result<(), PoolError> {
        if token_in == token_out || token_in >= self.coins() || token_out >= self.coins() {
            return Err(PoolError::BadDirection { token_in, token_out });
        }
        Ok(())
    }

    /// Balances in 18-decimal units at the rates: `rate · balance / 10^18`.
    pub(crate) fn xp(&self) -> Result<Vec<U256>, PoolError> {
        self.rates.iter().zip(&self.balances).map(|(&r, &b)| div(mul(r, b)?, PRECISION)).collect()
    }

    /// `exchange(i, j, dx)`: what it pays and the pool's balances after it.
    pub(crate) fn exchange(
        &self,
        i: usize,
        j: usize,
        dx: U256,
    ) -> Result<(U256, Vec<U256>), PoolError> {
        self.check_pair(i, j)?;
        let ng = self.template == Template::Ng;
        if ng && dx.is_zero() {
            return Err(PoolError::InsufficientLiquidity);
        }
        let xp = self.xp()?;
        let x = add(xp[i], div(mul(dx, self.rates[i])?, PRECISION)?)?;
        let amp = math::amp_at(&self.ramp, self.timestamp)?;
        let inv = self.template.invariant();
        let d = math::get_d(&xp, amp, inv)?;
        let others: Vec<U256> =
            (0..xp.len()).filter(|&k| k != j).map(|k| if k == i { x } else { xp[k] }).collect();
        let y = math::solve_y(&others, xp.len(), amp, d, inv)?;
        let dy = sub(sub(xp[j], y)?, U256::from(1))?;
        let fee = if ng {
            let two = U256::from(2);
            math::dynamic_fee(
                div(add(xp[i], x)?, two)?,
                div(add(xp[j], y)?, two)?,
                self.fee,
                self.offpeg_fee_multiplier,
            )?
        } else {
            self.fee
        };
        let dy_fee = div(mul(dy, fee)?, FEE_DENOMINATOR)?;
        let out = div(mul(sub(dy, dy_fee)?, PRECISION)?, self.rates[j])?;
        let admin_out = div(
            mul(div(mul(dy_fee, self.admin_fee)?, FEE_DENOMINATOR)?, PRECISION)?,
            self.rates[j],
        )?;
        if ng {
            let mut after = xp;
            after[i] = x;
            after[j] = y;
            math::check_oracle_upkeep(&after, amp, d)?;
        }
        let mut balances = self.balances.clone();
        balances[i] = add(balances[i], dx)?;
        balances[j] = sub(sub(balances[j], out)?, admin_out)?;
        Ok((out, balances))
    }
}

impl StableSwapPool {
    /// A swap's outcome. An NG pool's gas grows with its coins (a rate, a balance and a price-oracle
    /// slot per coin, its `get_D` loop over them): its `crossings` are its coin count, which the
    /// registry charges per coin (docs/gas-model.md, *Curve StableSwap*); the legacy template's
    /// leg is the registry's base alone.
    fn outcome(&self, amount_out: U256) -> SwapOutcome {
        let per_coin = match self.template {
            // 2 to 4 coins: the conversion is exact.
            Template::Ng => u32::try_from(self.balances.len()).unwrap_or(u32::MAX),
            Template::Legacy | Template::Original => 0,
        };
        SwapOutcome { amount_out, crossings: per_coin, words: 0 }
    }
}

impl StableSwapPool {
    /// A meta pool's `exchange_underlying` outcome: the legacy leg and its measured extra gas by
    /// path (`meta::underlying_crossings`).
    fn underlying_outcome(&self, amount_out: U256, i: usize, j: usize) -> SwapOutcome {
        SwapOutcome { amount_out, crossings: meta::underlying_crossings(i, j), words: 0 }
    }
}

impl PoolModel for StableSwapPool {
    type Memo = ();

    /// One pair of the venue, read off the venue's budget (`bound.rs`, `convex/pooled.rs`): the
    /// dual prices the venue by its joint term, never by one side's curve.
    fn side_curve(&self, token_in: usize, token_out: usize, _: OneWay) -> Option<Curve> {
        let budget = self.budget()?;
        let ok = token_in != token_out && token_in.max(token_out) < budget.coins.len();
        ok.then_some(Curve::Pooled(PooledSide { budget, t: token_in, u: token_out, hops: None }))
    }

    fn token_count(&self) -> usize {
        self.coins()
    }

    fn amount_out(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<SwapOutcome, PoolError> {
        if let Some(base) = &self.base {
            let (out, _) = self.exchange_underlying(base, token_in, token_out, amount_in)?;
            return Ok(self.underlying_outcome(out, token_in, token_out));
        }
        Ok(self.outcome(self.exchange(token_in, token_out, amount_in)?.0))
    }

    fn apply(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<(SwapOutcome, Self), PoolError> {
        if let Some(base) = &self.base {
            let (out, next) = self.exchange_underlying(base, token_in, token_out, amount_in)?;
            return Ok((self.underlying_outcome(out, token_in, token_out), next));
        }
        let (out, balances) = self.exchange(token_in, token_out, amount_in)?;
        Ok((self.outcome(out), StableSwapPool { balances, ..self.clone() }))
    }

    /// The invariant's slope at the balances (∂F/∂x_i over ∂F/∂x_j, F the StableSwap invariant),
    /// at the rates, less the fee at zero size. An estimate in floating point, for ranking only.
    fn spot_price(&self, token_in: usize, token_out: usize) -> f64 {
        if let Some(base) = &self.base {
            return self.meta_spot_price(base, token_in, token_out);
        }
        if self.check_pair(token_in, token_out).is_err() {
            return 0.0;
        }
        let Ok(xp) = self.xp() else { return 0.0 };
        let Ok(amp) = math::amp_at(&self.ramp, self.timestamp) else { return 0.0 };
        let Ok(d) = math::get_d(&xp, amp, self.template.invariant()) else { return 0.0 };
        let (xi, xj) = (f64::from(xp[token_in]), f64::from(xp[token_out]));
        if xi <= 0.0 || xj <= 0.0 {
            return 0.0;
        }
        let n = f64::from(u8::try_from(xp.len()).unwrap_or(u8::MAX));
        let a = f64::from(amp) / f64::from(self.template.invariant().a_precision);
        let d = f64::from(d);
        // D^(n+1) / (n^n · Π x), from the balances' ratios to D so nothing overflows.
        let mut product_term = d;
        for &x in &xp {
            product_term *= d / (n * f64::from(x));
        }
        // The pools' `ann` is A·N with A stored as A·N^(N−1): the invariant's A·N^N.
        let ann = a * n;
        let slope = (ann + product_term / xi) / (ann + product_term / xj);
        let fee = match self.template {
            Template::Ng => {
                math::dynamic_fee(xp[token_in], xp[token_out], self.fee, self.offpeg_fee_multiplier)
                    .map_or(1.0, |f| f64::from(f) / f64::from(FEE_DENOMINATOR))
            }
            Template::Legacy | Template::Original => {
                f64::from(self.fee) / f64::from(FEE_DENOMINATOR)
            }
        };
        slope * f64::from(self.rates[token_in]) / f64::from(self.rates[token_out]) * (1.0 - fee)
    }

    /// What `exchange` pays is at most the output coin's balance: it pays (xp_j − y − 1 − fee) at
    /// the rate, and xp_j at the rate is at most the balance (both floored).
    fn amount_out_bound(&self, token_in: usize, token_out: usize, _amount_in: f64) -> f64 {
        if let Some(base) = &self.base {
            // The coin's balance, or the base coin's (what a withdrawal or exchange can pay).
            return match token_out {
                0 => f64::from(self.balances[0]),
                j => base.pool.balances.get(j.wrapping_sub(1)).map_or(0.0, |&b| f64::from(b)),
            };
        }
        if self.check_pair(token_in, token_out).is_err() {
            return 0.0;
        }
        f64::from(self.balances[token_out])
    }
}

#[cfg(test)]
#[path = "stableswap_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "bound_tests.rs"]
mod bound_tests;

impl FromWire for StableSwapPool {
    type Wire = StableSwapWire;

    /// Builds the pool from its wire state: 2 to 4 coins, a balance and a non-zero rate each; a
    /// meta pool (its wire carries `base` and `baseSupply`) as [`StableSwapPool::from_meta_wire`].
    fn from_wire(wire: StableSwapWire, _: &DexSpec) -> Result<Self, PoolInputError> {
        if wire.base.is_some() || wire.base_supply.is_some() || wire.base_pool.is_some() {
            return Self::from_meta_wire(wire);
        }
        Self::plain_from_wire(wire)
    }

    fn holds_pool(wire: &StableSwapWire) -> Option<&str> {
        wire.base_pool.as_deref()
    }
}
