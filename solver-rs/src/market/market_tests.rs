//! What the market takes: venues of 2 to 4 distinct tokens, as many as their state prices.

use super::Market;
use crate::address::Address;
use crate::pools::input::PoolInput;
use serde_json::json;

const A: &str = "0x1000000000000000000000000000000000000001";
const B: &str = "0x1000000000000000000000000000000000000002";
const C: &str = "0x1000000000000000000000000000000000000003";

fn pool(tokens: &[&str]) -> PoolInput {
    serde_json::from_value(json!({
        "id": "0xa000000000000000000000000000000000000001", "dex": "UNIV2", "tokens": tokens,
        "state": { "model": "constant_product", "reserves": ["1000000", "1000000"] }
    }))
    .unwrap()
}

fn refusal(tokens: &[&str]) -> String {
    Market::default().upsert(vec![pool(tokens)]).unwrap_err().to_string()
}

#[test]
fn a_venue_holds_two_to_four_distinct_tokens() {
    assert_eq!(Market::default().upsert(vec![pool(&[A, B])]).unwrap(), 1);
    assert!(refusal(&[A]).contains("expected 2 to 4 tokens, got 1"));
    assert!(refusal(&[A, B, C, A, B]).contains("expected 2 to 4 tokens, got 5"));
    assert!(refusal(&[A, A]).contains(&format!("holds {A} twice")));
    assert!(refusal(&[A, B, A]).contains(&format!("holds {A} twice")));
}

#[test]
fn a_venue_lists_as_many_tokens_as_its_state_prices() {
    // A constant-product state prices two tokens: three listed is refused, not half priced.
    assert!(refusal(&[A, B, C]).contains("3 tokens listed, its state prices 2"));
}

#[test]
fn a_venue_of_n_tokens_has_an_edge_per_ordered_pair() {
    let mut market = Market::default();
    market.upsert(vec![pool(&[A, B])]).unwrap();
    let (a, b) = (
        market.token(&Address::parse(A).unwrap()).unwrap(),
        market.token(&Address::parse(B).unwrap()).unwrap(),
    );
    assert_eq!(market.edge(a, b).len(), 1);
    assert_eq!((market.edge(a, b)[0].token_in, market.edge(a, b)[0].token_out), (0, 1));
    assert_eq!((market.edge(b, a)[0].token_in, market.edge(b, a)[0].token_out), (1, 0));
}
