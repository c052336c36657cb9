//! The two-budget term's Hessian in the prices (`pooled_second.rs`), the binding multipliers
//! eliminated, in a form that stays positive semidefinite under rounding.
//!
//! Each trading coin a moves with weight w_a = √per_a·conversion_a on its price variable and
//! u_a = √per_a·slope_a on the multipliers, and D (an interior maximum) adds v = slopes/√bend
//! on them, so over the binding multipliers J Φ's Hessian is M = Σ u_a·u_aᵀ + v·vᵀ = BᵀB (B the
//! rows u_a and v), and the term's Hessian is
//!
//! S = diag(w)·(I − B·M⁻¹·Bᵀ)·diag(w), restricted to the coins' rows.
//!
//! I − B·M⁻¹·Bᵀ is the projection onto the complement of B's columns, N·Nᵀ with N orthonormal,
//! so S = G·Gᵀ with G = diag(w)·N (the coins' rows of N from a Householder QR of B). Computed as
//! own − C·M⁻¹·Cᵀ instead, the meta venue's two base coins (tied by the base budget, the trade
//! 10⁻⁴ of their balances) left a diagonal cancelled to 0 beside a cross entry of −6.9·10¹⁰, which
//! no damping factors: on the embedded market with the meta pool on, DAI→DEGEN 3-hop 0.1× ended
//! 679 bps above the plan (docs/solver-optimizer.md, *Not yet on the default market*).

use super::super::entry;

/// One trading coin's share of the Hessian: its price variable, its own second derivative
/// per·conversion² and its cross derivatives −per·conversion·slope with the two multipliers.
pub(crate) struct Active2 {
    pub variable: usize,
    pub own: f64,
    pub cross: [f64; 2],
}

/// Adds the term's Hessian in the prices (module docs) to `hessian` (`size`² entries): the
/// multipliers in `l` that are positive with a positive diagonal in `m` (Φ's Hessian in λ,
/// `level` the D term's share of it as v, slopes/√bend) are eliminated; a singular 2×2 block keeps
/// its first multiplier.
pub(crate) fn schur2(
    active: &[Active2],
    m: &[[f64; 2]; 2],
    level: Option<[f64; 2]>,
    l: [f64; 2],
    hessian: &mut [f64],
    size: usize,
) {
    let mut binding: Vec<usize> = (0..2).filter(|&j| l[j] > 0.0 && m[j][j] > 0.0).collect();
    if binding.len() == 2 {
        let det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
        if det <= 1e-12 * m[0][0] * m[1][1] {
            binding.truncate(1);
        }
    }
    let weights: Vec<f64> = active.iter().map(|a| a.own.max(0.0).sqrt()).collect();
    // B's rows: u_a = −cross_a/w_a, then v; its columns the binding multipliers.
    let mut rows: Vec<Vec<f64>> = active
        .iter()
        .zip(&weights)
        .map(|(a, &w)| {
            binding.iter().map(|&j| if w > 0.0 { -a.cross[j] / w } else { 0.0 }).collect()
        })
        .collect();
    if let Some(v) = level {
        rows.push(binding.iter().map(|&j| v[j]).collect());
    }
    let complement = complement_of_columns(&mut rows, binding.len());
    // G = diag(w)·N over the coins' rows: S = G·Gᵀ.
    let g: Vec<Vec<f64>> = complement
        .iter()
        .zip(&weights)
        .map(|(row, &w)| row.iter().map(|&x| x * w).collect())
        .collect();
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    for (i, a) in active.iter().enumerate() {
        hessian[entry(a.variable, a.variable, size)] += dot(&g[i], &g[i]);
        for (k, b) in active.iter().enumerate().skip(i.saturating_add(1)) {
            if b.variable == a.variable {
                continue;
            }
            let cross = dot(&g[i], &g[k]);
            hessian[entry(a.variable, b.variable, size)] += cross;
            hessian[entry(b.variable, a.variable, size)] += cross;
        }
    }
}

/// The rows of N, an orthonormal basis of the complement of the first `columns` columns of
/// `rows` (an r × columns matrix, overwritten), by Householder reflections: N is the last
/// r − columns columns of Q in rows = Q·R.
fn complement_of_columns(rows: &mut [Vec<f64>], columns: usize) -> Vec<Vec<f64>> {
    let r = rows.len();
    // Q starts as I and takes each reflection on the right: Q = H₁·H₂⋯.
    let mut q: Vec<Vec<f64>> =
        (0..r).map(|i| (0..r).map(|j| if i == j { 1.0 } else { 0.0 }).collect()).collect();
    let used = columns.min(r);
    for c in 0..used {
        let norm = rows[c..].iter().map(|row| row[c] * row[c]).sum::<f64>().sqrt();
        if !(norm > 0.0 && norm.is_finite()) {
            continue;
        }
        // v = x + sign(x₀)·|x|·e₀, H = I − 2·v·vᵀ/(vᵀv).
        let mut v: Vec<f64> = rows[c..].iter().map(|row| row[c]).collect();
        v[0] += if v[0] >= 0.0 { norm } else { -norm };
        let vv: f64 = v.iter().map(|x| x * x).sum();
        if !vv.is_normal() {
            continue;
        }
        for col in c..columns {
            let dot: f64 = v.iter().zip(&rows[c..]).map(|(x, row)| x * row[col]).sum();
            let f = 2.0 * dot / vv;
            for (x, row) in v.iter().zip(rows[c..].iter_mut()) {
                row[col] -= f * x;
            }
        }
        for qi in q.iter_mut() {
            let dot: f64 = v.iter().zip(&qi[c..]).map(|(x, y)| x * y).sum();
            let f = 2.0 * dot / vv;
            for (x, y) in v.iter().zip(qi[c..].iter_mut()) {
                *y -= f * x;
            }
        }
    }
    q.into_iter().map(|row| row[used..].to_vec()).collect()
}

#[cfg(test)]
#[path = "pooled_meta_schur_tests.rs"]
mod tests;
