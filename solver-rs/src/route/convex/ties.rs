//! Copies of one token in consecutive layers of the graph, and the tie groups the dual's solve
//! (`solve.rs`) moves as one variable where their prices meet.

use super::graph::Graph;

/// Copies of a token in consecutive layers within this relative price of each other count as
/// tied (see [`tie_groups`]).
pub(super) const NEAR: f64 = 1e-9;

/// Per copy, the same token's copy one layer further, whose price
/// [`monotone`](super::dual::monotone) keeps at most its.
pub(super) fn deeper_copies(graph: &Graph) -> Vec<Option<usize>> {
    let copies = &graph.copies;
    (0..copies.len())
        .map(|c| {
            (0..copies.len()).find(|&d| {
                copies[d].token == copies[c].token
                    && copies[d].layer.checked_sub(1) == Some(copies[c].layer)
            })
        })
        .collect()
}

/// Per copy, whether its link to its deeper copy ([`deeper_copies`]) is locked: a pooled venue
/// tenders the token from the deeper copy (or one further) and receives it at this copy (or one
/// shallower), so [`monotone`](super::dual::monotone) raises the deeper copy to this one's price
/// as the layers keep this one at least the deeper's: the two prices are one. WOOFi's joint budget
/// tenders each coin from its cheapest copy and gives it at its dearest head (USDC→cbETH 3-hop
/// $100: WETH tendered after two hops, received after one).
pub(super) fn locked_links(graph: &Graph, deeper: &[Option<usize>]) -> Vec<bool> {
    let copies = &graph.copies;
    let mut locked = vec![false; deeper.len()];
    for pooled in graph.venues.iter().filter_map(|v| v.pooled.as_ref()) {
        for (tenders, receives) in pooled.tenders.iter().zip(&pooled.receives) {
            let shallowest = receives
                .iter()
                .filter_map(|h| match h {
                    super::graph::Head::Copy(r) => Some(copies[*r].layer),
                    super::graph::Head::Out => None,
                })
                .min();
            let (Some(top), Some(deepest)) =
                (shallowest, tenders.iter().map(|&t| copies[t].layer).max())
            else {
                continue;
            };
            let Some(&any) = tenders.first() else { continue };
            for (c, d) in deeper.iter().enumerate() {
                let same = copies[c].token == copies[any].token;
                if same && d.is_some() && copies[c].layer >= top && copies[c].layer < deepest {
                    locked[c] = true;
                }
            }
        }
    }
    locked
}

/// Copies of one token in consecutive layers priced alike (within [`NEAR`]) whose shallower
/// part passes flow on to the deeper (its summed excess, the pass-on, is ≥ 0): the *tie groups*,
/// each moved as one variable, shallowest copy first. This is the active set of the constraints
/// π_k ≥ π_{k+1} that keep the bound certified: at the optimum a token's flow reaches tokenOut
/// through its pools from whichever layer it arrived in, so its copies' prices are equal and g
/// has a kink there (a pool tenders from its cheapest copy). Moving the copies one by one, or all
/// copies freely and then raising the shallower ones, cannot cross that kink; moving the group as
/// one variable is smooth. A tie whose shallower part takes more than it receives (pass-on < 0)
/// is released: raising that part alone lowers g. A link `locked` ([`locked_links`]) is never
/// released: `monotone` would raise the deeper copy back to the shallower one's price, so a Newton
/// step that moves them apart is not the step taken (USDC→cbETH 3-hop $100 stopped 5.3 times the
/// plan, WETH's two copies each a variable, one overdrawn by 1,027 times g).
pub(super) fn tie_groups(
    deeper: &[Option<usize>],
    locked: &[bool],
    prices: &[f64],
    gradient: &[f64],
) -> Vec<Vec<usize>> {
    let mut shallower = vec![false; deeper.len()];
    deeper.iter().flatten().for_each(|&d| shallower[d] = true);
    let mut groups = Vec::new();
    for head in (0..deeper.len()).filter(|&c| !shallower[c]) {
        let mut group = vec![head];
        let mut passed = gradient[head];
        let mut at = head;
        while let Some(d) = deeper[at] {
            let holds = prices[at] <= prices[d] * (1.0 + NEAR) && passed >= 0.0;
            if !(locked[at] || holds) {
                groups.push(std::mem::take(&mut group));
                passed = 0.0;
            }
            group.push(d);
            passed += gradient[d];
            at = d;
        }
        groups.push(group);
    }
    groups
}

/// Prices every group's copies as its shallowest.
pub(super) fn snap(groups: &[Vec<usize>], prices: &mut [f64]) {
    for group in groups {
        let price = prices[group[0]];
        group.iter().for_each(|&c| prices[c] = price);
    }
}
