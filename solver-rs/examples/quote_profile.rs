//! Times quotes on a dumped market, in-process and without Node, for profilers (perf, callgrind):
//!
//!   node --import tsx bench/dumpSyntheticMarket.ts --pools 1000 --out /tmp/market-1000.json
//!   cargo run --release --example quote_profile -- /tmp/market-1000.json [iterations] [request index|all] [split|no-split|both] [phases,fresh,gas-free,plans,new-block,budget=N,cpu-clock]
//!
//! Prints p50/p99 per request (wall clock, and on Linux the p50 of the thread's CPU time) (1-, 2- and 3-hop) with and without splitting, how each plan ended,
//! its gap to the certified bound (`metadata.gapBps`) and its gas units; with `phases`, also the
//! median of each phase's ms (`metadata.phaseMs`, the quotes asked with `timePhases`). With `fresh`,
//! the i-th timed quote asks amountIn + i wei, a trade not quoted before on this market, so the
//! per-trade bound memo does not answer it (`route/bound_memos.rs`; the pair's graph is lent after
//! the first quote, `route/graph_memos.rs`); without, every timed quote repeats the first (answered
//! from the snapshot's plan memo, `route/plan_memos.rs`, once a quote of it ran to its end). With
//! `budget=N`, every quote asks `timeBudgetMs` N (the dumps' requests leave the solver's default);
//! with `gas-free`, every quote asks `gasPriceWei` 0 (the quality bench's quotes); with `plans`,
//! each first plan is printed whole (JSON), to compare two builds' plans with `diff`; with
//! `new-block`, the market is updated (its first pool upserted unchanged, untimed) before each
//! timed quote, so each is the first quote of its snapshot (no memo of an earlier quote). With
//! `cpu-clock`, the budget runs on the thread's CPU time instead of the wall clock (the quotes go
//! through `route::quote::quote_after_wait` with the solver's market and settings, and gas pricers
//! and bound memos of the run's own, made anew with each `new-block` update): on a shared machine a
//! 5 ms budget then gives the quote 5 ms of CPU, however long it waited for one.
use solver::route::bound_memos::BoundMemos;
use solver::route::clock::Clock;
use solver::route::gas::GasPricers;
use solver::route::quote::quote_after_wait;
use solver::route::request::QuoteRequest;
use solver::{Solver, SolverError};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(file) = args.get(1) else {
        eprintln!(
            "usage: quote_profile <market.json> [iterations] [request index|all] [split|no-split|both] [phases,fresh,gas-free,plans,new-block,budget=N,cpu-clock]"
        );
        std::process::exit(2);
    };
    let iterations: usize = args.get(2).map_or(200, |s| s.parse().expect("iterations"));
    let only_request: Option<usize> =
        args.get(3).filter(|s| *s != "all").map(|s| s.parse().expect("request index"));
    let only_split: Option<bool> = args.get(4).filter(|s| *s != "both").map(|s| s == "split");
    let options: Vec<&str> = args.get(5).map_or(Vec::new(), |s| s.split(',').collect());
    let (phases, fresh) = (options.contains(&"phases"), options.contains(&"fresh"));
    let (gas_free, print_plans) = (options.contains(&"gas-free"), options.contains(&"plans"));
    let new_block = options.contains(&"new-block");
    let budget_ms: Option<u64> = options
        .iter()
        .find_map(|o| o.strip_prefix("budget="))
        .map(|ms| ms.parse().expect("budget=<ms>"));
    let dump: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(file).expect("market file")).expect("JSON");
    let mut solver = Solver::from_config_json(&dump["config"].to_string()).expect("config");
    solver.upsert_pools_json(&dump["pools"].to_string()).expect("pools");
    let requests = dump["requests"].as_array().expect("requests");
    let first_pool =
        serde_json::Value::Array(dump["pools"].as_array().expect("pools")[..1].to_vec());
    let first_pool = first_pool.to_string();
    let mut on_cpu_clock = Quoter {
        solver,
        memos: options
            .contains(&"cpu-clock")
            .then(|| (GasPricers::default(), BoundMemos::default())),
    };
    let solver = &mut on_cpu_clock;
    for (index, request) in
        requests.iter().enumerate().filter(|(i, _)| only_request.is_none_or(|o| o == *i))
    {
        for split in [true, false].into_iter().filter(|s| only_split.is_none_or(|o| o == *s)) {
            let mut request = request.clone();
            request["splitEnabled"] = serde_json::Value::Bool(split);
            if phases {
                request["timePhases"] = serde_json::Value::Bool(true);
            }
            if gas_free {
                request["gasPriceWei"] = serde_json::Value::String("0".into());
            }
            if let Some(ms) = budget_ms {
                request["timeBudgetMs"] = serde_json::Value::from(ms);
            }
            let request = request.to_string();
            let first = solver.quote_json(&request);
            let plan: serde_json::Value = match &first {
                Ok(plan) => serde_json::from_str(plan).expect("plan"),
                Err(error) => {
                    println!(
                        "request {index} ({} hops) split {split}: {error}",
                        request_hops(&request)
                    );
                    continue;
                }
            };
            if print_plans {
                println!("request {index} split {split} plan {plan}");
            }
            // With a budget: the bound of the same trade at a 10 s budget, which each timed quote's
            // output is measured against (a quote the budget cut may carry no bound of its own).
            let reference = budget_ms.map(|_| {
                let mut unbudgeted: serde_json::Value =
                    serde_json::from_str(&request).expect("request");
                unbudgeted["timeBudgetMs"] = serde_json::Value::from(10_000);
                let plan = solver
                    .quote_json(&unbudgeted.to_string())
                    .map(|p| serde_json::from_str::<serde_json::Value>(&p).expect("plan"));
                let bound = plan.ok().and_then(|p| {
                    p["metadata"]["upperBound"].as_str().and_then(|b| b.parse::<f64>().ok())
                });
                Outcomes { bound, ..Outcomes::default() }
            });
            let mut outcomes = reference.unwrap_or_default();
            let mut on_cpu: Vec<f64> = Vec::with_capacity(iterations);
            let mut phase_ms: Vec<(String, Vec<f64>)> = Vec::new();
            // Repeats whose plan is not the first quote's (timed phases aside, a quote on an
            // unchanged market is the same plan).
            let mut differing = 0usize;
            // Timed quotes answered with an error (a small budget on a loaded machine can end one
            // before any route is found): counted and timed, not a reason to stop the run.
            let mut refused: (usize, String) = (0, String::new());
            let mut times: Vec<f64> = (0..iterations)
                .map(|i| {
                    let asked = match fresh {
                        true => with_amount_plus(&request, i.saturating_add(1)),
                        false => request.clone(),
                    };
                    if new_block {
                        solver.new_block(&first_pool);
                    }
                    let (start, cpu) = (Instant::now(), on_cpu_ms());
                    let answer = std::hint::black_box(solver.quote_json(&asked));
                    if let (Some(before), Some(after)) = (cpu, on_cpu_ms()) {
                        on_cpu.push(after - before);
                    }
                    let answer = match answer {
                        Ok(answer) => answer,
                        Err(error) => {
                            refused = (refused.0.saturating_add(1), error.to_string());
                            return start.elapsed().as_secs_f64() * 1e3;
                        }
                    };
                    if budget_ms.is_some() {
                        outcomes.record(&answer);
                    }
                    if phases {
                        record_phases(&answer, &mut phase_ms);
                    } else if !fresh && first.as_ref().ok() != Some(&answer) {
                        differing = differing.saturating_add(1);
                    }
                    start.elapsed().as_secs_f64() * 1e3
                })
                .collect();
            times.sort_by(f64::total_cmp);
            on_cpu.sort_by(f64::total_cmp);
            // The mean beside the median: a profiler's shares are of the total, which a few slow
            // quotes (a memo filled, a page faulted in) weigh more than the median shows.
            let cpu_mean = on_cpu.iter().sum::<f64>() / on_cpu.len().max(1) as f64;
            let cpu_p50 = on_cpu.get(on_cpu.len() / 2).map_or(String::new(), |t| {
                format!(
                    " (on CPU {t:.3}, mean {cpu_mean:.3}, p90 {:.3})",
                    on_cpu[on_cpu.len() * 9 / 10]
                )
            });
            if refused.0 > 0 {
                println!(
                    "request {index} split {split}: {} of {iterations} timed quotes refused (last: {})",
                    refused.0, refused.1
                );
            }
            if differing > 0 {
                println!(
                    "request {index} split {split}: {differing} repeats differ from the first plan"
                );
            }
            println!(
                "request {index} ({} hops) split {split}: p50 {:.3} ms{cpu_p50} p99 {:.3} ms, {} routes of {} candidate paths, {}{}, out {}, gap {} bps, gas {} cost {}",
                request_hops(&request),
                times[iterations / 2],
                times[(iterations * 99 / 100).min(iterations - 1)],
                plan["routes"].as_array().map_or(0, Vec::len),
                plan["metadata"]["candidatePaths"],
                plan["metadata"]["stoppedBy"],
                plan["metadata"]["stoppedIn"].as_str().map_or(String::new(), |p| format!(" in {p}")),
                plan["expectedAmountOut"],
                plan["metadata"]["gapBps"],
                plan["gasUnits"], plan["gasCostInTokenOut"]
            );
            if let Some(ms) = budget_ms {
                println!("  at timeBudgetMs {ms}: {}", outcomes.summary());
            }
            if phases {
                let medians: Vec<String> = phase_ms
                    .iter_mut()
                    .map(|(phase, ms)| {
                        ms.sort_by(f64::total_cmp);
                        format!("{phase} {:.3}", ms[ms.len() / 2])
                    })
                    .collect();
                println!("  phases (median ms): {}", medians.join(", "));
            }
        }
    }
}

