//! WOOFi's vault: WooPPV2 priced by WooracleV2_2 (woonetwork/WooPoolV2), as its `swap` pays when
//! WooRouterV2 has pulled the input into the pool. One quote token (index 0) and base tokens
//! (1 to 3) share one vault: every trade moves the shared quote reserve and unclaimed fee and the
//! oracle entries of the bases it touches, so [`PoolModel::apply`] returns the whole vault's state
//! and a second leg through the vault in one route prices on the first's.
//!
//! The sPMM: selling `a` base at oracle price `p` pays `a·p·(1 − γ − s)` quote with
//! `γ = a·p·coeff` (and posts `p·(1 − γ)`); selling quote `q` pays `q/p·(1 − γ − s)` base with
//! `γ = q·coeff` (and posts `p/(1 − γ)`); base to base sells the first base for quote and that
//! quote for the second, each at half the wider of the two spreads. The fee (`feeRate` out of
//! 10^5, the wider of the two bases' for base to base) is taken in quote; a trade whose notional or
//! γ exceeds the base's `maxNotionalSwap` or `maxGamma` reverts, as does one the oracle cannot
//! price (a stale price without a Chainlink fallback, a fresh price outside the Chainlink bound,
//! a price outside the guardian's range) or a paused vault.
//!
//! Exact: every uint256 step checked as Solidity 0.8 checks it, the narrowing casts truncating.
//! Proven against `test/crosscheck/woofi.py` (an implementation written apart in Python,
//! `woofi_tests.rs`) and against the stand-ins on anvil (`test/differential/woofiModel.test.ts`).

mod arith;
mod bound;
mod hop;
mod joint;
mod oracle;

use super::input::{FromWire, PoolInputError};
use super::registry::DexSpec;
use super::shape::Piecewise;
use super::stableswap::Amount;
use super::{PoolError, PoolModel, SwapOutcome};
use crate::math::U256;
use crate::route::convex::curve::{Curve, PooledSide, MAX_SWAPS_PER_POOL};
use arith::{add, div, mul, sub, truncate, E18};
pub use bound::{sequence_pieces, OneWay};
pub use hop::{hop_budget, HopBudget};
pub use joint::{joint_budget, potential, JointBudget, JointCoin};
pub use oracle::{BaseOracle, PriceState};
use serde::Deserialize;

/// `feeRate` is out of 10^5.
const FEE_DENOMINATOR: U256 = U256::from_limbs([100_000, 0, 0, 0]);
/// `wooracle.decimals(base)`: WooracleV2_2 prices with 8 decimals for every base.
const PRICE_DEC: U256 = U256::from_limbs([100_000_000, 0, 0, 0]);
/// Whether the convex bound prices the vault by its joint budget (`joint.rs`, one pooled venue
/// with a linear budget) rather than by a curve per side. On since the solve starts where the
/// per-side curves' solve ends (`route/convex/graph_sides.rs`) and the re-quote simulates a pool's
/// legs after its prior swaps (dd478f5): on the embedded market with the vault fresh, 13 and 83–88
/// trades above 5 bps at 2 and 3 hops against the per-side curves' 146 and 232
/// (docs/dex-kinds.md, WOOFI, *Route quality*); `convex/pooled_vault_tests.rs` measures it, and
/// tests may set it for their thread ([`joint_bound_in_tests`]).
const JOINT_BOUND: bool = true;

#[cfg(test)]
thread_local! {
    static JOINT_BOUND_IN_TESTS: std::cell::Cell<Option<bool>> = const { std::cell::Cell::new(None) };
}

/// Sets [`JOINT_BOUND`] for the calling thread's graphs until the guard drops (tests of the dual
/// on the joint budget while it is off in the bound).
#[cfg(test)]
pub fn joint_bound_in_tests(on: bool) -> impl Drop {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            JOINT_BOUND_IN_TESTS.with(|c| c.set(None));
        }
    }
    JOINT_BOUND_IN_TESTS.with(|c| c.set(Some(on)));
    Reset
}

