//! The venues a quote may route through, as a layered graph: a token reached after k hops is its
//! own node (a *copy*, one per layer), and every arc goes from a layer to the next.
//!
//! A direction of a pool is kept only if it lies on a path of at most `maxHops` from tokenIn to
//! tokenOut whose middle tokens are allowed intermediates (neither tokenIn nor tokenOut). Layering
//! is what keeps the convex problem about routing: on the plain token graph, two venues of one pair
//! priced apart form a cycle whose arbitrage the optimum would collect and count as output, though
//! no plan of paths can (a path holds each token once). In layers every flow moves forward, so a
//! flow is a set of walks of at most `maxHops` hops; for `maxHops` ≤ 3 those are exactly the
//! simple paths (a walk that repeats a middle token needs four hops), for 4 they include walks that
//! revisit a token, so the bound there is an upper bound on a slightly larger set.

use super::curve::Curve;
use super::pooled::Budget;
use super::pooled_vault_hop::PooledHops;
use crate::market::{Hop, Market, PoolIdx, TokenIdx};
use crate::pools::woofi::OneWay;
use crate::route::clock::Deadline;
use crate::route::search::DexMask;
use std::collections::HashMap;

/// Copies above this count make the graph too large for the dense dual solve.
pub const MAX_COPIES: usize = 64;
/// Arcs above this count make the graph too large to solve within a quote.
pub const MAX_ARCS: usize = 4096;

/// A token reached after `layer` hops (layer 0: tokenIn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Copy {
    pub token: TokenIdx,
    pub layer: usize,
}

/// Where an arc ends: a copy of an intermediate token, or tokenOut (whose price is 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Head {
    Copy(usize),
    Out,
}

/// One direction of one pool between two layers.
#[derive(Clone, Copy, Debug)]
pub struct Arc {
    pub hop: Hop,
    /// Index into [`Graph::sides`]: the pool's curve in this direction.
    pub side: usize,
    pub from: usize,
    pub to: Head,
    /// Index into [`Graph::venues`].
    pub venue: usize,
}

/// One pool from one of its tokens to another, with its curve (shared by the arcs that trade it
/// that way). Keyed by `(pool, token_in, token_out)`: a venue of n tokens has n·(n − 1) sides.
pub struct Side {
    pub curve: Curve,
    /// The curve's value at zero input (its rounding allowance, raw units out) and its first
    /// rate: read by the dual's venue term at every price it tries (`dual.rs`, `venue_term`),
    /// so kept here rather than asked of the curve each time.
    pub at_zero: f64,
    pub first_rate: f64,
}

/// One pool and the arcs that trade it (one direction may join several pairs of copies when
/// maxHops is 4; both directions may be used between two middle tokens). A pool whose sides'
/// curves each hold whatever its other sides trade (WOOFi's vault) is a venue per side instead,
/// so the dual adds its sides' terms rather than taking the best one.
pub struct Venue {
    /// Indices into [`Graph::arcs`] (the pool is their `hop.pool`).
    pub arcs: Vec<usize>,
    /// A venue whose tokens share one state (its sides are [`Curve::Pooled`]): priced by one joint
    /// term over all its arcs (`dual.rs`, `pooled.rs`), not by its best side.
    pub pooled: Option<Pooled>,
}

/// A pooled venue's budget and, per coin (the pool's token positions), where its arcs take it from
/// and deliver it to.
pub struct Pooled {
    pub budget: Budget,
    pub tenders: Vec<Vec<usize>>,
    pub receives: Vec<Vec<Head>>,
    /// The family's per-hop term and its slots, where it has one (`pooled_vault_hop.rs`).
    pub hops: Option<PooledHops>,
}

/// Which tokens may sit in the middle of a path.
#[derive(Clone, Debug)]
pub enum Intermediates {
    Any,
    /// Any but these (sorted token indices): a sub-problem's paths that must not revisit the
    /// tokens of the prefix they continue.
    Except(Vec<TokenIdx>),
}

impl Intermediates {
    fn allows(&self, token: TokenIdx) -> bool {
        match self {
            Intermediates::Any => true,
            Intermediates::Except(list) => list.binary_search(&token).is_err(),
        }
    }
}

/// What the graph is built for.
#[derive(Clone, Debug)]
pub struct Scope {
    pub token_in: TokenIdx,
    pub token_out: TokenIdx,
    pub max_hops: usize,
    pub intermediates: Intermediates,
    pub dexes: DexMask,
}

/// The routing graph of one scope on one market snapshot, for any amount: built by a quote and
/// lent to the snapshot's later quotes of the pair (`route/graph_memos.rs`). Copy 0 is tokenIn.
pub struct Graph {
    pub token_out: TokenIdx,
    pub copies: Vec<Copy>,
    pub arcs: Vec<Arc>,
    pub sides: Vec<Side>,
    pub venues: Vec<Venue>,
}

