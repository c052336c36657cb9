//! The corners of g a Newton step must not straddle: venue sides on a linear piece's corner
//! ([`Corners`]), the copies they join to move as one variable ([`Corners::join`]), and the
//! linear budget's hinges a step crosses ([`join_crossed`]). Read at every Newton iteration of
//! the dual's solve (`solve.rs`) and by its flow conservation test (`conservation.rs`).

use super::dual::{head_price, Booked, Evaluation, Piece};
use super::graph::{Graph, Head};
use super::ties::NEAR;

/// A venue side on a linear piece's corner: its tender's price is the piece's rate times its
/// head's (within [`NEAR`]), so the side may carry anything from the pieces before to the end of
/// this one at the same g (its conjugate is flat there).
pub(super) struct Corner {
    pub(super) tender: usize,
    pub(super) receive: Head,
    /// The piece's input and output.
    pub(super) input: f64,
    pub(super) output: f64,
    /// A linear budget's pair (`Piece::Linear`), and whether it ties two deposits.
    pub(super) linear: bool,
    pub(super) tie: bool,
}

/// The venues' sides on a corner at some prices, and the gradient with each such side's flow
/// taken as the pieces before its corner only.
pub(super) struct Corners {
    pub(super) corners: Vec<Corner>,
    /// That gradient; None where no side is on a corner (the evaluation's gradient then).
    pub(super) gradient: Option<Vec<f64>>,
}

impl Corners {
    /// At `prices`, where `at` was evaluated. Only piecewise-linear sides have corners whose
    /// flow jumps (a sampled venue's breakpoints, a vault's one piece, the families' bound
    /// curves), and a linear budget's pairs (`Piece::Linear`); a curved pooled venue's term is
    /// smooth. The evaluation booked those trades, so
    /// on a graph without one this is no work (it runs at every Newton iteration).
    pub(super) fn at(graph: &Graph, prices: &[f64], at: &Evaluation) -> Corners {
        let mut gradient: Option<Vec<f64>> = None;
        let mut corners = Vec::new();
        for &Booked { tender, receive, response, piece } in &at.piecewise {
            let worth = head_price(prices, receive);
            if !(worth > 0.0 && prices[tender] > 0.0) {
                continue;
            }
            let rate = prices[tender] / worth;
            let (before, through) = (
                piece.respond(graph, rate * (1.0 + NEAR)),
                piece.respond(graph, rate * (1.0 - NEAR)),
            );
            let input = through.0 - before.0;
            // NaN: no corner either.
            if input.is_nan() || input <= 0.0 {
                continue;
            }
            let gradient = gradient.get_or_insert_with(|| at.gradient.clone());
            gradient[tender] += response.input - before.0;
            if let Head::Copy(d) = receive {
                gradient[d] -= response.output - before.1;
            }
            let (linear, tie) = match piece {
                Piece::Linear { tie, .. } => (true, tie),
                Piece::Side(_) => (false, false),
            };
            let output = through.1 - before.1;
            corners.push(Corner { tender, receive, input, output, linear, tie });
        }
        Corners { corners, gradient }
    }

    /// The gradient with the corners' flows taken as the pieces before them (`at`'s, where
    /// these corners were read, when there is none).
    pub(super) fn gradient<'a>(&'a self, at: &'a Evaluation) -> &'a [f64] {
        self.gradient.as_deref().unwrap_or(&at.gradient)
    }

