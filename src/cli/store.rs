//! `store stats|verify|export|import`: what the store of solved positions holds, a re-check of a
//! sample against the solver, and its text form for sharing.

use super::common::{CliError, outln};
use super::paths::StoreArgs;
use super::report::Report;
use clap::Subcommand;
use othello_explorer::notation::printable::count;
use othello_explorer::notation::textfile::{self, IMPORT_LIMIT};
use othello_explorer::solver::SolverOptions;
use othello_explorer::store::{ExportError, ImportCheck, ImportError, Selection, Source, Store, StoreError};
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
    #[arg(long, value_name = "M", default_value_t = othello_explorer::solver::DEFAULT_HASH_MB as u64, allow_negative_numbers = true, value_parser = super::values::hash_mb)]
    hash_mb: u64,
    /// Search threads (default: every core).
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = super::values::threads)]
    threads: Option<u64>,
    /// The budget of one entry's check, in nodes (its score and its best move's together, counted
    /// every few thousand nodes): an entry that needs more is skipped, neither confirmed nor
    /// refuted, and reported as skipped.
    #[arg(long, value_name = "N", default_value_t = CHECK_NODES, allow_negative_numbers = true, value_parser = super::values::nodes)]
    check_nodes: u64,
}

/// The default budget of one entry's check: 20 million nodes, a second or so of one core. An
/// 8x8 entry with up to about 20 empty squares, or a 6x6 one with up to about 24, fits; the 8x8
/// start would take longer than anyone waits.
const CHECK_NODES: u64 = 20_000_000;

