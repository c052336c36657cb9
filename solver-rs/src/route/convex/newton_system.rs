//! Newton's linear system for the dual's solve (`solve.rs`): one variable per group of copies
//! that move together.

use crate::route::linear::entry;

/// Newton's system over the free groups (neither pinned nor priced at 0), each scaling its copies'
/// prices by one factor p (π = p·π_now, every variable near 1): tied copies keep their common
/// price, copies joined at a corner their piece's ratio. A group's gradient and Hessian in p are
/// its copies' in π, weighted by their prices and summed.
pub(super) struct System {
    /// The free groups' indices in the groups.
    pub(super) free: Vec<usize>,
    pub(super) gradient: Vec<f64>,
    /// Row-major, free × free.
    pub(super) matrix: Vec<f64>,
    /// The curvature below which a group counts as flat (10⁻¹² of the largest; 1 if none).
    pub(super) floor: f64,
}

impl System {
    pub(super) fn of(
        groups: &[(Vec<usize>, bool)],
        prices: &[f64],
        gradient: &[f64],
        hessian: &[f64],
    ) -> System {
        let n = prices.len();
        let free: Vec<usize> =
            (0..groups.len()).filter(|&k| !groups[k].1 && prices[groups[k].0[0]] > 0.0).collect();
        let m = free.len();
        let group = |a: usize| &groups[free[a]].0;
        let gradient: Vec<f64> =
            (0..m).map(|a| group(a).iter().map(|&c| prices[c] * gradient[c]).sum()).collect();
        let mut matrix = vec![0.0; m.saturating_mul(m)];
        for a in 0..m {
            for b in 0..m {
                matrix[entry(a, b, m)] = group(a)
                    .iter()
                    .flat_map(|&c| group(b).iter().map(move |&d| (c, d)))
                    .map(|(c, d)| prices[c] * prices[d] * hessian[entry(c, d, n)])
                    .sum();
            }
        }
        let largest = (0..m).map(|a| matrix[entry(a, a, m)]).fold(0.0f64, f64::max);
        let floor = if largest > 0.0 { largest * 1e-12 } else { 1.0 };
        System { free, gradient, matrix, floor }
    }
}
