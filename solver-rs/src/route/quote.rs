//! One quote, start to finish: search candidates, price gas, allocate, replay exactly, report.

use super::bound_memos::BoundMemos;
use super::clock::{Clock, Deadline, MonotonicClock, Phase, PhaseMs};
use super::convex::curve::MAX_SWAPS_PER_POOL;
use super::convex::decompose::Routed;
use super::convex::enough::Floor;
use super::convex::graph::{Graph, Intermediates, Scope};
use super::convex::{route_flows, Flows};
use super::dead_routes::without_dead_routes;
use super::gas::{GasPricer, GasPricers};
use super::gas_cap::GasCap;
use super::net::Net;
use super::path::{requote_repeated_venues, LegFill, Overlay, Path};
use super::plan::{CandidateOut, LegOut, Metadata, Plan, RouteOut, StoppedBy};
use super::request::QuoteRequest;
use super::resplit::resplit;
use super::search::{evaluate, find_paths, DexMask, Evaluated, Found, Reached, SearchParams};
use super::slippage::min_out;
use super::split::{best_single, optimize, Budget, Problem, Solution};
use super::swap_memos::SwapMemos;
use crate::address::Address;
use crate::dex::DexId;
use crate::error::SolverError;
use crate::market::{Market, TokenIdx};
use crate::math::U256;

/// The probe for split candidates is this fraction of the amount.
const PROBE_DIVISOR: u64 = 8;

/// Solver-wide routing settings.
#[derive(Clone, Debug)]
pub struct RouteSettings {
    pub native_token: Option<Address>,
    /// Fixed connectors; None picks the best-connected tokens of the market.
    pub connectors: Option<Vec<Address>>,
    pub default_connector_count: usize,
    pub default_time_budget_ms: u32,
    pub max_candidates: usize,
    pub beam: usize,
}

/// Quotes `request` on `market`; `pricers` holds the gas pricers of earlier quotes on this market.
/// The time budget runs on the host's monotonic clock.
pub fn quote(
    market: &Market,
    settings: &RouteSettings,
    request: &QuoteRequest,
    pricers: &GasPricers,
) -> Result<Plan, SolverError> {
    quote_after_wait(
        market,
        settings,
        request,
        pricers,
        &BoundMemos::default(),
        &MonotonicClock,
        0.0,
    )
}

/// [`quote`], with the time budget (`timeBudgetMs`) measured on `clock`, for a call that waited
/// `waited_ms` before it could start (queued behind other calls): the budget runs from when the
/// call was made, so the solve has only the rest (none left: the deadline has passed at the first
/// check, and the quote answers what always runs).
///
/// The budget bounds the whole solve: both path searches, the gas pricer's search, the quotes of
/// found paths and the optimizer check the deadline before each pool swap or evaluation, and past
/// it each keeps what it has. What always runs, budget or not, is bounded by the market's shape,
/// not by the search: the direct pools tokenIn → tokenOut (and native → tokenOut for gas), the
/// optimizer's start (one evaluation of the best searched candidate), and the
/// exact replay of the plan (at most maxCandidates × maxHops swaps), so the plan is always exact
/// and never worse than the best single path among the searched candidates (the single-path
/// quote's). See docs/solver-optimizer.md.
///
/// `bounds` holds the convex bound's answers of earlier split quotes on this `market`, per trade
/// (`bound_memos.rs`), the swap memos the last quote on it left (`swap_memos.rs`), and the plans
/// of the requests quoted on it that ran to their end (`plan_memos.rs`: a repeat is answered with
/// its plan, no solve); the caller gives each market snapshot its own, like `pricers`.
pub fn quote_after_wait(
    market: &Market,
    settings: &RouteSettings,
    request: &QuoteRequest,
    pricers: &GasPricers,
    bounds: &BoundMemos,
    clock: &dyn Clock,
    waited_ms: f64,
) -> Result<Plan, SolverError> {
    request.validate()?;
    // A request this snapshot solved to its end before: that plan, no solve (`plan_memos.rs`).
    if let Some(plan) = bounds.plans().get(request) {
        return Ok(plan);
    }
    let budget_ms = request.time_budget_ms.unwrap_or(settings.default_time_budget_ms);
    let deadline = Deadline::after_wait(budget_ms, waited_ms, clock);
    let quoting = Quoting::of(market, settings, request, &deadline, bounds)?;
    let (mut at_full, mut at_probe) = quoting.searches(budget_ms)?;
    requote_repeated_venues(market, &quoting.memos, &mut at_full, quoting.amount_in);
    if let Some(probe) = quoting.probe {
        requote_repeated_venues(market, &quoting.memos, &mut at_probe, probe);
    }
    let pricer = quoting.gas_pricing(pricers);
    deadline.enter(Phase::Evaluation);
    let evaluated = evaluate(
        market,
        &quoting.memos,
        at_full,
        at_probe,
        quoting.amount_in,
        quoting.probe,
        &deadline,
    );
    let candidate_paths = evaluated.len();
    let mut ranked = rank(evaluated, &pricer, settings.max_candidates);
    let (start, bound) = quoting.bound(&mut ranked, bounds);
    let solution = quoting.allocation(&ranked, &pricer, start, bound)?;
    let (ranked, solution) = quoting.resplit(ranked, solution, &pricer, bound);
    let solution = quoting.resumed(&ranked, solution, &pricer, bound);
    let (ranked, solution) = quoting.without_loose_venues(ranked, solution, &pricer, bound, bounds);
    let report = Report {
        connectors: &quoting.params.connectors,
        candidate_paths,
        stopped_in: deadline.stopped_or_cut_in(),
        bound,
        phase_ms: match request.time_phases {
            Some(true) => deadline.phase_ms(),
            _ => PhaseMs::default(),
        },
    };
    let memos = &quoting.memos;
    let plan = build_plan(market, memos, request, &ranked, &solution, &pricer, &report)?;
    let plan = match plan.routes.iter().any(|route| route.amount_out.is_zero()) {
        true => {
            let solution = quoting.without_dead_routes(&ranked, solution, &pricer)?;
            build_plan(market, memos, request, &ranked, &solution, &pricer, &report)
        }
        false => Ok(plan),
    };
    bounds.swaps().keep(quoting.memos);
    if let Ok(plan) = &plan {
        bounds.plans().keep(request, plan);
    }
    plan
}

