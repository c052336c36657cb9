//! For each trade of a dumped market: the certified bound (flow may stay at a middle token), the
//! bound on plans that strand nothing where the trade's graph is a chain of layers
//! (`route/convex/chain.rs`), and our plan, each in bps below the certified bound. It tells a gap
//! the plan format cannot close from one the optimizer leaves:
//!
//!   node --import tsx bench/dumpSyntheticMarket.ts --pools 100 --sizes 1,10,100 --gas-price 0 --out /tmp/m.json
//!   cargo run --release --example stranding_bound -- /tmp/m.json
use solver::address::Address;
use solver::route::clock::Deadline;
use solver::route::convex::chain::bound_without_stranding;
use solver::route::convex::graph::{Graph, Intermediates, Scope};
use solver::route::convex::{certificate, solve};
use solver::route::search::DexMask;
use solver::Solver;

fn main() {
    let Some(file) = std::env::args().nth(1) else {
        eprintln!("usage: stranding_bound <market.json>");
        std::process::exit(2);
    };
    let dump: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(file).expect("market file")).expect("JSON");
    let mut solver = Solver::from_config_json(&dump["config"].to_string()).expect("config");
    solver.upsert_pools_json(&dump["pools"].to_string()).expect("pools");
    let market = solver.market();
    for (index, request) in dump["requests"].as_array().expect("requests").iter().enumerate() {
        let token = |field: &str| {
            market
                .token(&Address::parse(request[field].as_str().expect("address")).expect("address"))
                .expect("token")
        };
        let amount: f64 = request["amountIn"].as_str().expect("amountIn").parse().expect("amount");
        let max_hops = request["maxHops"].as_u64().expect("maxHops") as usize;
        let scope = Scope {
            token_in: token("tokenIn"),
            token_out: token("tokenOut"),
            max_hops,
            intermediates: Intermediates::Any,
            dexes: DexMask::ALL,
        };
        let Ok(graph) = Graph::build(market, &scope) else {
            println!("request {index} ({max_hops} hops): graph too large");
            continue;
        };
        let dual = solve::minimise(&graph, amount, &Deadline::never());
        let Some(bound) = certificate::certified_bound(&graph, &dual.prices, amount).map(f64::from)
        else {
            println!("request {index} ({max_hops} hops): no bound");
            continue;
        };
        let bps = |x: f64| (bound - x) / bound * 1e4;
        let chain = bound_without_stranding(&graph, amount)
            .map(|b| format!("{:.4} bps", bps(b)))
            .unwrap_or_else(|| "not a chain".into());
        let plan: serde_json::Value = match solver.quote_json(&request.to_string()) {
            Ok(plan) => serde_json::from_str(&plan).expect("plan"),
            Err(error) => {
                println!("request {index} ({max_hops} hops): {error}");
                continue;
            }
        };
        let ours: f64 = plan["expectedAmountOut"].as_str().expect("out").parse().expect("out");
        println!(
            "request {index} ({max_hops} hops, {} copies): bound {bound:.6e}, without stranding {chain}, ours {:.4} bps ({} routes)",
            graph.copies.len(),
            bps(ours),
            plan["routes"].as_array().map_or(0, Vec::len)
        );
    }
}
