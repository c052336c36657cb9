use super::*;

const GOOD: &str = r#"{"sqrtPriceX96": "79228162514264337593543950336", "tick": 0, "liquidity": "1000",
    "tickSpacing": 60, "feePips": 3000, "ticks": [[-60, "1000"], [60, "-1000"]]}"#;

fn check(
    flavor: ClFlavor,
    edit: impl Fn(&mut serde_json::Value),
) -> Result<ValidState, PoolInputError> {
    let mut value: serde_json::Value = serde_json::from_str(GOOD).unwrap();
    edit(&mut value);
    validate(serde_json::from_value(value).unwrap(), flavor)
}

fn refused_naming(flavor: ClFlavor, field: &str, edit: impl Fn(&mut serde_json::Value)) {
    match check(flavor, edit) {
        Err(PoolInputError::Invalid(why)) => {
            assert!(why.contains(field), "{why} does not name {field}")
        }
        other => panic!("{field}: expected a refusal, got {other:?}"),
    }
}

const V3: ClFlavor = ClFlavor::UniswapV3;
const V4: ClFlavor = ClFlavor::Singleton { max_protocol_fee_pips: 1000 };
const ALGEBRA: ClFlavor = ClFlavor::AlgebraIntegral;

#[test]
fn accepts_a_consistent_state() {
    let valid = check(V3, |_| {}).unwrap();
    assert_eq!((valid.state.tick, valid.state.liquidity, valid.fee_pips), (0, 1000, 3000));
    // Sitting just below a tick after a downward swap is consistent too.
    assert!(check(V3, |v| v["tick"] = (-1).into()).is_ok());
    assert!(check(V4, |v| v["protocolFee"] = ((1000 << 12) | 1000).into()).is_ok());
    assert!(check(V4, |v| v["feePips"] = 1_000_000.into()).is_ok());
    // Algebra ticks need not be multiples of the current spacing.
    assert!(
        check(ALGEBRA, |v| v["ticks"] = serde_json::json!([[-7, "1000"], [61, "-1000"]])).is_ok()
    );
}

#[test]
fn refuses_each_bad_field_by_name() {
    refused_naming(V3, "sqrtPriceX96", |v| v["sqrtPriceX96"] = "4295128738".into());
    refused_naming(V3, "sqrtPriceX96", |v| {
        v["sqrtPriceX96"] = "1461446703485210103287273052203988822378723970342".into()
    });
    refused_naming(V3, "tick", |v| v["tick"] = 1.into());
    refused_naming(V3, "tick", |v| v["tick"] = (-2).into());
    refused_naming(V3, "liquidity", |v| {
        v["liquidity"] = "340282366920938463463374607431768211456".into()
    });
    refused_naming(V3, "liquidity", |v| v["liquidity"] = "999".into());
    refused_naming(V3, "tickSpacing", |v| v["tickSpacing"] = 0.into());
    refused_naming(V3, "tickSpacing", |v| v["tickSpacing"] = 16384.into());
    refused_naming(ALGEBRA, "tickSpacing", |v| v["tickSpacing"] = 501.into());
    refused_naming(V3, "feePips", |v| v["feePips"] = 1_000_000.into());
    refused_naming(ALGEBRA, "feePips", |v| v["feePips"] = (-1).into());
    refused_naming(V4, "feePips", |v| v["feePips"] = 1_000_001.into());
    refused_naming(V3, "protocolFee", |v| v["protocolFee"] = 0.into());
    refused_naming(V4, "protocolFee", |v| v["protocolFee"] = 1001.into());
    refused_naming(V4, "protocolFee", |v| v["protocolFee"] = (1001 << 12).into());
    refused_naming(V4, "protocolFee", |v| v["protocolFee"] = (1 << 24).into());
    refused_naming(V3, "ticks", |v| v["ticks"] = serde_json::json!([[60, "-1000"], [-60, "1000"]]));
    refused_naming(V3, "ticks", |v| {
        v["ticks"] = serde_json::json!([[-60, "1000"], [-60, "0"], [60, "-1000"]])
    });
    refused_naming(V3, "ticks", |v| v["ticks"] = serde_json::json!([[-61, "1000"], [60, "-1000"]]));
    refused_naming(V3, "ticks", |v| {
        v["ticks"] = serde_json::json!([[-887280, "1000"], [60, "-1000"]])
    });
    refused_naming(V3, "ticks", |v| v["ticks"] = serde_json::json!([[-60, "-1000"], [60, "1000"]]));
    refused_naming(V3, "ticks", |v| v["ticks"] = serde_json::json!([[-60, "1000"], [60, "-999"]]));
    refused_naming(V3, "ticks", |v| v["ticks"] = serde_json::json!([[-60, "1e3"], [60, "-1000"]]));
}

#[test]
fn a_dynamic_fee_is_slipstream_only_and_must_state_its_own_fee() {
    let dynamic = |v: &mut serde_json::Value, fee: i64| {
        v["feePips"] = fee.into();
        v["dynamicFee"] = serde_json::json!({ "baseFeePips": 0, "spacingFeePips": 500, "scalingFactor": "1000000", "feeCapPips": 20000, "twapTick": -25 });
    };
    // Tick 0, TWAP −25: 500 + 25.
    let valid = check(V3, |v| dynamic(v, 525)).unwrap();
    assert_eq!(valid.dynamic_fee.map(|d| d.fee_pips(0)), Some(525));
    refused_naming(V3, "feePips", |v| dynamic(v, 500));
    refused_naming(V4, "dynamicFee", |v| dynamic(v, 525));
    refused_naming(ALGEBRA, "dynamicFee", |v| dynamic(v, 525));
    refused_naming(V3, "scalingFactor", |v| {
        dynamic(v, 525);
        v["dynamicFee"]["scalingFactor"] = "1000000000000000001".into();
    });
    refused_naming(V3, "twapTick", |v| {
        dynamic(v, 525);
        v["dynamicFee"]["twapTick"] = 887273.into();
    });
}

#[test]
fn refuses_unknown_fields() {
    let with_extra = GOOD.replacen('{', r#"{"fee": 1, "#, 1);
    assert!(serde_json::from_str::<ClWire>(&with_extra).is_err());
}
