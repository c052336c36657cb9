//! Curve's legacy meta pools (curvefi/curve-factory `MetaUSD.vy`, the pre-NG factory's template,
//! and curvefi/curve-contract `SwapTemplateMeta.vy`, the pre-factory 3pool-era pools; our stand-in
//! `contracts/curve/CurveMetaPool.sol`) as their `exchange_underlying` pays: two coins of its own, a
//! coin (index 0) and a base pool's LP token (index 1, rated at the base pool's virtual price: read
//! at every swap by `MetaUSD`, cached for 600 s by the pre-factory template, [`VpCache`]), and the
//! underlying coins 0 (the coin) and 1.. (the base pool's coins). The meta pool and its base pool
//! are one venue: a swap moves the base pool's balances and LP supply (and may store the cache),
//! which every other pair prices with.
//! - coin → base coin: the meta pool's `exchange(0, 1)` pays LP tokens, burnt at once by the base
//!   pool's `remove_liquidity_one_coin` for the base coin;
//! - base coin → coin: the base pool's `add_liquidity` of that coin alone mints LP tokens, which
//!   the meta pool's `exchange(1, 0)` sells (the virtual price read before the deposit);
//! - base coin → base coin: the base pool's own `exchange`.
//!
//! The base pool is a legacy plain pool or an original-template one (the pre-factory meta pools'
//! 3pool; `CurvePlainPool` either way): its deposit and one-coin withdrawal charge the imbalance
//! fee fee·n/(4·(n − 1)) per coin, the admin's share of it (half, or the original template's
//! `admin_fee`) kept by the admin, each under its template's `get_D` and `get_y_D`.

use super::math::{self, add, div, mul, sub, FEE_DENOMINATOR, PRECISION};
use super::{StableSwapPool, Template};
use crate::math::U256;
use crate::pools::PoolError;

/// The pre-factory template's cache of the base pool's virtual price (its public
/// `base_virtual_price` and `base_cache_updated`, 10¹⁸ per LP token and a block timestamp).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VpCache {
    pub virtual_price: U256,
    pub updated: U256,
}

/// `BASE_CACHE_EXPIRES`: the stored price is used while `timestamp ≤ updated + 600`.
pub const BASE_CACHE_EXPIRES: u64 = 600;

/// A meta pool's base pool: its state and its LP token's supply, and the meta pool's cache of its
/// virtual price (None: `MetaUSD`, which reads it at every swap).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetaBase {
    pub pool: StableSwapPool,
    /// The base pool's LP token `totalSupply()`.
    pub supply: U256,
    pub cache: Option<VpCache>,
}

impl MetaBase {
    /// Whether the cache is used at the state's timestamp (the block the swap runs in).
    fn cache_fresh(&self) -> Option<VpCache> {
        let cache = self.cache?;
        let expires = cache.updated.checked_add(U256::from(BASE_CACHE_EXPIRES))?;
        (self.pool.timestamp <= expires).then_some(cache)
    }

    /// The virtual price the meta pool prices its LP token at now (`_vp_rate_ro`): the stored one
    /// while fresh, else the base pool's.
    pub fn rate_virtual_price(&self) -> Result<U256, PoolError> {
        match self.cache_fresh() {
            Some(cache) => Ok(cache.virtual_price),
            None => self.virtual_price(),
        }
    }

    /// `_vp_rate()`, which every swap calls first: the price and the base with the cache as the
    /// pool stores it (an expired one refreshed at the state's timestamp).
    fn swap_virtual_price(&self) -> Result<(U256, MetaBase), PoolError> {
        let vp = self.rate_virtual_price()?;
        let mut next = self.clone();
        if self.cache.is_some() && self.cache_fresh().is_none() {
            next.cache = Some(VpCache { virtual_price: vp, updated: self.pool.timestamp });
        }
        Ok((vp, next))
    }

    fn xp(&self) -> Result<Vec<U256>, PoolError> {
        self.pool.xp()
    }

    fn amp(&self) -> Result<U256, PoolError> {
        math::amp_at(&self.pool.ramp, self.pool.timestamp)
    }

    /// The base pool's `get_D` (its template's).
    fn get_d(&self, xp: &[U256], amp: U256) -> Result<U256, PoolError> {
        math::get_d(xp, amp, self.pool.template.invariant())
    }