/// Quotes on the solver's market: through the solver (wall clock), or with `memos` (its own gas
/// pricers and bound memos, as the solver keeps per snapshot) on the thread's CPU time.
struct Quoter {
    solver: Solver,
    memos: Option<(GasPricers, BoundMemos)>,
}

impl Quoter {
    /// Upserts `pools` (the market's first pool, unchanged): a new snapshot, with memos of its own.
    fn new_block(&mut self, pools: &str) {
        self.solver.upsert_pools_json(pools).expect("the first pool again");
        if self.memos.is_some() {
            self.memos = Some((GasPricers::default(), BoundMemos::default()));
        }
    }

    fn quote_json(&self, request: &str) -> Result<String, SolverError> {
        let Some((pricers, bounds)) = &self.memos else { return self.solver.quote_json(request) };
        let request: QuoteRequest = serde_json::from_str(request).expect("request");
        let (market, settings) = (self.solver.market(), self.solver.settings());
        let plan = quote_after_wait(market, settings, &request, pricers, bounds, &ThreadCpu, 0.0)?;
        Ok(serde_json::to_string(&plan).expect("plan"))
    }
}

/// The thread's CPU time as a deadline's clock.
struct ThreadCpu;

impl Clock for ThreadCpu {
    fn now_ms(&self) -> f64 {
        on_cpu_ms().expect("the thread's CPU time (Linux only)")
    }
}