    /// `ties` joined by the corners whose piece carries part of what its tender has to send (its
    /// group's, the copies joined by the corners before: a chain of corners passes it on; its
    /// excess with the piece untaken between 0 and the piece's input): such a side holds its
    /// tender's price at the piece's rate times its head's, a hinge of g that Newton's model (the
    /// piece's stand-in curvature on one side of it) and moves of one price at a time cannot
    /// cross; moved together, the copies keep the ratio and the piece carries what balances them
    /// (docs/solver-optimizer.md, *The vault's linear side*). A corner whose tender has exactly
    /// nothing to send joins too where it is a linear budget's (its ties read first) or its head
    /// is overdrawn; one whose tender is overdrawn is untaken, one whose tender has more than the
    /// piece takes is taken whole, and the copies move apart. Each group with whether a corner pins it to tokenOut's fixed price, and
    /// the gradient with the joining pieces' flows left out (they move no group's g: in a
    /// group's scaled price the piece's value is its input times rate·π_head − π_tender, 0 on
    /// the corner) and the others' flows as said (None: `at`'s gradient, as for [`Corners::gradient`]).
    ///
    /// A tie (`ties.rs`) is kept only where its shallower part, with the copies the corners join
    /// to it, passes flow on: `tie_groups` weighs the shallower copies alone, but the corners it
    /// then joins to them may leave that part overdrawn, and a deeper copy's surplus, which no flow
    /// can carry back up a layer, then balanced it in the group's valued excess. cbETH→AERO 3-hop
    /// $100 on the fresh market: WETH after one hop tied to WETH after two (300 WETH unsent), the
    /// vault's pairs joining USDC's copy after one hop ($867k overdrawn) and cbBTC's to it; the
    /// four copies one Newton variable whose valued excess was 4·10⁻¹¹ of g, so the solve stopped
    /// "converged" at 72.7 times the plan (docs/dex-kinds.md, WOOFI). Such a tie is released (the
    /// shallower part may rise alone, the deeper fall) and the corners joined again; but not one
    /// `locked` (`ties::locked_links`: its two prices are one).
    pub(super) fn join(
        mut self,
        at: &Evaluation,
        prices: &[f64],
        mut ties: Vec<Vec<usize>>,
        locked: &[bool],
    ) -> Joined {
        // A linear budget's ties first: the deposits that may fund its withdrawals are one group
        // before any withdrawal is weighed against what that group has to send.
        self.corners.sort_by_key(|corner| !corner.tie);
        loop {
            let (joined, links) = self.join_ties(at, prices, &ties);
            match released(&joined, &links, &ties, prices, locked) {
                Some(split) => ties = split,
                None => return joined,
            }
        }
    }