thread_local! {
    /// Set while [`sides_apart`]'s guard lives: the vault's curves per side on this thread.
    static SIDES_APART: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The vault's curves per side (never its joint budget) for the graphs the calling thread builds
/// until the guard drops, whatever [`JOINT_BOUND`] says: the per-side graph the joint solve starts
/// from (`route/convex/graph_sides.rs`). The guard restores the setting it found.
pub fn sides_apart() -> impl Drop {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            SIDES_APART.with(|c| c.set(self.0));
        }
    }
    Restore(SIDES_APART.with(|c| c.replace(true)))
}

/// [`JOINT_BOUND`], or what a test set for its thread; off under [`sides_apart`].
fn joint_bound() -> bool {
    if SIDES_APART.with(|c| c.get()) {
        return false;
    }
    #[cfg(test)]
    if let Some(on) = JOINT_BOUND_IN_TESTS.with(|c| c.get()) {
        return on;
    }
    JOINT_BOUND
}
/// The most bases a vault brings to a market (a venue holds at most 4 tokens).
pub const MAX_BASES: usize = 3;

/// One token's wire entry: `decimals()`, the vault's `balanceOf`, and `tokenInfos(token)`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TokenWire {
    pub decimals: u8,
    pub balance: Amount,
    pub reserve: Amount,
    pub fee_rate: Amount,
    pub max_gamma: Amount,
    pub max_notional: Amount,
}

/// One base's oracle entry: `infos(base)`, `cloPrice(base)`, `clOracles(base).cloPreferred`,
/// `priceRanges(base)`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct OracleWire {
    pub price: Amount,
    pub coeff: Amount,
    pub spread: Amount,
    pub ref_price: Amount,
    pub clo_preferred: bool,
    pub range_min: Amount,
    pub range_max: Amount,
}

/// Wire state of a vault at a block: tokens in the venue's order, the quote token first; one
/// oracle entry per base (tokens 1..); the pool's `paused()` and `unclaimedFee()`; the oracle's
/// `bound()`, `timestamp()` and `staleDuration()`; the block's timestamp.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct WoofiWire {
    pub tokens: Vec<TokenWire>,
    pub oracles: Vec<OracleWire>,
    pub paused: bool,
    pub unclaimed_fee: Amount,
    pub bound: Amount,
    pub oracle_timestamp: Amount,
    pub stale_duration: Amount,
    pub timestamp: Amount,
}

/// One token of the vault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VaultToken {
    /// 10^decimals.
    pub unit: U256,
    /// The vault's ERC-20 balance (the quote token's includes the unclaimed fee).
    pub balance: U256,
    /// `tokenInfos(token).reserve` (uint192).
    pub reserve: U256,
    /// `feeRate` (uint16), out of 10^5.
    pub fee_rate: U256,
    /// `maxGamma` (uint128), 1e18 = 100 %.
    pub max_gamma: U256,
    /// `maxNotionalSwap` (uint128), quote units.
    pub max_notional: U256,
}

/// The vault's state: every token and every base's oracle entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WoofiPool {
    /// Index 0 the quote token, then the bases.
    pub tokens: Vec<VaultToken>,
    /// One per base: `oracles[k]` belongs to token `k + 1`.
    pub oracles: Vec<BaseOracle>,
    pub paused: bool,
    pub unclaimed_fee: U256,
    /// The oracle's Chainlink bound, 1e18 = 100 %.
    pub bound: U256,
    /// `block.timestamp <= oracle.timestamp + staleDuration`: posted prices are fresh.
    pub window_open: bool,
}

impl WoofiPool {
    /// How many tokens the vault holds (quote + bases).
    pub fn token_count(&self) -> usize {
        self.tokens.len()
    }

    fn oracle(&self, base: usize) -> Result<&BaseOracle, PoolError> {
        base.checked_sub(1).and_then(|k| self.oracles.get(k)).ok_or_else(|| {
            PoolError::InvalidState(format!("token {base} is not a base of the vault"))
        })
    }

