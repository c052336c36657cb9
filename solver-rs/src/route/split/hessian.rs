//! The model's curvature: the gross output's second derivatives in the allocation, computed entry
//! by entry from the routes' pools rather than stored. A model step reads only the entries of the
//! routes it moves (a few open ones), while a 2-hop split over 10,000 pools has about 170
//! candidates: the dense matrix (230 kB) was filled, copied and freed for every evaluation, most
//! of it zeros, and its allocations were a tenth of the quote's time.

/// ∂g_i/∂x_j: through each pool of route i, g_i without that pool's rate, times the pool's
/// curvature, times how much of x_j reaches that pool (if route j goes through it the same way).
#[derive(Debug)]
pub(super) enum Hessian {
    Routes {
        /// Per candidate and hop: the pool use it goes through, and how much of a unit of tokenIn
        /// reaches that hop (the marginal rate of the hops before it).
        route_uses: Vec<Vec<usize>>,
        upstream: Vec<Vec<f64>>,
        /// Per pool use, its marginal rate and that rate's derivative in the pool's input.
        rate: Vec<f64>,
        curvature: Vec<f64>,
    },
    /// A matrix given whole, row-major n × n: the hand-made models of the tests.
    #[cfg(test)]
    Dense { n: usize, entries: Vec<f64> },
}

impl Hessian {
    /// Entry (`i`, `j`), in raw units: the same sum, term by term in the same order, as a dense
    /// matrix filled pool by pool would hold.
    pub(super) fn entry(&self, i: usize, j: usize) -> f64 {
        match self {
            Hessian::Routes { route_uses, upstream, rate, curvature } => {
                let mut sum = 0.0;
                for (k, &u) in route_uses[i].iter().enumerate() {
                    if curvature[u] == 0.0 {
                        continue;
                    }
                    let others: f64 = route_uses[i]
                        .iter()
                        .enumerate()
                        .filter(|&(l, _)| l != k)
                        .map(|(_, &v)| rate[v])
                        .product();
                    let factor = others * curvature[u];
                    let reach = reach(&route_uses[j], &upstream[j], u);
                    if reach != 0.0 {
                        sum += factor * reach;
                    }
                }
                sum
            }
            #[cfg(test)]
            Hessian::Dense { n, entries } => entries[crate::route::linear::entry(i, j, *n)],
        }
    }

    /// Whether every entry times `scale` twice is finite, over `n` candidates. A bound first
    /// (each row's sum of |factor| times the largest |reach|, which no entry's size exceeds, its
    /// rounding included): only where it is not finite are the entries computed one by one.
    pub(super) fn finite_scaled(&self, n: usize, scale: f64) -> bool {
        let bounded = match self {
            Hessian::Routes { route_uses, upstream, rate, curvature } => {
                let mut numbers = rate.iter().chain(curvature).chain(upstream.iter().flatten());
                numbers.all(|x| x.is_finite()) && {
                    // A route's reach to a pool sums over its hops through it: at most its hops'
                    // count times the largest.
                    let hops = route_uses.iter().map(Vec::len).max().unwrap_or(0) as f64;
                    let largest_reach =
                        hops * upstream.iter().flatten().fold(0.0f64, |s, r| s.max(r.abs()));
                    let largest_row = route_uses
                        .iter()
                        .map(|uses| {
                            (0..uses.len())
                                .map(|k| {
                                    let others: f64 = uses
                                        .iter()
                                        .enumerate()
                                        .filter(|&(l, _)| l != k)
                                        .map(|(_, &v)| rate[v].abs())
                                        .product();
                                    others * curvature[uses[k]].abs() * largest_reach
                                })
                                .sum::<f64>()
                        })
                        .fold(0.0f64, f64::max);
                    (largest_row * scale * scale).is_finite()
                }
            }
            #[cfg(test)]
            Hessian::Dense { .. } => false,
        };
        bounded || (0..n).all(|i| (0..n).all(|j| (self.entry(i, j) * scale * scale).is_finite()))
    }
}

/// How much of a unit of a route's input reaches pool use `u` (summed over its hops through it).
pub(super) fn reach(route_uses: &[usize], upstream: &[f64], u: usize) -> f64 {
    route_uses.iter().zip(upstream).filter(|(&v, _)| v == u).map(|(_, &r)| r).sum()
}