/// Why no graph was built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unbuilt {
    /// The graph would exceed [`MAX_COPIES`] or [`MAX_ARCS`].
    TooLarge,
    /// The deadline passed while it was built.
    Deadline,
}

impl Graph {
    /// The layered graph of `scope` on `market`: every copy on a path from tokenIn to tokenOut,
    /// every arc between them (only pools whose curve exists in that direction). Deterministic:
    /// tokens and pools are visited in the market's order.
    pub fn build(market: &Market, scope: &Scope) -> Result<Graph, Unbuilt> {
        Graph::build_before(market, scope, &Deadline::never())
    }

    /// [`Graph::build`], given up once `deadline` has passed: it is checked before each copy's
    /// pools and each pool's curve (building a curve is the work here: a concentrated pool's
    /// walks its ticks), so past it at most one curve is built.
    pub fn build_before(
        market: &Market,
        scope: &Scope,
        deadline: &Deadline,
    ) -> Result<Graph, Unbuilt> {
        let hops = scope.max_hops.max(1);
        let to_out = distances_to_out(market, scope, hops, deadline).ok_or(Unbuilt::Deadline)?;
        let mut graph = Graph {
            token_out: scope.token_out,
            copies: vec![Copy { token: scope.token_in, layer: 0 }],
            arcs: Vec::new(),
            sides: Vec::new(),
            venues: Vec::new(),
        };
        let mut copy_of: HashMap<(TokenIdx, usize), usize> = HashMap::new();
        let mut side_of: HashMap<(PoolIdx, u8, u8), Option<usize>> = HashMap::new();
        // A venue per pool, or per side where the pool's curves hold apart (`sides_bounded_apart`).
        let mut venue_of: HashMap<(PoolIdx, Option<usize>), usize> = HashMap::new();
        let mut frontier = vec![0usize];
        for layer in 0..hops {
            // Below `hops` (a small count), so never saturated.
            let deeper = layer.saturating_add(1);
            let mut next = Vec::new();
            for &from in &frontier {
                if deadline.expired() {
                    return Err(Unbuilt::Deadline);
                }
                let token = graph.copies[from].token;
                for &neighbour in market.neighbours(token) {
                    let head = if neighbour == scope.token_out {
                        Head::Out
                    } else if neighbour != scope.token_in
                        && deeper < hops
                        && to_out.get(&neighbour).is_some_and(|d| deeper.saturating_add(*d) <= hops)
                    {
                        let key = (neighbour, deeper);
                        let index = *copy_of.entry(key).or_insert_with(|| {
                            let index = graph.copies.len();
                            graph.copies.push(Copy { token: neighbour, layer: deeper });
                            next.push(index);
                            index
                        });
                        Head::Copy(index)
                    } else {
                        continue;
                    };
                    for hop in market.edge(token, neighbour) {
                        let entry = market.pool(hop.pool);
                        if !scope.dexes.allows(entry.dex) {
                            continue;
                        }
                        let key = (hop.pool, hop.token_in, hop.token_out);
                        if !side_of.contains_key(&key) && deadline.expired() {
                            return Err(Unbuilt::Deadline);
                        }
                        let side = *side_of.entry(key).or_insert_with(|| {
                            // A curve whose first unit pays nothing pays nothing at all (it is concave).
                            // No arc enters tokenIn nor leaves tokenOut: the plan only sells
                            // the one and only buys the other (WOOFi's vault prices on that).
                            let one_way = OneWay {
                                input_only_sold: token == scope.token_in,
                                output_only_bought: neighbour == scope.token_out,
                            };
                            let curve = Curve::of_in_plan(
                                &entry.state,
                                hop.token_in as usize,
                                hop.token_out as usize,
                                one_way,
                            )
                            .filter(|c| c.first_rate() > 0.0)?;
                            let (at_zero, first_rate) = (curve.value(0.0), curve.first_rate());
                            graph.sides.push(Side { curve, at_zero, first_rate });
                            Some(graph.sides.len().saturating_sub(1))
                        });
                        let Some(side) = side else { continue };
                        let apart = entry.state.sides_bounded_apart().then_some(side);
                        let venue = *venue_of.entry((hop.pool, apart)).or_insert_with(|| {
                            graph.venues.push(Venue { arcs: Vec::new(), pooled: None });
                            graph.venues.len().saturating_sub(1)
                        });
                        graph.venues[venue].arcs.push(graph.arcs.len());
                        graph.arcs.push(Arc { hop: *hop, side, from, to: head, venue });
                    }
                }
                if graph.copies.len() > MAX_COPIES || graph.arcs.len() > MAX_ARCS {
                    return Err(Unbuilt::TooLarge);
                }
            }
            frontier = next;
        }
        Ok(graph.pruned())
    }