/// One quote's fixed inputs, read from the request and the market once; each phase of the solve
/// is a method (in the order the solve runs them), and each enters its [`Phase`] on the deadline.
struct Quoting<'a> {
    market: &'a Market,
    request: &'a QuoteRequest,
    deadline: &'a Deadline<'a>,
    params: SearchParams,
    native: Option<TokenIdx>,
    amount_in: U256,
    split: bool,
    disjoint: bool,
    /// The split candidates' search amount (`amountIn / PROBE_DIVISOR`); None without splitting.
    probe: Option<U256>,
    /// The venues the convex bound may use: those the searches may.
    scope: Scope,
    /// The swap memos of `market` (`swap_memos.rs`), shared by every phase that swaps on it: the
    /// searches, the evaluation, the optimizer and the re-split swap the same pools from the same
    /// states, and a concentrated pool's tick walk is then stepped once per quote (once per
    /// snapshot: the memos come from the last quote on it, and go back for the next).
    memos: SwapMemos,
}

impl<'a> Quoting<'a> {
    /// The request's tokens (an unknown token is no route), connectors and search parameters.
    fn of(
        market: &'a Market,
        settings: &RouteSettings,
        request: &'a QuoteRequest,
        deadline: &'a Deadline<'a>,
        bounds: &BoundMemos,
    ) -> Result<Quoting<'a>, SolverError> {
        let known = |address: &Address, field: &str| {
            market
                .token(address)
                .ok_or_else(|| SolverError::no_route(format!("no pool holds {field} {address}")))
        };
        let token_in = known(&request.token_in, "tokenIn")?;
        let token_out = known(&request.token_out, "tokenOut")?;
        let native = settings.native_token.and_then(|a| market.token(&a));
        let connectors: Vec<TokenIdx> = bounds
            .connectors(settings, native, || connectors(market, settings, native))
            .into_iter()
            .filter(|t| *t != token_in && *t != token_out)
            .collect();
        let split = request.split_enabled.unwrap_or(true);
        let amount_in = request.amount_in;
        let params = SearchParams {
            token_in,
            token_out,
            max_hops: request.hops() as usize,
            connectors,
            dexes: request.allowed_dexes.as_deref().map_or(DexMask::ALL, DexMask::of),
            beam: settings.beam,
        };
        let scope = Scope {
            token_in,
            token_out,
            max_hops: params.max_hops,
            intermediates: Intermediates::Any,
            dexes: params.dexes,
        };
        let probe = split.then(|| {
            amount_in.checked_div(U256::from(PROBE_DIVISOR)).unwrap_or_default().max(U256::from(1))
        });
        Ok(Quoting {
            market,
            request,
            deadline,
            params,
            native,
            amount_in,
            split,
            disjoint: request.enforce_pool_disjoint.unwrap_or(false),
            probe,
            scope,
            memos: bounds.swaps().take(),
        })
    }

    /// `Phase::Search` and `Phase::ProbeSearch`: the paths found at the whole amount and at the
    /// probe amount; no route when neither search found one (saying whether the budget cut them).
    fn searches(&self, budget_ms: u32) -> Result<(Vec<Found>, Vec<Found>), SolverError> {
        let (market, deadline) = (self.market, self.deadline);
        let mut at_full = Vec::new();
        deadline.enter(Phase::Search);
        find_paths(market, &self.memos, &self.params, self.amount_in, &mut at_full, deadline);
        let mut at_probe = Vec::new();
        deadline.enter(Phase::ProbeSearch);
        // Past the deadline the probe search is skipped whole: it only adds split candidates, and
        // the full search already swapped the direct pools.
        if let Some(probe) = self.probe.filter(|_| !deadline.expired()) {
            find_paths(market, &self.memos, &self.params, probe, &mut at_probe, deadline);
        }
        if at_full.is_empty() && at_probe.is_empty() {
            let how = match deadline.stopped_in() {
                Some(_) => format!("found before the time budget of {budget_ms} ms ran out (a larger timeBudgetMs may find one)"),
                None => format!("within {} hops can take any of the amount", self.params.max_hops),
            };
            return Err(SolverError::no_route(format!(
                "no path from {} to {} {how}",
                self.request.token_in, self.request.token_out
            )));
        }
        Ok((at_full, at_probe))
    }

    /// `Phase::GasPricing`: the pair's gas pricer, from the cache of earlier quotes or priced
    /// through the market: its own states, never a request's replaced pools (the cache is shared
    /// by every request on the snapshot, and gas is worth what the market pays for it).
    fn gas_pricing(&self, pricers: &GasPricers) -> GasPricer {
        let gas_price = self.request.gas_price_wei.unwrap_or(U256::ZERO);
        self.deadline.enter(Phase::GasPricing);
        let (token_in, token_out) = (self.params.token_in, self.params.token_out);
        pricers.get_or_price(token_in, token_out, gas_price, || {
            GasPricer::through_market(
                &self.market.unreplaced(),
                self.native,
                token_out,
                gas_price,
                &self.params.connectors,
                self.deadline,
            )
        })
    }

    /// `Phase::Bound`, on split quotes only: the certified bound and the optimizer's start from
    /// the convex optimum ([`convex_start`]). Skipped whole past the deadline: it only adds
    /// candidates and a start.
    fn bound(
        &self,
        ranked: &mut Vec<Evaluated>,
        bounds: &BoundMemos,
    ) -> (Option<Vec<U256>>, Option<U256>) {
        self.deadline.enter(Phase::Bound);
        match self.split && !self.deadline.expired() {
            true => convex_start(
                self.market,
                &self.scope,
                self.amount_in,
                ranked,
                self.disjoint,
                self.deadline,
                bounds,
            ),
            false => (None, None),
        }
    }

    /// `Phase::Optimizer`: the split optimizer's allocation over the ranked candidates (from
    /// `start` when the bound gave one, stopping within reach of `bound`), or the best single path
    /// without splitting; no route when no combination of paths absorbs the amount.
    fn allocation(
        &self,
        ranked: &[Evaluated],
        pricer: &GasPricer,
        start: Option<Vec<U256>>,
        bound: Option<U256>,
    ) -> Result<Solution, SolverError> {
        let candidate_list: Vec<Path> = ranked.iter().map(|e| e.path.clone()).collect();
        self.deadline.enter(Phase::Optimizer);
        let budget = self.optimizer_budget(bound);
        let problem = Problem {
            market: self.market,
            paths: &candidate_list,
            amount_in: self.amount_in,
            pricer,
            disjoint: self.disjoint,
            budget: &budget,
            start,
            target: bound,
            memos: &self.memos,
            gas_cap: GasCap::of(self.market),
            whole: ranked.iter().map(|e| e.full).collect(),
        };
        let solution = if self.split {
            let solution = optimize(&problem);
            if let Some(phase) = budget.cut_in() {
                self.deadline.note_cut(phase);
            }
            solution
        } else {
            best_single(&problem).map(|(i, value)| {
                let mut alloc = vec![U256::ZERO; candidate_list.len()];
                alloc[i] = self.amount_in;
                Solution { alloc, value, order: vec![i] }
            })
        };
        solution.ok_or_else(|| {
            SolverError::no_route(format!(
                "no combination of paths can absorb amountIn {}",
                self.amount_in
            ))
        })
    }

    /// `Phase::Optimizer` again, where the plan (re-split) is [`short_of`] the bound and the bound prices a venue by a loose relaxation ([`loose_dexes`]): the optimum of
    /// the same scope without those venues is another start, its paths candidates too; the better
    /// plan, with its candidates. The first optimum's flows lean on the loose venue's relaxation and
    /// leave out the paths a plan without the venue needs (DEGEN→cbETH 3-hop 100× on the embedded
    /// market: 4 paths, none through the vault, the plan 445 bps below the bound; the optimum
    /// without the vault 13 paths, its plan 5.6 bps below the same bound).
    fn without_loose_venues(
        &self,
        mut ranked: Vec<Evaluated>,
        solution: Solution,
        pricer: &GasPricer,
        bound: Option<U256>,
        bounds: &BoundMemos,
    ) -> (Vec<Evaluated>, Solution) {
        let short = bound.is_some_and(|b| short_of(solution.value.gross, b));
        if !short || !self.split || self.deadline.expired() {
            return (ranked, solution);
        }
        let loose = loose_dexes(self.market, &self.scope, self.deadline, bounds);
        if loose.is_empty() {
            return (ranked, solution);
        }
        let scope = Scope { dexes: self.scope.dexes.without(&loose), ..self.scope.clone() };
        self.deadline.enter(Phase::Bound);
        let flows =
            optimum_flows(self.market, &scope, self.amount_in, &ranked, self.deadline, bounds);
        let known = ranked.len();
        let Some(start) =
            flows.and_then(|f| flow_start(&f.routed, &mut ranked, self.amount_in, self.disjoint))
        else {
            return (ranked, solution);
        };
        let Ok(found) = self.allocation(&ranked, pricer, Some(start), bound) else {
            ranked.truncate(known);
            return (ranked, solution);
        };
        match found.value > solution.value {
            true => (ranked, found),
            // The first plan over the first candidates: the paths added carry nothing in it.
            false => {
                ranked.truncate(known);
                (ranked, solution)
            }
        }
    }

    /// `Phase::Optimizer` again, when its share of the budget cut it and time is left after the
    /// re-split: the ascent resumed from the plan (over the re-split's candidates, if it kept its
    /// proposal) against the deadline; the better plan. So the share moves time from the
    /// optimizer's tail to the re-split without leaving any unused.
    fn resumed(
        &self,
        ranked: &[Evaluated],
        solution: Solution,
        pricer: &GasPricer,
        bound: Option<U256>,
    ) -> Solution {
        if self.deadline.cut_by_share().is_none() || self.deadline.expired() {
            return solution;
        }
        self.deadline.enter(Phase::Optimizer);
        let paths: Vec<Path> = ranked.iter().map(|e| e.path.clone()).collect();
        let problem = Problem {
            market: self.market,
            paths: &paths,
            amount_in: self.amount_in,
            pricer,
            disjoint: self.disjoint,
            budget: &Budget::whole(self.deadline),
            start: Some(solution.alloc.clone()),
            target: bound,
            memos: &self.memos,
            gas_cap: GasCap::of(self.market),
            whole: ranked.iter().map(|e| e.full).collect(),
        };
        match optimize(&problem) {
            Some(found) if found.value > solution.value => found,
            _ => solution,
        }
    }

    /// The optimizer's budget: the whole deadline, and, on a quote of [`SHARED_HOPS`] hops that
    /// the re-split may follow, a share of it: [`OPTIMIZER_SHARE`] of the time left, which ends the
    /// optimizer once passed while its best allocation is more than [`SHORT_BELOW`] below the
    /// bound (the re-split then runs, and the optimizer resumes after it with the time left:
    /// [`Quoting::resumed`]).
    fn optimizer_budget(&self, bound: Option<U256>) -> Budget<'a> {
        let shared = self.resplit_follows(bound) && self.params.max_hops == SHARED_HOPS;
        let Some(target) = bound.filter(|_| shared) else { return Budget::whole(self.deadline) };
        let short_below = U256::try_from(f64::from(target) * (1.0 - SHORT_BELOW)).unwrap_or(target);
        Budget::shared(self.deadline, self.deadline.share(OPTIMIZER_SHARE), short_below)
    }

    /// Whether the re-split may follow the optimizer: a split quote with a bound, not
    /// pool-disjoint, of more than one hop (a re-split cuts routes at a middle token).
    fn resplit_follows(&self, bound: Option<U256>) -> bool {
        bound.is_some() && self.split && !self.disjoint && self.params.max_hops > 1
    }

    /// The plan with no route that carries input and pays nothing (`dead_routes.rs`); no route
    /// when every way to place the dead routes' input still pays nothing.
    fn without_dead_routes(
        &self,
        ranked: &[Evaluated],
        solution: Solution,
        pricer: &GasPricer,
    ) -> Result<Solution, SolverError> {
        let paths: Vec<&Path> = ranked.iter().map(|e| &e.path).collect();
        without_dead_routes(self.market, &paths, &self.memos, pricer, self.deadline, solution)
            .ok_or_else(|| {
                SolverError::no_route(format!(
                    "no combination of paths pays for amountIn {}",
                    self.amount_in
                ))
            })
    }

    /// `Phase::Resplit`: short of the bound, the plan re-split where its routes meet is another
    /// start (its routes share pools, which a pool-disjoint plan may not); the better plan, with
    /// its candidates.
    fn resplit(
        &self,
        ranked: Vec<Evaluated>,
        solution: Solution,
        pricer: &GasPricer,
        bound: Option<U256>,
    ) -> (Vec<Evaluated>, Solution) {
        match bound {
            Some(target) if self.resplit_follows(bound) => {
                self.deadline.enter(Phase::Resplit);
                let resplitting = Resplitting {
                    market: self.market,
                    scope: &self.scope,
                    amount_in: self.amount_in,
                    pricer,
                    deadline: self.deadline,
                    target,
                    memos: &self.memos,
                };
                resplitting.better(ranked, solution)
            }
            _ => (ranked, solution),
        }
    }
}

