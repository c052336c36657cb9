//! Upper bounds on a Solidly swap's output, for skipping pools in the path search. Real-number
//! bounds, evaluated in floating point; the argument for each is in docs/solver-optimizer.md.

/// −dy/dx on x³y + xy³ = k at the point where y = t·x (token units of out per token unit of in):
/// (3t + t³) / (1 + 3t²). It rises with t (its derivative is 3(1 − t²)² / (1 + 3t²)² ≥ 0).
pub fn stable_slope(t: f64) -> f64 {
    (3.0 * t + t * t * t) / (1.0 + 3.0 * t * t)
}

/// Volatile pool: out = floor(net·R_out / (R_in + net)) ≤ net·R_out / R_in, with `net_in` an
/// upper bound on the net input (raw units). Raw units of the output token.
pub fn volatile_bound(net_in: f64, reserve_in: f64, reserve_out: f64) -> f64 {
    net_in * reserve_out / reserve_in
}

/// Stable pool: with x, y the reserves in whole tokens (raw / 10^decimals) on the input and output
/// sides and `net_in` an upper bound on the net input (raw), the output is at most
/// net_in·slope(y/x) (in tokens) plus ((x + y)³ + (x + y)² + 1) / x³ units of 10⁻¹⁸ token: what
/// the pool's floors (in `_f` and in normalising the reserves) can give away. It rests on the
/// swap's own `_k(balances) >= _k(reserves)` check, which the model enforces on every swap.
/// Raw units of the output token; infinite when the reserves are too small to say anything.
pub fn stable_bound(
    net_in: f64,
    reserve_in: f64,
    reserve_out: f64,
    scale_in: f64,
    scale_out: f64,
) -> f64 {
    let (x, y) = (reserve_in / scale_in, reserve_out / scale_out);
    let sum = x + y;
    let rounding_tokens = (sum * sum * sum + sum * sum + 1.0) / (x * x * x) / 1e18;
    let bound = (net_in / scale_in * stable_slope(y / x) + rounding_tokens) * scale_out;
    if bound.is_nan() {
        f64::INFINITY
    } else {
        bound
    }
}