    fn oracle_mut(&mut self, base: usize) -> Result<&mut BaseOracle, PoolError> {
        base.checked_sub(1).and_then(|k| self.oracles.get_mut(k)).ok_or_else(|| {
            PoolError::InvalidState(format!("token {base} is not a base of the vault"))
        })
    }

    fn token(&self, t: usize) -> Result<&VaultToken, PoolError> {
        self.tokens
            .get(t)
            .ok_or_else(|| PoolError::InvalidState(format!("token {t} is not in the vault")))
    }

    fn token_mut(&mut self, t: usize) -> Result<&mut VaultToken, PoolError> {
        self.tokens
            .get_mut(t)
            .ok_or_else(|| PoolError::InvalidState(format!("token {t} is not in the vault")))
    }

    /// `wooracle.state(base)` at this block.
    pub fn price_state(&self, base: usize) -> Result<PriceState, PoolError> {
        self.oracle(base)?.state(self.window_open, self.bound)
    }

    /// `balance(token)`: the ERC-20 balance, less the unclaimed fee for the quote token.
    fn balance(&self, t: usize) -> Result<U256, PoolError> {
        let raw = self.token(t)?.balance;
        if t == 0 {
            sub(raw, self.unclaimed_fee)
        } else {
            Ok(raw)
        }
    }

    /// The quote and base units and the base's guards, once the oracle's price is known non-zero.
    fn priced(&self, base: usize, st: PriceState) -> Result<(U256, U256, &VaultToken), PoolError> {
        if st.price.is_zero() {
            return Err(PoolError::Refused(format!("the oracle's price of token {base} is 0")));
        }
        Ok((self.token(0)?.unit, self.token(base)?.unit, self.token(base)?))
    }

    /// `_calcQuoteAmountSellBase`: the quote for `amount` of `base` and the price it posts.
    fn sell_base_math(
        &self,
        base: usize,
        amount: U256,
        st: PriceState,
    ) -> Result<(U256, U256), PoolError> {
        let (quote_dec, base_dec, limits) = self.priced(base, st)?;
        let notional = div(div(mul(mul(amount, st.price)?, quote_dec)?, base_dec)?, PRICE_DEC)?;
        if notional > limits.max_notional {
            return Err(guard("notional", notional, limits.max_notional));
        }
        let gamma = div(div(mul(mul(amount, st.price)?, st.coeff)?, PRICE_DEC)?, base_dec)?;
        if gamma > limits.max_gamma {
            return Err(guard("gamma", gamma, limits.max_gamma));
        }
        let gross = div(mul(mul(amount, st.price)?, quote_dec)?, PRICE_DEC)?;
        let keep = sub(sub(E18, gamma)?, st.spread)?;
        let quote = div(div(mul(gross, keep)?, E18)?, base_dec)?;
        let new_price = div(mul(sub(E18, gamma)?, st.price)?, E18)?;
        Ok((quote, new_price))
    }

    /// `_calcBaseAmountSellQuote`: the base for `quote` (fee already off) and the price it posts.
    fn sell_quote_math(
        &self,
        base: usize,
        quote: U256,
        st: PriceState,
    ) -> Result<(U256, U256), PoolError> {
        let (quote_dec, base_dec, limits) = self.priced(base, st)?;
        if quote > limits.max_notional {
            return Err(guard("notional", quote, limits.max_notional));
        }
        let gamma = div(mul(quote, st.coeff)?, quote_dec)?;
        if gamma > limits.max_gamma {
            return Err(guard("gamma", gamma, limits.max_gamma));
        }
        let gross = div(mul(mul(quote, base_dec)?, PRICE_DEC)?, st.price)?;
        let keep = sub(sub(E18, gamma)?, st.spread)?;
        let out = div(div(mul(gross, keep)?, E18)?, quote_dec)?;
        let new_price = div(mul(E18, st.price)?, sub(E18, gamma)?)?;
        Ok((out, new_price))
    }