    /// The base pool's `get_y_D`: coin `i`'s balance on the invariant `d`, the others as in `xp`.
    fn get_y_d(&self, xp: &[U256], i: usize, amp: U256, d: U256) -> Result<U256, PoolError> {
        let others: Vec<U256> =
            xp.iter().enumerate().filter(|&(k, _)| k != i).map(|(_, &x)| x).collect();
        math::solve_y(&others, xp.len(), amp, d, self.pool.template.invariant())
    }

    /// `get_virtual_price()`: D · 10¹⁸ / supply.
    pub fn virtual_price(&self) -> Result<U256, PoolError> {
        div(mul(self.get_d(&self.xp()?, self.amp()?)?, PRECISION)?, self.supply)
    }

    /// The imbalance fee of a deposit or a one-coin withdrawal: fee·n/(4·(n − 1)).
    fn imbalance_fee(&self) -> Result<U256, PoolError> {
        let n = U256::from(self.pool.coins());
        div(mul(self.pool.fee, n)?, mul(U256::from(4), sub(n, U256::from(1))?)?)
    }

    /// `add_liquidity` of `amount` of coin `k` alone: the LP tokens minted and the base after it.
    pub fn deposit(&self, k: usize, amount: U256) -> Result<(U256, MetaBase), PoolError> {
        if self.supply.is_zero() {
            // The first deposit needs every coin.
            return Err(PoolError::InsufficientLiquidity);
        }
        let amp = self.amp()?;
        let rates = &self.pool.rates;
        let xp_of = |balances: &[U256]| -> Result<Vec<U256>, PoolError> {
            rates.iter().zip(balances).map(|(&r, &b)| div(mul(r, b)?, PRECISION)).collect()
        };
        let old = &self.pool.balances;
        let d0 = self.get_d(&xp_of(old)?, amp)?;
        let mut new = old.clone();
        new[k] = add(new[k], amount)?;
        let d1 = self.get_d(&xp_of(&new)?, amp)?;
        if d1 <= d0 {
            return Err(PoolError::InsufficientLiquidity);
        }
        let base_fee = self.imbalance_fee()?;
        let mut stored = new.clone();
        for m in 0..new.len() {
            let ideal = div(mul(d1, old[m])?, d0)?;
            let difference = ideal.abs_diff(new[m]);
            let fee = div(mul(base_fee, difference)?, FEE_DENOMINATOR)?;
            stored[m] = sub(new[m], div(mul(fee, self.pool.admin_fee)?, FEE_DENOMINATOR)?)?;
            new[m] = sub(new[m], fee)?;
        }
        let d2 = self.get_d(&xp_of(&new)?, amp)?;
        let minted = div(mul(self.supply, sub(d2, d0)?)?, d0)?;
        let pool = StableSwapPool { balances: stored, ..self.pool.clone() };
        Ok((minted, MetaBase { pool, supply: add(self.supply, minted)?, cache: self.cache }))
    }

    /// `remove_liquidity_one_coin(burn, i)`: coin `i` paid and the base after it.
    pub fn withdraw_one(&self, burn: U256, i: usize) -> Result<(U256, MetaBase), PoolError> {
        let amp = self.amp()?;
        let xp = self.xp()?;
        let d0 = self.get_d(&xp, amp)?;
        let d1 = sub(d0, div(mul(burn, d0)?, self.supply)?)?;
        let n = xp.len();
        let new_y = self.get_y_d(&xp, i, amp, d1)?;
        let base_fee = self.imbalance_fee()?;
        let mut reduced = Vec::with_capacity(n);
        for (k, &x) in xp.iter().enumerate() {
            let expected = if k == i {
                sub(div(mul(x, d1)?, d0)?, new_y)?
            } else {
                sub(x, div(mul(x, d1)?, d0)?)?
            };
            reduced.push(sub(x, div(mul(base_fee, expected)?, FEE_DENOMINATOR)?)?);
        }
        let rate = self.pool.rates[i];
        let dy = sub(reduced[i], self.get_y_d(&reduced, i, amp, d1)?)?;
        let dy0 = div(mul(sub(xp[i], new_y)?, PRECISION)?, rate)?;
        let dy = div(mul(sub(dy, U256::from(1))?, PRECISION)?, rate)?;
        let dy_fee = sub(dy0, dy)?;
        let mut balances = self.pool.balances.clone();
        let admin = div(mul(dy_fee, self.pool.admin_fee)?, FEE_DENOMINATOR)?;
        balances[i] = sub(balances[i], add(dy, admin)?)?;
        let pool = StableSwapPool { balances, ..self.pool.clone() };
        Ok((dy, MetaBase { pool, supply: sub(self.supply, burn)?, cache: self.cache }))
    }
}

