use super::*;

#[test]
fn every_variant_has_its_own_code() {
    let all = [
        SolverError::invalid("amountIn", "must be positive"),
        SolverError::Unsupported { pool: "0x01".into(), dex: DexId::Univ2, reason: "no model" },
        SolverError::no_route("none"),
        SolverError::internal("bug"),
    ];
    let codes: Vec<&str> = all.iter().map(SolverError::code).collect();
    assert_eq!(codes, ERROR_CODES);
}

#[test]
fn the_field_travels_apart_from_the_reason() {
    let err = SolverError::invalid("timeBudgetMs", "0 is outside 1..=10000");
    assert_eq!(err.field(), Some("timeBudgetMs"));
    assert_eq!(err.reason(), "0 is outside 1..=10000");
    assert_eq!(err.to_string(), "invalid input: timeBudgetMs: 0 is outside 1..=10000");
}