/// The timed quotes' plans at a budget, against the bound of the same trade at a 10 s budget.
#[derive(Default)]
struct Outcomes {
    /// The unbudgeted quote's `metadata.upperBound` (None: it had none).
    bound: Option<f64>,
    /// Per plan, its gap to `bound` in bps.
    gaps_bps: Vec<f64>,
    /// Per plan, its number of routes.
    routes: Vec<usize>,
    /// How many plans stopped in each phase (`converged` for none).
    stopped_in: Vec<(String, usize)>,
}

impl Outcomes {
    fn record(&mut self, answer: &str) {
        let plan: serde_json::Value = serde_json::from_str(answer).expect("plan");
        let out = plan["expectedAmountOut"].as_str().and_then(|o| o.parse::<f64>().ok());
        if let (Some(bound), Some(out)) = (self.bound, out) {
            self.gaps_bps.push((bound - out) / bound * 1e4);
        }
        self.routes.push(plan["routes"].as_array().map_or(0, Vec::len));
        let phase = plan["metadata"]["stoppedIn"].as_str().unwrap_or("converged").to_string();
        match self.stopped_in.iter_mut().find(|(p, _)| *p == phase) {
            Some((_, count)) => *count = count.saturating_add(1),
            None => self.stopped_in.push((phase, 1)),
        }
    }

