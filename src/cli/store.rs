//! `store stats|verify|export|import`: what the store of solved positions holds, a re-check of a
//! sample against the solver, and its text form for sharing.

use super::paths::StoreArgs;
use super::report::Report;
use super::{CliError, outln};
use clap::Subcommand;
use othello_explorer::notation::printable::count;
use othello_explorer::solver::SolverOptions;
use othello_explorer::store::{ExportError, ImportCheck, ImportError, Selection, Source, Store, StoreError};
use othello_explorer::textfile::{self, IMPORT_LIMIT};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// How `verify` and `import` re-solve entries.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The seed of the random choice of entries (default: from the clock).
    #[arg(long, allow_negative_numbers = true, value_parser = super::values::seed)]
    seed: Option<u64>,
    /// Memory for the transposition table, in MiB.
    #[arg(long, value_name = "M", default_value_t = 256, allow_negative_numbers = true, value_parser = super::values::hash_mb)]
    hash_mb: u64,
    /// Search threads (default: every core).
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = super::values::threads)]
    threads: Option<u64>,
}

impl CheckArgs {
    /// The solver settings.
    fn options(&self) -> SolverOptions {
        SolverOptions {
            hash_mb: self.hash_mb as usize,
            threads: self.threads.map(|t| t as usize).unwrap_or_else(super::cores),
            ..SolverOptions::default()
        }
    }

    /// The seed: given, or from the clock.
    fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(|| {
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(1)
        })
    }
}

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
        #[arg(long, value_name = "K", default_value_t = 20, allow_negative_numbers = true, value_parser = super::values::count)]
        sample: usize,
        /// Re-solve every entry (of the source chosen), not a sample.
        #[arg(long, conflicts_with = "sample")]
        all: bool,
        /// Only the entries from this source: book, explorer or import.
        #[arg(long, value_name = "SOURCE", value_parser = source_arg)]
        source: Option<Source>,
        #[command(flatten)]
        check: CheckArgs,
    },
    /// Write every entry as text, one line each (board side scoring score best source), to FILE or
    /// standard output.
    Export {
        /// The file to write (default, or `-`: standard output). A device, a FIFO or a folder is
        /// refused.
        file: Option<PathBuf>,
    },
    /// Merge the entries of a text file (the form `store export` writes) into the store, after
    /// re-solving every entry with at most --check-empties empty squares and a sample of the
    /// others: a wrong entry is refused (exit 1), and a wrong one in the sample keeps every
    /// unchecked entry out. The file is a regular file of at most 256 MiB, each line at most
    /// 4096 bytes. Ctrl-C stops it, what was written kept.
    Import {
        /// The file to read.
        file: PathBuf,
        /// Re-solve every entry with at most this many empty squares (0: none).
        #[arg(long, value_name = "E", default_value_t = 14, allow_negative_numbers = true, value_parser = super::values::count)]
        check_empties: usize,
        /// How many of the others to re-solve (the fewest empties first, at random among equals).
        #[arg(long, value_name = "K", default_value_t = 20, allow_negative_numbers = true, value_parser = super::values::count)]
        check_sample: usize,
        /// Import without re-solving anything.
        #[arg(long, conflicts_with_all = ["check_empties", "check_sample"])]
        no_check: bool,
        #[command(flatten)]
        check: CheckArgs,
    },
}

/// Opens the store the options name for writing; every `store` subcommand needs one.
pub fn open(args: &StoreArgs) -> Result<Store, CliError> {
    open_with(args, Store::open)
}

/// Opens the store the options name, with `open` (for writing, or read-only).
fn open_with(args: &StoreArgs, open: fn(&Path) -> Result<Store, StoreError>) -> Result<Store, CliError> {
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
    let store = open(&path).map_err(|e| CliError::Usage(e.to_string()))?;
    if store.old_format() {
        eprintln!(
            "othello-explorer: note: the store {} is in the old format (redb): read as it is; the first program that writes to it converts it",
            path.display()
        );
    }
    Ok(store)
}

/// The store `solve` and `bench` consult (with the shipped 6x6 book merged in, as the explorer
/// does): none with `--no-store`; a store that cannot be opened (damaged, not a store, an
/// old-format store an older othello-explorer holds) is a note on standard error, and the work
/// goes on without it. Other programs using the store are no reason: they share it.
pub fn open_for_solving(args: &StoreArgs) -> Result<Option<Store>, CliError> {
    let Some(path) = args.path() else { return Ok(None) };
    // A path that is not a regular file (a device, a FIFO, a folder) is refused: never used, nor
    // written over.
    othello_explorer::writefile::target(&path).map_err(|e| CliError::Usage(format!("--store {e}")))?;
    Ok(open_store_or_note(&path))
}

