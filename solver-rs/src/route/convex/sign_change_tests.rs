use super::{bisect_every, bracket_and_bisect};

/// A deterministic stream of draws in [0, 1).
struct Draws(u64);

impl Draws {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    /// 10 to a power drawn in [low, low + decades).
    fn magnitude(&mut self, low: f64, decades: f64) -> f64 {
        10f64.powf(low + self.next() * decades)
    }
}

/// Both searches on `excess` from `start`: the same answer to the bit, and the evaluations each made.
fn both(start: f64, excess: impl Fn(f64) -> f64) -> (Option<f64>, usize, usize) {
    let (mut inferred, mut every) = (0usize, 0usize);
    let a = bracket_and_bisect(start, |p| {
        inferred += 1;
        Some(excess(p))
    });
    let b = bisect_every(start, |p| {
        every += 1;
        Some(excess(p))
    });
    assert_eq!(a.map(f64::to_bits), b.map(f64::to_bits), "from {start}: {a:?} against {b:?}");
    (a, inferred, every)
}

#[test]
fn a_smooth_excess_ends_on_the_same_bits_with_fewer_evaluations() {
    let mut draws = Draws(0x9e37_79b9_7f4a_7c15);
    let (mut inferred, mut every) = (0usize, 0usize);
    for _ in 0..2000 {
        // A copy's excess: inflow minus what it sends at price p, rising in p, over prices and
        // amounts of many magnitudes.
        let root = draws.magnitude(-20.0, 40.0);
        let scale = draws.magnitude(-10.0, 40.0);
        let elasticity = 0.05 + 5.0 * draws.next();
        let start = root * draws.magnitude(-3.0, 6.0);
        let (_, a, b) = both(start, |p| scale * ((p / root).powf(elasticity) - 1.0));
        (inferred, every) = (inferred + a, every + b);
    }
    assert!(inferred * 4 < every * 3, "{inferred} evaluations against {every}");
}

/// `count` draws of a sign change between 10^low and 10^(low + decades) and a start within
/// `spread` decades of it either way, each given to `case`.
fn changes(
    seed: u64,
    count: usize,
    low: f64,
    decades: f64,
    spread: f64,
    mut case: impl FnMut(f64, f64),
) {
    let mut draws = Draws(seed);
    for _ in 0..count {
        let root = draws.magnitude(low, decades);
        case(root, root * draws.magnitude(-spread, 2.0 * spread));
    }
}

#[test]
fn rounding_noise_at_the_sign_change_does_not_move_the_answer() {
    // Within a few ulps of the change the sign is whatever rounding gives (here a hash of the
    // price's bits, 10⁻¹⁵ of the flow): those midpoints are evaluated, not inferred.
    changes(7, 2000, -10.0, 20.0, 2.0, |root, start| {
        both(start, |p| {
            let noise = ((p.to_bits().wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40) as f64
                / (1u64 << 24) as f64)
                - 0.5;
            (p / root).ln() + 2e-15 * noise
        });
    });
}

#[test]
fn jumps_flat_stretches_and_nan_end_as_the_plain_bisection_does() {
    changes(42, 500, -5.0, 10.0, 2.0, |root, start| {
        // A linear piece's corner: the excess jumps across 0.
        both(start, |p| if p < root { -3.0 } else { 5.0 });
        // A copy that receives nothing sends nothing from its first unit's price up.
        both(start, |p| (p - root).min(0.0));
        // Flat on both sides of a steep change.
        both(start, |p| ((p / root).ln() * 1e6).clamp(-1.0, 1.0));
        // No sign change at all, and a NaN above some price.
        both(start, |p| -p);
        both(start, |p| if p > root { f64::NAN } else { -1.0 });
        both(start, |p| if p > root * 1.5 { f64::NAN } else { p - root });
    });
}

#[test]
fn the_deadline_stops_the_search() {
    let mut calls = 0usize;
    let answer = bracket_and_bisect(3.0, |p| {
        calls += 1;
        (calls < 5).then_some(p - 1.0)
    });
    assert_eq!((answer, calls), (None, 5));
}
