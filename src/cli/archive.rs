//! `archive`: the masters' games beside the engine. `add` indexes game databases (WTHOR `.wtb`
//! with their `.JOU`/`.TRN` beside them, GGF files, transcript files) into the archive file (in
//! the data directory unless `--archive`); `stats` and `remove` manage it; `show` gives, for a
//! position, every next move's games, share, results, mean score and players; `games` lists the
//! games through it and writes them as GGF; `bench` measures indexing and lookups on a synthetic
//! database of the size of every WTHOR year, which it writes itself. See `docs/archive.md`.

use super::args::PositionArgs;
use super::{CliError, counted, paths};
use clap::{Args, Subcommand};
use othello_explorer::archive::{self, Archive, Filter, PositionStats};
use othello_explorer::notation::transcript;
use othello_explorer::{Position, Size, Square};
use serde::Serialize;
use serde_json::json;
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

/// `show`'s JSON: the shape.
#[derive(Serialize)]
struct MoveJson {
    #[serde(rename = "move")]
    square: String,
    games: u32,
    share: f64,
    black_wins: u32,
    draws: u32,
    white_wins: u32,
    /// Games that do not end on the board: counted in `games`, not in the results.
    result_unknown: u32,
    /// The mean final score from black's side of the games with a result (`null`: none has).
    mean_score: Option<f64>,
    players: Vec<String>,
}

fn show_json(position: &Position, s: &PositionStats) -> serde_json::Value {
    let total = s.games.max(1);
    let moves: Vec<MoveJson> = s
        .moves
        .iter()
        .map(|m| MoveJson {
            square: m.square.map_or("pass".into(), |q| q.to_string()),
            games: m.games,
            share: (f64::from(m.games) / f64::from(total) * 1000.0).round() / 1000.0,
            black_wins: m.black_wins,
            draws: m.draws,
            white_wins: m.white_wins,
            result_unknown: m.unknown(),
            mean_score: m.mean_score().map(|v| (v * 100.0).round() / 100.0),
            players: m.players.iter().map(|(n, _)| n.clone()).collect(),
        })
        .collect();
    json!({
        "position": othello_explorer::notation::obf::format_board(position),
        "games": s.games,
        "ended_here": s.ended,
        "moves": moves,
    })
}

