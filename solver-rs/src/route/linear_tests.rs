use super::*;

#[test]
fn solves_a_positive_definite_system() {
    let a = [4.0, 2.0, 0.6, 2.0, 5.0, 1.0, 0.6, 1.0, 3.0];
    let l = cholesky(&a, 3).unwrap();
    let x = solve(&l, 3, &[1.0, 2.0, 3.0]);
    for i in 0..3 {
        let row: f64 = (0..3).map(|j| a[i * 3 + j] * x[j]).sum();
        assert!((row - [1.0, 2.0, 3.0][i]).abs() < 1e-12);
    }
}

#[test]
fn rejects_an_indefinite_matrix() {
    assert!(cholesky(&[1.0, 2.0, 2.0, 1.0], 2).is_none());
    assert!(cholesky(&[0.0], 1).is_none());
}

/// The textbook loops (every product's index computed, `entry`), which the slice loops of
/// [`cholesky_into`] and [`solve_into`] must match bit for bit: the split optimizer's plans depend
/// on the last bits of its steps.
fn textbook(a: &[f64], n: usize, b: &[f64]) -> Option<(Vec<f64>, Vec<f64>)> {
    let mut l = vec![0.0; n * n];
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
        for k in i + 1..n {
            sum -= l[entry(k, i, n)] * x[k];
        }
        x[i] = sum / l[entry(i, i, n)];
    }
    Some((l, x))
}

#[test]
fn the_slice_loops_give_the_textbook_loops_bits() {
    // Random symmetric matrices (positive definite with a diagonal shift, or not), sizes 0 to 20.
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let (mut factored, mut refused) = (0, 0);
    for case in 0..400 {
        let n = case % 21;
        let mut a = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..=i {
                let v = next() * 1e3;
                a[i * n + j] = v;
                a[j * n + i] = v;
            }
            if case % 4 != 0 {
                a[i * n + i] = a[i * n + i].abs() + 1e3 * n as f64;
            }
        }
        let b: Vec<f64> = (0..n).map(|_| next()).collect();
        let (mut l, mut y, mut x) = (Vec::new(), Vec::new(), vec![f64::NAN; n]);
        let ok = cholesky_into(&a, n, &mut l);
        match textbook(&a, n, &b) {
            Some((l_ref, x_ref)) => {
                assert!(ok, "case {case}");
                assert_eq!(
                    l.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                    l_ref.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
                );
                solve_into(&l, n, &b, &mut y, &mut x);
                assert_eq!(
                    x.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                    x_ref.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
                );
                factored += 1;
            }
            None => {
                assert!(!ok, "case {case}");
                refused += 1;
            }
        }
    }
    assert!(factored > 200 && refused > 20, "{factored} factored, {refused} refused");
}
