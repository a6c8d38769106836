//! `book`: solve the positions of the first plies (and optionally the perfect lines) into the
//! store, so the explorer shows their scores at once.

use super::common::{CliError, SolverArgs};
use super::paths::StoreArgs;
use super::report::{Align, Report, Table};
use othello_explorer::Size;
use othello_explorer::analyst::book::{self, BookError, BookOptions};
use othello_explorer::notation::printable::count;
use othello_explorer::solver::Limits;
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

pub fn run(
    size: u8,
    plies: u32,
    lines: bool,
    near_empties: u32,
    solver: &SolverArgs,
    args: &StoreArgs,
    json: bool,
) -> Result<(), CliError> {
    let size = Size::from_n(size as usize)
        .ok_or_else(|| CliError::Usage(format!("--size {size}: the board size must be 4, 6 or 8")))?;
    let store = super::store::open(args)?;
    // SIGINT and SIGTERM stop the search in hand; what was solved before is kept, and the store
    // is closed cleanly.
    let stop = Arc::new(AtomicBool::new(false));
    let caught = super::signals::catch_signals(&stop);
    let limits = Limits { stop: Some(stop), ..Limits::default() };
    let options = BookOptions { size, plies, lines, near_empties, solver: solver.options()?, limits };
    eprintln!(
        "book: {size}, plies 0..{plies}{}, {}, {} MiB table, into {}",
        if lines {
            format!(
                " and the perfect lines (near neighbours with at most {})",
                count(i64::from(near_empties), "empty", "empties")
            )
        } else {
            String::new()
        },
        count(options.solver.threads as i64, "thread", "threads"),
        options.solver.hash_mb,
        store.path().display()
    );
    let store_path = store.path().display().to_string();
    // A line per position would flood the log while following the lines: one a second at most,
    // and the last of each stage.
    let mut last = std::time::Instant::now() - std::time::Duration::from_secs(2);
    let summary = book::build(store, &options, &mut |p| {
        if last.elapsed().as_secs_f64() < 1.0 && p.done < p.total {
            return;
        }
        last = std::time::Instant::now();
        eprintln!(
            "{}: {}/{}, {}, {:.1} s",
            p.stage,
            p.done,
            count(p.total as i64, "position", "positions"),
            count(p.nodes as i64, "node", "nodes"),
            p.elapsed.as_secs_f64()
        );
    })
    .map_err(|e| match e {
        BookError::Store(e) => CliError::Usage(e.to_string()),
        BookError::Kept(e) => CliError::Usage(format!("{store_path}: {e}")),
        BookError::Table(e) => CliError::Usage(format!("--hash-mb: {e}")),
        BookError::Stopped(_) if caught.load(Ordering::Relaxed) != 0 => super::store::interrupted(
            &caught,
            "the book stopped; what was solved before is stored, run it again to go on",
        ),
        e => CliError::Failed(e.to_string()),
    })?;
    let report = BookReport {
        stages: summary
            .stages
            .iter()
            .map(|s| Stage {
                stage: s.stage.clone(),
                positions: s.positions,
                skipped: s.skipped,
                nodes: s.nodes,
                seconds: s.time.as_secs_f64(),
            })
            .collect(),
    };
    report.print(json);
    Ok(())
}

/// What `book` did, stage by stage: a table, or with `--json` one JSON object.
#[derive(Serialize)]
struct BookReport {
    stages: Vec<Stage>,
}

/// One stage's cost.
#[derive(Serialize)]
struct Stage {
    stage: String,
    positions: usize,
    skipped: usize,
    nodes: u64,
    seconds: f64,
}

impl std::fmt::Display for BookReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut table = Table::new(&[
            ("", 9, Align::Left),
            (" ", 9, Align::Right),
            (" ", 8, Align::Right),
            (" ", 13, Align::Right),
            (" ", 11, Align::Right),
        ]);
        table.line("stage     positions  skipped         nodes     seconds");
        for s in &self.stages {
            let seconds = format!("{:.1}", s.seconds);
            table.row(&[s.stage.clone(), s.positions.to_string(), s.skipped.to_string(), s.nodes.to_string(), seconds]);
        }
        write!(f, "{table}")
    }
}
