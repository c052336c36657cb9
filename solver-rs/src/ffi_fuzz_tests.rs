//! No input reaches a panic: arbitrary text, and valid JSON mutated byte-wise and node-wise, fed to
//! the JSON entry points the bindings call (`apply_block_json`, `upsert_pools_json`,
//! `remove_pools_json`, `quote_json`, `simulate_json`, `waterfill_json`; quotes and simulations
//! with `poolOverrides`). A panic fails the test;
//! every error must carry a caller-facing class (`invalid input`, `unsupported`, `no route`),
//! never `internal`.

use crate::{Solver, SolverError};
use proptest::prelude::*;
use serde_json::{json, Value};

const WETH: &str = "0x4200000000000000000000000000000000000006";
const USDC: &str = "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913";
const TAIL: &str = "0x1111111111111111111111111111111111111111";
const DODO: &str = "0xa000000000000000000000000000000000000006";

/// One valid pool of each model, between WETH, USDC and a tail token.
fn valid_pools() -> Value {
    json!([
        { "id": "0xa000000000000000000000000000000000000001", "dex": "UNIV2", "tokens": [WETH, USDC],
          "state": { "model": "constant_product", "reserves": ["1000000000000000000000", "3000000000000"] } },
        { "id": "0xa000000000000000000000000000000000000002", "dex": "AERODROME_V2LIKE", "tokens": [WETH, USDC],
          "state": { "model": "solidly", "reserves": ["500000000000000000000", "1500000000000"], "stable": false,
                     "decimals": [18, 6], "feeBps": 30 } },
        { "id": "0xa000000000000000000000000000000000000003", "dex": "UNIV3", "tokens": [TAIL, WETH],
          "state": { "model": "concentrated", "sqrtPriceX96": "79228162514264337593543950336", "tick": 0,
                     "liquidity": "1000000000000000000000", "tickSpacing": 60, "feePips": 3000,
                     "ticks": [[-600, "1000000000000000000000"], [600, "-1000000000000000000000"]] } },
        { "id": "0x00000000000000000000000000000000000000000000000000000000000000b4", "dex": "UNIV4", "tokens": [TAIL, USDC],
          "state": { "model": "concentrated", "sqrtPriceX96": "79228162514264337593543950336", "tick": 0,
                     "liquidity": "5000000", "tickSpacing": 10, "feePips": 500, "protocolFee": 4097,
                     "ticks": [[-100, "5000000"], [100, "-5000000"]] } },
        { "id": "0xa000000000000000000000000000000000000005", "dex": "PROPSWAP", "tokens": [WETH, USDC],
          "state": { "model": "sampled", "marginBps": 5,
                     "zeroForOne": [["1000000000000000", "2990000"], ["1000000000000000000", "2980000000"]],
                     "oneForZero": [["1000000", "330000000000000"], ["1000000000", "330000000000000000"]] } },
        { "id": DODO, "dex": "DODO_V2", "tokens": [WETH, USDC],
          "state": { "model": "dodo_pmm", "variant": "dsp", "i": "3000000000", "k": "100000000000000000",
                     "baseReserve": "1000000000000000000000", "quoteReserve": "3000000000000",
                     "baseTarget": "1000000000000000000000", "quoteTarget": "3000000000000", "rState": 0,
                     "lpFeeRate": "1000000000000000", "mtFeeRate": "0" } }
    ])
}

fn valid_quote() -> Value {
    json!({ "tokenIn": WETH, "tokenOut": USDC, "amountIn": "1000000000000000000", "slippageBps": 50,
            "maxHops": 3, "splitEnabled": true, "allowedDexes": ["UNIV2", "UNIV3", "PROPSWAP", "DODO_V2"],
            "gasPriceWei": "1000000", "timeBudgetMs": 50,
            "poolOverrides": [{ "poolId": DODO, "mtFeeRate": "3000000000000000" }] })
}

/// A block that upserts one pool, removes another and prices the L1 fee.
fn valid_block() -> Value {
    json!({ "blockNumber": 7, "l1GasPerLeg": 1560, "removals": ["0xa000000000000000000000000000000000000005"],
            "upserts": [valid_pools()[0].clone()] })
}

fn valid_removals() -> Value {
    json!([
        "0xa000000000000000000000000000000000000002",
        "0x00000000000000000000000000000000000000000000000000000000000000b4"
    ])
}

fn valid_simulate() -> Value {
    json!({ "poolId": DODO, "tokenIn": WETH, "amountIn": "1000000000000000",
            "poolOverrides": [{ "poolId": DODO, "mtFeeRate": "3000000000000000" }] })
}

