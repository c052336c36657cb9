use super::*;
use crate::address::Address;
use crate::math::U256;
use crate::route::test_market::{addr, market_of, Rng};
use crate::route::test_pools::{family_of, random_pool, Family, FAMILIES};

#[test]
fn skipping_by_bound_on_a_shared_memo_finds_exactly_what_the_full_search_finds_on_every_model_family(
) {
    let mut rng = Rng(0x5eed_0b0d);
    let mut seen: Vec<Family> = Vec::new();
    for case in 0..60 {
        let tokens: Vec<_> = (1..=6).map(addr).collect();
        // Odd cases mix every family; even ones hold a single family, so each is tested alone.
        let only = (case % 2 == 0).then(|| FAMILIES[(case / 2) % FAMILIES.len()]);
        let pools = (0..60u8)
            .map(|id| {
                let a = rng.range(0, 6) as usize;
                let b = (a + 1 + rng.range(0, 5) as usize) % 6;
                let family =
                    only.unwrap_or_else(|| FAMILIES[rng.range(0, FAMILIES.len() as u64) as usize]);
                random_pool(&mut rng, family, id, [tokens[a], tokens[b]])
            })
            .collect();
        let market = market_of(pools);
        for id in 0..60u8 {
            let slot = market.pool_by_id(&Address([0xa0 ^ id; 20]).to_string()).unwrap();
            let family = family_of(&market.pool(slot).state);
            if !seen.contains(&family) {
                seen.push(family);
            }
        }
        let index = |n: usize| market.token(&tokens[n]).unwrap();
        for (token_in, token_out) in [(0, 1), (2, 3), (4, 5)] {
            let others = (0..6).filter(|&n| n != token_in && n != token_out);
            let amount_in = U256::from(rng.log_amount(15, 23));
            let params = SearchParams {
                token_in: index(token_in),
                token_out: index(token_out),
                max_hops: 3,
                connectors: others.map(index).collect(),
                dexes: DexMask::ALL,
                beam: 2,
            };
            let search = |memos: &SwapMemos, amount: U256, skip_by_bound: bool| {
                let mut found = Vec::new();
                let never = Deadline::never();
                beam_search(&market, memos, &params, amount, &mut found, skip_by_bound, &never);
                found
            };
            // The skipping search swaps on the memos a search at 8× the amount left (as a split
            // quote's probe search swaps on its full search's): it must find what a fresh search
            // without skipping finds, to the unit.
            let shared = SwapMemos::default();
            search(&shared, amount_in.saturating_mul(U256::from(8)), true);
            let skipping = search(&shared, amount_in, true);
            let full = search(&SwapMemos::default(), amount_in, false);
            let key = |f: &Vec<Found>| {
                f.iter().map(|f| (f.hops().to_vec(), f.out, f.gas)).collect::<Vec<_>>()
            };
            assert_eq!(key(&skipping), key(&full), "case {case}, {token_in} → {token_out}");
        }
    }
    for family in FAMILIES {
        assert!(seen.contains(&family), "no {family:?} pool in the test markets");
    }
}
