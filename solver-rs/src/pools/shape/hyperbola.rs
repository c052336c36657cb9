//! Constant-product curves: out = S·n / (R + n) for a net input n = keep·input + offset, R and S
//! the reserves on the input and output sides. Why each family's hyperbola bounds its model is
//! said where it is built (`cpmm/mod.rs`, `solidly/mod.rs`).

use crate::route::convex::curve::{idle, Response, Shape};

/// S·n / (R + n) with n = keep·input + offset.
pub struct Hyperbola {
    reserve_in: f64,
    reserve_out: f64,
    /// The share of the input that reaches the reserves' price: 1 − fee.
    keep: f64,
    /// Net input the pool may book beyond keep·input (raw units of the input token).
    offset: f64,
}

impl Hyperbola {
    /// None when a reserve is empty or nothing of the input is kept (the pair refuses every
    /// swap).
    pub fn new(reserve_in: f64, reserve_out: f64, keep: f64, offset: f64) -> Option<Hyperbola> {
        (reserve_in > 0.0 && reserve_out > 0.0 && keep > 0.0).then_some(Hyperbola {
            reserve_in,
            reserve_out,
            keep,
            offset,
        })
    }

    fn out_for_net(&self, net: f64) -> f64 {
        self.reserve_out * net / (self.reserve_in + net)
    }
}

impl Shape for Hyperbola {
    fn value(&self, input: f64) -> f64 {
        self.out_for_net(self.keep * input.max(0.0) + self.offset)
    }

    /// d out / d input at zero input: keep·S·R / (R + offset)².
    fn first_rate(&self) -> f64 {
        let at = self.reserve_in + self.offset;
        self.keep * self.reserve_out * self.reserve_in / (at * at)
    }

    /// keep·S·R / (R + n)² = rate at R + n = √(keep·S·R / rate).
    fn respond(&self, rate: f64) -> Response {
        if rate >= self.first_rate() {
            return idle(self.value(0.0));
        }
        let reach = (self.keep * self.reserve_out * self.reserve_in / rate).sqrt();
        let net = reach - self.reserve_in;
        let input = ((net - self.offset) / self.keep).max(0.0);
        Response { input, output: self.out_for_net(net), slope: reach / (2.0 * rate * self.keep) }
    }
}