/// The convex phase (`Phase::Bound`): the certified routing bound and, from its optimum's flows, a
/// start for the optimizer ([`flow_start`]). The bound and the flows come from `bounds` when this
/// trade was quoted before on this market (`bound_memos.rs`).
fn convex_start(
    market: &Market,
    scope: &Scope,
    amount_in: U256,
    ranked: &mut Vec<Evaluated>,
    disjoint: bool,
    deadline: &Deadline,
    bounds: &BoundMemos,
) -> (Option<Vec<U256>>, Option<U256>) {
    let Some(flows) = optimum_flows(market, scope, amount_in, ranked, deadline, bounds) else {
        return (None, None);
    };
    (flow_start(&flows.routed, ranked, amount_in, disjoint), flows.bound)
}

/// The convex optimum over `scope`: its certified bound and its flows as paths, as many as the
/// candidates `ranked` leave room for under the curves' limit on routes (the bound holds for
/// plans of at most that many; the plan's transaction gas, not the number of paths, decides how
/// many it keeps: `gas_cap.rs`, `split/start.rs`).
fn optimum_flows(
    market: &Market,
    scope: &Scope,
    amount_in: U256,
    ranked: &[Evaluated],
    deadline: &Deadline,
    bounds: &BoundMemos,
) -> Option<Flows> {
    let limit = (MAX_SWAPS_PER_POOL as usize).saturating_sub(ranked.len());
    // What the best candidate pays taking the whole amount (gas ignored, as the bound): the solve
    // stops once the bound is within the optimizer's closeness of it (`convex/enough.rs`).
    let paid = ranked.iter().filter_map(|e| e.full.map(|(out, _)| out)).max().unwrap_or_default();
    let floor = Floor::of(paid);
    let route = || route_flows(market, scope, amount_in, limit, floor, deadline, bounds.graphs());
    let complete = || !deadline.expired();
    bounds.get_or_route(scope, amount_in, (limit, paid), route, complete)
}