    /// [`Corners::join`] with `ties` as given (the corners sorted, ties first), and the corners
    /// that joined two copies.
    fn join_ties(
        &self,
        at: &Evaluation,
        prices: &[f64],
        ties: &[Vec<usize>],
    ) -> (Joined, Vec<(usize, usize)>) {
        // The gradient is the joined one's to change; a re-join starts again from `self`'s.
        let mut gradient = self.gradient.clone();
        let mut links = Vec::new();
        let n = at.gradient.len();
        let mut parent: Vec<usize> = (0..n).collect();
        for tie in ties {
            tie.windows(2).for_each(|w| union(&mut parent, w[0], w[1]));
        }
        let mut pinned = vec![false; n];
        // Per copy, the valued input the corners it pins to tokenOut may carry past their pieces before.
        let mut carries = vec![0.0; n];
        let mut hinges = Vec::new();
        // Corners::at made the gradient its own wherever it found a corner.
        if let Some(gradient) = gradient.as_mut() {
            for corner in &self.corners {
                // What the tender's group (the copies joined so far) has to send, in the tender's
                // units: a chain of corners (cbETH→cbBTC→USDC through one vault) carries it on,
                // though the middle copy alone has nothing to send with the pieces left out.
                let group = root(&mut parent, corner.tender);
                let valued: f64 = (0..n)
                    .filter(|&c| root(&mut parent, c) == group)
                    .map(|c| prices[c] * gradient[c])
                    .sum();
                let excess = valued / prices[corner.tender];
                // The head's group's valued excess, for a side's tender with nothing to send.
                let head_overdrawn = |parent: &mut [usize]| match corner.receive {
                    Head::Copy(d) => {
                        let head = root(parent, d);
                        let valued: f64 = (0..n)
                            .filter(|&c| root(parent, c) == head)
                            .map(|c| prices[c] * gradient[c])
                            .sum();
                        valued < 0.0
                    }
                    Head::Out => false,
                };
                // A tender with nothing to send joins too. A linear budget's corners are one
                // venue's, and a deposit left at exactly 0 by a withdrawal untaken (USDC's copy
                // funding cbETH's) is what carries the others' flow once the group moves
                // (docs/dex-kinds.md, WOOFI). A side's, where its head is overdrawn: a copy no
                // flow reaches, priced at its first unit's worth through a side on its first
                // corner, held its head there (the piece's stand-in curvature, damped, blocked
                // the step that moves both), the head unable to rise (cbETH→DAI 3-hop $100 with
                // the E-CLPs: USDC after one hop, docs/dex-kinds.md, GYROSCOPE_ECLP). A head with
                // flow to send on may fall, the piece idle: joined there too, WOOFi's DEGEN→DAI
                // 3-hop $1M plan fell 27 bps (`solve_tests.rs`).
                let sends = excess > 0.0
                    || (excess == 0.0 && (corner.linear || head_overdrawn(&mut parent)));
                let (tender, receive) = (corner.tender, corner.receive);
                if sends && excess < corner.input {
                    match receive {
                        Head::Copy(d) => {
                            union(&mut parent, tender, d);
                            links.push((tender, d));
                        }
                        Head::Out => {
                            pinned[tender] = true;
                            carries[tender] += corner.input * prices[tender];
                        }
                    }
                    continue;
                }
                let taken = excess >= corner.input;
                if taken {
                    gradient[tender] -= corner.input;
                    if let Head::Copy(d) = receive {
                        gradient[d] += corner.output;
                    }
                }
                if corner.linear {
                    hinges.push(Hinge { tender, receive, taken });
                }
            }
        }
        let mut groups: Vec<(Vec<usize>, bool)> = Vec::new();
        let mut carried = Vec::new();
        let mut slot = vec![usize::MAX; n];
        for (c, &pin) in pinned.iter().enumerate() {
            let r = root(&mut parent, c);
            if slot[r] == usize::MAX {
                slot[r] = groups.len();
                groups.push((Vec::new(), false));
                carried.push(0.0);
            }
            groups[slot[r]].0.push(c);
            groups[slot[r]].1 |= pin;
            carried[slot[r]] += carries[c];
        }
        (Joined { groups, gradient, hinges, carried }, links)
    }
}

/// `ties` with the first tie split whose shallower part, joined by `links` (the corners that
/// joined two copies) and the other ties' links into a part apart from its deeper one, is
/// overdrawn in `joined`'s gradient valued at `prices`, a `locked` link never; None when every
/// tie holds.
fn released(
    joined: &Joined,
    links: &[(usize, usize)],
    ties: &[Vec<usize>],
    prices: &[f64],
    locked: &[bool],
) -> Option<Vec<Vec<usize>>> {
    let gradient = joined.gradient.as_deref()?;
    let n = gradient.len();
    for (t, tie) in ties.iter().enumerate() {
        for (k, link) in tie.windows(2).enumerate().filter(|(_, w)| !locked[w[0]]) {
            let mut parent: Vec<usize> = (0..n).collect();
            links.iter().for_each(|&(a, b)| union(&mut parent, a, b));
            for (u, other) in ties.iter().enumerate() {
                for (j, w) in other.windows(2).enumerate() {
                    if (u, j) != (t, k) {
                        union(&mut parent, w[0], w[1]);
                    }
                }
            }
            let shallower = root(&mut parent, link[0]);
            if shallower == root(&mut parent, link[1]) {
                continue;
            }
            let valued: f64 = (0..n)
                .filter(|&c| root(&mut parent, c) == shallower)
                .map(|c| prices[c] * gradient[c])
                .sum();
            if valued < 0.0 {
                let mut split = ties.to_vec();
                let deeper = split[t].split_off(k.saturating_add(1));
                split.push(deeper);
                return Some(split);
            }
        }
    }
    None
}

