use super::{schur2, Active2};

/// own − C·M⁻¹·Cᵀ entry by entry, the form `schur2` replaced (a 2×2 M, both multipliers binding).
fn direct(active: &[Active2], m: &[[f64; 2]; 2]) -> Vec<f64> {
    let det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    let inv = [[m[1][1] / det, -m[0][1] / det], [-m[1][0] / det, m[0][0] / det]];
    let k = active.len();
    let mut s = vec![0.0; k * k];
    for (i, a) in active.iter().enumerate() {
        for (j, b) in active.iter().enumerate() {
            let q: f64 = (0..2)
                .map(|x| (0..2).map(|y| a.cross[x] * inv[x][y] * b.cross[y]).sum::<f64>())
                .sum();
            s[i * k + j] = if i == j { a.own } else { 0.0 } - q;
        }
    }
    s
}

/// Coins of weights w (√per·conversion) and multiplier rows u (√per·slope), with D's row v:
/// the `Active2`s and M = Σ u·uᵀ + v·vᵀ.
fn venue(coins: &[(f64, [f64; 2])], v: [f64; 2]) -> (Vec<Active2>, [[f64; 2]; 2]) {
    let mut m = [[0.0; 2]; 2];
    for row in coins.iter().map(|c| c.1).chain([v]) {
        for i in 0..2 {
            for j in 0..2 {
                m[i][j] += row[i] * row[j];
            }
        }
    }
    let active = coins
        .iter()
        .enumerate()
        .map(|(t, &(w, u))| Active2 { variable: t, own: w * w, cross: [-w * u[0], -w * u[1]] })
        .collect();
    (active, m)
}

#[test]
fn the_gram_form_is_the_schur_complement_where_nothing_cancels() {
    let coins = [(2.0, [1.0, 0.5]), (3.0, [0.2, 1.5]), (0.7, [1.1, 0.9]), (1.3, [0.4, 0.1])];
    let (active, m) = venue(&coins, [0.3, 0.8]);
    let mut hessian = vec![0.0; 16];
    schur2(&active, &m, Some([0.3, 0.8]), [1.0, 2.0], &mut hessian, 4);
    for (got, want) in hessian.iter().zip(direct(&active, &m)) {
        assert!((got - want).abs() <= 1e-12 * (1.0 + want.abs()), "{got} against {want}");
    }
}

/// Two base coins tied by the base budget, one of them so stiffly (its row 10⁷–10⁹ times the
/// other's) that the complement of the multipliers leaves it a share of 10⁻⁷–10⁻⁹: its diagonal is
/// below the rounding of own − C·M⁻¹·Cᵀ, which leaves an indefinite 2×2 minor beside the cross
/// entry (Cholesky fails at any small damping); the Gram form's minors stay ≥ 0.
#[test]
fn two_tied_coins_keep_a_positive_semidefinite_hessian() {
    let (mut direct_indefinite, mut gram_indefinite) = (0, 0);
    for e in 0..200 {
        let stiff = 1e7 * 1.025f64.powi(e);
        let coins = [(1.0, [1.0, 0.0]), (1e6, [0.0, stiff]), (1e6, [0.3, 1.0])];
        let (active, m) = venue(&coins, [0.0, 0.0]);
        let mut hessian = vec![0.0; 9];
        schur2(&active, &m, None, [1.0, 1.0], &mut hessian, 3);
        let d = direct(&active, &m);
        let indefinite = |h: &[f64]| {
            h[4] < 0.0 || h[8] < 0.0 || h[4] * h[8] - h[5] * h[7] < -1e-9 * (h[5] * h[7]).abs()
        };
        direct_indefinite += usize::from(indefinite(&d));
        gram_indefinite += usize::from(indefinite(&hessian));
        assert!(hessian[5] < 0.0 && hessian[5] == hessian[7], "the tie's cross entry is kept");
    }
    assert_eq!(gram_indefinite, 0);
    assert!(
        direct_indefinite > 20,
        "the direct form cancelled {direct_indefinite} times: the case tests nothing"
    );
}