/// The allocation `routed` gives the candidates (its paths the candidates lack join `ranked`),
/// summing to `amount_in`; None when the plan must be pool-disjoint (the optimum's paths share
/// pools, which such a plan may not) or the flows name no path.
fn flow_start(
    routed: &[Routed],
    ranked: &mut Vec<Evaluated>,
    amount_in: U256,
    disjoint: bool,
) -> Option<Vec<U256>> {
    let mut alloc = vec![U256::ZERO; ranked.len()];
    for routed in routed {
        let index = match ranked.iter().position(|e| e.path.hops == routed.path.hops) {
            Some(i) => i,
            None => {
                ranked.push(Evaluated { path: routed.path.clone(), full: None, probe: None });
                alloc.push(U256::ZERO);
                ranked.len().saturating_sub(1)
            }
        };
        alloc[index] =
            U256::try_from((routed.share * f64::from(amount_in)).floor()).unwrap_or(U256::ZERO);
    }
    if disjoint || alloc.iter().all(|a| a.is_zero()) {
        return None;
    }
    crate::route::split::balance_to(amount_in, &mut alloc);
    Some(alloc)
}

/// The dexes of the venues of `scope`'s graph that the bound prices by a joint linear budget
/// (WOOFi's vault, `convex/pooled_linear.rs`: a relaxation that is loose at 3 hops through a base
/// in the middle, docs/dex-kinds.md WOOFI *Route quality*); none when no graph is built.
fn loose_dexes(
    market: &Market,
    scope: &Scope,
    deadline: &Deadline,
    bounds: &BoundMemos,
) -> Vec<DexId> {
    let loose = |graph: &Graph| {
        let mut dexes: Vec<DexId> = Vec::new();
        for venue in &graph.venues {
            let linear = venue.pooled.as_ref().is_some_and(|p| p.budget.is_linear());
            let Some(&arc) = venue.arcs.first().filter(|_| linear) else { continue };
            let dex = market.pool(graph.arcs[arc].hop.pool).dex;
            if !dexes.contains(&dex) {
                dexes.push(dex);
            }
        }
        dexes
    };
    bounds.graphs().with_graph(market, scope, deadline, loose).unwrap_or_default()
}

