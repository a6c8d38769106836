//! `bench FILE --lab`: the outcome lab ([`othello_explorer::studies::lab::outcome`]) over the positions of
//! a problem file, in the shape of the tables of Morita, Hashimoto and Kobayashi (GPW 2010): per
//! position the time of each method ("> LIMIT" when it ran out of its time, or was refused),
//! then the nodes of each, then WPNS's total time and the time it spent selecting nodes. Each
//! method gets `--limit` seconds a position. Every outcome proven is checked against the sign of
//! the best score the file lists; a difference exits 1.

use super::{isa_level, read_problems, select};
use crate::cli::common::{CliError, outln, thousands};
use crate::cli::outcome_rows::MethodRow;
use crate::cli::report::print_json;
use othello_explorer::Scoring;
use othello_explorer::studies::lab::outcome::{self, Budget, Method, Outcome, OutcomeError, Run};
use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The time each method gets on each position unless `--limit` says otherwise.
pub const DEFAULT_LIMIT: Duration = Duration::from_secs(60);

/// A time as the article writes them: `0.348 s`, `52.1 s`, `32 min 34 s`, `11 h 14 min`.
fn time_text(seconds: f64) -> String {
    if seconds < 10.0 {
        format!("{seconds:.3} s")
    } else if seconds < 60.0 {
        format!("{seconds:.1} s")
    } else if seconds < 3600.0 {
        let s = seconds.round() as u64;
        format!("{} min {:02} s", s / 60, s % 60)
    } else {
        let m = (seconds / 60.0).round() as u64;
        format!("{} h {:02} min", m / 60, m % 60)
    }
}

/// The limit as a table writes it: `> 60 s`.
fn over(limit: Duration) -> String {
    let s = limit.as_secs_f64();
    if s == s.trunc() { format!("> {s:.0} s") } else { format!("> {}", time_text(s)) }
}

/// One position's results.
struct Row {
    index: usize,
    empties: u32,
    expected: Option<Outcome>,
    results: Vec<Result<Run, OutcomeError>>,
}

/// The header of a table with one column per method.
fn header() -> String {
    let mut line = format!("{:>5}  {:>7}  {:>7}", "No.", "empties", "listed");
    for m in Method::ALL {
        line.push_str(&format!("  {:>w$}", m.name(), w = width(m)));
    }
    line
}

/// A method's column width: its name, or a time like `10 min 00 s`.
fn width(m: Method) -> usize {
    m.name().len().max(12)
}

fn row_start(row: &Row) -> String {
    let listed = row.expected.map_or("--", Outcome::name);
    format!("{:>5}  {:>7}  {listed:>7}", row.index, row.empties)
}

/// The cell of `r` in the time table.
fn time_cell(r: &Result<Run, OutcomeError>, limit: Duration, expected: Option<Outcome>) -> String {
    match r {
        Ok(run) if expected.is_some_and(|e| e != run.outcome) => format!("{}!", run.outcome),
        Ok(run) => time_text(run.elapsed.as_secs_f64()),
        Err(_) => over(limit),
    }
}

fn time_row(row: &Row, limit: Duration) -> String {
    let mut line = row_start(row);
    for r in &row.results {
        let m = match r {
            Ok(run) => run.method,
            Err(e) => e.method(),
        };
        line.push_str(&format!("  {:>w$}", time_cell(r, limit, row.expected), w = width(m)));
    }
    line
}

fn nodes_row(row: &Row) -> String {
    let mut line = row_start(row);
    for r in &row.results {
        let (m, cell) = match r {
            Ok(run) => (run.method, thousands(run.nodes)),
            Err(OutcomeError::OverBudget { method, nodes, .. }) => (*method, format!("> {}", thousands(*nodes))),
            Err(e) => (e.method(), "refused".to_string()),
        };
        line.push_str(&format!("  {cell:>w$}", w = width(m)));
    }
    line
}

/// `bench --lab --json`: `{file, limit_seconds, isa, positions: [{index, empties, expected,
/// methods}], mismatches: [{index, method}]}`.
#[derive(Serialize)]
struct LabReport<'a> {
    file: &'a str,
    limit_seconds: f64,
    isa: &'static str,
    positions: Vec<LabPosition>,
    mismatches: Vec<Mismatch>,
}

/// One position of the file: its listed outcome and each method's run.
#[derive(Serialize)]
struct LabPosition {
    index: usize,
    empties: u32,
    expected: Option<&'static str>,
    methods: Vec<MethodRow>,
}

/// A method that found an outcome other than the listed one.
#[derive(Serialize)]
struct Mismatch {
    index: usize,
    method: &'static str,
}

