//! Wall-clock deadlines for the anytime optimizer. `std::time::Instant` does not exist on
//! wasm32-unknown-unknown, so the WASM build reads `performance.now()` from its host.

/// Milliseconds from an arbitrary origin, monotonic.
#[cfg(not(target_arch = "wasm32"))]
fn now_ms() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    ORIGIN.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
}

#[cfg(target_arch = "wasm32")]
fn now_ms() -> f64 {
    crate::ffi::wasm_clock::performance_now()
}

/// The moment a quote must stop improving its plan.
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    at_ms: f64,
}

impl Deadline {
    /// A deadline `budget_ms` from now.
    pub fn after_ms(budget_ms: u32) -> Deadline {
        Deadline { at_ms: now_ms() + f64::from(budget_ms) }
    }

    /// Whether the budget is spent.
    pub fn expired(&self) -> bool {
        now_ms() >= self.at_ms
    }
}