/// The optimizer's share of the time left when a re-split follows (`Quoting::optimizer_budget`):
/// on the 1,000-pool 2-hop 100× trade at `timeBudgetMs` 5 the optimizer's first ascent crawls
/// from 2.3 bps below the bound, while the re-split of its plan reaches 0.81 bps in a fraction of
/// a millisecond (docs/solver-optimizer.md, *The optimizer's share of the budget*).
pub(crate) const OPTIMIZER_SHARE: f64 = 0.3;
/// The hops of the quotes whose optimizer has a share: on 3 hops the re-split is two layers, each
/// a sub-problem and an ascent over up to 64 candidates, and the optimizer's tail was measured to
/// be worth more (the 10,000-pool 3-hop 100× trade at 50 ms: 1.90 bps with the whole budget,
/// 2.07–2.15 with a share).
const SHARED_HOPS: usize = 2;

/// How far below the bound (a fraction of it: 1 bps) a plan is short: the optimizer's share ends
/// there, the plan is re-split (`resplit.rs`), and tried again without the venues the bound relaxes
/// loosely (`Quoting::without_loose_venues`).
const SHORT_BELOW: f64 = 1e-4;

/// Whether `gross` is more than [`SHORT_BELOW`] below `bound`.
fn short_of(gross: U256, bound: U256) -> bool {
    f64::from(gross) < f64::from(bound) * (1.0 - SHORT_BELOW)
}

