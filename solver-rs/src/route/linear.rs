//! Dense symmetric positive-definite solves for the Newton steps of the split optimizer and of the
//! dual (a few routes or copies: n ≤ 64).

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
pub(crate) fn cholesky_into(a: &[f64], n: usize, l: &mut Vec<f64>) -> bool {
    let Some(size) = n.checked_mul(n) else { return false };
    l.clear();
    l.resize(size, 0.0);
    for i in 0..n {
        for j in 0..=i {
            let mut sum = a[entry(i, j, n)];
            for k in 0..j {
                sum -= l[entry(i, k, n)] * l[entry(j, k, n)];
            }
            if i == j {
                if sum <= 0.0 || !sum.is_finite() {
                    return false;
                }
                l[entry(i, i, n)] = sum.sqrt();
            } else {
                l[entry(i, j, n)] = sum / l[entry(j, j, n)];
            }
        }
    }
    true
}

/// Solves L Lᵀ x = b for the factor of [`cholesky`].
pub(crate) fn solve(l: &[f64], n: usize, b: &[f64]) -> Vec<f64> {
    let (mut y, mut x) = (Vec::new(), vec![0.0; n]);
    solve_into(l, n, b, &mut y, &mut x);
    x
}

/// [`solve`] written into `x` (n long), with `y` as its scratch (resized to n).
pub(crate) fn solve_into(l: &[f64], n: usize, b: &[f64], y: &mut Vec<f64>, x: &mut [f64]) {
    y.clear();
    y.resize(n, 0.0);
    for i in 0..n {
        let mut sum = b[i];
        for k in 0..i {
            sum -= l[entry(i, k, n)] * y[k];
        }
        y[i] = sum / l[entry(i, i, n)];
    }
    x.iter_mut().for_each(|v| *v = 0.0);
    for i in (0..n).rev() {
        let mut sum = y[i];
        for k in i.saturating_add(1)..n {
            sum -= l[entry(k, i, n)] * x[k];
        }
        x[i] = sum / l[entry(i, i, n)];
    }
}

#[cfg(test)]
#[path = "linear_tests.rs"]
mod tests;