    /// The router's pull of `amount` into the vault, then the pool's check that it arrived
    /// (`balance(token) − reserve ≥ amount`).
    fn receive(&mut self, t: usize, amount: U256) -> Result<(), PoolError> {
        let token = self.token_mut(t)?;
        token.balance = add(token.balance, amount)?;
        let reserve = self.token(t)?.reserve;
        if sub(self.balance(t)?, reserve)? < amount {
            return Err(PoolError::Refused(format!(
                "the vault holds less of token {t} than its reserve {reserve} plus the input {amount}"
            )));
        }
        Ok(())
    }

    /// The transfer of `amount` of token `t` out of the vault.
    fn pay(&mut self, t: usize, amount: U256) -> Result<(), PoolError> {
        let token = self.token_mut(t)?;
        let balance = token.balance;
        token.balance = sub(balance, amount).map_err(|_| {
            PoolError::Refused(format!(
                "the vault's balance {balance} of token {t} cannot pay {amount}"
            ))
        })?;
        Ok(())
    }

    fn set_reserve(&mut self, t: usize, reserve: U256) -> Result<(), PoolError> {
        self.token_mut(t)?.reserve = truncate(reserve, 192);
        Ok(())
    }

    fn fee_of(&self, amount: U256, rate: U256) -> Result<U256, PoolError> {
        div(mul(amount, rate)?, FEE_DENOMINATOR)
    }

    /// `_sellBase`.
    fn sell_base(&mut self, base: usize, amount: U256) -> Result<U256, PoolError> {
        self.receive(base, amount)?;
        let (quote, new_price) = self.sell_base_math(base, amount, self.price_state(base)?)?;
        self.oracle_mut(base)?.post_price(truncate(new_price, 128))?;
        let fee = self.fee_of(quote, self.token(base)?.fee_rate)?;
        let quote = sub(quote, fee)?;
        self.unclaimed_fee = add(self.unclaimed_fee, fee)?;
        self.set_reserve(base, add(self.token(base)?.reserve, amount)?)?;
        let quote_reserve = self.token(0)?.reserve;
        let left = sub(quote_reserve, quote).and_then(|r| sub(r, fee));
        self.set_reserve(0, left.map_err(|_| short_of(0, quote, quote_reserve))?)?;
        self.pay(0, quote)?;
        Ok(quote)
    }

    /// `_sellQuote`.
    fn sell_quote(&mut self, base: usize, amount: U256) -> Result<U256, PoolError> {
        self.receive(0, amount)?;
        let fee = self.fee_of(amount, self.token(base)?.fee_rate)?;
        let quote = sub(amount, fee)?;
        self.unclaimed_fee = add(self.unclaimed_fee, fee)?;
        let (out, new_price) = self.sell_quote_math(base, quote, self.price_state(base)?)?;
        self.oracle_mut(base)?.post_price(truncate(new_price, 128))?;
        let reserve = self.token(base)?.reserve;
        self.set_reserve(base, sub(reserve, out).map_err(|_| short_of(base, out, reserve))?)?;
        self.set_reserve(0, add(self.token(0)?.reserve, quote)?)?;
        self.pay(base, out)?;
        Ok(out)
    }

    /// `_swapBaseToBase`: the first base sold for quote, that quote (fee off) for the second, both
    /// at half the wider spread, the fee at the wider of the two rates.
    fn base_to_base(&mut self, b1: usize, b2: usize, amount: U256) -> Result<U256, PoolError> {
        self.receive(b1, amount)?;
        let (mut s1, mut s2) = (self.price_state(b1)?, self.price_state(b2)?);
        let spread = div(s1.spread.max(s2.spread), U256::from(2))?;
        (s1.spread, s2.spread) = (spread, spread);
        let fee_rate = self.token(b1)?.fee_rate.max(self.token(b2)?.fee_rate);
        let (quote, new1) = self.sell_base_math(b1, amount, s1)?;
        self.oracle_mut(b1)?.post_price(truncate(new1, 128))?;
        let fee = self.fee_of(quote, fee_rate)?;
        let quote = sub(quote, fee)?;
        self.unclaimed_fee = add(self.unclaimed_fee, fee)?;
        let quote_reserve = self.token(0)?.reserve;
        self.set_reserve(0, sub(quote_reserve, fee).map_err(|_| short_of(0, fee, quote_reserve))?)?;
        self.set_reserve(b1, add(self.token(b1)?.reserve, amount)?)?;
        let (out, new2) = self.sell_quote_math(b2, quote, s2)?;
        self.oracle_mut(b2)?.post_price(truncate(new2, 128))?;
        let reserve = self.token(b2)?.reserve;
        self.set_reserve(b2, sub(reserve, out).map_err(|_| short_of(b2, out, reserve))?)?;
        self.pay(b2, out)?;
        Ok(out)
    }