impl CheckArgs {
    /// The solver settings.
    fn options(&self) -> SolverOptions {
        SolverOptions {
            hash_mb: self.hash_mb as usize,
            threads: self.threads.map(|t| t as usize).unwrap_or_else(super::common::cores),
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
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
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
    /// others, each within --check-nodes (an entry over it is skipped and reported): a wrong entry
    /// is refused (exit 1), and a wrong one in the sample keeps every unchecked entry out. The
    /// file is a regular file of at most 256 MiB, each line at most 4096 bytes. Ctrl-C stops it,
    /// what was written kept.
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
        #[arg(long, conflicts_with_all = ["check_empties", "check_sample", "check_nodes"])]
        no_check: bool,
        #[command(flatten)]
        check: CheckArgs,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
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
    othello_explorer::notation::writefile::target(&path).map_err(|e| CliError::Usage(format!("--store {e}")))?;
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
        StoreCommand::Verify { sample, all, source, check, json } => {
            let options = check.options();
            let seed = check.seed();
            let selection = Selection { count: if *all { None } else { Some(*sample) }, source: *source, seed };
            let stop = Arc::new(AtomicBool::new(false));
            let caught = super::signals::catch_signals(&stop);
            let tty = std::io::IsTerminal::is_terminal(&std::io::stderr());
            let found = store
                .verify(&selection, &options, Some(check.check_nodes), Some(stop), &mut |done, total| {
                    if tty {
                        eprint!("\rverified {done}/{total}");
                    }
                })
                .map_err(failed)?;
            if tty && found.checked + found.skipped.len() > 0 {
                eprintln!();
            }
            let report = VerifyReport {
                checked: found.checked,
                source: source.map(Source::name),
                seed,
                mismatches: found.mismatches.iter().map(|m| EntryNote::of(None, &m.entry, &m.problem)).collect(),
                skipped: found.skipped.iter().map(|e| EntryNote::of(None, e, &over(check.check_nodes))).collect(),
                check_nodes: check.check_nodes,
                nodes: found.nodes,
                stopped: found.stopped,
            };
            report.print(*json);
            if found.stopped {
                return Err(interrupted(&caught, "verify stopped before the end"));
            }
            if found.mismatches.is_empty() {
                Ok(())
            } else {
                Err(CliError::Failed(format!(
                    "{} of {} with the solver",
                    found.mismatches.len(),
                    count(found.checked as i64, "entry disagrees", "entries disagree")
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
            let target =
                othello_explorer::notation::writefile::target(file).map_err(|e| CliError::Usage(e.to_string()))?;
            let mut out = std::io::BufWriter::new(std::fs::File::create(target).map_err(cannot)?);
            let n = store.export(&mut out).map_err(|e| match e {
                ExportError::Write(e) => cannot(e),
                ExportError::Store(e) => failed(e),
            })?;
            std::io::Write::flush(&mut out).map_err(cannot)?;
            outln!("exported {} to {}", count(n as i64, "entry", "entries"), file.display());
            Ok(())
        }
        StoreCommand::Import { file, check_empties, check_sample, no_check, check, json } => {
            let check = (!*no_check).then(|| ImportCheck {
                exact_up_to: (*check_empties).min(64) as u32,
                sample: *check_sample,
                seed: check.seed(),
                max_nodes: Some(check.check_nodes),
                options: check.options(),
            });
            import(&store, file, check.as_ref(), *json)
        }
    }
}

/// `store export` to standard output, through `write_stdout`, which ends quietly when the reader
/// goes (`export | head`).
fn export_to_stdout(store: &Store) -> Result<(), CliError> {
    let mut text = Vec::new();
    store.export(&mut text).map_err(|e| CliError::Usage(e.to_string()))?;
    super::common::write_stdout(&String::from_utf8_lossy(&text));
    Ok(())
}

/// Imports a regular file of at most [`IMPORT_LIMIT`] bytes (256 MiB; each line at most
/// [`othello_explorer::store::text::LINE_LIMIT`]), re-checked as `check` says; SIGINT or SIGTERM stops it cleanly.
fn import(store: &Store, file: &Path, check: Option<&ImportCheck>, json: bool) -> Result<(), CliError> {
    let bytes = textfile::read_bytes(file, IMPORT_LIMIT).map_err(|e| CliError::Usage(e.to_string()))?;
    let text = textfile::decode(file, bytes).map_err(|e| CliError::Usage(e.to_string()))?;
    let stop = Arc::new(AtomicBool::new(false));
    let caught = super::signals::catch_signals(&stop);
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
    if tty && result.checked + result.skipped.len() > 0 {
        eprintln!();
    }
    let s = result.summary;
    let report = ImportReport {
        file: file.display().to_string(),
        entries: result.entries,
        check: check.map(|c| ImportCheckReport {
            checked: result.checked,
            every_up_to_empties: c.exact_up_to,
            sampled: result.sampled,
            wrong: result.refused.len(),
            skipped: result.skipped.len(),
            check_nodes: c.max_nodes,
            nodes: result.nodes,
        }),
        refused: result.refused.iter().map(|r| EntryNote::of(Some(r.line), &r.entry, &r.problem)).collect(),
        skipped: result
            .skipped
            .iter()
            .map(|(line, e)| EntryNote::of(Some(*line), e, &over(check.and_then(|c| c.max_nodes).unwrap_or(0))))
            .collect(),
        not_imported_unchecked: result.suspect,
        added: s.added,
        merged: s.merged,
        unchanged: s.unchanged,
        conflicting: s.conflicting,
        refused_total: result.refused.len() + result.suspect,
        written: result.written,
        stopped: result.stopped,
    };
    report.print(json);
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

/// Why an entry was skipped: its check needs more than `nodes`.
fn over(nodes: u64) -> String {
    format!("its check needs more than {}", super::common::counted(nodes, "node", "nodes"))
}

/// An entry named in a report: its line in the imported file (none for a stored entry), the
/// board, the scoring rule, and what is said of it.
#[derive(Serialize)]
struct EntryNote {
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    board: String,
    scoring: &'static str,
    problem: String,
}

impl EntryNote {
    fn of(line: Option<usize>, entry: &othello_explorer::store::Entry, problem: &str) -> EntryNote {
        EntryNote {
            line,
            board: entry.position.to_string(),
            scoring: entry.scoring.name(),
            problem: problem.to_string(),
        }
    }
}

impl std::fmt::Display for EntryNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        write!(f, "{} {}: {}", self.board, self.scoring, self.problem)
    }
}

/// What `store verify` says: printed as text, or with `--json` as one JSON object.
#[derive(Serialize)]
struct VerifyReport {
    /// Entries re-solved to the end.
    checked: usize,
    /// Only the entries of this source were chosen.
    source: Option<&'static str>,
    seed: u64,
    mismatches: Vec<EntryNote>,
    /// Entries given up: their check needed more than `check_nodes`.
    skipped: Vec<EntryNote>,
    check_nodes: u64,
    nodes: u64,
    stopped: bool,
}

impl std::fmt::Display for VerifyReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for m in &self.mismatches {
            writeln!(f, "mismatch: {m}")?;
        }
        for s in &self.skipped {
            writeln!(f, "skipped: {s}")?;
        }
        writeln!(
            f,
            "checked {}{} (seed {}): {}, {} skipped (over {} each), {}",
            count(self.checked as i64, "entry", "entries"),
            self.source.map(|s| format!(" from {s}")).unwrap_or_default(),
            self.seed,
            count(self.mismatches.len() as i64, "mismatch", "mismatches"),
            self.skipped.len(),
            super::common::counted(self.check_nodes, "node", "nodes"),
            count(self.nodes as i64, "node", "nodes")
        )
    }
}

/// What `store import` says: printed as text, or with `--json` as one JSON object.
#[derive(Serialize)]
struct ImportReport {
    file: String,
    /// Entries in the file.
    entries: usize,
    /// What the check did (absent with `--no-check`).
    check: Option<ImportCheckReport>,
    refused: Vec<EntryNote>,
    /// Entries whose check needed more than the budget: imported unchecked, as the entries
    /// beyond the sample are.
    skipped: Vec<EntryNote>,
    /// Entries left out because the sample found a wrong one.
    not_imported_unchecked: usize,
    added: u64,
    merged: u64,
    unchanged: u64,
    conflicting: u64,
    refused_total: usize,
    /// Entries handed to the store (before it merged them).
    written: usize,
    stopped: bool,
}

/// The check of `store import`.
#[derive(Serialize)]
struct ImportCheckReport {
    /// Entries re-solved to the end.
    checked: usize,
    /// Every entry with at most this many empty squares was chosen...
    every_up_to_empties: u32,
    /// ... and this many of the others.
    sampled: usize,
    wrong: usize,
    skipped: usize,
    check_nodes: Option<u64>,
    nodes: u64,
}

impl std::fmt::Display for ImportReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(c) = &self.check {
            writeln!(
                f,
                "checked {} of {} (every one with at most {}, and {} of the others): {} wrong, {} skipped (over {} each)",
                c.checked,
                count(self.entries as i64, "entry", "entries"),
                count(i64::from(c.every_up_to_empties), "empty", "empties"),
                c.sampled,
                c.wrong,
                c.skipped,
                super::common::counted(c.check_nodes.unwrap_or(0), "node", "nodes")
            )?;
        }
        for r in &self.refused {
            writeln!(f, "refused: {r}")?;
        }
        for s in &self.skipped {
            writeln!(f, "skipped: {s}")?;
        }
        if self.not_imported_unchecked > 0 {
            writeln!(
                f,
                "not imported: {} (the sample found a wrong one: the file is not trusted)",
                count(self.not_imported_unchecked as i64, "unchecked entry", "unchecked entries")
            )?;
        }
        writeln!(
            f,
            "imported {}: {} added, {} merged, {} unchanged, {} conflicting, {} refused",
            self.file, self.added, self.merged, self.unchanged, self.conflicting, self.refused_total
        )
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
