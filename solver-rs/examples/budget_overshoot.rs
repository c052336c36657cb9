//! Wall-clock overshoot of `timeBudgetMs`: how far past its budget a quote returns. A benchmark,
//! not a test (timing depends on the machine and its load); the budget's correctness is proven
//! by work-counting tests (`route/budget_tests.rs`).
//!
//!   node --import tsx bench/dumpSyntheticMarket.ts --pools 10000 --sizes 100 --out /tmp/market-10000-100x.json
//!   cargo run --release --example budget_overshoot -- /tmp/market-10000-100x.json [iterations] [budgets ms, e.g. 1,5,50] [hops, e.g. 1,2,3]
//!
//! For each number of hops (default 1, 2 and 3) and each budget, quotes every dumped trade of
//! that many hops `iterations` times
//! (default 200), the i-th time at amountIn + i + 1 wei (a trade not quoted before: no memo of an
//! earlier quote's bound answers it, `route/bound_memos.rs`; the pair's graph is lent after the
//! first) and prints p50, p99 and the largest of (solve time − budget), where the solve
//! time is the whole `quote_json` call (request parsing and plan serialisation included), and
//! how many quotes the budget stopped (and in which phase). On Linux it also prints the same
//! figures with the time the thread waited for a CPU taken out (`/proc/thread-self/schedstat`):
//! on a shared machine a thread preempted past its deadline overshoots by the wait, which no
//! deadline check can shorten. Before the timed quotes of a trade and budget, two untimed: one at
//! 10 s (the pair's gas pricer cached, its graph lent) and one at the budget.
use solver::Solver;
use std::collections::BTreeMap;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(file) = args.get(1) else {
        eprintln!("usage: budget_overshoot <market.json> [iterations] [budgets ms] [hops]");
        std::process::exit(2);
    };
    let iterations: usize = args.get(2).map_or(200, |s| s.parse().expect("iterations"));
    let budgets: Vec<u32> = numbers(args.get(3), "1,5,50");
    let hop_counts: Vec<u64> = numbers(args.get(4), "1,2,3");
    let dump: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(file).expect("market file")).expect("JSON");
    let mut solver = Solver::from_config_json(&dump["config"].to_string()).expect("config");
    solver.upsert_pools_json(&dump["pools"].to_string()).expect("pools");
    for hops in hop_counts {
        overshoots(&solver, &dump, file, hops, iterations, &budgets);
    }
}

/// The comma-separated numbers of `arg`, else of `default`.
fn numbers<T: std::str::FromStr>(arg: Option<&String>, default: &str) -> Vec<T> {
    let list = arg.map_or(default, String::as_str);
    list.split(',')
        .map(|n| n.parse().unwrap_or_else(|_| panic!("not a number in {list}")))
        .collect()
}

/// Prints the overshoot of every budget on the dumped trades of `hops` hops.
fn overshoots(
    solver: &Solver,
    dump: &serde_json::Value,
    file: &str,
    hops: u64,
    iterations: usize,
    budgets: &[u32],
) {
    let requests: Vec<&serde_json::Value> = dump["requests"]
        .as_array()
        .expect("requests")
        .iter()
        .filter(|r| r["maxHops"].as_u64() == Some(hops))
        .collect();
    assert!(!requests.is_empty(), "no {hops}-hop request in {file}");
    println!(
        "{} pools, {} trade(s) of {hops} hops, {iterations} quotes each per budget",
        dump["pools"].as_array().map_or(0, Vec::len),
        requests.len()
    );
    for &budget in budgets {
        let mut overshoot_ms: Vec<f64> = Vec::with_capacity(iterations * requests.len());
        let mut unwaited_ms: Vec<f64> = Vec::with_capacity(iterations * requests.len());
        let mut stopped: BTreeMap<String, usize> = BTreeMap::new();
        for request in &requests {
            let mut request = (*request).clone();
            // Untimed: a quote with time to finish (the pair's gas pricer cached, its graph lent,
            // as in a service that has quoted the pair before), then one at the budget.
            request["timeBudgetMs"] = 10_000.into();
            let _ = solver.quote_json(&request.to_string());
            request["timeBudgetMs"] = budget.into();
            let _ = solver.quote_json(&request.to_string());
            let amount: u128 =
                request["amountIn"].as_str().and_then(|a| a.parse().ok()).expect("amountIn");
            for i in 0..iterations {
                // A fresh trade each time: no memo of an earlier quote's bound answers it.
                request["amountIn"] = (amount + 1 + i as u128).to_string().into();
                let request = request.to_string();
                let waited = runqueue_wait_ms();
                let start = Instant::now();
                let plan = std::hint::black_box(solver.quote_json(&request));
                let elapsed = start.elapsed().as_secs_f64() * 1e3;
                overshoot_ms.push(elapsed - f64::from(budget));
                if let (Some(before), Some(after)) = (waited, runqueue_wait_ms()) {
                    unwaited_ms.push(elapsed - (after - before) - f64::from(budget));
                }
                let how = match plan {
                    Ok(plan) => {
                        let plan: serde_json::Value = serde_json::from_str(&plan).expect("plan");
                        plan["metadata"]["stoppedIn"].as_str().unwrap_or("converged").to_string()
                    }
                    Err(error) => format!("error: {error}"),
                };
                *stopped.entry(how).or_default() += 1;
            }
        }
        println!(
            "{hops} hops, budget {budget} ms: solve time − budget {}; ended {stopped:?}",
            quantiles(&mut overshoot_ms)
        );
        if !unwaited_ms.is_empty() {
            println!(
                "{hops} hops, budget {budget} ms: the same without the waits for a CPU {}",
                quantiles(&mut unwaited_ms)
            );
        }
    }
}

/// p50, p99 and max of `values`, formatted.
fn quantiles(values: &mut [f64]) -> String {
    values.sort_by(f64::total_cmp);
    let at = |q: f64| values[((values.len() as f64 * q) as usize).min(values.len() - 1)];
    format!(
        "p50 {:+.3} ms, p99 {:+.3} ms, max {:+.3} ms",
        at(0.5),
        at(0.99),
        values[values.len() - 1]
    )
}

/// The time this thread has spent waiting on a run queue (Linux's schedstat, ns), in ms.
fn runqueue_wait_ms() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let waited: f64 = stat.split_whitespace().nth(1)?.parse().ok()?;
    Some(waited / 1e6)
}
