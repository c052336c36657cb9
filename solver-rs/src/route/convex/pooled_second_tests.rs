//! `schur2`: the meta venue's Hessian in the prices, the binding multipliers eliminated, is a
//! Schur complement of a convex term's Hessian, so it is symmetric, and rounding must not make it
//! otherwise: Cholesky reads one triangle.

use super::super::entry as cell;
use super::{schur2, Active2};

/// Three coins' moves against two binding budgets, their coefficients of the magnitudes the
/// devnet's meta venue reaches (10¹⁰ to 10³⁰), so the two triangles' sums round apart.
fn venue() -> (Vec<Active2>, [[f64; 2]; 2]) {
    let slopes = [[3.1e-9, 7.3e-10], [1.7e-9, 2.9e-9], [5.3e-10, 1.1e-9]];
    let pers = [4.7e29, 1.3e30, 8.9e28];
    let conversions = [1.0e-6, 3.3e-7, 1.0e-18];
    let mut m = [[0.0; 2]; 2];
    let mut active = Vec::new();
    for (t, ((s, per), conversion)) in slopes.iter().zip(pers).zip(conversions).enumerate() {
        for i in 0..2 {
            for j in 0..2 {
                m[i][j] += s[i] * s[j] * per;
            }
        }
        active.push(Active2 {
            variable: t * 2 + 1,
            own: per * conversion * conversion,
            cross: [-s[0] * per * conversion, -s[1] * per * conversion],
        });
    }
    (active, m)
}

#[test]
fn both_triangles_are_equal_to_the_bit() {
    let (active, m) = venue();
    let size = 6;
    let mut hessian = vec![0.0; size * size];
    schur2(&active, &m, None, [1.0, 0.7], &mut hessian, size);
    for a in 0..size {
        for b in 0..size {
            assert_eq!(
                hessian[cell(a, b, size)].to_bits(),
                hessian[cell(b, a, size)].to_bits(),
                "H[{a}][{b}] = {:e}, H[{b}][{a}] = {:e}",
                hessian[cell(a, b, size)],
                hessian[cell(b, a, size)]
            );
        }
    }
}
