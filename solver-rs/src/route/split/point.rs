//! One exact evaluation of an allocation, and the derivatives the Newton step works from.
//!
//! The value is exact: the routes that carry input run in execution order on one overlay, so a
//! pool shared by two routes is seen by the second as the first left it. The derivatives are a
//! model: a swap's output depends (to rounding and fee compounding) only on the total that has
//! gone through each pool, so the output's derivative along a route is the product of its pools'
//! marginal rates at their final states, and its curvature comes from how each pool's marginal
//! rate falls as more goes through it (measured with one probe swap per pool and direction).

use super::Problem;
use crate::market::PoolIdx;
use crate::math::U256;
use crate::pools::PoolModel;
use crate::route::net::Net;
use crate::route::path::Overlay;

/// The exact value of an allocation, with its derivatives when they were asked for.
#[derive(Clone, Debug)]
pub(super) struct Point {
    pub(super) alloc: Vec<U256>,
    /// Output of the routes that carry input, and their gas in tokenOut.
    pub(super) value: Net,
    /// Gas units per candidate (0 for those that carry nothing).
    pub(super) gas_units: Vec<u64>,
    pub(super) derivatives: Option<Derivatives>,
}

/// First and second derivatives of the gross output in the allocation, in raw units (tokenOut per
/// tokenIn, and per tokenIn squared). Every candidate has a gradient, open or not.
#[derive(Clone, Debug)]
pub(super) struct Derivatives {
    pub(super) gradient: Vec<f64>,
    /// Row-major n × n.
    pub(super) hessian: Vec<f64>,
}

impl Point {
    pub(super) fn gross(&self) -> U256 {
        self.value.gross
    }

    pub(super) fn open(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.alloc.len()).filter(|&i| !self.alloc[i].is_zero())
    }

    pub(super) fn open_count(&self) -> usize {
        self.open().count()
    }

    pub(super) fn gas_total(&self) -> u64 {
        self.gas_units.iter().sum()
    }
}

/// One pool in one direction, as the routes of an evaluation use it.
struct PoolUse {
    pool: PoolIdx,
    token_in: u8,
    /// Total input that went through it, raw units of its input token.
    flow: f64,
    /// Marginal rate at the final state, and its derivative in the input amount.
    rate: f64,
    curvature: f64,
}

/// Probe swaps measure curvature over this fraction of a pool's flow (or, for a pool no route
/// uses yet, of an even share of the amount): small, so the slope is the local one even for a pool
/// that the share would drain.
const PROBE_FRACTION: f64 = 1e-6;

/// Evaluates `alloc` with the routes run in `order`; None if a route cannot take its amount or the
/// outputs sum past 2^256 − 1.
pub(super) fn evaluate(problem: &Problem, order: &[usize], alloc: Vec<U256>, with_derivatives: bool) -> Option<Point> {
    let market = problem.market;
    let n = problem.paths.len();
    let mut overlay = Overlay::new(market);
    let mut gross = U256::ZERO;
    let mut gas_units = vec![0u64; n];
    let mut uses: Vec<PoolUse> = Vec::new();
    for &i in order {
        if alloc[i].is_zero() {
            continue;
        }
        let mut amount = alloc[i];
        for hop in &problem.paths[i].hops {
            if with_derivatives {
                let index = use_index(&mut uses, hop.pool, hop.token_in);
                uses[index].flow += f64::from(amount);
            }
            let (outcome, gas) = overlay.swap(*hop, amount).ok()?;
            gas_units[i] += gas;
            amount = outcome.amount_out;
        }
        // Outputs summing past 2^256 − 1 cannot be paid (and would wrap): not a feasible allocation.
        gross = gross.checked_add(amount)?;
    }
    let cost = problem.pricer.cost(gas_units.iter().sum());
    let derivatives = with_derivatives.then(|| derivatives(problem, &overlay, &mut uses));
    Some(Point { alloc, value: Net::new(gross, cost), gas_units, derivatives })
}

/// The index of the pool-and-direction entry in `uses`, added if it is new.
fn use_index(uses: &mut Vec<PoolUse>, pool: PoolIdx, token_in: u8) -> usize {
    uses.iter().position(|u| u.pool == pool && u.token_in == token_in).unwrap_or_else(|| {
        uses.push(PoolUse { pool, token_in, flow: 0.0, rate: f64::NAN, curvature: 0.0 });
        uses.len() - 1
    })
}

fn derivatives(problem: &Problem, overlay: &Overlay, uses: &mut Vec<PoolUse>) -> Derivatives {
    let paths = problem.paths;
    let n = paths.len();
    let typical_share = f64::from(problem.amount_in) / n as f64;
    // Per candidate and hop: the pool use it goes through, and the marginal rate of the hops
    // before it (how much of a unit of tokenIn reaches that hop).
    let mut route_uses: Vec<Vec<usize>> = Vec::with_capacity(n);
    let mut upstream: Vec<Vec<f64>> = Vec::with_capacity(n);
    for path in paths {
        let mut indices = Vec::with_capacity(path.hops.len());
        let mut reach = Vec::with_capacity(path.hops.len());
        let mut carried = 1.0;
        for hop in &path.hops {
            let index = use_index(uses, hop.pool, hop.token_in);
            let entry = &mut uses[index];
            if entry.rate.is_nan() {
                let scale = if entry.flow > 0.0 { entry.flow } else { typical_share * carried };
                (entry.rate, entry.curvature) = rate_and_curvature(overlay, hop.pool, hop.token_in, hop.token_out, scale);
            }
            indices.push(index);
            reach.push(carried);
            carried *= uses[index].rate;
        }
        route_uses.push(indices);
        upstream.push(reach);
    }
    let gradient: Vec<f64> = route_uses.iter().map(|r| r.iter().map(|&u| uses[u].rate).product()).collect();
    // ∂g_i/∂x_j: through each pool of route i, g_i without that pool's rate, times the pool's
    // curvature, times how much of x_j reaches that pool (if route j goes through it the same way).
    let mut hessian = vec![0.0; n * n];
    for i in 0..n {
        for (k, &u) in route_uses[i].iter().enumerate() {
            let curvature = uses[u].curvature;
            if curvature == 0.0 {
                continue;
            }
            let others: f64 = route_uses[i].iter().enumerate().filter(|&(l, _)| l != k).map(|(_, &v)| uses[v].rate).product();
            let factor = others * curvature;
            for j in 0..n {
                let reach: f64 = route_uses[j].iter().zip(&upstream[j]).filter(|(&v, _)| v == u).map(|(_, &r)| r).sum();
                if reach != 0.0 {
                    hessian[i * n + j] += factor * reach;
                }
            }
        }
    }
    Derivatives { gradient, hessian }
}

/// The marginal rate of a pool at the overlay's state, and its slope measured by a probe swap of
/// a fraction of `scale`. A pool that cannot take the probe gets a slope that spends its rate
/// over the probe (it is near its limit).
fn rate_and_curvature(overlay: &Overlay, pool: PoolIdx, token_in: u8, token_out: u8, scale: f64) -> (f64, f64) {
    let state = overlay.state(pool);
    let (i, o) = (token_in as usize, token_out as usize);
    let rate = state.spot_price(i, o);
    let probe = (scale * PROBE_FRACTION).max(1.0);
    let amount = U256::try_from(probe.round()).unwrap_or(U256::from(1));
    let probe = f64::from(amount);
    match state.apply(i, o, amount) {
        Ok((_, next)) => (rate, ((next.spot_price(i, o) - rate) / probe).min(0.0)),
        Err(_) => (rate, -rate / probe),
    }
}
