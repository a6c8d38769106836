//! `archive`: the masters' games beside the engine. `add` indexes game databases (WTHOR `.wtb`
//! with their `.JOU`/`.TRN` beside them, GGF files, transcript files) into the archive file (in
//! the data directory unless `--archive`); `stats` and `remove` manage it; `show` gives, for a
//! position, every next move's games, share, results, mean score and players; `games` lists the
//! games through it and writes them as GGF; `bench` measures indexing and lookups on a synthetic
//! database of the size of every WTHOR year, which it writes itself. See `docs/archive.md`.

mod bench;
mod reports;

use super::args::PositionArgs;
use super::common::{CliError, counted};
use super::paths;
use super::report::Report;
use clap::{Args, Subcommand};
use othello_explorer::archive::{self, Archive, Filter};
use othello_explorer::{Position, Size, notation::transcript};
use reports::{AddReport, AddedRow, GameJson, GamesReport, ShowReport, SourceJson, StatsReport};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The archive options.
#[derive(Args, Debug, Clone)]
pub struct ArchiveArgs {
    #[command(subcommand)]
    pub command: ArchiveCommand,
}

/// The filters of `show` and `games`.
#[derive(Args, Debug, Clone, Default)]
pub struct FilterArgs {
    /// Only games with this player (either colour; part of the name, any case).
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
    /// Only games of these years: `2001-2010`, or one year.
    #[arg(long, value_name = "A-B")]
    pub years: Option<String>,
    /// Only games of this tournament (part of the name, any case).
    #[arg(long, value_name = "NAME")]
    pub tournament: Option<String>,
}