    /// Drops copies that no arc leaves towards tokenOut (their pools had no curve that way) and
    /// the arcs that touch them, renumbering what is left in order.
    fn pruned(self) -> Graph {
        let mut live = vec![false; self.copies.len()];
        // Arcs only go one layer up, so settling layers from the top down decides every copy.
        let top = self.copies.iter().map(|c| c.layer).max().unwrap_or(0);
        for layer in (0..=top).rev() {
            for arc in self.arcs.iter().filter(|a| self.copies[a.from].layer == layer) {
                if match arc.to {
                    Head::Out => true,
                    Head::Copy(c) => live[c],
                } {
                    live[arc.from] = true;
                }
            }
        }
        let mut renumber = vec![usize::MAX; self.copies.len()];
        let mut copies = Vec::new();
        for (old, copy) in self.copies.iter().enumerate() {
            if live[old] || old == 0 {
                renumber[old] = copies.len();
                copies.push(*copy);
            }
        }
        let mut arcs = Vec::new();
        let mut venues: Vec<Venue> = Vec::new();
        // Keyed by the venue before pruning, which grouped the arcs already.
        let mut venue_of: HashMap<usize, usize> = HashMap::new();
        for arc in &self.arcs {
            let to = match arc.to {
                Head::Out => Head::Out,
                Head::Copy(c) if live[c] => Head::Copy(renumber[c]),
                Head::Copy(_) => continue,
            };
            if !live[arc.from] {
                continue;
            }
            let venue = *venue_of.entry(arc.venue).or_insert_with(|| {
                venues.push(Venue { arcs: Vec::new(), pooled: None });
                venues.len().saturating_sub(1)
            });
            venues[venue].arcs.push(arcs.len());
            arcs.push(Arc { from: renumber[arc.from], to, venue, ..*arc });
        }
        for venue in &mut venues {
            venue.pooled = pooled_of(venue, &arcs, &self.sides, &copies);
        }
        Graph { token_out: self.token_out, copies, arcs, sides: self.sides, venues }
    }

    /// Whether any arc leaves tokenIn (else nothing can be routed).
    pub fn is_empty(&self) -> bool {
        self.arcs.is_empty()
    }
}

/// A venue's [`Pooled`] when its sides are pooled curves: the budget of its first side (every
/// side of a pool holds the same) and its arcs' copies and heads per coin.
fn pooled_of(venue: &Venue, arcs: &[Arc], sides: &[Side], copies: &[Copy]) -> Option<Pooled> {
    let first = arcs[*venue.arcs.first()?];
    let Curve::Pooled(side) = &sides[first.side].curve else { return None };
    let coins = side.budget.coins.len();
    let mut pooled = Pooled {
        budget: side.budget.clone(),
        tenders: vec![Vec::new(); coins],
        receives: vec![Vec::new(); coins],
        hops: side.hops.clone().map(|term| PooledHops::of(term, &venue.arcs, arcs, copies)),
    };
    for &a in &venue.arcs {
        let arc = arcs[a];
        let (t, u) = (usize::from(arc.hop.token_in), usize::from(arc.hop.token_out));
        if !pooled.tenders[t].contains(&arc.from) {
            pooled.tenders[t].push(arc.from);
        }
        if !pooled.receives[u].contains(&arc.to) {
            pooled.receives[u].push(arc.to);
        }
    }
    Some(pooled)
}

/// Fewest hops from each allowed intermediate token to tokenOut, up to `hops − 1` (tokens farther
/// cannot be on a path of `hops`). Pools are not checked for a curve here; `pruned` does that.
/// None once `deadline` has passed (checked before each token's neighbours).
fn distances_to_out(
    market: &Market,
    scope: &Scope,
    hops: usize,
    deadline: &Deadline,
) -> Option<HashMap<TokenIdx, usize>> {
    let mut distance: HashMap<TokenIdx, usize> = HashMap::new();
    let mut frontier = vec![scope.token_out];
    for depth in 1..hops {
        let mut next = Vec::new();
        for &token in &frontier {
            if deadline.expired() {
                return None;
            }
            for &neighbour in market.neighbours(token) {
                if neighbour == scope.token_in
                    || neighbour == scope.token_out
                    || distance.contains_key(&neighbour)
                {
                    continue;
                }
                if !scope.intermediates.allows(neighbour)
                    || !has_allowed_pool(market, scope.dexes, neighbour, token)
                {
                    continue;
                }
                distance.insert(neighbour, depth);
                next.push(neighbour);
            }
        }
        frontier = next;
    }
    Some(distance)
}

/// Whether a pool `dexes` allows trades `from` → `to`, for `from` a neighbour of `to`. With every
/// dex allowed that holds for every neighbour (a pool links each ordered pair of its tokens, so
/// neighbours are symmetric): the check is skipped, since reading each pool's dex was about a
/// tenth of a 10,000-pool 2-hop split quote (tokenOut's many neighbours, a cache miss per pool).
fn has_allowed_pool(market: &Market, dexes: DexMask, from: TokenIdx, to: TokenIdx) -> bool {
    dexes.allows_all()
        || market.edge(from, to).iter().any(|hop| dexes.allows(market.pool(hop.pool).dex))
}