pub fn run(path: &str, range: Option<&str>, limit: Option<Duration>, json: bool) -> Result<(), CliError> {
    let problems = read_problems(path, Scoring::Standard)?;
    let (first, selected) = select(path, &problems, range)?;
    let limit = limit.unwrap_or(DEFAULT_LIMIT);
    let budget = Budget::time(limit);
    let stop = AtomicBool::new(false);
    if !json {
        outln!(
            "outcome lab over {path}, positions {first}-{}: at most {} a method and position, instruction set {}",
            first + selected.len() - 1,
            time_text(limit.as_secs_f64()),
            isa_level()
        );
        outln!(
            "\ntime per method (\"{}\": over the limit or refused; \"win!\": an outcome other than listed)",
            over(limit)
        );
        outln!("{}", header());
    }
    let mut rows = Vec::new();
    for (k, problem) in selected.iter().enumerate() {
        let position = problem.position;
        // The listed scores are for the side that moves, after a forced pass.
        let expected = problem.best_score().map(|s| Outcome::of_score(if position.must_pass() { -s } else { s }));
        let mut results = Vec::new();
        outcome::compare(&position, budget, &stop, &mut |r| results.push(r));
        let row = Row { index: first + k, empties: position.empty_count(), expected, results };
        if !json {
            outln!("{}", time_row(&row, limit));
        }
        rows.push(row);
    }
    let mismatches: Vec<(usize, Method)> = rows
        .iter()
        .flat_map(|row| {
            row.results.iter().filter_map(move |r| match (r, row.expected) {
                (Ok(run), Some(e)) if run.outcome != e => Some((row.index, run.method)),
                _ => None,
            })
        })
        .collect();
    let wpns = |row: &Row| {
        row.results.iter().find_map(|r| match r {
            Ok(run) if run.method == Method::Wpns => Some(*run),
            _ => None,
        })
    };
    if json {
        let report = LabReport {
            file: path,
            limit_seconds: limit.as_secs_f64(),
            isa: isa_level(),
            positions: rows
                .iter()
                .map(|row| LabPosition {
                    index: row.index,
                    empties: row.empties,
                    expected: row.expected.map(Outcome::name),
                    methods: row.results.iter().map(MethodRow::of).collect(),
                })
                .collect(),
            mismatches: mismatches.iter().map(|&(index, m)| Mismatch { index, method: m.name() }).collect(),
        };
        print_json(&report);
    } else {
        outln!("\nnodes per method (\"> n\": the nodes searched before the limit)");
        outln!("{}", header());
        for row in &rows {
            outln!("{}", nodes_row(row));
        }
        outln!(
            "\nwpns: total time, and the time spent selecting (the weak numbers fetched and computed, the child chosen)"
        );
        outln!("{:>5}  {:>7}  {:>12}  {:>12}  {:>6}", "No.", "empties", "total", "selecting", "share");
        for row in &rows {
            match wpns(row) {
                Some(run) => outln!(
                    "{:>5}  {:>7}  {:>12}  {:>12}  {:>5.0}%",
                    row.index,
                    row.empties,
                    time_text(run.elapsed.as_secs_f64()),
                    time_text(run.selecting.unwrap_or_default().as_secs_f64()),
                    100.0 * run.selection_share().unwrap_or(0.0)
                ),
                None => outln!("{:>5}  {:>7}  {:>12}  {:>12}  {:>6}", row.index, row.empties, over(limit), "--", "--"),
            }
        }
        if !mismatches.is_empty() {
            let list: Vec<String> = mismatches.iter().map(|(i, m)| format!("#{i} {m}")).collect();
            outln!("\nmismatches: {}", list.join(", "));
        }
    }
    if mismatches.is_empty() {
        Ok(())
    } else {
        let list: Vec<String> = mismatches.iter().map(|(i, m)| format!("#{i} {m}")).collect();
        Err(CliError::Failed(format!(
            "{} outcome(s) other than {path}'s listed scores: {}",
            mismatches.len(),
            list.join(", ")
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_like_the_article() {
        assert_eq!(time_text(0.3481), "0.348 s");
        assert_eq!(time_text(52.06), "52.1 s");
        assert_eq!(time_text(32.0 * 60.0 + 34.2), "32 min 34 s");
        assert_eq!(time_text(11.0 * 3600.0 + 14.0 * 60.0 + 5.0), "11 h 14 min");
        assert_eq!(over(Duration::from_secs(60)), "> 60 s");
        assert_eq!(over(Duration::from_secs(5)), "> 5 s");
        assert_eq!(over(Duration::from_millis(2500)), "> 2.500 s");
        assert_eq!(thousands(98_732_834), "98,732,834");
    }
}