    /// `swap(from, to, amount, 0, …)` after the router's pull: what it pays, the vault mutated.
    fn swap_in_place(
        &mut self,
        token_in: usize,
        token_out: usize,
        amount: U256,
    ) -> Result<U256, PoolError> {
        let n = self.token_count();
        if token_in == token_out || token_in >= n || token_out >= n {
            return Err(PoolError::BadDirection { token_in, token_out });
        }
        if self.paused {
            return Err(PoolError::Refused("the vault is paused".into()));
        }
        match (token_in, token_out) {
            (0, base) => self.sell_quote(base, amount),
            (base, 0) => self.sell_base(base, amount),
            (b1, b2) => self.base_to_base(b1, b2, amount),
        }
    }
}

/// The contract stores `value` in a uintN of `bits`: a wider one cannot be its state.
fn fits(value: U256, bits: usize, what: &str) -> Result<(), PoolInputError> {
    if truncate(value, bits) != value {
        return Err(PoolInputError::Invalid(format!(
            "WOOFi {what} {value} does not fit the contract's uint{bits}"
        )));
    }
    Ok(())
}

/// A max notional or max gamma guard refusing the trade.
fn guard(what: &str, value: U256, limit: U256) -> PoolError {
    PoolError::Refused(format!("the trade's {what} {value} exceeds the vault's max {limit}"))
}

/// A reserve that cannot pay what the trade takes from it.
fn short_of(token: usize, wanted: U256, reserve: U256) -> PoolError {
    PoolError::Refused(format!("token {token}'s reserve {reserve} cannot give {wanted}"))
}

impl PoolModel for WoofiPool {
    type Memo = ();

    /// With [`JOINT_BOUND`], one pair of the vault's joint budget (`joint.rs`: the dual prices the
    /// vault by its one term, `convex/pooled_linear.rs`), for a pair that can trade at all this
    /// block (`bound.rs`). Otherwise, or where the joint budget's conditions fail, linear pieces whose rates and widths hold for the
    /// whole vault over a plan's swaps, tighter as `one_way` says the plan cannot move the prices
    /// in its favour.
    fn side_curve(&self, token_in: usize, token_out: usize, one_way: OneWay) -> Option<Curve> {
        let pieces = sequence_pieces(self, token_in, token_out, MAX_SWAPS_PER_POOL, one_way)?;
        if let Some(budget) = joint_bound().then(|| joint::pooled_budget(self)).flatten() {
            let hops = hop::pooled_hops(self);
            return Some(Curve::Pooled(PooledSide { budget, t: token_in, u: token_out, hops }));
        }
        Some(Curve::Piecewise(Piecewise::from_pieces(pieces)))
    }

    fn token_count(&self) -> usize {
        WoofiPool::token_count(self)
    }

    /// Without the joint budget, each side's curve holds whatever the vault's other sides trade
    /// (`bound.rs`); with it the vault is one pooled venue.
    fn sides_bounded_apart(&self) -> bool {
        !joint_bound() || joint::pooled_budget(self).is_none()
    }