/// [`Corners::join`]'s groups, each with whether a corner pins it to tokenOut, and its gradient.
pub(super) struct Joined {
    pub(super) groups: Vec<(Vec<usize>, bool)>,
    /// None: the evaluation's gradient.
    pub(super) gradient: Option<Vec<f64>>,
    /// The linear budget's corners left apart, each read untaken or taken whole.
    pub(super) hinges: Vec<Hinge>,
    /// Per group, the most the corners pinning it to tokenOut carry past their pieces before,
    /// valued at their tenders' prices: a pinned group's valued excess (the gradient's, those
    /// pieces left out) is conserved between 0 and this. A group is pinned by the excess of the
    /// part joined when its corner is read; copies joined to it later (wstETH→cbETH 3-hop $100 on
    /// the joint budget: WETH after two hops, overdrawn 610 times g) may leave it overdrawn.
    pub(super) carried: Vec<f64>,
}

/// A linear budget's pair on its corner whose copies [`Corners::join`] left apart: read untaken
/// (its tender's group has nothing to send: the corner's rate, the tender's price over the head's,
/// is the least at which the gradient holds) or taken whole (the most). The budget's term has no
/// curvature there, so Newton's model does not see the hinge ([`join_crossed`]).
pub(super) struct Hinge {
    pub(super) tender: usize,
    pub(super) receive: Head,
    pub(super) taken: bool,
}

/// `groups` with the two sides of every hinge that `step` (per free group, `free` their indices
/// in `groups`) moves across its corner joined (a side joined to tokenOut pinned), or None when the
/// step crosses none. Across an untaken hinge the tender's price falls against its head's and the
/// whole pair starts at once; across a taken one it rises and the pair stops: g's change is linear
/// in the step's length, so the line search cannot shorten it into a descent.
pub(super) fn join_crossed(
    hinges: &[Hinge],
    groups: &[(Vec<usize>, bool)],
    free: &[usize],
    step: &[f64],
) -> Option<Vec<(Vec<usize>, bool)>> {
    let n = groups.iter().map(|(g, _)| g.len()).sum::<usize>();
    let mut group_of = vec![0; n];
    for (k, (group, _)) in groups.iter().enumerate() {
        group.iter().for_each(|&c| group_of[c] = k);
    }
    let mut moved = vec![0.0; groups.len()];
    free.iter().zip(step).for_each(|(&k, &s)| moved[k] = s);
    let mut parent: Vec<usize> = (0..groups.len()).collect();
    let mut pinned: Vec<bool> = groups.iter().map(|(_, pin)| *pin).collect();
    let mut crossed = false;
    for hinge in hinges {
        let t = group_of[hinge.tender];
        let head = match hinge.receive {
            Head::Copy(d) => Some(group_of[d]),
            Head::Out => None,
        };
        if head == Some(t) {
            continue;
        }
        let rises = moved[t] - head.map_or(0.0, |h| moved[h]);
        if (hinge.taken && rises > 0.0) || (!hinge.taken && rises < 0.0) {
            crossed = true;
            match head {
                Some(h) => union(&mut parent, t, h),
                None => pinned[t] = true,
            }
        }
    }
    if !crossed {
        return None;
    }
    let mut merged: Vec<(Vec<usize>, bool)> = Vec::new();
    let mut slot = vec![usize::MAX; groups.len()];
    for (k, (group, _)) in groups.iter().enumerate() {
        let r = root(&mut parent, k);
        if slot[r] == usize::MAX {
            slot[r] = merged.len();
            merged.push((Vec::new(), false));
        }
        merged[slot[r]].0.extend(group);
        merged[slot[r]].1 |= pinned[k];
    }
    Some(merged)
}

/// The root of `c`'s set in the union-find forest `parent` (paths halved on the way).
fn root(parent: &mut [usize], mut c: usize) -> usize {
    while parent[c] != c {
        parent[c] = parent[parent[c]];
        c = parent[c];
    }
    c
}

/// Joins the sets of `a` and `b` (the lower root stays the root).
fn union(parent: &mut [usize], a: usize, b: usize) {
    let (ra, rb) = (root(parent, a), root(parent, b));
    parent[ra.max(rb)] = ra.min(rb);
}

#[cfg(test)]
#[path = "corners_tests.rs"]
mod tests;
