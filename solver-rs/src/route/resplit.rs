//! Re-splitting a plan where its routes meet: the step water-filling takes at every middle token
//! (collect what reaches it, split it again over every way on), applied to a finished plan.
//!
//! The routes that reach a token T after k hops deliver it, together, some X; how X goes on to
//! tokenOut is a routing problem of its own (from T, with the hops left, through tokens the routes
//! have not visited), whose optimum the convex phase finds. Each route through T is cut into
//! routes that keep its first k hops (its *prefix*) and take the sub-problem's paths after them
//! (the *suffixes*), each given the tokenIn that makes its prefix deliver its part of X: found by
//! bisection on the exact models, the routes run in order, so a prefix deep in price impact still
//! delivers what its suffix should carry. The result is a start for another ascent over the
//! widened candidates, which the quote keeps only if it ends better (`quote.rs`).
//!
//! What it reaches that the ascent alone does not: on the 100-pool market's 3-hop 100× trade the
//! amount is more than the one middle pool takes, so the bound's optimum strands flow there and
//! names no path (its first venues trade nothing at a price of 0), and the ascent, every route of
//! which ends at that pool's limit, finds no direction that gains: its two routes split the last
//! hop over two of its six pools, far below the bound (docs/solver-optimizer.md has the figures).

use super::clock::Deadline;
use super::convex::enough::Floor;
use super::convex::graph::{Intermediates, Scope};
use super::convex::route_flows;
use super::graph_memos::GraphMemos;
use super::path::{LegFill, Overlay, Path};
use super::swap_memos::SwapMemos;
use crate::market::{Market, TokenIdx};
use crate::math::bisect::bisect;
use crate::math::U256;

/// Halvings of the bisection that finds a sub-route's tokenIn (to 2⁻³² of its prefix's amount).
const BISECTION_STEPS: usize = 32;
/// Paths each token's sub-problem may name.
const SUFFIXES_PER_TOKEN: usize = 16;

/// Candidates in execution order, the start allocation over them, and for each the index of the
/// candidate it was (None: a new path).
pub struct Proposal {
    pub paths: Vec<Path>,
    pub alloc: Vec<U256>,
    pub from: Vec<Option<usize>>,
}

/// The routes of one prefix: what they spend and what their prefix delivers.
struct Prefix {
    /// The routes' first `layer` hops.
    path: Path,
    /// Candidate indices of its routes, the first of which runs first.
    routes: Vec<usize>,
    spent: U256,
    delivered: f64,
    /// (suffix, amount of T to carry), filled from the token's sub-problem.
    parts: Vec<(Path, f64)>,
}

/// `alloc` over `paths` (routes run in `order`) re-split at `layer` hops: every route longer than
/// that cut as above. `scope` is the quote's; at most `cap` candidates come back (the routes the
/// re-split makes first, then the others' in their order while there is room). None when nothing
/// changes (no route passes a middle token at `layer`, no sub-problem names a path), when the
/// plan does not replay, or past the deadline. Its replays use and extend `memos` (the quote's).
#[allow(clippy::too_many_arguments)] // the quote's own state, passed as the quote holds it
pub fn resplit(
    market: &Market,
    memos: &SwapMemos,
    scope: &Scope,
    paths: &[Path],
    alloc: &[U256],
    order: &[usize],
    layer: usize,
    cap: usize,
    deadline: &Deadline,
) -> Option<Proposal> {
    let mut prefixes = prefixes(market, memos, paths, alloc, order, layer, deadline)?;
    if prefixes.is_empty() {
        return None;
    }
    let mut tokens: Vec<TokenIdx> = prefixes.iter().map(|p| p.path.tokens[layer]).collect();
    tokens.sort_unstable();
    tokens.dedup();
    let mut changed = false;
    for &token in &tokens {
        if deadline.expired() {
            return None;
        }
        let group: Vec<usize> =
            (0..prefixes.len()).filter(|&p| prefixes[p].path.tokens[layer] == token).collect();
        changed |= split_token(market, scope, &mut prefixes, &group, layer, deadline);
    }
    if !changed || deadline.expired() {
        return None;
    }
    // The proposal spends what the plan spends, route for route of each prefix; a proposal that
    // did not would be a plan whose routes do not sum to amountIn (the router refuses it).
    let total =
        |amounts: &[U256]| amounts.iter().try_fold(U256::ZERO, |sum, a| sum.checked_add(*a));
    realise(market, memos, paths, alloc, order, &prefixes, cap, deadline)
        .filter(|p| total(&p.alloc) == total(alloc))
}