fn show_text(position: &Position, s: &PositionStats) -> String {
    let mut out = format!(
        "{}: {} reached it",
        othello_explorer::notation::obf::format_board(position),
        counted(u64::from(s.games), "game", "games")
    );
    if s.ended > 0 {
        out.push_str(&format!(" ({} ended here)", s.ended));
    }
    out.push('\n');
    if s.moves.is_empty() {
        return out;
    }
    out.push_str(" move   games  share   black  draw  white  unknown   mean  players\n");
    let total = f64::from(s.games.max(1));
    for m in &s.moves {
        let players: Vec<String> = m
            .players
            .iter()
            .map(|(n, c)| format!("{} ({c})", othello_explorer::notation::printable::printable(n)))
            .collect();
        out.push_str(&format!(
            " {:<5} {:>6} {:>5.1}% {:>7} {:>5} {:>6} {:>8} {:>6}  {}\n",
            m.square.map_or("pass".into(), |q| q.to_string()),
            m.games,
            f64::from(m.games) / total * 100.0,
            m.black_wins,
            m.draws,
            m.white_wins,
            m.unknown(),
            m.mean_score().map_or("-".to_string(), |v| format!("{v:+.1}")),
            players.join(", ")
        ));
    }
    out.push_str("black/draw/white: the games' results; unknown: games that do not end on the board, left out of the results and the mean; mean: the final disc difference from black's side\n");
    out
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
    let caught = super::solve::catch_signals(&stop);
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
    if json {
        let files: Vec<serde_json::Value> = rows
            .iter()
            .map(|(n, r)| json!({"file": n, "games": r.games, "duplicates": r.duplicates, "already": r.already}))
            .collect();
        super::outln!(
            "{}",
            json!({"archive": path.display().to_string(), "files": files, "games": a.games.len(), "positions": a.positions(), "interrupted": stop.load(Ordering::SeqCst), "unread": unread})
        );
    } else {
        for (n, r) in &rows {
            let text = if r.already {
                "already in the archive: nothing added".to_string()
            } else if r.duplicates > 0 {
                format!("{} added, {} the archive had", counted(r.games as u64, "game", "games"), r.duplicates)
            } else {
                format!("{} added", counted(r.games as u64, "game", "games"))
            };
            super::outln!("{}: {text}", othello_explorer::notation::printable::printable(n));
        }
        super::outln!(
            "{}: {} of {}, {}",
            path.display(),
            counted(a.games.len() as u64, "game", "games"),
            counted(a.sources.len() as u64, "file", "files"),
            counted(a.positions() as u64, "position", "positions")
        );
        if stop.load(Ordering::SeqCst) {
            super::outln!(
                "interrupted: {} added, {} left out",
                counted(rows.len() as u64, "file", "files"),
                counted((files.len() - rows.len()) as u64, "file", "files")
            );
        }
    }
    if stop.load(Ordering::SeqCst) {
        let sig = caught.load(Ordering::SeqCst);
        return Ok(std::process::ExitCode::from(128 + if sig == 0 { 2 } else { sig as u8 }));
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// A synthetic WTHOR database of `n` games of random moves from the standard start (a fixed
/// sequence), with players and tournaments in its records.
fn synthetic(n: usize) -> Vec<u8> {
    let mut bytes = vec![20, 26, 11, 26, 0, 0, 0, 0, 0, 0, 0xea, 0x07, 8, 0, 0, 0];
    bytes[4..8].copy_from_slice(&(n as u32).to_le_bytes());
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..n {
        let mut record = [0u8; 68];
        let (t, b, w) = ((next() % 400) as u16, (next() % 3000) as u16, (next() % 3000) as u16);
        record[0..2].copy_from_slice(&t.to_le_bytes());
        record[2..4].copy_from_slice(&b.to_le_bytes());
        record[4..6].copy_from_slice(&w.to_le_bytes());
        let mut p = Position::start(Size::Eight);
        let mut k = 8;
        while !p.is_game_over() && k < 68 {
            p = p.after_forced_pass().0;
            let legal: Vec<Square> = p.legal_moves().reading_order();
            // Openings stay close to each other, as real ones do: the first moves among few.
            let pick = if k < 14 {
                (next() % legal.len().min(2) as u64) as usize
            } else {
                (next() % legal.len() as u64) as usize
            };
            let m = legal[pick];
            record[k] = (10 * (m.row() + 1) + m.col() + 1) as u8;
            p = p.play(m).expect("a legal move");
            k += 1;
        }
        bytes.extend_from_slice(&record);
    }
    bytes
}

fn bench(n: usize, json: bool) -> Result<(), CliError> {
    // A folder of its own in the temporary folder, removed at the end.
    struct Scratch(PathBuf);
    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
    let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let dir =
        Scratch(std::env::temp_dir().join(format!("othello-explorer-archive-bench-{}-{stamp}", std::process::id())));
    std::fs::create_dir_all(&dir.0)
        .map_err(|e| CliError::Failed(format!("archive bench: {}: {e}", dir.0.display())))?;
    let db = dir.0.join("synthetic.wtb");
    let t = Instant::now();
    std::fs::write(&db, synthetic(n)).map_err(|e| CliError::Failed(format!("archive bench: {e}")))?;
    let written = t.elapsed();
    let path = dir.0.join("archive.oxar");
    let t = Instant::now();
    let bytes = std::fs::read(&db).map_err(|e| CliError::Failed(e.to_string()))?;
    let games = archive::read_source(&db, &bytes, Size::Eight).map_err(|e| CliError::Failed(e.to_string()))?;
    let writer = archive::Writer::lock(&path, |_| {}).map_err(|e| CliError::Failed(e.to_string()))?;
    let mut a = Archive::default();
    a.add("synthetic.wtb", othello_explorer::notation::checksum::fnv1a(&bytes), &games);
    a.finish();
    writer.write(&a).map_err(|e| CliError::Failed(e.to_string()))?;
    drop(writer);
    let indexed = t.elapsed();
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let t = Instant::now();
    let a = open(&path)?;
    let opened = t.elapsed();
    // Lookups: the start, and positions along a few games at every ply.
    let mut positions = vec![Position::start(Size::Eight)];
    for g in a.games.iter().take(50) {
        let mut p = g.start;
        for m in &g.moves {
            p = match m {
                Some(sq) => p.play(*sq).expect("legal"),
                None => p.pass(),
            };
            if !p.must_pass() && !p.is_game_over() {
                positions.push(p);
            }
        }
    }
    let mut slowest = Duration::ZERO;
    let t = Instant::now();
    for p in &positions {
        let q = Instant::now();
        let s = a.stats(p, &Filter::default());
        std::hint::black_box(&s);
        slowest = slowest.max(q.elapsed());
    }
    let mean = t.elapsed() / positions.len() as u32;
    let t = Instant::now();
    let filtered = a.stats(&positions[0], &Filter { player: Some("player 1".into()), ..Filter::default() });
    let filter_time = t.elapsed();
    std::hint::black_box(filtered);
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    if json {
        super::outln!(
            "{}",
            json!({"games": n, "positions": a.positions(), "write_seconds": written.as_secs_f64(), "index_seconds": indexed.as_secs_f64(),
                "archive_bytes": size, "open_ms": ms(opened), "lookups": positions.len(), "mean_lookup_ms": ms(mean),
                "slowest_lookup_ms": ms(slowest), "filtered_start_ms": ms(filter_time)})
        );
    } else {
        super::outln!(
            "synthetic WTHOR database: {} written in {:.2}s",
            counted(n as u64, "game", "games"),
            written.as_secs_f64()
        );
        super::outln!(
            "indexed: {} in {:.2}s (read, replay, sort, write); the archive file {:.1} MB",
            counted(a.positions() as u64, "position", "positions"),
            indexed.as_secs_f64(),
            size as f64 / 1e6
        );
        super::outln!("opened in {:.1} ms", ms(opened));
        super::outln!(
            "{} looked up: mean {:.3} ms, slowest {:.3} ms; the start filtered by a player: {:.1} ms",
            counted(positions.len() as u64, "position", "positions"),
            ms(mean),
            ms(slowest),
            ms(filter_time)
        );
    }
    Ok(())
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
            if *json {
                let files: Vec<serde_json::Value> = a
                    .sources
                    .iter()
                    .map(|s| json!({"file": s.name, "hash": format!("{:016x}", s.hash), "games": s.games}))
                    .collect();
                super::outln!(
                    "{}",
                    json!({"archive": path.display().to_string(), "bytes": bytes, "games": a.games.len(), "positions": a.positions(), "files": files})
                );
            } else {
                super::outln!(
                    "{}: {}, {}, {} ({:.1} MB)",
                    path.display(),
                    counted(a.sources.len() as u64, "file", "files"),
                    counted(a.games.len() as u64, "game", "games"),
                    counted(a.positions() as u64, "position", "positions"),
                    bytes as f64 / 1e6
                );
                for s in &a.sources {
                    super::outln!(
                        "  {:016x}  {:>7} games  {}",
                        s.hash,
                        s.games,
                        othello_explorer::notation::printable::printable(&s.name)
                    );
                }
            }
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
            super::outln!("removed {}: the archive holds {}", file, counted(a.games.len() as u64, "game", "games"));
            Ok(ExitCode::SUCCESS)
        }
        ArchiveCommand::Show { position, filter, json } => {
            let a = open(&path_of(paths)?)?;
            let p = position_of(position)?;
            let s = a.stats(&p, &filter.filter()?);
            if *json {
                super::outln!("{}", show_json(&p, &s));
            } else {
                super::out!("{}", show_text(&p, &s));
            }
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
            if *json {
                let list: Vec<serde_json::Value> = games
                    .iter()
                    .map(|g| {
                        json!({"black": name(g.black), "white": name(g.white), "year": g.year, "tournament": name(g.tournament),
                            "black_score": g.black_score, "result_known": g.black_score.is_some(), "decided": g.how.map(|h| h.name()), "moves": transcript::format(&g.moves.iter().flatten().copied().collect::<Vec<_>>()),
                            "source": a.sources.get(g.source as usize).map(|s| s.name.clone()), "index": g.index})
                    })
                    .collect();
                super::outln!("{}", json!({"games": list}));
            } else {
                if !games.is_empty() {
                    super::outln!("{}", archive::GAME_HEADER);
                }
                for g in &games {
                    super::outln!("{}", archive::game_line(&a, g));
                }
                super::outln!("{}", counted(games.len() as u64, "game", "games"));
            }
            Ok(ExitCode::SUCCESS)
        }
        ArchiveCommand::Bench { games, json } => bench(*games, *json).map(|()| ExitCode::SUCCESS),
    }
}
