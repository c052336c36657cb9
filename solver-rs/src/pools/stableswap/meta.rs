//! Curve's legacy factory meta pool (curvefi/curve-factory `MetaUSD.vy`, the template behind the
//! pre-NG factory's meta pools; our stand-in `contracts/curve/CurveMetaPool.sol`) as its
//! `exchange_underlying` pays: two coins of its own, a coin (index 0) and a base pool's LP token
//! (index 1, rated at the base pool's `get_virtual_price()` read at the swap), and the underlying
//! coins 0 (the coin) and 1.. (the base pool's coins). The meta pool and its base pool are one
//! venue: a swap moves the base pool's balances and LP supply, which every other pair prices with.
//! - coin → base coin: the meta pool's `exchange(0, 1)` pays LP tokens, burnt at once by the base
//!   pool's `remove_liquidity_one_coin` for the base coin;
//! - base coin → coin: the base pool's `add_liquidity` of that coin alone mints LP tokens, which
//!   the meta pool's `exchange(1, 0)` sells (the virtual price read before the deposit);
//! - base coin → base coin: the base pool's own `exchange`.
//!
//! The base pool is the legacy plain template (`CurvePlainPool`): its deposit and one-coin
//! withdrawal charge the imbalance fee fee·n/(4·(n − 1)) per coin, half of it kept by the admin.

use super::math::{self, add, div, mul, sub, ADMIN_FEE, FEE_DENOMINATOR, PRECISION};
use super::{StableSwapPool, Template};
use crate::math::U256;
use crate::pools::PoolError;

/// A meta pool's base pool: its state and its LP token's supply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetaBase {
    pub pool: StableSwapPool,
    /// The base pool's LP token `totalSupply()`.
    pub supply: U256,
}

impl MetaBase {
    fn xp(&self) -> Result<Vec<U256>, PoolError> {
        self.pool.xp()
    }

    fn amp(&self) -> Result<U256, PoolError> {
        math::amp_at(&self.pool.ramp, self.pool.timestamp)
    }

    /// `get_virtual_price()`: D · 10¹⁸ / supply.
    pub fn virtual_price(&self) -> Result<U256, PoolError> {
        div(mul(math::get_d(&self.xp()?, self.amp()?)?, PRECISION)?, self.supply)
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
        let d0 = math::get_d(&xp_of(old)?, amp)?;
        let mut new = old.clone();
        new[k] = add(new[k], amount)?;
        let d1 = math::get_d(&xp_of(&new)?, amp)?;
        if d1 <= d0 {
            return Err(PoolError::InsufficientLiquidity);
        }
        let base_fee = self.imbalance_fee()?;
        let mut stored = new.clone();
        for m in 0..new.len() {
            let ideal = div(mul(d1, old[m])?, d0)?;
            let difference = ideal.abs_diff(new[m]);
            let fee = div(mul(base_fee, difference)?, FEE_DENOMINATOR)?;
            stored[m] = sub(new[m], div(mul(fee, ADMIN_FEE)?, FEE_DENOMINATOR)?)?;
            new[m] = sub(new[m], fee)?;
        }
        let d2 = math::get_d(&xp_of(&new)?, amp)?;
        let minted = div(mul(self.supply, sub(d2, d0)?)?, d0)?;
        let pool = StableSwapPool { balances: stored, ..self.pool.clone() };
        Ok((minted, MetaBase { pool, supply: add(self.supply, minted)? }))
    }

    /// `remove_liquidity_one_coin(burn, i)`: coin `i` paid and the base after it.
    pub fn withdraw_one(&self, burn: U256, i: usize) -> Result<(U256, MetaBase), PoolError> {
        let amp = self.amp()?;
        let xp = self.xp()?;
        let d0 = math::get_d(&xp, amp)?;
        let d1 = sub(d0, div(mul(burn, d0)?, self.supply)?)?;
        let others = |xs: &[U256]| -> Vec<U256> {
            xs.iter().enumerate().filter(|&(k, _)| k != i).map(|(_, &x)| x).collect()
        };
        let n = xp.len();
        let new_y = math::solve_y(&others(&xp), n, amp, d1)?;
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
        let dy = sub(reduced[i], math::solve_y(&others(&reduced), n, amp, d1)?)?;
        let dy0 = div(mul(sub(xp[i], new_y)?, PRECISION)?, rate)?;
        let dy = div(mul(sub(dy, U256::from(1))?, PRECISION)?, rate)?;
        let dy_fee = sub(dy0, dy)?;
        let mut balances = self.pool.balances.clone();
        balances[i] = sub(balances[i], add(dy, div(mul(dy_fee, ADMIN_FEE)?, FEE_DENOMINATOR)?)?)?;
        let pool = StableSwapPool { balances, ..self.pool.clone() };
        Ok((dy, MetaBase { pool, supply: sub(self.supply, burn)? }))
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
        if i > 0 && j > 0 {
            let (out, pool) = base.pool.exchange(i.saturating_sub(1), j.saturating_sub(1), dx)?;
            let pool = StableSwapPool { balances: pool, ..base.pool.clone() };
            let next = MetaBase { pool, supply: base.supply };
            return Ok((out, with_base(self.clone(), next)));
        }
        // The meta pool's own two coins, the LP token rated at the virtual price before the swap.
        let own = StableSwapPool {
            rates: vec![self.rates[0], base.virtual_price()?],
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
