use super::*;

#[test]
fn parses_mixed_case_and_prints_lowercase() {
    let a = Address::parse("0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE").unwrap();
    assert_eq!(a.to_string(), "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee");
}

#[test]
fn rejects_malformed() {
    for bad in [
        "",
        "0x",
        "eeee",
        "0x123",
        "0xzz00000000000000000000000000000000000000",
        "0X0000000000000000000000000000000000000000",
    ] {
        assert!(Address::parse(bad).is_err(), "{bad:?}");
    }
    assert!(normalize_pool_id("0x12").is_err());
    assert_eq!(
        normalize_pool_id(&format!("0x{}", "AB".repeat(32))).unwrap(),
        format!("0x{}", "ab".repeat(32))
    );
}