/// What re-splitting a plan needs of the quote.
struct Resplitting<'a> {
    market: &'a Market,
    scope: &'a Scope,
    amount_in: U256,
    pricer: &'a GasPricer,
    deadline: &'a Deadline<'a>,
    target: U256,
    memos: &'a SwapMemos,
}

impl Resplitting<'_> {
    /// The plan re-split at each middle layer in turn, each re-split the start of another ascent
    /// over its candidates; the best plan of these and `solution`, with its candidates.
    fn better(
        &self,
        mut ranked: Vec<Evaluated>,
        mut solution: Solution,
    ) -> (Vec<Evaluated>, Solution) {
        for layer in 1..self.scope.max_hops {
            if self.deadline.expired() || !short_of(solution.value.gross, self.target) {
                break;
            }
            let paths: Vec<Path> = ranked.iter().map(|e| e.path.clone()).collect();
            let cap = MAX_SWAPS_PER_POOL as usize;
            let Some(proposal) = resplit(
                self.market,
                self.memos,
                self.scope,
                &paths,
                &solution.alloc,
                &solution.order,
                layer,
                cap,
                self.deadline,
            ) else {
                continue;
            };
            let problem = Problem {
                market: self.market,
                paths: &proposal.paths,
                amount_in: self.amount_in,
                pricer: self.pricer,
                disjoint: false,
                budget: &Budget::whole(self.deadline),
                start: Some(proposal.alloc.clone()),
                target: Some(self.target),
                memos: self.memos,
                gas_cap: GasCap::of(self.market),
                whole: proposal.from.iter().map(|from| from.and_then(|j| ranked[j].full)).collect(),
            };
            let Some(found) = optimize(&problem).filter(|found| found.value > solution.value)
            else {
                continue;
            };
            ranked = proposal
                .from
                .iter()
                .zip(proposal.paths)
                .map(|(from, path)| match from {
                    Some(j) => ranked[*j].clone(),
                    None => Evaluated { path, full: None, probe: None },
                })
                .collect();
            solution = found;
        }
        (ranked, solution)
    }
}

