//! `perft`: leaf counts per depth with time and leaves per second.

use super::args::Resolved;
use super::common::CliError;
use super::common::outln;
use super::report::print_json;
use othello_explorer::board::perft::perft;
use serde::Serialize;
use std::time::Instant;

pub fn run(resolved: &Resolved, depth: u32, json: bool) -> Result<(), CliError> {
    let position = resolved.position;
    if !json {
        outln!("perft from {position} ({})", position.size());
        outln!("{:>5}  {:>15}  {:>10}  {:>14}", "depth", "leaves", "seconds", "leaves/s");
    }
    let mut report = PerftReport { size: position.size().n(), board: position.to_string(), results: Vec::new() };
    for d in 1..=depth {
        let t = Instant::now();
        let leaves = perft(&position, d);
        let row = PerftRow { depth: d, leaves, seconds: t.elapsed().as_secs_f64() };
        if !json {
            outln!("{row}");
        }
        report.results.push(row);
    }
    if json {
        print_json(&report);
    }
    Ok(())
}

/// `perft`'s result: the text prints each row as it is counted; the JSON is this value.
#[derive(Serialize)]
struct PerftReport {
    size: usize,
    board: String,
    results: Vec<PerftRow>,
}

/// One depth's count.
#[derive(Serialize)]
struct PerftRow {
    depth: u32,
    leaves: u64,
    seconds: f64,
}

impl std::fmt::Display for PerftRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (d, leaves, seconds) = (self.depth, self.leaves, self.seconds);
        let rate = if seconds > 0.0 { format!("{:.0}", leaves as f64 / seconds) } else { "-".into() };
        write!(f, "{d:>5}  {leaves:>15}  {seconds:>10.3}  {rate:>14}")
    }
}
