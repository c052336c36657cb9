//! A two-token pool state's bound curves, built once per state and direction, for the families
//! whose curve costs a millisecond or more to build from the exact model (GYROSCOPE_ECLP's
//! tangents, DODO_V2's steps): a quote asks for a curve once per graph it builds and once per hop
//! its searches bound. A state is immutable (a swap or a market update makes a new one, with an
//! empty memo), so the memo is keyed by the state itself.

use crate::pools::bound_curve::BoundCurve;
use std::sync::OnceLock;

/// Per direction (token 0 in, token 1 in), the curve once built.
#[derive(Debug, Default)]
pub struct CurveMemo([OnceLock<Option<BoundCurve>>; 2]);

impl CurveMemo {
    /// The curve for `token_in`'s direction, built by `build` the first time.
    pub fn get_or_build(
        &self,
        token_in: usize,
        build: impl FnOnce() -> Option<BoundCurve>,
    ) -> Option<&BoundCurve> {
        self.0.get(token_in)?.get_or_init(build).as_ref()
    }
}

/// A copy is a new state's: it starts empty (it is made to change the balances).
impl Clone for CurveMemo {
    fn clone(&self) -> CurveMemo {
        CurveMemo::default()
    }
}

/// The memo is derived from the state, never part of what makes two states equal.
impl PartialEq for CurveMemo {
    fn eq(&self, _: &CurveMemo) -> bool {
        true
    }
}

impl Eq for CurveMemo {}