/// What the plan's metadata says about the solve besides the routes.
struct Report<'a> {
    connectors: &'a [TokenIdx],
    candidate_paths: usize,
    stopped_in: Option<Phase>,
    bound: Option<U256>,
    phase_ms: PhaseMs,
}

pub(crate) fn connectors(
    market: &Market,
    settings: &RouteSettings,
    native: Option<TokenIdx>,
) -> Vec<TokenIdx> {
    match &settings.connectors {
        Some(list) => list.iter().filter_map(|a| market.token(a)).collect(),
        None => {
            let mut tokens = market.best_connected_tokens(settings.default_connector_count);
            if let Some(native) = native {
                if !tokens.contains(&native) {
                    tokens.push(native);
                }
            }
            tokens
        }
    }
}

/// Keeps `limit` candidates: alternately the best by whole-amount value and the best by probe
/// output (the paths a split would use), without repeats. Route order is this order; only the
/// candidates kept have their paths allocated.
fn rank(evaluated: Vec<Reached>, pricer: &GasPricer, limit: usize) -> Vec<Evaluated> {
    // Each value once (pricing gas is a 512-bit mulDiv), not once per comparison.
    let values: Vec<Option<Net>> = evaluated
        .iter()
        .map(|e| e.full.map(|(out, gas)| Net::new(out, pricer.cost(gas))))
        .collect();
    // Each order is read only as far as its first `2 × limit` entries (at most `limit` are taken,
    // alternately, each skipping those the other order took), so only those are sorted: at
    // 10,000 pools a 2-hop split reaches about 170 paths, and sorting them all twice (each
    // comparison of values a 512-bit sum) was about 3 % of the quote. Ties go to the lower index,
    // as a stable sort of all of them would order them.
    let read = limit.saturating_mul(2);
    let by_full = best_first(
        (0..evaluated.len()).filter(|&i| evaluated[i].full.is_some()).collect(),
        read,
        |a, b| values[b].cmp(&values[a]),
    );
    let by_probe = best_first(
        (0..evaluated.len()).filter(|&i| evaluated[i].probe.is_some()).collect(),
        read,
        |a, b| evaluated[b].probe.cmp(&evaluated[a].probe),
    );
    let mut chosen: Vec<usize> = Vec::with_capacity(limit);
    let (mut full_order, mut probe_order) = (by_full.into_iter(), by_probe.into_iter());
    let mut take_from_full = true;
    let mut exhausted = (false, false);
    while chosen.len() < limit && exhausted != (true, true) {
        let order = if take_from_full { &mut full_order } else { &mut probe_order };
        match order.find(|i| !chosen.contains(i)) {
            Some(i) => chosen.push(i),
            None if take_from_full => exhausted.0 = true,
            None => exhausted.1 = true,
        }
        take_from_full = !take_from_full;
    }
    chosen.into_iter().map(|i| evaluated[i].into_evaluated()).collect()
}

/// The first `count` of `indices` in the order `better` gives them (ties by index), as the first
/// `count` of a stable sort of all of them by `better` would be; the rest dropped.
pub(super) fn best_first(
    mut indices: Vec<usize>,
    count: usize,
    better: impl Fn(usize, usize) -> std::cmp::Ordering,
) -> Vec<usize> {
    let order = |a: &usize, b: &usize| better(*a, *b).then(a.cmp(b));
    if count < indices.len() {
        // Partitioned around the count-th: the first `count` are the best, in no order yet.
        indices.select_nth_unstable_by(count, order);
        indices.truncate(count);
    }
    indices.sort_unstable_by(order);
    indices
}

