//! What every command shares, beneath them all: the solver's options (`SolverArgs`) and the
//! solver they make, the error a command reports (`CliError`, one line and its exit code), and
//! the output helpers (`out!`/`outln!`, numbers with thousands separators). The commands import
//! from here, never from `cli/mod.rs` (the dispatcher, on the floor above them).

use super::values;
use othello_explorer::Size;
use std::fmt;

/// The cores this machine has (the default number of search threads).
pub fn cores() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// The solver's options.
#[derive(clap::Args, Debug, Clone)]
pub struct SolverArgs {
    /// How a finished game is scored: `standard` (empties to the winner) or `discs`.
    #[arg(long, value_enum, default_value = "standard")]
    pub scoring: ScoringArg,
    /// Memory for the transposition table, in MiB (default: 256; `solve` and
    /// `bench` 64 on 6x6 and 16 on 4x4). At most the memory the machine has available.
    #[arg(long, value_name = "M", allow_negative_numbers = true, value_parser = values::hash_mb)]
    pub hash_mb: Option<u64>,
    /// Search threads (default: every core).
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = values::threads)]
    pub threads: Option<u64>,
    /// Estimates as the plain depth-limited minimax: principal variations not solved to the end
    /// (slower to the same accuracy; for comparing with other searches).
    #[arg(long)]
    pub no_pv_extension: bool,
    /// How selective the estimates are: 73, 87, 95, 98, 99 or 100 (percent; 100: the plain
    /// full-width search). Every estimate is labelled with it (`+4 @22 95%`).
    #[arg(long, value_name = "PERCENT", default_value_t = othello_explorer::solver::DEFAULT_SELECTIVITY, value_parser = values::SELECTIVITY)]
    pub selectivity: othello_explorer::solver::Selectivity,
    /// Proofs searched full width from the start, without the selective passes that prepare
    /// them (the proven values are the same; for comparing).
    #[arg(long)]
    pub no_selective_solve: bool,
    /// Evaluate with this weights file (`data/eval/weights-N.oxev`'s format, its board side read
    /// from it) instead of the shipped one, or with this network file (`data/eval/network-8.oxnn`'s
    /// format, for `--eval network`): for comparing two fits.
    #[arg(long, value_name = "FILE")]
    pub weights: Option<std::path::PathBuf>,
    /// The estimates' evaluation: `patterns` (the pattern tables) or `network` (the 8x8 network;
    /// the pattern tables on the other boards).
    #[arg(long = "eval", value_name = "EVAL", default_value = "patterns", value_parser = values::EVALUATOR)]
    pub evaluator: othello_explorer::solver::Evaluator,
}

#[derive(clap::ValueEnum, Debug, Clone, Copy)]
pub enum ScoringArg {
    Standard,
    Discs,
}

impl SolverArgs {
    /// The solver's options, with `--weights` put in use first (it must come before any search):
    /// without `--hash-mb`, a table of [`DEFAULT_HASH_MB`](othello_explorer::solver::DEFAULT_HASH_MB)
    /// MiB, for the commands that go from position to position (`book`, the protocols).
    pub fn options(&self) -> Result<othello_explorer::solver::SolverOptions, CliError> {
        self.options_with(othello_explorer::solver::DEFAULT_HASH_MB)
    }

    /// [`Self::options`] for a search of one position or one game of `size`: without `--hash-mb`,
    /// the table that board needs ([`hash_mb_for`](othello_explorer::solver::hash_mb_for)).
    pub fn options_for(&self, size: Size) -> Result<othello_explorer::solver::SolverOptions, CliError> {
        self.options_with(othello_explorer::solver::hash_mb_for(size))
    }

    /// How a finished game is scored (`--scoring`).
    pub fn scoring(&self) -> othello_explorer::Scoring {
        match self.scoring {
            ScoringArg::Standard => othello_explorer::Scoring::Standard,
            ScoringArg::Discs => othello_explorer::Scoring::Discs,
        }
    }

    fn options_with(&self, default_hash_mb: usize) -> Result<othello_explorer::solver::SolverOptions, CliError> {
        self.load_weights()?;
        let threads = self.threads.map(|t| t as usize).unwrap_or_else(cores);
        Ok(othello_explorer::solver::SolverOptions {
            hash_mb: self.hash_mb.map_or(default_hash_mb, |m| m as usize),
            scoring: self.scoring(),
            threads,
            pv_extension: !self.no_pv_extension,
            selectivity: self.selectivity,
            selective_solve: !self.no_selective_solve,
            evaluator: self.evaluator,
        })
    }

    /// Puts `--weights` in use, if given.
    fn load_weights(&self) -> Result<(), CliError> {
        let Some(path) = &self.weights else { return Ok(()) };
        let usage = |e: String| CliError::Usage(format!("--weights {}: {e}", path.display()));
        let bytes =
            othello_explorer::notation::textfile::read_bytes(path, 64 << 20).map_err(|e| usage(e.to_string()))?;
        if othello_explorer::eval::network::is_network_file(&bytes) {
            return othello_explorer::eval::network::use_instead(&bytes).map(|_| ()).map_err(usage);
        }
        othello_explorer::eval::weights::use_instead(&bytes).map(|_| ()).map_err(usage)
    }
}

/// The solver of `options`, as every command makes it: a table that cannot be had is a usage
/// error naming `--hash-mb`.
pub fn solver(options: othello_explorer::solver::SolverOptions) -> Result<othello_explorer::solver::Solver, CliError> {
    othello_explorer::solver::Solver::try_new(options).map_err(|e| CliError::Usage(format!("--hash-mb: {e}")))
}

/// Prints like `print!`; when the reader has gone (`show | head`), exits quietly instead of
/// panicking on the broken pipe.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::common::write_stdout(&format!($($arg)*))
    };
}

/// Prints like `println!`, with [`out!`]'s handling of a closed pipe.
macro_rules! outln {
    () => { $crate::cli::common::write_stdout("\n") };
    ($($arg:tt)*) => {
        $crate::cli::common::write_stdout(&format!("{}\n", format!($($arg)*)))
    };
}

pub(crate) use {out, outln};

/// `n` with thousands separators: `98,732,834`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n` with thousands separators and the noun that agrees with it: `1 position`, `98,732
/// positions` (the separated form of [`othello_explorer::notation::printable::count`]).
pub fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// Writes `text` to stdout; a closed pipe ends the program quietly with success.
pub fn write_stdout(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("othello-explorer: cannot write the output: {e}");
        std::process::exit(1);
    }
}

/// A failure to report: one line, and the exit code that goes with it.
#[derive(Debug)]
pub enum CliError {
    /// Bad input: a usage or parse error (exit 2).
    Usage(String),
    /// The work ran but found a problem, such as a benchmark mismatch (exit 1).
    Failed(String),
    /// A signal stopped the work cleanly, what was finished kept (exit 128 + the signal).
    Interrupted { signal: u8, message: String },
}

impl CliError {
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Failed(_) => 1,
            CliError::Interrupted { signal, .. } => 128u8.saturating_add(*signal),
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(s) | CliError::Failed(s) | CliError::Interrupted { message: s, .. } => f.write_str(s),
        }
    }
}