/// The plan's routes of more than `layer` hops grouped by prefix, each with what its routes spend
/// and deliver at `layer` in the plan's replay; None if the plan does not replay or the deadline
/// passes (checked before each route).
fn prefixes(
    market: &Market,
    memos: &SwapMemos,
    paths: &[Path],
    alloc: &[U256],
    order: &[usize],
    layer: usize,
    deadline: &Deadline,
) -> Option<Vec<Prefix>> {
    let mut overlay = Overlay::memoized(market, memos);
    let mut prefixes: Vec<Prefix> = Vec::new();
    for &i in order.iter().filter(|&&i| !alloc[i].is_zero()) {
        if deadline.expired() {
            return None;
        }
        let mut fills: Vec<LegFill> = Vec::new();
        overlay.run(&paths[i], alloc[i], Some(&mut fills)).ok()?;
        if paths[i].hops.len() <= layer {
            continue;
        }
        let delivered = f64::from(fills[layer].amount_in);
        let hops = &paths[i].hops[..layer];
        match prefixes.iter_mut().find(|p| p.path.hops == hops) {
            Some(prefix) => {
                prefix.routes.push(i);
                // A part of the plan's allocation, which sums to amountIn: never saturates.
                prefix.spent = prefix.spent.saturating_add(alloc[i]);
                prefix.delivered += delivered;
            }
            None => prefixes.push(Prefix {
                path: Path { tokens: paths[i].tokens[..=layer].to_vec(), hops: hops.to_vec() },
                routes: vec![i],
                spent: alloc[i],
                delivered,
                parts: Vec::new(),
            }),
        }
    }
    Some(prefixes)
}

/// Solves the sub-problem of the prefixes in `group` (all reaching one token) and deals its paths
/// out to them in order, each prefix taking suffixes until it carries what it delivers. Whether
/// the sub-problem named a path.
fn split_token(
    market: &Market,
    scope: &Scope,
    prefixes: &mut [Prefix],
    group: &[usize],
    layer: usize,
    deadline: &Deadline,
) -> bool {
    let token = prefixes[group[0]].path.tokens[layer];
    let mut visited: Vec<TokenIdx> =
        group.iter().flat_map(|&p| prefixes[p].path.tokens[..layer].iter().copied()).collect();
    visited.sort_unstable();
    visited.dedup();
    let total: f64 = group.iter().map(|&p| prefixes[p].delivered).sum();
    let Ok(amount) = U256::try_from(total.floor()) else { return false };
    let sub = Scope {
        token_in: token,
        token_out: scope.token_out,
        max_hops: scope.max_hops.saturating_sub(layer),
        intermediates: Intermediates::Except(visited),
        dexes: scope.dexes,
    };
    // A sub-problem's graph (restricted intermediates) is never remembered: no memo to give.
    let no_memo = GraphMemos::default();
    let Some(flows) =
        route_flows(market, &sub, amount, SUFFIXES_PER_TOKEN, Floor::NONE, deadline, &no_memo)
    else {
        return false;
    };
    // A suffix through a pool of a prefix would make a path that swaps that pool twice.
    let usable = |suffix: &Path| group.iter().all(|&p| !prefixes[p].path.shares_pool_with(suffix));
    let mut pieces: Vec<(Path, f64)> =
        flows.routed.into_iter().filter(|r| usable(&r.path)).map(|r| (r.path, r.share)).collect();
    let shares: f64 = pieces.iter().map(|(_, share)| share).sum();
    if shares.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return false;
    }
    pieces.iter_mut().for_each(|(_, share)| *share *= total / shares);
    let mut next = 0;
    for &p in group {
        let mut quota = prefixes[p].delivered;
        while quota > 0.0 && next < pieces.len() {
            let take = quota.min(pieces[next].1);
            prefixes[p].parts.push((pieces[next].0.clone(), take));
            quota -= take;
            pieces[next].1 -= take;
            if pieces[next].1 <= total * f64::EPSILON {
                next = next.saturating_add(1);
            }
        }
    }
    true
}

