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