/// The plan: `solution` replayed route by route in its order, each swap through `memos` (the
/// quote's: the optimizer evaluated these swaps from the same states, so the replay's
/// concentrated pools jump over the ticks their walks hold instead of stepping through them, to
/// the same unit as the plain loop: `pools/clmm/tick_walk_tests.rs`).
fn build_plan(
    market: &Market,
    memos: &SwapMemos,
    request: &QuoteRequest,
    ranked: &[Evaluated],
    solution: &Solution,
    pricer: &GasPricer,
    report: &Report<'_>,
) -> Result<Plan, SolverError> {
    let slippage = request.slippage_bps;
    // The optimizer's allocations sum to amountIn by construction (its sums are checked or
    // saturate, `split/`); a plan that did not would be refused by the router: a bug, reported as
    // one, never a wrapped or short plan.
    let allocated = solution.alloc.iter().try_fold(U256::ZERO, |sum, a| sum.checked_add(*a));
    if allocated != Some(request.amount_in) {
        return Err(SolverError::internal(format!(
            "the allocation sums to {allocated:?}, not amountIn {}",
            request.amount_in
        )));
    }
    let mut overlay = Overlay::memoized(market, memos);
    let mut routes = Vec::new();
    let (mut total_out, mut gas_units) = (U256::ZERO, 0u64);
    for &index in &solution.order {
        let (candidate, amount) = (&ranked[index], &solution.alloc[index]);
        if amount.is_zero() {
            continue;
        }
        let mut fills: Vec<LegFill> = Vec::new();
        let (out, gas) = overlay.run(&candidate.path, *amount, Some(&mut fills)).map_err(|e| {
            SolverError::internal(format!("replay of an evaluated allocation failed: {e}"))
        })?;
        let legs = fills
            .iter()
            .map(|fill| {
                let pool = market.pool(fill.hop.pool);
                Ok(LegOut {
                    dex: pool.dex,
                    pool_id: pool.id.clone(),
                    token_in: market.token_address(pool.tokens[fill.hop.token_in as usize]),
                    token_out: market.token_address(pool.tokens[fill.hop.token_out as usize]),
                    amount_in: fill.amount_in,
                    amount_out: fill.amount_out,
                    min_out: min_out(fill.amount_out, slippage)?,
                })
            })
            .collect::<Result<_, SolverError>>()?;
        routes.push(RouteOut { amount_in: *amount, amount_out: out, legs });
        // The optimizer refuses allocations whose outputs sum past 2^256 − 1 (`split/point.rs`),
        // and this replay is the same computation: reaching this error is a bug, never a wrap.
        total_out = total_out
            .checked_add(out)
            .ok_or_else(|| SolverError::internal("the routes' outputs sum past 2^256 − 1"))?;
        gas_units = gas_units.saturating_add(gas);
    }
    let best = ranked.iter().filter_map(|e| e.full.map(|(o, g)| Net::new(o, pricer.cost(g)))).max();
    let candidates = ranked
        .iter()
        .zip(&solution.alloc)
        .map(|(e, allocated)| {
            let (projected_out, score) = match (e.full, best) {
                (Some((out, gas)), Some(best)) if best.approx() > 0.0 => {
                    (out, Net::new(out, pricer.cost(gas)).approx() / best.approx())
                }
                (Some((out, _)), _) => (out, 0.0),
                (None, _) => (U256::ZERO, 0.0),
            };
            CandidateOut {
                path: e.path.tokens.iter().map(|t| market.token_address(*t)).collect(),
                dexes: e.path.hops.iter().map(|h| market.pool(h.pool).dex).collect(),
                projected_out,
                allocated_in: *allocated,
                score,
            }
        })
        .collect();
    Ok(Plan {
        amount_in: request.amount_in,
        expected_amount_out: total_out,
        min_amount_out: min_out(total_out, slippage)?,
        gas_units,
        gas_cost_in_token_out: pricer.cost(gas_units),
        metadata: Metadata {
            connectors_considered: report
                .connectors
                .iter()
                .map(|t| market.token_address(*t))
                .collect(),
            candidate_paths: report.candidate_paths,
            selected_paths: routes.len(),
            candidates,
            stopped_by: if report.stopped_in.is_some() {
                StoppedBy::Budget
            } else {
                StoppedBy::Converged
            },
            stopped_in: report.stopped_in,
            phase_ms: report.phase_ms.clone(),
            upper_bound: report.bound,
            gap_bps: report
                .bound
                .filter(|b| !b.is_zero())
                .map(|b| (f64::from(b) - f64::from(total_out)) / f64::from(b) * 1e4),
        },
        routes,
    })
}
