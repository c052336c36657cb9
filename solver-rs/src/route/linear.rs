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
    let mut l = vec![0.0; n.checked_mul(n)?];
    for i in 0..n {
        for j in 0..=i {
            let mut sum = a[entry(i, j, n)];
            for k in 0..j {
                sum -= l[entry(i, k, n)] * l[entry(j, k, n)];
            }
            if i == j {
                if sum <= 0.0 || !sum.is_finite() {
                    return None;
                }
                l[entry(i, i, n)] = sum.sqrt();
            } else {
                l[entry(i, j, n)] = sum / l[entry(j, j, n)];
            }
        }
    }
    Some(l)
}

/// Solves L Lᵀ x = b for the factor of [`cholesky`].
pub(crate) fn solve(l: &[f64], n: usize, b: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; n];
    for i in 0..n {
        let mut sum = b[i];
        for k in 0..i {
            sum -= l[entry(i, k, n)] * y[k];
        }
        y[i] = sum / l[entry(i, i, n)];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let mut sum = y[i];
        for k in i.saturating_add(1)..n {
            sum -= l[entry(k, i, n)] * x[k];
        }
        x[i] = sum / l[entry(i, i, n)];
    }
    x
}

#[cfg(test)]
#[path = "linear_tests.rs"]
mod tests;