#[derive(Subcommand, Debug, Clone)]
pub enum ArchiveCommand {
    /// Index game files: WTHOR .wtb (with WTHOR.JOU and WTHOR.TRN beside them for the names),
    /// GGF files, transcript files (one game a line). A file added before adds nothing, nor does
    /// a game the archive has; a damaged file is refused whole and the archive left as it was.
    /// Ctrl-C while the files are read adds those read so far.
    Add {
        /// The files: regular files of at most 256 MiB each.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The board of transcripts without a board string (default 8).
        #[arg(long, value_name = "N", default_value_t = 8, value_parser = super::values::SIZE)]
        size: u8,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// The files indexed, the games and positions, the file's size.
    Stats {
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Remove a file's games (by the name `add` was given, or its hash as `stats` prints it).
    Remove {
        /// The file.
        file: String,
    },
    /// For a position: the games that reached it, and for each next move its games, share,
    /// black's wins, draws and losses, the mean final score from black's side and the players
    /// who chose it most.
    Show {
        #[command(flatten)]
        position: PositionArgs,
        #[command(flatten)]
        filter: FilterArgs,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// The games that passed through a position (players, year, tournament, score); --ggf
    /// writes them.
    Games {
        #[command(flatten)]
        position: PositionArgs,
        #[command(flatten)]
        filter: FilterArgs,
        /// At most this many.
        #[arg(long, value_name = "N", default_value_t = 50)]
        limit: usize,
        /// Write them to FILE as GGF.
        #[arg(long, value_name = "FILE")]
        ggf: Option<PathBuf>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Measure: write a synthetic WTHOR database of random games, index it, look positions up.
    Bench {
        /// Games of the synthetic database (every WTHOR year holds about 130,000).
        #[arg(long, value_name = "N", default_value_t = 130_000)]
        games: usize,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
}

impl FilterArgs {
    fn filter(&self) -> Result<Filter, CliError> {
        let years = match &self.years {
            None => None,
            Some(t) => {
                let (a, b) = t.split_once('-').unwrap_or((t, t));
                let y = |s: &str| {
                    s.trim().parse::<u16>().map_err(|_| CliError::Usage(format!("--years '{t}': A-B, years")))
                };
                Some((y(a)?, y(b)?))
            }
        };
        Ok(Filter { player: self.player.clone(), years, tournament: self.tournament.clone() })
    }
}

fn path_of(args: &paths::StoreArgs) -> Result<PathBuf, CliError> {
    args.archive_path()
        .ok_or_else(|| CliError::Usage("no data directory here: give the archive with --archive PATH".into()))
}

fn open(path: &std::path::Path) -> Result<Archive, CliError> {
    Archive::open(path).map_err(|e| CliError::Usage(format!("archive {}: {e}", path.display())))
}

/// The archive at `path` taken for writing: its lock (waiting, said so on stderr, while another
/// program holds it), then the archive as that program left it.
fn lock(path: &std::path::Path) -> Result<(archive::Writer, Archive), CliError> {
    let writer = archive::Writer::lock(path, |lock| {
        eprintln!("othello-explorer: waiting for {}: another program is writing the archive", lock.display());
    })
    .map_err(|e| CliError::Usage(format!("archive {}: {e}", path.display())))?;
    let a = writer.read().map_err(|e| CliError::Usage(format!("archive {}: {e}", path.display())))?;
    Ok((writer, a))
}

fn save(writer: &archive::Writer, a: &Archive, path: &std::path::Path) -> Result<(), CliError> {
    writer.write(a).map_err(|e| CliError::Usage(format!("archive {}: {e}", path.display())))
}

/// The position asked about (after a forced pass).
fn position_of(p: &PositionArgs) -> Result<Position, CliError> {
    Ok(p.resolve()?.position.after_forced_pass().0)
}

/// Runs `f` with SIGINT and SIGTERM ending the program at once (exit 128 + the signal): for a
/// wait in which nothing has been written.
fn ending_at_once<T>(f: impl FnOnce() -> T) -> T {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let always = Arc::new(AtomicBool::new(true));
    let ids: Vec<_> = [SIGINT, SIGTERM]
        .into_iter()
        .filter_map(|s| signal_hook::flag::register_conditional_shutdown(s, 128 + s, always.clone()).ok())
        .collect();
    let out = f();
    for id in ids {
        signal_hook::low_level::unregister(id);
    }
    out
}

/// Adds `files`, committing each time ten seconds of work have passed and at the end. Ctrl-C
/// while the files are read stops after the file in hand: the files read so far are added (the
/// rest not read), and the report says so. Ctrl-C while they are added stops after the file in
/// hand, which is committed with those before it. The archive's lock is held from reading it to
/// the last write, so two `add`s at once both count.
fn add(path: &std::path::Path, files: &[PathBuf], size: Size, json: bool) -> Result<std::process::ExitCode, CliError> {
    let stop = Arc::new(AtomicBool::new(false));
    let caught = super::signals::catch_signals(&stop);
    // Every file is read and checked before anything is written: a damaged one changes nothing.
    let mut sources = Vec::with_capacity(files.len());
    for f in files {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let bytes = othello_explorer::notation::textfile::read_bytes(f, archive::SOURCE_LIMIT)
            .map_err(|e| CliError::Usage(format!("archive add: {e}")))?;
        let games = archive::read_source(f, &bytes, size).map_err(|e| CliError::Usage(format!("archive add: {e}")))?;
        sources.push((f.display().to_string(), othello_explorer::notation::checksum::fnv1a(&bytes), games));
    }
    // Files left unread by a Ctrl-C; those read are added all the same.
    let unread = files.len() - sources.len();
    // Ctrl-C while waiting for the lock ends the program at once: nothing is written yet.
    let (writer, mut a) = ending_at_once(|| lock(path))?;
    let mut last = Instant::now();
    let mut rows = Vec::new();
    let mut pending = false;
    for (name, hash, games) in &sources {
        if unread == 0 && stop.load(Ordering::SeqCst) {
            break;
        }
        let added = a.add(name, *hash, games);
        pending |= !added.already;
        rows.push((name.clone(), added));
        if pending && last.elapsed() > Duration::from_secs(10) {
            a.finish();
            save(&writer, &a, path)?;
            last = Instant::now();
            pending = false;
        }
    }
    if pending {
        a.finish();
        save(&writer, &a, path)?;
    }
    drop(writer);
    AddReport {
        archive: path.display().to_string(),
        files: rows
            .iter()
            .map(|(n, r)| AddedRow { file: n.clone(), games: r.games, duplicates: r.duplicates, already: r.already })
            .collect(),
        games: a.games.len(),
        positions: a.positions(),
        interrupted: stop.load(Ordering::SeqCst),
        unread,
        sources: a.sources.len(),
        left_out: files.len() - rows.len(),
    }
    .print(json);
    if stop.load(Ordering::SeqCst) {
        let sig = caught.load(Ordering::SeqCst);
        return Ok(std::process::ExitCode::from(128 + if sig == 0 { 2 } else { sig as u8 }));
    }
    Ok(std::process::ExitCode::SUCCESS)
}

pub fn run(args: &ArchiveArgs, paths: &paths::StoreArgs) -> Result<std::process::ExitCode, CliError> {
    use std::process::ExitCode;
    match &args.command {
        ArchiveCommand::Add { files, size, json } => {
            let size = Size::from_n(*size as usize).expect("checked by the parser");
            add(&path_of(paths)?, files, size, *json)
        }
        ArchiveCommand::Stats { json } => {
            let path = path_of(paths)?;
            let a = open(&path)?;
            let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
            StatsReport {
                archive: path.display().to_string(),
                bytes,
                games: a.games.len(),
                positions: a.positions(),
                files: a
                    .sources
                    .iter()
                    .map(|s| SourceJson { file: s.name.clone(), hash: format!("{:016x}", s.hash), games: s.games })
                    .collect(),
            }
            .print(*json);
            Ok(ExitCode::SUCCESS)
        }
        ArchiveCommand::Remove { file } => {
            let path = path_of(paths)?;
            let (writer, mut a) = lock(&path)?;
            if !a.remove(file) {
                return Err(CliError::Usage(format!(
                    "archive remove: no file '{}' in the archive (archive stats lists them)",
                    othello_explorer::notation::printable::excerpt(file)
                )));
            }
            save(&writer, &a, &path)?;
            drop(writer);
            super::common::outln!(
                "removed {}: the archive holds {}",
                file,
                counted(a.games.len() as u64, "game", "games")
            );
            Ok(ExitCode::SUCCESS)
        }
        ArchiveCommand::Show { position, filter, json } => {
            let a = open(&path_of(paths)?)?;
            let p = position_of(position)?;
            let s = a.stats(&p, &filter.filter()?);
            ShowReport::of(&p, &s).print(*json);
            Ok(ExitCode::SUCCESS)
        }
        ArchiveCommand::Games { position, filter, limit, ggf, json } => {
            let target = match ggf {
                Some(g) => Some(
                    othello_explorer::notation::writefile::target(g)
                        .map_err(|e| CliError::Usage(format!("--ggf {e}")))?,
                ),
                None => None,
            };
            let a = open(&path_of(paths)?)?;
            let p = position_of(position)?;
            let games = a.games_through(&p, &filter.filter()?, *limit);
            let name = |n: Option<u32>| n.and_then(|n| a.name(n)).unwrap_or("?").to_string();
            if let Some(t) = &target {
                let text: String = games
                    .iter()
                    .map(|g| othello_explorer::notation::gamefile::ggf::write(&a.as_game(g), &[]))
                    .collect();
                std::fs::write(t, text).map_err(|e| CliError::Usage(format!("--ggf {}: {e}", t.display())))?;
            }
            GamesReport {
                games: games
                    .iter()
                    .map(|g| GameJson {
                        black: name(g.black),
                        white: name(g.white),
                        year: g.year,
                        tournament: name(g.tournament),
                        black_score: g.black_score,
                        result_known: g.black_score.is_some(),
                        decided: g.how.map(|h| h.name()),
                        moves: transcript::format(&g.moves.iter().flatten().copied().collect::<Vec<_>>()),
                        source: a.sources.get(g.source as usize).map(|s| s.name.clone()),
                        index: g.index,
                        line: archive::game_line(&a, g),
                    })
                    .collect(),
            }
            .print(*json);
            Ok(ExitCode::SUCCESS)
        }
        ArchiveCommand::Bench { games, json } => bench::bench(*games, *json).map(|()| ExitCode::SUCCESS),
    }
}