/// The proposal: the routes in `order`, each prefix's routes replaced (where its first route ran)
/// by its sub-routes, then the candidates left, within `cap`.
#[allow(clippy::too_many_arguments)] // the quote's own state, passed as the quote holds it
fn realise(
    market: &Market,
    memos: &SwapMemos,
    paths: &[Path],
    alloc: &[U256],
    order: &[usize],
    prefixes: &[Prefix],
    cap: usize,
    deadline: &Deadline,
) -> Option<Proposal> {
    let mut proposal = Proposal { paths: Vec::new(), alloc: Vec::new(), from: Vec::new() };
    let mut listed = vec![false; paths.len()];
    let mut overlay = Overlay::memoized(market, memos);
    for &i in order.iter().filter(|&&i| !alloc[i].is_zero()) {
        if deadline.expired() {
            return None;
        }
        // A route of no prefix, or of one its token's sub-problem gave no path, stays as it is.
        match prefixes.iter().find(|p| p.routes.contains(&i) && !p.parts.is_empty()) {
            None => {
                overlay.run(&paths[i], alloc[i], None).ok()?;
                proposal.push(paths[i].clone(), alloc[i], Some(i));
                listed[i] = true;
            }
            Some(prefix) if prefix.routes[0] == i => {
                let mut left = prefix.spent;
                for (k, (suffix, carry)) in prefix.parts.iter().enumerate() {
                    if deadline.expired() {
                        return None;
                    }
                    let path = joined(prefix, suffix);
                    let amount = match k.saturating_add(1) == prefix.parts.len() {
                        true => left,
                        false => input_for(&overlay, prefix, *carry, left, deadline)?,
                    };
                    if amount.is_zero() {
                        continue;
                    }
                    // A suffix that cannot take it leaves its prefix's swaps (the ascent's start
                    // is made executable before it is evaluated, `split/start.rs`).
                    let mut trial = overlay.clone();
                    match trial.run(&path, amount, None) {
                        Ok(_) => overlay = trial,
                        Err(_) => {
                            overlay.run(&prefix.path, amount, None).ok()?;
                        }
                    }
                    left = left.checked_sub(amount)?;
                    let from = (0..paths.len()).find(|&j| !listed[j] && paths[j] == path);
                    if let Some(j) = from {
                        listed[j] = true;
                    }
                    proposal.push(path, amount, from);
                }
            }
            // A later route of a prefix already re-split where its first route ran.
            Some(_) => {}
        }
    }
    for j in (0..paths.len()).filter(|&j| !listed[j]) {
        if proposal.paths.len() >= cap {
            break;
        }
        proposal.push(paths[j].clone(), U256::ZERO, Some(j));
    }
    (proposal.paths.len() <= cap).then_some(proposal)
}

impl Proposal {
    fn push(&mut self, path: Path, amount: U256, from: Option<usize>) {
        self.paths.push(path);
        self.alloc.push(amount);
        self.from.push(from);
    }
}

fn joined(prefix: &Prefix, suffix: &Path) -> Path {
    let mut path = prefix.path.clone();
    path.tokens.extend_from_slice(&suffix.tokens[1..]);
    path.hops.extend_from_slice(&suffix.hops);
    path
}

/// The least tokenIn, up to `most`, whose run through the prefix on `overlay` delivers at least
/// `carry` (by bisection; `most` if none does); None once the deadline has passed (checked before
/// each run of the prefix).
fn input_for(
    overlay: &Overlay,
    prefix: &Prefix,
    carry: f64,
    most: U256,
    deadline: &Deadline,
) -> Option<U256> {
    let delivers = |amount: U256| {
        overlay
            .clone()
            .run(&prefix.path, amount, None)
            .map_or(true, |(out, _)| f64::from(out) >= carry)
    };
    let short = |amount: U256| (!deadline.expired()).then(|| !delivers(amount));
    bisect(U256::ZERO, most, BISECTION_STEPS, short).map(|(_, hi)| hi)
}
