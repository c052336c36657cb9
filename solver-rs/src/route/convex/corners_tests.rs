//! The corners' join and the hinges a Newton step crosses, on hand-made corners and groups.

/// A linear budget's corners are joined as one venue's: the tie of two deposits (copies 0 and 2)
/// first, then the withdrawal the deposit funds (copy 2 to copy 1), weighed with what the tied
/// group has to send; and a deposit with exactly nothing to send joins its withdrawal (WOOFi's
/// WETH→cbBTC 2-hop stopped with USDC's copy at 0 and the three copies apart: docs/dex-kinds.md,
/// WOOFI). So does a side's piece whose tender has exactly nothing to send when its head is
/// overdrawn (cbETH→DAI 3-hop with the E-CLPs stopped with USDC's copy, no flow reaching it, apart
/// from WETH's on the E-CLP's first corner); one whose tender is overdrawn, or whose head has flow
/// to send on, stays apart.
#[test]
fn a_linear_budgets_tie_and_withdrawal_join_their_copies_even_at_zero_excess() {
    use super::{Corner, Corners};
    use crate::route::convex::graph::Head;
    let evaluation = |gradient: Vec<f64>| crate::route::convex::dual::Evaluation {
        value: 1.0,
        magnitude: 1.0,
        gradient,
        hessian: Vec::new(),
        trades: Vec::new(),
        piecewise: Vec::new(),
    };
    let corner = |tender, to, linear, tie| Corner {
        tender,
        receive: Head::Copy(to),
        input: 5.0,
        output: 5.0,
        linear,
        tie,
    };
    let singles = vec![vec![0], vec![1], vec![2]];
    let prices = [1.0, 1.0, 1.0];
    // Booked as the budget books them: the withdrawal, then the tie.
    let gradient = vec![1.0, -1.0, 0.0];
    let corners = vec![corner(2, 1, true, false), corner(0, 2, true, true)];
    let at = evaluation(gradient.clone());
    let joined = Corners { corners, gradient: Some(gradient.clone()) }.join(
        &at,
        &prices,
        singles.clone(),
        &[false; 3],
    );
    assert_eq!(joined.groups, vec![(vec![0, 1, 2], false)]);
    // Only the withdrawal, its deposit with nothing to send: joined all the same.
    let corners = vec![corner(2, 1, true, false)];
    let joined = Corners { corners, gradient: Some(gradient.clone()) }.join(
        &at,
        &prices,
        singles.clone(),
        &[false; 3],
    );
    assert_eq!(joined.groups, vec![(vec![0], false), (vec![1, 2], false)]);
    // A side's piece at the same excess, its head overdrawn: joined too.
    let corners = vec![corner(2, 1, false, false)];
    let joined = Corners { corners, gradient: Some(gradient.clone()) }.join(
        &at,
        &prices,
        singles.clone(),
        &[false; 3],
    );
    assert_eq!(joined.groups, vec![(vec![0], false), (vec![1, 2], false)]);
    // Its head with flow to send on: apart (the head's price may fall, the piece idle).
    let surplus = vec![1.0, 1.0, 0.0];
    let corners = vec![corner(2, 1, false, false)];
    let at_surplus = evaluation(surplus.clone());
    let joined = Corners { corners, gradient: Some(surplus) }.join(
        &at_surplus,
        &prices,
        singles.clone(),
        &[false; 3],
    );
    assert_eq!(joined.groups.len(), 3);
    // Its tender overdrawn: apart.
    let overdrawn = vec![1.0, -1.0, -0.5];
    let corners = vec![corner(2, 1, false, false)];
    let at = evaluation(overdrawn.clone());
    let joined =
        Corners { corners, gradient: Some(overdrawn) }.join(&at, &prices, singles, &[false; 3]);
    assert_eq!(joined.groups.len(), 3);
}

