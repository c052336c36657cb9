//! A dense primal simplex for the small linear programs of a venue's term (`pooled_vault_hop.rs`:
//! a dozen or two variables, under ten rows): maximise c·x subject to A·x ≤ b, x ≥ 0, with b ≥ 0,
//! so the origin is a vertex and no first phase is needed. Bland's rule (the lowest index enters
//! and leaves) cannot cycle on the degenerate vertices these programs have (many rows at 0).
//! The answer's duals (one per row, ≥ 0) are what callers certify with: any dual-feasible point
//! bounds the program from above whatever the pivots' roundings, so a caller re-checks them rather
//! than trusting the primal value.

/// A solved program: the optimum's value, its primal point and the rows' multipliers.
#[derive(Clone, Debug, PartialEq)]
pub struct Solved {
    pub value: f64,
    pub x: Vec<f64>,
    pub duals: Vec<f64>,
}

/// Pivots at most: Bland's rule visits few vertices on programs this small.
const PIVOTS: usize = 400;

/// max c·x s.t. rows·x ≤ b, x ≥ 0 (every b ≥ 0); None when unbounded, when a b is negative or
/// not finite, or past [`PIVOTS`]. Each row holds one coefficient per variable.
pub fn maximise(rows: &[Vec<f64>], b: &[f64], c: &[f64]) -> Option<Solved> {
    let (m, n) = (rows.len(), c.len());
    if b.len() != m || rows.iter().any(|r| r.len() != n) || b.iter().any(|v| v.is_nan() || *v < 0.0)
    {
        return None;
    }
    let columns = n.saturating_add(m);
    // Rows 0..m the constraints with their slacks and right-hand side (last), then the
    // objective's reduced costs (−c).
    let mut t: Vec<Vec<f64>> = rows
        .iter()
        .zip(b)
        .enumerate()
        .map(|(i, (row, bi))| {
            let mut r = row.clone();
            r.extend((0..m).map(|k| if k == i { 1.0 } else { 0.0 }));
            r.push(*bi);
            r
        })
        .collect();
    let mut objective: Vec<f64> = c.iter().map(|v| -v).collect();
    objective.extend(std::iter::repeat_n(0.0, m.saturating_add(1)));
    t.push(objective);
    let mut basis: Vec<usize> = (n..columns).collect();
    // Reduced costs this far below zero (relative to the objective's largest coefficient) count.
    let eps = 1e-12 * c.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    for _ in 0..PIVOTS {
        let Some(enter) = (0..columns).find(|&j| t[m][j] < -eps) else {
            return Some(read(&t, &basis, n));
        };
        let mut leave: Option<(usize, f64)> = None;
        for (i, row) in t.iter().take(m).enumerate() {
            let a = row[enter];
            if a > 1e-12 {
                let ratio = row[columns] / a;
                leave = match leave {
                    Some((l, r)) if r < ratio || (r == ratio && basis[l] < basis[i]) => {
                        Some((l, r))
                    }
                    _ => Some((i, ratio)),
                };
            }
        }
        let (row, _) = leave?;
        pivot(&mut t, row, enter);
        basis[row] = enter;
    }
    None
}

fn pivot(t: &mut [Vec<f64>], row: usize, col: usize) {
    let p = t[row][col];
    t[row].iter_mut().for_each(|v| *v /= p);
    let pivot_row = t[row].clone();
    for (_, r) in t.iter_mut().enumerate().filter(|(i, _)| *i != row) {
        let f = r[col];
        if f != 0.0 {
            r.iter_mut().zip(&pivot_row).for_each(|(v, p)| *v -= f * p);
        }
    }
}

fn read(t: &[Vec<f64>], basis: &[usize], n: usize) -> Solved {
    let (last, m) = (t.len().saturating_sub(1), basis.len());
    let columns = n.saturating_add(m);
    let mut x = vec![0.0; n];
    for (i, &j) in basis.iter().enumerate() {
        if j < n {
            x[j] = t[i][columns].max(0.0);
        }
    }
    let duals = t[last][n..columns].iter().map(|d| d.max(0.0)).collect();
    Solved { value: t[last][columns], x, duals }
}

#[cfg(test)]
mod tests {
    use super::maximise;

    /// max 3x + 2y s.t. x + y ≤ 4, x + 3y ≤ 6, x ≤ 3: x = 3, y = 1, value 11; duals 2, 0, 1.
    #[test]
    fn solves_a_textbook_program_with_its_duals() {
        let rows = vec![vec![1.0, 1.0], vec![1.0, 3.0], vec![1.0, 0.0]];
        let s = maximise(&rows, &[4.0, 6.0, 3.0], &[3.0, 2.0]).unwrap();
        assert!((s.value - 11.0).abs() < 1e-12, "{s:?}");
        assert!((s.x[0] - 3.0).abs() < 1e-12 && (s.x[1] - 1.0).abs() < 1e-12, "{s:?}");
        let want = [2.0, 0.0, 1.0];
        assert!(s.duals.iter().zip(want).all(|(d, w)| (d - w).abs() < 1e-12), "{s:?}");
    }

    /// A variable that gains without a row holding it back: unbounded, None; a degenerate program
    /// (every right-hand side 0) stops at the origin.
    #[test]
    fn refuses_an_unbounded_program_and_stops_on_a_degenerate_one() {
        assert!(maximise(&[vec![1.0, -1.0]], &[1.0], &[0.0, 1.0]).is_none());
        let rows = vec![vec![1.0, -1.0], vec![-1.0, 1.0]];
        let s = maximise(&rows, &[0.0, 0.0], &[1.0, -2.0]).unwrap();
        assert!(s.value.abs() < 1e-12, "{s:?}");
    }
}
