use super::*;

#[test]
fn every_order_once() {
    let all = permutations(&[4, 7, 9]);
    assert_eq!(all.len(), 6);
    assert_eq!(all[0], vec![4, 7, 9]);
    assert_eq!(all[5], vec![9, 7, 4]);
    let mut sorted = all.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), 6);
}
