//! `perft`: leaf counts per depth with time and leaves per second.

use super::CliError;
use super::args::Resolved;
use super::outln;
use othello_explorer::perft::perft;
use serde_json::json;
use std::time::Instant;

pub fn run(resolved: &Resolved, depth: u32, json: bool) -> Result<(), CliError> {
    let position = resolved.position;
    if !json {
        outln!("perft from {position} ({})", position.size());
        outln!("{:>5}  {:>15}  {:>10}  {:>14}", "depth", "leaves", "seconds", "leaves/s");
    }
    let mut results = Vec::new();
    for d in 1..=depth {
        let t = Instant::now();
        let leaves = perft(&position, d);
        let seconds = t.elapsed().as_secs_f64();
        if json {
            results.push(json!({ "depth": d, "leaves": leaves, "seconds": seconds }));
        } else {
            let rate = if seconds > 0.0 { format!("{:.0}", leaves as f64 / seconds) } else { "-".into() };
            outln!("{d:>5}  {leaves:>15}  {seconds:>10.3}  {rate:>14}");
        }
    }
    if json {
        outln!("{}", json!({ "size": position.size().n(), "board": position.to_string(), "results": results }));
    }
    Ok(())
}
