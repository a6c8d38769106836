//! `store stats|verify|export|import`: what the store of solved positions holds, a re-check of a
//! sample against the solver, and its text form for sharing.

use super::paths::StoreArgs;
use super::{CliError, outln};
use clap::Subcommand;
use othello_explorer::solver::SolverOptions;
use othello_explorer::store::{ImportError, Source, Store};
use serde_json::json;
use std::io::BufReader;
use std::path::{Path, PathBuf};

#[derive(Subcommand, Debug)]
pub enum StoreCommand {
    /// Count the entries per board size and scoring rule: exact or bounds, and where they came from.
    Stats {
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Re-solve a sample of entries (those with the fewest empty squares, at random among equals)
    /// and report any the solver disagrees with; exit 1 on a mismatch.
    Verify {
        /// How many entries to re-solve.
        #[arg(long, value_name = "K", default_value_t = 20)]
        sample: usize,
        /// The seed of the random choice (default: from the clock).
        #[arg(long)]
        seed: Option<u64>,
        /// Memory for the transposition table, in MiB.
        #[arg(long, value_name = "M", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=65536))]
        hash_mb: u64,
        /// Search threads (default: every core).
        #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: Option<u64>,
    },
    /// Write every entry as text, one line each (board side scoring score best source), to FILE or
    /// standard output.
    Export {
        /// The file to write (default: standard output).
        file: Option<PathBuf>,
    },
    /// Merge the entries of a text file (the form `store export` writes) into the store.
    Import {
        /// The file to read.
        file: PathBuf,
    },
}

/// Opens the store the options name; every `store` subcommand needs one.
pub fn open(args: &StoreArgs) -> Result<Store, CliError> {
    let path = match args.path() {
        Some(path) => path,
        None if args.no_store => {
            return Err(CliError::Usage("this command needs a store, and --no-store was given".into()));
        }
        None => {
            return Err(CliError::Usage(
                "no data directory on this system: choose a store file with --store PATH".into(),
            ));
        }
    };
    Store::open(&path).map_err(|e| CliError::Usage(e.to_string()))
}

pub fn run(command: &StoreCommand, args: &StoreArgs) -> Result<(), CliError> {
    let store = open(args)?;
    let failed = |e: othello_explorer::store::StoreError| CliError::Usage(e.to_string());
    match command {
        StoreCommand::Stats { json } => stats(&store, *json),
        StoreCommand::Verify { sample, seed, hash_mb, threads } => {
            let options = SolverOptions {
                hash_mb: *hash_mb as usize,
                threads: threads.map(|t| t as usize).unwrap_or_else(super::cores),
                ..SolverOptions::default()
            };
            let seed = seed.unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_nanos() as u64)
                    .unwrap_or(1)
            });
            let tty = std::io::IsTerminal::is_terminal(&std::io::stderr());
            let report = store
                .verify(*sample, seed, &options, &mut |done, total| {
                    if tty {
                        eprint!("\rverified {done}/{total}");
                    }
                })
                .map_err(failed)?;
            if tty && report.checked > 0 {
                eprintln!();
            }
            for m in &report.mismatches {
                outln!("mismatch: {} {}: {}", m.entry.position, m.entry.scoring.name(), m.problem);
            }
            outln!(
                "checked {} entries (seed {seed}): {} mismatches, {} nodes",
                report.checked,
                report.mismatches.len(),
                report.nodes
            );
            if report.mismatches.is_empty() {
                Ok(())
            } else {
                Err(CliError::Failed(format!(
                    "{} of {} entries disagree with the solver",
                    report.mismatches.len(),
                    report.checked
                )))
            }
        }
        StoreCommand::Export { file: None } => {
            // Through `write_stdout`, which ends quietly when the reader goes (`export | head`).
            let mut text = Vec::new();
            store.export(&mut text).map_err(failed)?;
            super::write_stdout(&String::from_utf8_lossy(&text));
            Ok(())
        }
        StoreCommand::Export { file: Some(file) } => {
            let cannot = |e: std::io::Error| CliError::Usage(format!("cannot write {}: {e}", file.display()));
            let mut out = std::io::BufWriter::new(std::fs::File::create(file).map_err(cannot)?);
            let n = store.export(&mut out).map_err(failed)?;
            std::io::Write::flush(&mut out).map_err(cannot)?;
            outln!("exported {n} entries to {}", file.display());
            Ok(())
        }
        StoreCommand::Import { file } => import(&store, file),
    }
}

fn import(store: &Store, file: &Path) -> Result<(), CliError> {
    let input =
        std::fs::File::open(file).map_err(|e| CliError::Usage(format!("cannot read {}: {e}", file.display())))?;
    let summary = store.import(&mut BufReader::new(input)).map_err(|e| match e {
        ImportError::Store(e) => CliError::Usage(e.to_string()),
        e => CliError::Usage(format!("{} {e}", file.display())),
    })?;
    outln!(
        "imported {}: {} added, {} merged, {} unchanged, {} conflicting",
        file.display(),
        summary.added,
        summary.merged,
        summary.unchanged,
        summary.conflicting
    );
    Ok(())
}

fn stats(store: &Store, json: bool) -> Result<(), CliError> {
    let stats = store.stats().map_err(|e| CliError::Usage(e.to_string()))?;
    if json {
        let rows: Vec<_> = stats
            .rows
            .iter()
            .map(|r| {
                let mut sources = serde_json::Map::new();
                for s in Source::ALL {
                    sources.insert(s.name().into(), json!(r.by_source[s.code() as usize]));
                }
                json!({
                    "size": r.size.to_string(),
                    "scoring": r.scoring.name(),
                    "exact": r.exact,
                    "bounds": r.bounds,
                    "sources": sources,
                })
            })
            .collect();
        outln!(
            "{}",
            json!({ "path": store.path().display().to_string(), "entries": stats.total(), "file_bytes": stats.file_bytes, "by_size": rows })
        );
        return Ok(());
    }
    outln!("store: {} ({} bytes)", store.path().display(), stats.file_bytes);
    outln!("entries: {}", stats.total());
    for r in &stats.rows {
        let sources: Vec<String> =
            Source::ALL.iter().map(|s| format!("{} {}", s.name(), r.by_source[s.code() as usize])).collect();
        outln!("  {} {}: {} exact, {} bounds ({})", r.size, r.scoring.name(), r.exact, r.bounds, sources.join(", "));
    }
    Ok(())
}