fn solver() -> Solver {
    let mut solver = Solver::from_config_json(&json!({ "nativeToken": WETH }).to_string())
        .expect("valid config");
    solver.upsert_pools_json(&valid_pools().to_string()).expect("valid pools");
    solver
}

fn assert_classed(result: Result<String, SolverError>, input: &str) {
    if let Err(SolverError::Internal { reason: m }) = result {
        panic!("internal error {m:?} for input {input:?}");
    }
}

/// Every entry point on `text`; then the solver must still answer the valid quote.
fn feed(text: &str) {
    let mut solver = solver();
    assert_classed(solver.quote_json(text), text);
    assert_classed(solver.simulate_json(text), text);
    #[cfg(feature = "reference")]
    assert_classed(solver.waterfill_json(text), text);
    assert_classed(solver.upsert_pools_json(text), text);
    assert_classed(solver.quote_json(&valid_quote().to_string()), text);
    let mut solver = solver_at_a_block();
    assert_classed(solver.apply_block_json(text), text);
    assert_classed(solver.quote_json(&valid_quote().to_string()), text);
    assert_classed(solver.remove_pools_json(text), text);
    assert_classed(solver.quote_json(&valid_quote().to_string()), text);
}

/// [`solver`] with its pools applied as a block (block updates and removals start from there).
fn solver_at_a_block() -> Solver {
    let mut solver = Solver::from_config_json(&json!({ "nativeToken": WETH }).to_string())
        .expect("valid config");
    solver
        .apply_block_json(&json!({ "blockNumber": 6, "upserts": valid_pools() }).to_string())
        .expect("valid block");
    solver
}

/// A random JSON value, up to a few levels deep, biased toward the edge cases of the wire format.
fn arb_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        Just(json!("-1")),
        Just(json!("")),
        Just(json!("1e18")),
        Just(json!("0x10")),
        Just(json!(" 1")),
        Just(json!(
            "115792089237316195423570985008687907853269984665640564039457584007913129639935"
        )),
        Just(json!(
            "115792089237316195423570985008687907853269984665640564039457584007913129639936"
        )),
        Just(json!("340282366920938463463374607431768211456")),
        Just(json!("-170141183460469231731687303715884105728")),
        Just(json!(887272)),
        Just(json!(-887273)),
        Just(json!(u64::MAX)),
        Just(json!(0)),
        Just(json!("CURVE")),
        Just(json!("MAVERICK_V2")),
        Just(json!("NOT_A_DEX")),
        "[a-zA-Z0-9_]{0,12}".prop_map(Value::String),
        "0x[0-9a-fA-F]{0,66}".prop_map(Value::String),
    ]
}

fn arb_value() -> impl Strategy<Value = Value> {
    arb_leaf().prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-zA-Z]{1,8}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Every path (object key or array index) in `value`, depth first.
fn paths(value: &Value, prefix: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    out.push(prefix.clone());
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                prefix.push(Step::Key(k.clone()));
                paths(v, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                prefix.push(Step::Index(i));
                paths(v, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

fn node_mut<'a>(value: &'a mut Value, path: &[Step]) -> &'a mut Value {
    path.iter().fold(value, |v, step| match step {
        Step::Key(k) => &mut v[k.as_str()],
        Step::Index(i) => &mut v[*i],
    })
}

#[derive(Clone, Debug)]
enum Mutation {
    Replace(Value),
    Remove,
    AddField(String, Value),
}

fn arb_mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => arb_value().prop_map(Mutation::Replace),
        2 => Just(Mutation::Remove),
        1 => ("[a-zA-Z]{1,8}", arb_value()).prop_map(|(k, v)| Mutation::AddField(k, v)),
    ]
}

/// Applies `mutations` to `base`, each at the node chosen by its selector among the current paths.
fn mutate(mut base: Value, mutations: &[(usize, Mutation)]) -> Value {
    for (selector, mutation) in mutations {
        let mut all = Vec::new();
        paths(&base, &mut Vec::new(), &mut all);
        let path = &all[selector % all.len()];
        match mutation {
            Mutation::Replace(v) => *node_mut(&mut base, path) = v.clone(),
            Mutation::Remove => {
                if let Some((last, parent)) = path.split_last() {
                    match (node_mut(&mut base, parent), last) {
                        (Value::Object(map), Step::Key(k)) => {
                            map.remove(k);
                        }
                        (Value::Array(items), Step::Index(i)) if *i < items.len() => {
                            items.remove(*i);
                        }
                        _ => {}
                    }
                }
            }
            Mutation::AddField(k, v) => {
                if let Value::Object(map) = node_mut(&mut base, path) {
                    map.insert(k.clone(), v.clone());
                }
            }
        }
    }
    base
}

