use super::guarded;
use crate::SolverError;

#[test]
fn a_panic_becomes_an_internal_error() {
    let result: Result<(), SolverError> = guarded(|| panic!("boom"));
    assert_eq!(result, Err(SolverError::internal("solver panicked: boom")));
}