/// A hinge the join left apart is joined when the step moves its tender's price across the
/// corner against its head's (untaken: down; taken whole: up), pinned when its head is tokenOut;
/// a step that keeps to its side joins nothing.
#[test]
fn a_step_across_a_hinge_joins_its_groups() {
    use super::{join_crossed, Hinge};
    use crate::route::convex::graph::Head;
    let groups = vec![(vec![0], false), (vec![1], false), (vec![2], false)];
    let free = [0, 1, 2];
    let untaken = |receive| Hinge { tender: 1, receive, taken: false };
    let taken = |receive| Hinge { tender: 1, receive, taken: true };
    let joined = |hinge: Hinge, step: [f64; 3]| join_crossed(&[hinge], &groups, &free, &step);
    let together = Some(vec![(vec![0], false), (vec![1, 2], false)]);
    // WETH's and USDC's copies both overdrawn, USDC's step the longer (cbETH→cbBTC 2-hop).
    assert_eq!(joined(untaken(Head::Copy(2)), [0.1, 0.2, 0.6]), together);
    assert_eq!(joined(untaken(Head::Copy(2)), [0.1, 0.6, 0.2]), None);
    assert_eq!(joined(taken(Head::Copy(2)), [0.1, 0.6, 0.2]), together);
    assert_eq!(joined(taken(Head::Copy(2)), [0.1, 0.2, 0.6]), None);
    let pinned = Some(vec![(vec![0], false), (vec![1], true), (vec![2], false)]);
    assert_eq!(joined(untaken(Head::Out), [0.1, -0.2, 0.6]), pinned);
    assert_eq!(joined(untaken(Head::Out), [0.1, 0.2, 0.6]), None);
}

/// A tie whose shallower part the corners leave overdrawn is released: WETH after one hop (copy 0,
/// a little to send) tied to WETH after two (copy 1, a surplus no flow carries back up a layer),
/// the vault's withdrawal from copy 0 to USDC after one hop (copy 2, overdrawn) on its corner. The
/// tied group's excess (copy 1's surplus) joined copy 2 to it, and the three copies' valued excess
/// was about 0: one Newton variable, the flow test passed (cbETH→AERO 3-hop $100, 72.7 times the
/// plan). Released, copies 0 and 2 move as one and copy 1 apart, and the test reads copy 1's
/// surplus.
#[test]
fn a_tie_whose_shallower_part_the_corners_leave_overdrawn_is_released() {
    use super::{Corner, Corners};
    use crate::route::convex::graph::Head;
    let gradient = vec![1.0, 100.0, -100.0];
    let at = crate::route::convex::dual::Evaluation {
        value: 1.0,
        magnitude: 1.0,
        gradient: gradient.clone(),
        hessian: Vec::new(),
        trades: Vec::new(),
        piecewise: Vec::new(),
    };
    let withdrawal = || Corner {
        tender: 0,
        receive: Head::Copy(2),
        input: 1_000.0,
        output: 1_000.0,
        linear: true,
        tie: false,
    };
    let prices = [1.0, 1.0, 1.0];
    let corners = Corners { corners: vec![withdrawal()], gradient: Some(gradient.clone()) };
    let joined = corners.join(&at, &prices, vec![vec![0, 1], vec![2]], &[false; 3]);
    let mut groups: Vec<Vec<usize>> = joined.groups.into_iter().map(|(g, _)| g).collect();
    groups.sort();
    assert_eq!(groups, vec![vec![0, 2], vec![1]]);
    // The shallower part with flow to pass on to the deeper copy, overdrawn: the tie holds.
    let gradient = vec![50.0, -10.0, -30.0];
    let at = crate::route::convex::dual::Evaluation { gradient: gradient.clone(), ..at };
    let corners = Corners { corners: vec![withdrawal()], gradient: Some(gradient) };
    let joined = corners.join(&at, &prices, vec![vec![0, 1], vec![2]], &[false; 3]);
    assert_eq!(joined.groups, vec![(vec![0, 1, 2], false)]);
}