fn byte_mutate(text: &str, edits: &[(usize, u8, u8)]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for &(at, op, byte) in edits {
        if bytes.is_empty() {
            break;
        }
        let at = at % bytes.len();
        match op % 3 {
            0 => bytes[at] = byte,
            1 => {
                bytes.remove(at);
            }
            _ => bytes.insert(at, byte),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,200}") {
        feed(&text);
    }

    #[test]
    fn arbitrary_json_never_panics(value in arb_value()) {
        feed(&value.to_string());
    }

    #[test]
    fn mutated_pools_never_panic(mutations in prop::collection::vec((any::<usize>(), arb_mutation()), 1..4)) {
        let text = mutate(valid_pools(), &mutations).to_string();
        feed(&text);
    }

    #[test]
    fn mutated_requests_never_panic(
        quote_mutations in prop::collection::vec((any::<usize>(), arb_mutation()), 1..4),
        simulate_mutations in prop::collection::vec((any::<usize>(), arb_mutation()), 1..3),
    ) {
        let solver = solver();
        let quote = mutate(valid_quote(), &quote_mutations).to_string();
        assert_classed(solver.quote_json(&quote), &quote);
        #[cfg(feature = "reference")]
        assert_classed(solver.waterfill_json(&quote), &quote);
        let simulate = mutate(valid_simulate(), &simulate_mutations).to_string();
        assert_classed(solver.simulate_json(&simulate), &simulate);
    }

    #[test]
    fn mutated_blocks_and_removals_never_panic(
        block_mutations in prop::collection::vec((any::<usize>(), arb_mutation()), 1..4),
        removal_mutations in prop::collection::vec((any::<usize>(), arb_mutation()), 1..3),
    ) {
        feed(&mutate(valid_block(), &block_mutations).to_string());
        feed(&mutate(valid_removals(), &removal_mutations).to_string());
    }

    #[test]
    fn byte_mutated_json_never_panics(edits in prop::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..6), which in 0..5usize) {
        let base = [valid_pools(), valid_quote(), valid_simulate(), valid_block(), valid_removals()][which].to_string();
        feed(&byte_mutate(&base, &edits));
    }

    #[test]
    fn quotes_of_any_amount_and_shape_never_panic(
        amount in prop_oneof![any::<u128>().prop_map(|a| a.to_string()), "[0-9]{1,78}"],
        hops in 0u32..6, split in any::<bool>(), disjoint in any::<bool>(), gas in "[0-9]{1,30}",
        slippage in 0u32..20_000, budget in 0u32..20,
    ) {
        let solver = solver();
        let request = json!({ "tokenIn": TAIL, "tokenOut": USDC, "amountIn": amount, "slippageBps": slippage,
            "maxHops": hops, "splitEnabled": split, "enforcePoolDisjoint": disjoint, "gasPriceWei": gas,
            "timeBudgetMs": budget }).to_string();
        assert_classed(solver.quote_json(&request), &request);
        #[cfg(feature = "reference")]
        assert_classed(solver.waterfill_json(&request), &request);
        for pool in ["0xa000000000000000000000000000000000000003", "0x00000000000000000000000000000000000000000000000000000000000000b4"] {
            let request = json!({ "poolId": pool, "tokenIn": TAIL, "amountIn": amount }).to_string();
            assert_classed(solver.simulate_json(&request), &request);
        }
    }
}

#[test]
fn deeply_nested_json_is_refused_not_overflowed() {
    for depth in [100, 1_000, 100_000] {
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        feed(&text);
        let objects = format!("{}1{}", r#"{"a":"#.repeat(depth), "}".repeat(depth));
        feed(&objects);
    }
}

#[test]
fn the_baseline_inputs_are_valid() {
    // The fuzzers above mutate these: if they stopped being valid, the fuzzers would test little.
    let solver = solver();
    let plan: Value =
        serde_json::from_str(&solver.quote_json(&valid_quote().to_string()).unwrap()).unwrap();
    assert!(plan["expectedAmountOut"].as_str().unwrap() != "0");
    solver.simulate_json(&valid_simulate().to_string()).unwrap();
    assert_eq!(solver.pool_count(), 6);
    let mut at_block = solver_at_a_block();
    let applied: Value =
        serde_json::from_str(&at_block.apply_block_json(&valid_block().to_string()).unwrap())
            .unwrap();
    assert_eq!(applied, json!({ "pools": 5, "rejected": [] }));
    at_block.remove_pools_json(&valid_removals().to_string()).unwrap();
    assert_eq!(at_block.pool_count(), 3);
}