    fn amount_out(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<SwapOutcome, PoolError> {
        Ok(self.apply(token_in, token_out, amount_in)?.0)
    }

    fn apply(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<(SwapOutcome, Self), PoolError> {
        let mut next = self.clone();
        let out = next.swap_in_place(token_in, token_out, amount_in)?;
        // Base to base is two halves through the quote token (a second oracle state read and
        // posted, a third reserve written): its extra gas is charged as one crossing
        // (docs/gas-model.md, *WOOFi*).
        let crossings = u32::from(token_in != 0 && token_out != 0);
        Ok((SwapOutcome { amount_out: out, crossings, words: 0 }, next))
    }

    fn spot_price(&self, token_in: usize, token_out: usize) -> f64 {
        bound::spot_rate(self, token_in, token_out).unwrap_or(0.0)
    }

    fn amount_out_bound(&self, token_in: usize, token_out: usize, amount_in: f64) -> f64 {
        amount_in * bound::linear_rate(self, token_in, token_out).unwrap_or(0.0)
    }
}

#[cfg(test)]
#[path = "woofi_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "joint_tests.rs"]
mod joint_tests;

impl FromWire for WoofiPool {
    type Wire = WoofiWire;

    /// Builds the vault from its wire state: a quote token and 1 to 3 bases, an oracle entry each.
    fn from_wire(wire: WoofiWire, _: &DexSpec) -> Result<Self, PoolInputError> {
        let n = wire.tokens.len();
        if !(2..=MAX_BASES.saturating_add(1)).contains(&n)
            || wire.oracles.len().checked_add(1) != Some(n)
        {
            return Err(PoolInputError::Invalid(format!(
                "a WOOFi vault has the quote token and 1 to {MAX_BASES} bases, an oracle entry per base: got {n} tokens and {} oracle entries",
                wire.oracles.len()
            )));
        }
        let mut tokens = Vec::with_capacity(n);
        for (i, t) in wire.tokens.iter().enumerate() {
            fits(t.reserve.0, 192, &format!("token {i}'s reserve"))?;
            fits(t.fee_rate.0, 16, &format!("token {i}'s feeRate"))?;
            fits(t.max_gamma.0, 128, &format!("token {i}'s maxGamma"))?;
            fits(t.max_notional.0, 128, &format!("token {i}'s maxNotionalSwap"))?;
            // The pool computes 10^decimals as a uint64 (DecimalInfo): more than 19 reverts.
            if t.decimals > 19 {
                return Err(PoolInputError::Invalid(format!(
                    "WOOFi token {i} has {} decimals: at most 19 fit the vault's uint64 unit",
                    t.decimals
                )));
            }
            tokens.push(VaultToken {
                unit: U256::from(10).pow(U256::from(t.decimals)),
                balance: t.balance.0,
                reserve: t.reserve.0,
                fee_rate: t.fee_rate.0,
                max_gamma: t.max_gamma.0,
                max_notional: t.max_notional.0,
            });
        }
        for (k, o) in wire.oracles.iter().enumerate() {
            fits(o.price.0, 128, &format!("base {}'s price", k.saturating_add(1)))?;
            fits(o.coeff.0, 64, &format!("base {}'s coeff", k.saturating_add(1)))?;
            fits(o.spread.0, 64, &format!("base {}'s spread", k.saturating_add(1)))?;
        }
        fits(wire.bound.0, 64, "the oracle's bound")?;
        let oracles = wire
            .oracles
            .iter()
            .map(|o| BaseOracle {
                price: o.price.0,
                coeff: o.coeff.0,
                spread: o.spread.0,
                ref_price: o.ref_price.0,
                clo_preferred: o.clo_preferred,
                range_min: o.range_min.0,
                range_max: o.range_max.0,
            })
            .collect();
        let Some(stale_at) = wire.oracle_timestamp.0.checked_add(wire.stale_duration.0) else {
            return Err(PoolInputError::Invalid(format!(
                "WOOFi oracle timestamp {} + staleDuration {} overflows: the oracle reverts on every price",
                wire.oracle_timestamp.0, wire.stale_duration.0
            )));
        };
        Ok(WoofiPool {
            tokens,
            oracles,
            paused: wire.paused,
            unclaimed_fee: wire.unclaimed_fee.0,
            bound: wire.bound.0,
            window_open: wire.timestamp.0 <= stale_at,
        })
    }
}
