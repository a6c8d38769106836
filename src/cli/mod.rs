//! Command-line parsing and the subcommands. Everything here turns arguments into engine calls and
//! engine results into text or JSON; the engine itself lives in the library.
//!
//! The folder stands on three floors, each importing only from those beneath it: the helpers
//! every command shares ([`common`]: the solver's options, `CliError`, `outln!`; [`signals`];
//! [`values`], [`args`], [`paths`], [`report`], [`progress`], [`protocol`]), then one file per
//! subcommand, then this file: the dispatcher, which parses the line and calls the command (and
//! hands `completions` and `man` the command-line definition they are made from).

mod archive;
mod args;
mod bench;
mod book;
mod common;
mod explain;
mod explore;
mod gtp;
mod install;
mod match_play;
mod nboard;
mod outcome_rows;
pub mod paths;
mod perft;
mod progress;
mod protocol;
mod reach;
mod report;
mod review;
mod shortest;
mod show;
mod signals;
mod solve;
mod store;
mod values;

pub use args::PositionArgs;
use clap::{Parser, Subcommand};
pub use common::CliError;
use common::SolverArgs;
use std::process::ExitCode;

/// Explore the Othello game tree on 4x4, 6x6 and 8x8 boards: bitboards in hex and binary,
/// legal-move and flip masks, and exact solver scores for every move.
///
/// With no subcommand, opens the terminal explorer on the given position.
#[derive(Parser, Debug)]
#[command(name = "othello-explorer", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub explore: explore::ExploreArgs,
    #[command(flatten)]
    pub store: paths::StoreArgs,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print a position: diagram, black/white/empty/legal masks in hex and binary, and every
    /// legal move with its flip mask.
    Show {
        #[command(flatten)]
        position: PositionArgs,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Count the leaves of the game tree at every depth 1..DEPTH (a pass is a ply; a game that
    /// ends early counts as one leaf).
    Perft {
        /// The deepest depth to count.
        #[arg(allow_negative_numbers = true, value_parser = values::perft_depth)]
        depth: u32,
        #[command(flatten)]
        position: PositionArgs,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Solve a position: the score from the side to move, the best moves, a principal variation,
    /// and every child's value, each an exact score, a proven win/loss/draw or an estimate at a
    /// depth. Exact unless --mode, --depth or --time says otherwise, or the exact solve is out of
    /// reach (then estimates for 5 seconds, said before it starts).
    Solve {
        #[command(flatten)]
        position: PositionArgs,
        #[command(flatten)]
        search: solve::SearchArgs,
        #[command(flatten)]
        solver: SolverArgs,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Solve the positions of an OBF problem file (like data/ffo/fforum-40-59.obf) and
    /// compare with the scores it lists; exit 1 on any mismatch. With --mode wld, prove each
    /// outcome and compare its sign; with --mode estimate, measure the estimates against the
    /// listed scores at every depth up to --depth.
    Bench {
        /// The problem file.
        file: String,
        /// Which positions, counting from 1: `40-49`, or one number.
        #[arg(long, value_name = "A-B")]
        positions: Option<String>,
        /// What to measure: `exact` scores, `wld` outcomes, or `estimate` quality.
        #[arg(long, value_enum, default_value = "exact")]
        mode: bench::BenchMode,
        /// With --mode estimate: the deepest estimate depth measured (default 10).
        #[arg(long, value_name = "D", allow_negative_numbers = true, value_parser = values::depth)]
        depth: Option<u32>,
        /// With --mode estimate: instead of every depth, give each position this many seconds
        /// of estimates (as `solve --time SECONDS --mode estimate`) and judge the move it ends
        /// with: a best listed move or not, the discs it loses, the error of its value.
        #[arg(long, value_name = "SECONDS", conflicts_with = "depth", allow_negative_numbers = true, value_parser = values::seconds)]
        time: Option<std::time::Duration>,
        /// Run the outcome lab instead: each position's win, loss or draw proven five ways, timed
        /// per method, WPNS's selection share, each outcome checked against the listed sign.
        #[arg(long, conflicts_with_all = ["mode", "depth", "time"])]
        lab: bool,
        /// With --lab: the seconds each method gets on each position (default 60).
        #[arg(long, value_name = "SECONDS", requires = "lab", allow_negative_numbers = true, value_parser = values::seconds)]
        limit: Option<std::time::Duration>,
        #[command(flatten)]
        solver: SolverArgs,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Review a game: every move judged against the best (the best moves and value, the played
    /// move's value, the loss, a mark ?! ? ??), with a summary per side. The game comes from
    /// --moves or --game FILE (GGF, a transcript file, or a WTHOR database). The marks are the
    /// explorer's :review marks for the same budget, whatever the threads or the store.
    Review {
        #[command(flatten)]
        position: PositionArgs,
        #[command(flatten)]
        review: review::ReviewArgs,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Explain a bitboard technique step by step on a position: legal, flips, play, popcount,
    /// empties, symmetry, or search (the search lab: four ways to solve it, nodes and time).
    Explain {
        /// The topic: legal, flips, play, popcount, empties, symmetry or search.
        #[arg(value_parser = values::TOPIC, hide_possible_values = true)]
        topic: String,
        #[command(flatten)]
        position: PositionArgs,
        /// The move for flips and play (default: the first legal move in reading order).
        #[arg(long = "move", value_name = "SQ")]
        mv: Option<String>,
        /// With search: prove win, loss or draw five ways instead (alpha-beta unsorted and
        /// sorted, weak proof-number search, branching thresholds, the solver).
        #[arg(long)]
        outcome: bool,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Find a game from the start that arrives at a board (--board, or the end of --moves): its
    /// transcript (exit 0), or the proof that none exists (exit 1). Plays only on the squares the
    /// board occupies and prunes with discs that can no longer change colour.
    Reach {
        #[command(flatten)]
        position: PositionArgs,
        #[command(flatten)]
        reach: reach::ReachArgs,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// The shortest games from the start that end a given way (a draw, a wipe-out, any end), by
    /// iterative deepening: the length, how many games, the final positions, an example, and
    /// with --all every game. --verify-only FILE checks a file of such games instead.
    Shortest {
        #[command(flatten)]
        shortest: shortest::ShortestArgs,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// The file of solved positions kept between runs (--store PATH, default in the user's data
    /// directory): counts, a re-check against the solver, export and import as text.
    Store {
        #[command(subcommand)]
        command: store::StoreCommand,
    },
    /// Speak the Go Text Protocol on stdin and stdout, as Othello engines do (GoGui, Quarry,
    /// match runners): boardsize 8, 6 or 4, play, genmove, undo, time_settings, time_left, ...
    /// The moves come from the store-aware analysis at --level or --move-time, or the client's
    /// clock. Input is read in lines of at most 64 KiB (the rest of a longer line skipped), at
    /// most 256 ahead of the one answered: a client that sends faster waits, memory stays bounded.
    Gtp {
        #[command(flatten)]
        gtp: gtp::GtpArgs,
        #[command(flatten)]
        solver: SolverArgs,
    },
    /// Speak the NBoard protocol (version 2) on stdin and stdout, as the NBoard GUI drives
    /// engines: set game, move, hint (the best moves with their values: 100% exact, 100%W a
    /// proven outcome, else the depth), go, ping, learn, analyze. Input is read in lines of at
    /// most 64 KiB, at most 256 ahead of the one answered, as gtp reads it.
    Nboard {
        #[command(flatten)]
        nboard: nboard::NboardArgs,
        #[command(flatten)]
        solver: SolverArgs,
    },
    /// Play two engines against each other from openings (a file, or generated), each twice with
    /// the colours swapped: ours (with its own level, time, weights) or any GTP or NBoard
    /// program. The games as GGF, and wins, draws, losses, the disc difference and the Elo
    /// difference with its 95% interval; --sprt stops early. An engine's failure forfeits that
    /// game alone; each engine runs in a process group of its own, killed whole at the end; its
    /// output is read in lines of at most 64 KiB, at most 256 ahead.
    Match {
        #[command(flatten)]
        args: match_play::MatchArgs,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// The masters' games beside the engine: index game databases (WTHOR, GGF, transcripts) by
    /// position, and show for any position every next move's games, results and players.
    Archive(archive::ArchiveArgs),
    /// Solve every position of the first plies from the start (symmetric twins once), score each
    /// one's children, and keep them in the store; --lines also follows every perfect line to the
    /// end. Positions the store already has are skipped, so an interrupted run goes on.
    Book {
        /// Board size: 4, 6 or 8.
        #[arg(long, value_name = "N", default_value_t = 6, allow_negative_numbers = true, value_parser = values::SIZE)]
        size: u8,
        /// Expand the positions of plies 0 to K-1: every position up to K moves from the start gets its exact score.
        #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = values::plies)]
        plies: u32,
        /// Then follow every perfect line to the end, scoring each child and grandchild along it.
        #[arg(long)]
        lines: bool,
        /// With --lines: expand a child off the line (score its children) only when it has at
        /// most E empty squares; near the start each such expansion costs minutes.
        #[arg(long, value_name = "E", default_value_t = 24, allow_negative_numbers = true, value_parser = values::empties)]
        near_empties: u32,
        #[command(flatten)]
        solver: SolverArgs,
        /// Print the stages' costs as one JSON object instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Print the shell completion script for bash, zsh, fish, elvish or powershell (README.md,
    /// "Install", says where each shell looks for it).
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// The manual pages, made from this command line's own definitions: the main page on
    /// standard output, or with --out DIR a page for the command and one for each subcommand
    /// written into DIR (each path printed).
    Man {
        /// An existing folder to write the pages into (it is never created); a page's path must be
        /// a regular file or absent, or nothing is written.
        #[arg(long, value_name = "DIR")]
        out: Option<std::path::PathBuf>,
    },
}

/// The subcommands that read the store (`--store`, `--no-store`), and those that read the archive
/// (`--archive`); the explorer (no subcommand) reads both.
const READ_STORE: &[&str] = &["solve", "bench", "store", "gtp", "nboard", "book"];
const READ_ARCHIVE: &[&str] = &["archive"];

/// Whether the subcommand `sub` reads the global option `id` (`store`, `no_store`, `archive`).
fn reads(sub: &str, id: &str) -> bool {
    if id == "archive" { READ_ARCHIVE.contains(&sub) } else { READ_STORE.contains(&sub) }
}

/// The command line as the program parses it: [`Cli`]'s, with the global `--store`,
/// `--no-store` and `--archive` hidden from the subcommands that do not read them (their help
/// leaves them out; [`check_placement`] refuses `--store` and `--archive` there, and takes
/// `--no-store`, which asks for nothing). [`documented_command`] is the completions' and the
/// manual's.
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    let mut command = Cli::command();
    let names: Vec<String> = command.get_subcommands().map(|s| s.get_name().to_string()).collect();
    for name in names {
        // A hidden option of the subcommand's own stands in for the global one (which clap then
        // leaves out there): parsed, so that `check_placement` can name it, but never shown.
        for (id, long, flag) in
            [("store", "store", false), ("no_store", "no-store", true), ("archive", "archive", false)]
        {
            if reads(&name, id) {
                continue;
            }
            let arg = clap::Arg::new(id).long(long).hide(true);
            let arg = if flag { arg.action(clap::ArgAction::SetTrue) } else { arg.value_name("PATH") };
            command = command.mut_subcommand(&name, |sub| sub.arg(arg));
        }
    }
    command
}

/// The command line as the completions and the manual pages describe it: [`Cli`]'s, with the
/// store's and the archive's options on the explorer and on the subcommands that read them only
/// (the scripts list hidden options too, so the parsing command's hiding is not enough).
pub fn documented_command() -> clap::Command {
    use clap::CommandFactory;
    let mut command = Cli::command();
    let ids = ["store", "no_store", "archive"];
    let args: Vec<clap::Arg> =
        command.get_arguments().filter(|a| ids.contains(&a.get_id().as_str())).cloned().collect();
    for id in ids {
        command = command.mut_arg(id, |a| a.global(false));
    }
    let names: Vec<String> = command.get_subcommands().map(|s| s.get_name().to_string()).collect();
    for name in names {
        for arg in args.iter().filter(|a| reads(&name, a.get_id().as_str())) {
            let arg = arg.clone().global(false);
            command = command.mut_subcommand(&name, |sub| sub.arg(arg));
        }
    }
    command
}

/// Refuses the explorer's own options (the position and [`explore::ExploreArgs`]) given before a
/// subcommand: the subcommand would ignore them (`othello-explorer --hash-mb 1024 bench ...`
/// benches with the default table), so the usage error names the first and where options go.
pub fn check_placement(matches: &clap::ArgMatches) -> Result<(), CliError> {
    let Some(sub) = matches.subcommand_name() else {
        return Ok(());
    };
    let explorer = <explore::ExploreArgs as clap::Args>::augment_args(<PositionArgs as clap::Args>::augment_args(
        clap::Command::new("othello-explorer"),
    ));
    for arg in explorer.get_arguments() {
        if matches.value_source(arg.get_id().as_str()) == Some(clap::parser::ValueSource::CommandLine) {
            let flag = arg.get_long().map_or_else(|| arg.get_id().to_string(), |long| format!("--{long}"));
            return Err(CliError::Usage(format!(
                "{flag} before `{sub}` is an option of the explorer, which `{sub}` would ignore: options of `{sub}` go after it"
            )));
        }
    }
    // A store or an archive named where nothing reads it (before or after `sub`). `--no-store`
    // asks for nothing, so it is taken everywhere (scripts put it before any subcommand).
    let given = |id: &str| {
        let at = |m: &clap::ArgMatches| m.value_source(id) == Some(clap::parser::ValueSource::CommandLine);
        at(matches) || matches.subcommand().is_some_and(|(_, m)| at(m))
    };
    for (id, flag) in [("store", "--store"), ("archive", "--archive")] {
        if !reads(sub, id) && given(id) {
            let what = if id == "archive" { "the archive" } else { "the store" };
            return Err(CliError::Usage(format!("{flag}: `{sub}` does not read {what}")));
        }
    }
    Ok(())
}

pub fn run(cli: Cli) -> Result<ExitCode, CliError> {
    // The kernels are chosen at first use (`isa::Cpu::detect`); a level that names none is refused
    // here rather than ignored.
    othello_explorer::board::isa::requested().map_err(|e| CliError::Usage(e.to_string()))?;
    match cli.command {
        Some(Command::Show { position, json }) => show::run(&position.resolve()?, json),
        Some(Command::Perft { depth, position, json }) => perft::run(&position.resolve()?, depth, json),
        Some(Command::Solve { position, search, solver, json }) => {
            let resolved = position.resolve()?;
            let store = store::open_for_solving(&cli.store)?;
            return solve::run(&resolved, &search, solver.options_for(resolved.position.size())?, store, json);
        }
        Some(Command::Review { position, review, json }) => return review::run(&position, &review, json),
        Some(Command::Bench { file, positions, lab: true, limit, json, .. }) => {
            bench::lab::run(&file, positions.as_deref(), limit, json)
        }
        Some(Command::Bench { file, positions, mode, depth, time, solver, json, .. }) => {
            let store = store::open_for_solving(&cli.store)?;
            let measure = bench::Measure { mode, depth, time };
            bench::run(&file, positions.as_deref(), measure, &solver, store.as_ref(), json)
        }
        Some(Command::Explain { topic, position, mv, outcome, json }) => {
            explain::run(&topic, &position.resolve()?, mv.as_deref(), outcome, json)
        }
        Some(Command::Reach { position, reach, json }) => return reach::run(&position, &reach, json),
        Some(Command::Shortest { shortest, json }) => return shortest::run(&shortest, json),
        Some(Command::Store { command }) => store::run(&command, &cli.store),
        Some(Command::Match { args, json }) => return match_play::run(&args, json),
        Some(Command::Archive(args)) => return archive::run(&args, &cli.store),
        // The protocols catch SIGINT and SIGTERM first: a client may stop them while the store,
        // the weights and the table are being set up.
        Some(Command::Nboard { nboard, solver }) => {
            let signalled = protocol::catch_signals();
            let store = store::open_for_solving(&cli.store)?;
            nboard::run(&nboard, solver.options()?, store, &signalled)
        }
        Some(Command::Gtp { gtp, solver }) => {
            let signalled = protocol::catch_signals();
            let store = store::open_for_solving(&cli.store)?;
            gtp::run(&gtp, solver.options()?, store, &signalled)
        }
        Some(Command::Book { size, plies, lines, near_empties, solver, json }) => {
            book::run(size, plies, lines, near_empties, &solver, &cli.store, json)
        }
        Some(Command::Completions { shell }) => install::completions(documented_command(), shell),
        Some(Command::Man { out }) => install::man(documented_command(), out.as_deref()),
        None => explore::run(&cli.position, &cli.explore, cli.store.path(), cli.store.archive_path()),
    }
    .map(|()| ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use othello_explorer::Size;

    #[derive(clap::Parser)]
    struct Wrapped {
        #[command(flatten)]
        solver: SolverArgs,
    }

    #[test]
    fn the_store_options_are_parsed_everywhere_but_shown_only_where_read() {
        let command = super::command();
        command.clone().debug_assert();
        let shown = |sub: &str, id: &str| {
            let mut c = command.clone();
            c.build();
            let s = c.find_subcommand(sub).unwrap();
            s.get_arguments().any(|a| a.get_id().as_str() == id && !a.is_hide_set())
        };
        assert!(shown("solve", "store") && shown("gtp", "no_store") && shown("archive", "archive"));
        assert!(!shown("show", "store") && !shown("review", "no_store") && !shown("solve", "archive"));
        let mut documented = super::documented_command();
        documented.build();
        let has = |sub: &str, id: &str| {
            documented.find_subcommand(sub).unwrap().get_arguments().any(|a| a.get_id().as_str() == id)
        };
        assert!(has("solve", "store") && has("solve", "no_store") && has("archive", "archive"));
        assert!(!has("show", "store") && !has("review", "no_store") && !has("solve", "archive"));
        assert!(documented.get_arguments().any(|a| a.get_id().as_str() == "store"), "the explorer reads it");
        // Given where nothing reads it: refused in one line; --no-store is taken everywhere.
        for (args, refused) in [
            (&["othello-explorer", "show", "--store", "x"][..], true),
            (&["othello-explorer", "--store", "x", "review", "--moves", "f5"], true),
            (&["othello-explorer", "perft", "1", "--archive", "a"], true),
            (&["othello-explorer", "--no-store", "show"], false),
            (&["othello-explorer", "solve", "--store", "x"], false),
        ] {
            let m = command.clone().try_get_matches_from(args).unwrap();
            assert_eq!(check_placement(&m).is_err(), refused, "{args:?}");
        }
    }

    fn parsed(args: &[&str]) -> SolverArgs {
        Wrapped::try_parse_from(std::iter::once("t").chain(args.iter().copied())).unwrap().solver
    }

    /// The sizes `docs/solver.md` ("The table sized to the board") gives: 16 MiB on 4x4, 64 on
    /// 6x6, 256 on 8x8 for a search of one position or game; 256 for the commands that go from
    /// position to position; `--hash-mb` over both.
    #[test]
    fn the_table_is_sized_to_the_board_unless_hash_mb_says() {
        let default = parsed(&[]);
        let sizes = [Size::Four, Size::Six, Size::Eight].map(|s| default.options_for(s).unwrap().hash_mb);
        assert_eq!(sizes, [16, 64, 256]);
        assert_eq!(default.options().unwrap().hash_mb, 256);
        let given = parsed(&["--hash-mb", "8"]);
        assert_eq!(given.options_for(Size::Four).unwrap().hash_mb, 8);
        assert_eq!(given.options_for(Size::Eight).unwrap().hash_mb, 8);
        assert_eq!(given.options().unwrap().hash_mb, 8);
    }
}