/// What a meta pool's `exchange_underlying` costs beyond the legacy plain pool's `exchange` leg (the
/// registry's CURVE base), in the registry's per-coin units of 16,500 gas (`crossings`): measured
/// through the router on the seeded meta pool (the pre-factory template, its cache fresh but for one
/// refresh) over its 2-coin legacy base, transactions of one leg (`test/router/curveLegs.test.ts`
/// prints them; docs/gas-model.md, *Curve meta pools*): coin → base coin 280,576 to 299,504, base
/// coin → coin 296,933 to 301,104, base → base 273,736 to 275,588, against 190,256 for the base
/// pool's own `exchange`: about 96,600, 108,800 and 84,200 more on average. The same figures hold
/// over an original-template base pool (within 4 %, docs/gas-model.md).
pub(super) fn underlying_crossings(i: usize, j: usize) -> u32 {
    match (i, j) {
        (0, _) => 6,
        (_, 0) => 7,
        _ => 5,
    }
}

impl StableSwapPool {
    /// `exchange_underlying(i, j, dx)` of a meta pool (`base` its base pool): what it pays and the
    /// venue after it.
    pub(super) fn exchange_underlying(
        &self,
        base: &MetaBase,
        i: usize,
        j: usize,
        dx: U256,
    ) -> Result<(U256, StableSwapPool), PoolError> {
        let coins = base.pool.coins().saturating_add(1);
        if i == j || i >= coins || j >= coins {
            return Err(PoolError::BadDirection { token_in: i, token_out: j });
        }
        let with_base = |meta: StableSwapPool, base: MetaBase| StableSwapPool {
            base: Some(Box::new(base)),
            ..meta
        };
        // Every path, base coin to base coin too, first calls `_vp_rate()`: the price before the
        // swap, stored if the cache had expired.
        let (vp, base) = base.swap_virtual_price()?;
        if i > 0 && j > 0 {
            let (out, pool) = base.pool.exchange(i.saturating_sub(1), j.saturating_sub(1), dx)?;
            let pool = StableSwapPool { balances: pool, ..base.pool.clone() };
            let next = MetaBase { pool, ..base };
            return Ok((out, with_base(self.clone(), next)));
        }
        // The meta pool's own two coins, the LP token rated at the virtual price before the swap.
        let own = StableSwapPool {
            rates: vec![self.rates[0], vp],
            base: None,
            template: Template::Legacy,
            ..self.clone()
        };
        if i == 0 {
            let (lp, balances) = own.exchange(0, 1, dx)?;
            let (out, next) = base.withdraw_one(lp, j.saturating_sub(1))?;
            Ok((out, with_base(StableSwapPool { balances, ..self.clone() }, next)))
        } else {
            let (lp, next) = base.deposit(i.saturating_sub(1), dx)?;
            let (out, balances) = own.exchange(1, 0, lp)?;
            Ok((out, with_base(StableSwapPool { balances, ..self.clone() }, next)))
        }
    }
}

impl StableSwapPool {
    /// A meta pool's spot price, for ranking only: what `exchange_underlying` pays for a millionth
    /// of the input coin's balance (at least one unit), per unit.
    pub(super) fn meta_spot_price(&self, base: &MetaBase, i: usize, j: usize) -> f64 {
        let balance = match i {
            0 => self.balances.first(),
            k => base.pool.balances.get(k.wrapping_sub(1)),
        };
        let Some(&balance) = balance else { return 0.0 };
        let probe =
            balance.checked_div(U256::from(1_000_000u32)).unwrap_or_default().max(U256::from(1));
        match self.exchange_underlying(base, i, j, probe) {
            Ok((out, _)) => f64::from(out) / f64::from(probe),
            Err(_) => 0.0,
        }
    }
}