    fn summary(&mut self) -> String {
        self.gaps_bps.sort_by(f64::total_cmp);
        self.routes.sort_unstable();
        let median = |xs: &[f64]| xs.get(xs.len() / 2).map_or(f64::NAN, |x| *x);
        let stopped: Vec<String> =
            self.stopped_in.iter().map(|(phase, n)| format!("{phase} {n}")).collect();
        format!(
            "gap to the 10 s quote's bound median {:.4} bps (max {:.4}), routes median {} (min {}), stopped in: {}",
            median(&self.gaps_bps),
            self.gaps_bps.last().copied().unwrap_or(f64::NAN),
            self.routes.get(self.routes.len() / 2).copied().unwrap_or(0),
            self.routes.first().copied().unwrap_or(0),
            stopped.join(", ")
        )
    }
}

/// Appends each phase's ms of the plan `answer` (its `metadata.phaseMs`) to `phase_ms`.
fn record_phases(answer: &str, phase_ms: &mut Vec<(String, Vec<f64>)>) {
    let plan: serde_json::Value = serde_json::from_str(answer).expect("plan");
    let Some(spent) = plan["metadata"]["phaseMs"].as_object() else { return };
    for (phase, ms) in spent {
        let ms = ms.as_f64().unwrap_or(0.0);
        match phase_ms.iter_mut().find(|(p, _)| p == phase) {
            Some((_, all)) => all.push(ms),
            None => phase_ms.push((phase.clone(), vec![ms])),
        }
    }
}

/// `request` (JSON) asking `extra` wei more than its amountIn.
fn with_amount_plus(request: &str, extra: usize) -> String {
    let mut request: serde_json::Value = serde_json::from_str(request).expect("request");
    let amount: u128 = request["amountIn"].as_str().and_then(|a| a.parse().ok()).expect("amountIn");
    let asked = amount.saturating_add(u128::try_from(extra).unwrap_or(u128::MAX));
    request["amountIn"] = serde_json::Value::String(asked.to_string());
    request.to_string()
}

fn request_hops(request: &str) -> u64 {
    serde_json::from_str::<serde_json::Value>(request)
        .ok()
        .and_then(|r| r["maxHops"].as_u64())
        .unwrap_or(0)
}

/// The time this thread has run on a CPU, in ms (`CLOCK_THREAD_CPUTIME_ID`): on a shared machine
/// the wall clock also counts the waits for a CPU.
#[cfg(target_os = "linux")]
fn on_cpu_ms() -> Option<f64> {
    #[repr(C)]
    struct Timespec {
        seconds: i64,
        nanoseconds: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut time = Timespec { seconds: 0, nanoseconds: 0 };
    // SAFETY: clock_gettime writes one timespec (two i64 on 64-bit Linux) to a valid pointer.
    let status = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut time) };
    (status == 0).then(|| time.seconds as f64 * 1e3 + time.nanoseconds as f64 / 1e6)
}

#[cfg(not(target_os = "linux"))]
fn on_cpu_ms() -> Option<f64> {
    None
}
