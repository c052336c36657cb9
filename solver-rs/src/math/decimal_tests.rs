use super::*;

#[test]
fn accepts_only_plain_decimal_within_256_bits() {
    assert_eq!(parse_u256("0").unwrap(), U256::ZERO);
    assert_eq!(parse_u256(&U256::MAX.to_string()).unwrap(), U256::MAX);
    for bad in [
        "",
        "-1",
        "0x10",
        "1e18",
        " 1",
        "1.0",
        "115792089237316195423570985008687907853269984665640564039457584007913129639936",
    ] {
        assert!(parse_u256(bad).is_err(), "{bad:?} was accepted");
    }
    assert_eq!(parse_i128("-5").unwrap(), -5);
    assert!(parse_i128("-").is_err());
    assert!(parse_i128("1-").is_err());
}
