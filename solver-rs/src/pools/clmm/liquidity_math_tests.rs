use super::*;

#[test]
fn adds_subtracts_and_refuses_to_wrap() {
    assert_eq!(add_delta(1, 0), Ok(1));
    assert_eq!(add_delta(1, -1), Ok(0));
    assert_eq!(add_delta(1, 1), Ok(2));
    assert!(add_delta(0, -1).is_err());
    assert!(add_delta(u128::MAX, 1).is_err());
    assert_eq!(add_delta(u128::MAX, i128::MIN), Ok(u128::MAX - (1u128 << 127)));
}
