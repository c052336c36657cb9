//! Dense symmetric positive-definite solves for the Newton steps of the split optimizer and of the
//! dual (a few routes or copies: n ≤ 64). Each counts its products as work (`clock::count_products`).

use super::clock::count_products;

/// The position of entry (`row`, `col`) of a row-major matrix `width` wide; saturating, so an
/// index past any matrix is out of bounds (a panic caught as a bug), never a wrapped one in bounds.
pub(crate) fn entry(row: usize, col: usize, width: usize) -> usize {
    row.saturating_mul(width).saturating_add(col)
}

/// Cholesky factor L (row-major, lower) of the symmetric matrix `a` (n × n), or None if `a` is
/// not positive definite (or n × n overflows `usize`, which no solve here comes near).
pub(crate) fn cholesky(a: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut l = Vec::new();
    cholesky_into(a, n, &mut l).then_some(l)
}

/// [`cholesky`] written into `l` (resized to n × n); false where it gives None. For solves in a
/// loop, which then allocate nothing.
///
/// Row by row over slices: the same products subtracted in the same order as the textbook loop
/// over `entry(i, k, n)` (so the same bits), without an index computed per product. The split
/// optimizer's pruning factors a few hundred small matrices per quote (`split/newton.rs`), where
/// the per-product index and bounds checks were about half of the factorisation's time.
pub(crate) fn cholesky_into(a: &[f64], n: usize, l: &mut Vec<f64>) -> bool {
    let Some(size) = n.checked_mul(n) else { return false };
    // n³/6 products: work the deadline's checks on either side of it must see (`clock.rs`).
    count_products((size as u64).saturating_mul(n as u64) / 6);
    l.clear();
    l.resize(size, 0.0);
    if n == 0 {
        return true;
    }
    for (i, a_row) in a[..size].chunks_exact(n).enumerate() {
        // Rows above i are final; row i is filled left to right.
        let (done, rest) = l.split_at_mut(i.saturating_mul(n));
        let row = &mut rest[..n];
        for (j, done_row) in done.chunks_exact(n).enumerate() {
            let mut sum = a_row[j];
            for (x, y) in row[..j].iter().zip(&done_row[..j]) {
                sum -= x * y;
            }
            row[j] = sum / done_row[j];
        }
        let mut sum = a_row[i];
        for x in &row[..i] {
            sum -= x * x;
        }
        if sum <= 0.0 || !sum.is_finite() {
            return false;
        }
        row[i] = sum.sqrt();
    }
    true
}

/// Solves L Lᵀ x = b for the factor of [`cholesky`].
pub(crate) fn solve(l: &[f64], n: usize, b: &[f64]) -> Vec<f64> {
    let (mut y, mut x) = (Vec::new(), vec![0.0; n]);
    solve_into(l, n, b, &mut y, &mut x);
    x
}

/// [`solve`] written into `x` (n long), with `y` as its scratch (resized to n). Over slices, the
/// products in the textbook loops' order (the same bits; see [`cholesky_into`]).
pub(crate) fn solve_into(l: &[f64], n: usize, b: &[f64], y: &mut Vec<f64>, x: &mut [f64]) {
    // Two triangular solves: n² products.
    count_products((n as u64).saturating_mul(n as u64));
    y.clear();
    y.resize(n, 0.0);
    x.iter_mut().for_each(|v| *v = 0.0);
    if n == 0 {
        return;
    }
    let l = &l[..n.saturating_mul(n)];
    for (i, row) in l.chunks_exact(n).enumerate() {
        let mut sum = b[i];
        for (a, v) in row[..i].iter().zip(&y[..i]) {
            sum -= a * v;
        }
        y[i] = sum / row[i];
    }
    for i in (0..n).rev() {
        let mut sum = y[i];
        // Column i below the diagonal: L[k][i] for k = i + 1, …, n − 1.
        let below = i.saturating_add(1);
        let column = l[below.saturating_mul(n).min(l.len())..].iter().skip(i).step_by(n);
        for (a, v) in column.zip(&x[below..n]) {
            sum -= a * v;
        }
        x[i] = sum / l[entry(i, i, n)];
    }
}

#[cfg(test)]
#[path = "linear_tests.rs"]
mod tests;