/// The store at `path`, or a note on standard error and none (damaged, not a store).
fn open_store_or_note(path: &Path) -> Option<Store> {
    match othello_explorer::analyst::kept::open(path) {
        Ok((store, _)) => Some(store),
        Err(e) => {
            eprintln!("othello-explorer: note: {e}; going on without the store");
            None
        }
    }
}

pub fn run(command: &StoreCommand, args: &StoreArgs) -> Result<(), CliError> {
    // Only import writes: the others open the file read-only, so they work on a read-only file
    // and never rewrite it.
    let store = match command {
        StoreCommand::Import { .. } => open(args)?,
        _ => open_with(args, Store::open_read_only)?,
    };
    let failed = |e: othello_explorer::store::StoreError| CliError::Usage(e.to_string());
    match command {
        StoreCommand::Stats { json } => stats(&store, *json),
        StoreCommand::Verify { sample, all, source, check } => {
            let options = check.options();
            let seed = check.seed();
            let selection = Selection { count: if *all { None } else { Some(*sample) }, source: *source, seed };
            let stop = Arc::new(AtomicBool::new(false));
            let caught = super::solve::catch_signals(&stop);
            let tty = std::io::IsTerminal::is_terminal(&std::io::stderr());
            let report = store
                .verify(&selection, &options, Some(stop), &mut |done, total| {
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
                "checked {}{} (seed {seed}): {}, {}",
                count(report.checked as i64, "entry", "entries"),
                source.map(|s| format!(" from {}", s.name())).unwrap_or_default(),
                count(report.mismatches.len() as i64, "mismatch", "mismatches"),
                count(report.nodes as i64, "node", "nodes")
            );
            if report.stopped {
                return Err(interrupted(&caught, "verify stopped before the end"));
            }
            if report.mismatches.is_empty() {
                Ok(())
            } else {
                Err(CliError::Failed(format!(
                    "{} of {} with the solver",
                    report.mismatches.len(),
                    count(report.checked as i64, "entry disagrees", "entries disagree")
                )))
            }
        }
        StoreCommand::Export { file: None } => export_to_stdout(&store),
        StoreCommand::Export { file: Some(file) } if file.as_os_str() == "-" => export_to_stdout(&store),
        StoreCommand::Export { file: Some(file) } => {
            let cannot = |e: std::io::Error| {
                // "No space left on device (os error 28)" reads "no space left on device (os error 28)".
                let text = e.to_string();
                let text = text.get(..1).map_or(String::new(), str::to_lowercase) + text.get(1..).unwrap_or("");
                CliError::Usage(format!("cannot write the export file {}: {text}", file.display()))
            };
            // A device, a FIFO or a folder is refused before anything is opened (a FIFO would block).
            let target = othello_explorer::writefile::target(file).map_err(|e| CliError::Usage(e.to_string()))?;
            let mut out = std::io::BufWriter::new(std::fs::File::create(target).map_err(cannot)?);
            let n = store.export(&mut out).map_err(|e| match e {
                ExportError::Write(e) => cannot(e),
                ExportError::Store(e) => failed(e),
            })?;
            std::io::Write::flush(&mut out).map_err(cannot)?;
            outln!("exported {} to {}", count(n as i64, "entry", "entries"), file.display());
            Ok(())
        }
        StoreCommand::Import { file, check_empties, check_sample, no_check, check } => {
            let check = (!*no_check).then(|| ImportCheck {
                exact_up_to: (*check_empties).min(64) as u32,
                sample: *check_sample,
                seed: check.seed(),
                options: check.options(),
            });
            import(&store, file, check.as_ref())
        }
    }
}

/// `store export` to standard output, through `write_stdout`, which ends quietly when the reader
/// goes (`export | head`).
fn export_to_stdout(store: &Store) -> Result<(), CliError> {
    let mut text = Vec::new();
    store.export(&mut text).map_err(|e| CliError::Usage(e.to_string()))?;
    super::write_stdout(&String::from_utf8_lossy(&text));
    Ok(())
}

/// Imports a regular file of at most [`IMPORT_LIMIT`] bytes (256 MiB; each line at most
/// [`othello_explorer::store::text::LINE_LIMIT`]), re-checked as `check` says; SIGINT or SIGTERM stops it cleanly.
fn import(store: &Store, file: &Path, check: Option<&ImportCheck>) -> Result<(), CliError> {
    let bytes = textfile::read_bytes(file, IMPORT_LIMIT).map_err(|e| CliError::Usage(e.to_string()))?;
    let text = textfile::decode(file, bytes).map_err(|e| CliError::Usage(e.to_string()))?;
    let stop = Arc::new(AtomicBool::new(false));
    let caught = super::solve::catch_signals(&stop);
    let tty = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let result = store
        .import_checked(&mut text.as_bytes(), check, Some(stop), &mut |done, total| {
            if tty {
                eprint!("\rchecking {done}/{total}");
            }
        })
        .map_err(|e| match e {
            ImportError::Store(e) => CliError::Usage(e.to_string()),
            e => CliError::Usage(format!("{} {e}", file.display())),
        })?;
    if tty && result.checked > 0 {
        eprintln!();
    }
    if let Some(check) = check {
        outln!(
            "checked {} of {} (every one with at most {}, and {} of the others): {} wrong",
            result.checked,
            count(result.entries as i64, "entry", "entries"),
            count(i64::from(check.exact_up_to), "empty", "empties"),
            result.sampled,
            result.refused.len()
        );
    }
    for r in &result.refused {
        outln!("refused: line {}: {} {}: {}", r.line, r.entry.position, r.entry.scoring.name(), r.problem);
    }
    if result.suspect > 0 {
        outln!(
            "not imported: {} (the sample found a wrong one: the file is not trusted)",
            count(result.suspect as i64, "unchecked entry", "unchecked entries")
        );
    }
    let s = result.summary;
    outln!(
        "imported {}: {} added, {} merged, {} unchanged, {} conflicting, {} refused",
        file.display(),
        s.added,
        s.merged,
        s.unchanged,
        s.conflicting,
        result.refused.len() + result.suspect
    );
    if result.stopped {
        let what = if result.written == 0 {
            "nothing was written".to_string()
        } else {
            format!("{} of {} written and kept", result.written, count(result.entries as i64, "entry", "entries"))
        };
        return Err(interrupted(&caught, &format!("import stopped: {what}")));
    }
    if result.refused.is_empty() && result.suspect == 0 {
        Ok(())
    } else {
        let why = if result.suspect == 0 {
            "the solver disagrees with them".to_string()
        } else {
            format!("the solver disagrees with {}, and the unchecked ones are not trusted", result.refused.len())
        };
        Err(CliError::Failed(format!(
            "{} of {} refused: {why}",
            result.refused.len() + result.suspect,
            count(result.entries as i64, "entry", "entries")
        )))
    }
}

/// The source named on the command line.
fn source_arg(text: &str) -> Result<Source, String> {
    Source::from_name(text).ok_or_else(|| format!("'{text}' is not a source: book, explorer or import"))
}

/// The error of a command a signal stopped: `what`, and the exit code 128 + the signal.
pub(super) fn interrupted(caught: &AtomicUsize, what: &str) -> CliError {
    let signal = caught.load(Ordering::Relaxed);
    let name = if signal == signal_hook::consts::SIGTERM as usize { "SIGTERM" } else { "SIGINT" };
    CliError::Interrupted {
        signal: if signal == 0 { signal_hook::consts::SIGINT as u8 } else { signal as u8 },
        message: format!("interrupted by {name}: {what}"),
    }
}

fn stats(store: &Store, json: bool) -> Result<(), CliError> {
    let stats = store.stats().map_err(|e| CliError::Usage(e.to_string()))?;
    let report = StatsReport {
        path: store.path().display().to_string(),
        entries: stats.total(),
        file_bytes: stats.file_bytes,
        by_size: stats
            .rows
            .iter()
            .map(|r| StatsLine {
                size: r.size.to_string(),
                scoring: r.scoring.name(),
                exact: r.exact,
                bounds: r.bounds,
                sources: Source::ALL.iter().map(|s| (s.name(), r.by_source[s.code() as usize])).collect(),
            })
            .collect(),
    };
    report.print(json);
    Ok(())
}

/// What `store stats` says: printed as text, or with `--json` as one JSON object.
#[derive(Serialize)]
struct StatsReport {
    path: String,
    entries: u64,
    file_bytes: u64,
    by_size: Vec<StatsLine>,
}

/// The entries of one size and scoring.
#[derive(Serialize)]
struct StatsLine {
    size: String,
    scoring: &'static str,
    exact: u64,
    bounds: u64,
    /// Entries by source, in the order of `Source::ALL`.
    #[serde(serialize_with = "as_map")]
    sources: Vec<(&'static str, u64)>,
}

/// Pairs as a JSON object, in their order.
fn as_map<S: serde::Serializer>(pairs: &[(&'static str, u64)], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = s.serialize_map(Some(pairs.len()))?;
    for (k, v) in pairs {
        map.serialize_entry(k, v)?;
    }
    map.end()
}

impl std::fmt::Display for StatsReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "store: {} ({} bytes)", self.path, self.file_bytes)?;
        writeln!(f, "entries: {}", self.entries)?;
        for r in &self.by_size {
            let sources: Vec<String> = r.sources.iter().map(|(name, n)| format!("{name} {n}")).collect();
            writeln!(f, "  {} {}: {} exact, {} bounds ({})", r.size, r.scoring, r.exact, r.bounds, sources.join(", "))?;
        }
        Ok(())
    }
}
