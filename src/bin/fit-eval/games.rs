//! Self-play games at scale (`fit-eval games`): compressed shards that one machine or a batch
//! engine (Slurm job arrays, Kubernetes Indexed Jobs) fills unchanged. `docs/training-data.md`
//! gives the commands, the cluster scripts and how far the committed data has got.
//!
//! ## A game
//!
//! 1. **An opening that is not data.** Half the games (8x8 only) play one of the named openings
//!    of `data/openings-8x8.txt`, chosen at random, then 0 to 4 random plies (its deviations);
//!    the others play `L` random plies, `L` uniform in `2..=random`. Opening positions repeat
//!    from game to game and the random ones are not realistic, so training skips them.
//! 2. **A cheap, varied middle game.** The estimate search values every legal move `depth` plies
//!    deep; the move is drawn among those within `margin` discs of the best, with weight
//!    `exp(-loss / temperature)`: balanced positions, never the same line twice in a row.
//! 3. **An exact ending.** From `exact` empties on, the exact solver plays a perfect line to the
//!    end.
//!
//! Every position after the opening is labelled with the game's final disc difference (from its
//! side to move). Along the perfect line that is the position's exact score, a better label than
//! any search; before it, it is what this engine's own play made of the position, the label the
//! fit's games have always had (`docs/eval.md`).
//!
//! Game `g` of a run depends on the run's settings, the shipped weights and `g` alone: its random
//! stream is seeded by `(seed, g)`, and the solver's table is cleared before it. So the games do
//! not depend on how the run is split, which shard plays them, or what ran before.
//!
//! ## The shard file (`games-8x8-seed7-shard3of64.oxg`)
//!
//! ```text
//! # othello-explorer games v1 size 8 seed 7 shard 3/64 depth 4 exact 20 margin 2 temperature 1 random 12 weights 9f3c...\n
//! frame*: u32 LE compressed length, u32 LE games, zlib(records)
//! record: u32 LE game index, u8 opening plies, u8 moves, one byte a move, i8 black's final score
//! ```
//!
//! A move's byte is its rank among the legal moves of the position in reading order (passes are
//! implicit), so a byte is small and compresses well, and a game that does not replay is caught.
//! Shard `I` of `N` holds the games `g` with `g mod N = I - 1`, in order. A frame is written every
//! [`FRAME_GAMES`] games or [`FRAME_SECONDS`] seconds, and when the shard stops (done, SIGINT,
//! SIGTERM): a kill loses at most the games of the frame being filled. A shard started again
//! keeps its complete frames, drops a frame cut short, and plays on from the next game.

use crate::Rng;
use flate2::Compression;
use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;
use othello_explorer::solver::{Limits, SearchMode, Solver, SolverOptions};
use othello_explorer::{Position, Scoring, Size, Square};
use std::collections::HashSet;
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Games in a full frame.
pub const FRAME_GAMES: usize = 256;
/// The longest a finished game waits in memory before its frame is written.
pub const FRAME_SECONDS: u64 = 60;

const MAGIC: &str = "# othello-explorer games v1 ";

/// What a run is: everything its games depend on (besides the shipped weights).
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub size: Size,
    pub seed: u64,
    /// Plies of the estimate search that plays the middle game.
    pub depth: u32,
    /// Empties from which the exact solver plays.
    pub exact: u32,
    /// Moves within this many discs of the best estimate may be drawn.
    pub margin: u32,
    /// The softness of the draw, in discs.
    pub temperature: f64,
    /// The longest random opening.
    pub random: u32,
}

impl Run {
    /// The defaults for a board: depth 4, exact 20 (22 on 6x6, whose games are short), margin 2,
    /// temperature 1, random openings of at most 12 plies on 8x8 and 8 on 6x6.
    pub fn defaults(size: Size, seed: u64) -> Run {
        let six = size == Size::Six;
        Run {
            size,
            seed,
            depth: 4,
            exact: if six { 22 } else { 20 },
            margin: 2,
            temperature: 1.0,
            random: if six { 8 } else { 12 },
        }
    }

    /// The run's part of the header (everything but the shard).
    fn describe(&self) -> (String, String) {
        let n = self.size.n();
        (
            format!("size {n} seed {}", self.seed),
            format!(
                "depth {} exact {} margin {} temperature {} random {} weights {:016x}",
                self.depth,
                self.exact,
                self.margin,
                self.temperature,
                self.random,
                crate::play::weights_fingerprint(n)
            ),
        )
    }

    /// The first line of shard `shard` (`None`: a merged file).
    pub fn header(&self, shard: Option<(u64, u64)>) -> String {
        let (front, back) = self.describe();
        let shard = match shard {
            Some((i, n)) => format!("{}/{n}", i + 1),
            None => "all".to_string(),
        };
        format!("{MAGIC}{front} shard {shard} {back}")
    }

    /// Shard `shard`'s file in `dir`.
    pub fn path(&self, dir: &Path, (index, count): (u64, u64)) -> PathBuf {
        let n = self.size.n();
        dir.join(format!("games-{n}x{n}-seed{}-shard{}of{count}.oxg", self.seed, index + 1))
    }
}

/// Which shard this process plays, 0-based `(index, count)`: `--shard I/N` if given, else the
/// batch engine's environment (`SLURM_ARRAY_TASK_ID` less `SLURM_ARRAY_TASK_MIN`, of
/// `SLURM_ARRAY_TASK_COUNT`; or `JOB_COMPLETION_INDEX` of `--shards N`), else the whole run.
pub fn which_shard(
    flag: Option<&str>,
    shards: Option<u64>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<(u64, u64), String> {
    if let Some(text) = flag {
        return crate::shards::parse_shard(text);
    }
    let number = |name: &str| -> Result<Option<u64>, String> {
        match env(name) {
            None => Ok(None),
            Some(v) => v.trim().parse().map(Some).map_err(|_| format!("{name}={v:?}: not a whole number")),
        }
    };
    if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
        let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let count = match (shards, number("SLURM_ARRAY_TASK_COUNT")?) {
            (Some(n), _) | (None, Some(n)) => n,
            (None, None) => return Err("SLURM_ARRAY_TASK_ID is set but not SLURM_ARRAY_TASK_COUNT".into()),
        };
        let index = id.checked_sub(min).filter(|&i| i < count).ok_or_else(|| {
            format!(
                "SLURM_ARRAY_TASK_ID={id} is not in {min}..{} (the array must be a plain range, like --array=0-{})",
                min + count,
                count.saturating_sub(1)
            )
        })?;
        return Ok((index, count));
    }
    if let Some(index) = number("JOB_COMPLETION_INDEX")? {
        let count = shards.ok_or("JOB_COMPLETION_INDEX is set: give the job's completions as --shards N")?;
        if index >= count {
            return Err(format!("JOB_COMPLETION_INDEX={index} is not below --shards {count}"));
        }
        return Ok((index, count));
    }
    match shards {
        Some(n) if n != 1 => Err(format!("--shards {n} without --shard, SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX")),
        _ => Ok((0, 1)),
    }
}

/// One game: opening plies (not data), every move, black's final score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub index: u64,
    pub opening: usize,
    pub moves: Vec<Square>,
    pub black_score: i32,
}

/// The named 8x8 openings, each as its moves from the start.
fn named_openings() -> &'static [Vec<Square>] {
    static LINES: std::sync::OnceLock<Vec<Vec<Square>>> = std::sync::OnceLock::new();
    LINES.get_or_init(|| {
        include_str!("../../../data/openings-8x8.txt")
            .lines()
            .filter_map(|line| line.split(';').next()?.split_whitespace().next())
            .filter_map(|word| {
                let line = othello_explorer::notation::transcript::play(&Position::start(Size::Eight), word).ok()?;
                Some(line.moves.clone())
            })
            .filter(|moves| !moves.is_empty())
            .collect()
    })
}

fn game_rng(seed: u64, g: u64) -> Rng {
    let mut mix = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ g.wrapping_mul(0x2545_f491_4f6c_dd1d));
    Rng(mix.next() ^ g.rotate_left(17))
}

fn uniform(rng: &mut Rng) -> f64 {
    (rng.next() >> 11) as f64 / (1u64 << 53) as f64
}

/// Plays a move, taking a forced pass first.
fn advance(position: &Position, square: Square) -> Position {
    let (pos, _) = position.after_forced_pass();
    pos.play(square).expect("a legal move")
}

/// Plays game `g` of `run`. `None` when `stop` was raised during it.
pub fn play_game(run: &Run, g: u64, solver: &mut Solver, stop: &Arc<AtomicBool>) -> Option<Game> {
    let mut rng = game_rng(run.seed, g);
    solver.clear();
    let limits = Limits { stop: Some(stop.clone()), ..Limits::default() };
    let mut position = Position::start(run.size);
    let mut moves: Vec<Square> = Vec::new();
    // The opening.
    let named = named_openings();
    let random = if run.size == Size::Eight && !named.is_empty() && rng.next() & 1 == 0 {
        let line = &named[rng.below(named.len())];
        for &square in line {
            position = advance(&position, square);
            moves.push(square);
        }
        rng.below(5)
    } else {
        2 + rng.below(run.random.max(2) as usize - 1)
    };
    for _ in 0..random {
        let (pos, _) = position.after_forced_pass();
        if pos.is_game_over() {
            break;
        }
        let legal = pos.legal_moves().reading_order();
        let square = legal[rng.below(legal.len())];
        position = advance(&position, square);
        moves.push(square);
    }
    let opening = moves.len();
    loop {
        let (pos, _) = position.after_forced_pass();
        if pos.is_game_over() {
            break;
        }
        if pos.empty_count() <= run.exact {
            let pv = solver.principal_variation(&pos, &limits).ok()?;
            for square in pv {
                position = advance(&position, square);
                moves.push(square);
            }
            if !position.is_game_over() {
                return None; // stopped inside the line
            }
            break;
        }
        let analysis = solver.analyse(&pos, SearchMode::Estimate, Some(run.depth), &limits, &[], &mut |_| {});
        if analysis.stopped.is_some() || stop.load(Ordering::Relaxed) {
            return None;
        }
        let best = analysis.children[0].score;
        let near: Vec<(Square, f64)> = analysis
            .children
            .iter()
            .filter(|c| best - c.score <= run.margin as i32)
            .map(|c| (c.square, (-((best - c.score) as f64) / run.temperature.max(1e-9)).exp()))
            .collect();
        let total: f64 = near.iter().map(|c| c.1).sum();
        let mut pick = uniform(&mut rng) * total;
        let mut square = near[near.len() - 1].0;
        for &(sq, w) in &near {
            if pick < w {
                square = sq;
                break;
            }
            pick -= w;
        }
        position = advance(&position, square);
        moves.push(square);
    }
    Some(Game { index: g, opening, moves, black_score: position.black_score(Scoring::Standard) })
}

/// A game's record bytes.
fn encode(size: Size, game: &Game, out: &mut Vec<u8>) {
    out.extend_from_slice(&(game.index as u32).to_le_bytes());
    out.push(game.opening as u8);
    out.push(game.moves.len() as u8);
    let mut position = Position::start(size);
    for &square in &game.moves {
        let (pos, _) = position.after_forced_pass();
        let legal = pos.legal_moves().reading_order();
        let rank = legal.iter().position(|&s| s == square).expect("a legal move");
        out.push(rank as u8);
        position = pos.play(square).expect("a legal move");
    }
    out.push(game.black_score as i8 as u8);
}

/// The games of a frame's records, each replayed by the rules and checked.
fn decode(size: Size, mut bytes: &[u8]) -> Result<Vec<Game>, String> {
    let mut games = Vec::new();
    while !bytes.is_empty() {
        let k = games.len();
        let bad = |what: &str| format!("record {k}: {what}");
        if bytes.len() < 6 {
            return Err(bad("cut short"));
        }
        let index = u32::from_le_bytes(bytes[..4].try_into().expect("4 bytes")) as u64;
        let (opening, count) = (bytes[4] as usize, bytes[5] as usize);
        if bytes.len() < 7 + count {
            return Err(bad("cut short"));
        }
        let mut position = Position::start(size);
        let mut moves = Vec::with_capacity(count);
        for &rank in &bytes[6..6 + count] {
            let (pos, _) = position.after_forced_pass();
            let legal = pos.legal_moves().reading_order();
            let square =
                *legal.get(rank as usize).ok_or_else(|| bad(&format!("move {}: no such move", moves.len() + 1)))?;
            position = pos.play(square).expect("a legal move");
            moves.push(square);
        }
        let black_score = bytes[6 + count] as i8 as i32;
        if !position.is_game_over() {
            return Err(bad("the game does not end"));
        }
        if position.black_score(Scoring::Standard) != black_score || opening > count {
            return Err(bad("the score is not the final board's"));
        }
        games.push(Game { index, opening, moves, black_score });
        bytes = &bytes[7 + count..];
    }
    Ok(games)
}

/// Compresses a frame of games.
fn frame(size: Size, games: &[Game]) -> Vec<u8> {
    let mut records = Vec::new();
    for game in games {
        encode(size, game, &mut records);
    }
    let mut z = ZlibEncoder::new(Vec::new(), Compression::best());
    z.write_all(&records).expect("writing to memory");
    let data = z.finish().expect("writing to memory");
    let mut out = Vec::with_capacity(data.len() + 8);
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out.extend_from_slice(&(games.len() as u32).to_le_bytes());
    out.extend_from_slice(&data);
    out
}

/// A games file read back.
pub struct GamesFile {
    /// Its first line, without the newline.
    pub header: String,
    pub size: Size,
    pub games: Vec<Game>,
    /// Bytes of the complete frames (with the header): where a frame cut short begins.
    pub complete: u64,
    /// Whether the file ends in a frame cut short (an interrupted shard).
    pub torn: bool,
}

/// Reads a games file: every complete frame, replayed and checked. A frame cut short at the end
/// is reported in `torn`; a damaged frame before the end is an error.
pub fn read(path: &Path) -> Result<GamesFile, String> {
    let shown = path.display();
    let bytes = std::fs::read(path).map_err(|e| format!("{shown}: {e}"))?;
    let end = bytes.iter().position(|&b| b == b'\n').ok_or_else(|| format!("{shown}: not a games file"))?;
    let header = std::str::from_utf8(&bytes[..end])
        .ok()
        .filter(|h| h.starts_with(MAGIC))
        .ok_or_else(|| format!("{shown}: line 1: not an othello-explorer games file"))?
        .to_string();
    let size = match header[MAGIC.len()..].split_whitespace().nth(1) {
        Some("4") => Size::Four,
        Some("6") => Size::Six,
        Some("8") => Size::Eight,
        _ => return Err(format!("{shown}: line 1: no board size")),
    };
    let mut at = end + 1;
    let mut games = Vec::new();
    let mut torn = false;
    let mut frames = 0;
    while at < bytes.len() {
        let rest = &bytes[at..];
        let whole = rest.len() >= 8 && rest.len() - 8 >= u32::from_le_bytes(rest[..4].try_into().expect("4")) as usize;
        let decoded = whole.then(|| {
            let len = u32::from_le_bytes(rest[..4].try_into().expect("4")) as usize;
            let count = u32::from_le_bytes(rest[4..8].try_into().expect("4")) as usize;
            let mut records = Vec::new();
            ZlibDecoder::new(&rest[8..8 + len])
                .read_to_end(&mut records)
                .map_err(|e| format!("frame {}: {e}", frames + 1))
                .and_then(|_| decode(size, &records).map_err(|e| format!("frame {}: {e}", frames + 1)))
                .and_then(|g| {
                    (g.len() == count)
                        .then_some((g, len))
                        .ok_or_else(|| format!("frame {}: wrong game count", frames + 1))
                })
        });
        match decoded {
            Some(Ok((g, len))) => {
                games.extend(g);
                at += 8 + len;
                frames += 1;
            }
            Some(Err(e)) => {
                let len = u32::from_le_bytes(rest[..4].try_into().expect("4")) as usize;
                if at + 8 + len == bytes.len() {
                    torn = true; // the last frame, damaged as a kill leaves it
                    break;
                }
                return Err(format!("{shown}: {e}"));
            }
            None => {
                torn = true;
                break;
            }
        }
    }
    Ok(GamesFile { header, size, games, complete: at as u64, torn })
}

/// Plays shard `shard` of `run` into `dir` until it holds every game `g < games` of the shard, or
/// `stop` is raised. Returns the games the file holds.
pub fn run(
    run: &Run,
    shard: (u64, u64),
    dir: &Path,
    games: u64,
    hash_mb: usize,
    stop: Arc<AtomicBool>,
) -> Result<u64, String> {
    let (index, count) = shard;
    let path = run.path(dir, shard);
    let shown = path.display().to_string();
    let header = run.header(Some(shard));
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut done = 0u64;
    if path.exists() {
        let file = read(&path)?;
        if file.header != header {
            return Err(format!("{shown}: line 1: written by another run ({}); expected {header}", file.header));
        }
        for (k, game) in file.games.iter().enumerate() {
            if game.index != index + k as u64 * count {
                return Err(format!(
                    "{shown}: game {} is not game {} of this shard",
                    game.index,
                    index + k as u64 * count
                ));
            }
        }
        done = file.games.len() as u64;
        if file.torn {
            eprintln!("{shown}: a frame cut short at the end is dropped; its games are played again");
            let f = std::fs::OpenOptions::new().write(true).open(&path).map_err(|e| format!("{shown}: {e}"))?;
            f.set_len(file.complete).map_err(|e| format!("{shown}: {e}"))?;
        }
    } else {
        std::fs::write(&path, format!("{header}\n")).map_err(|e| format!("{shown}: {e}"))?;
    }
    let target = games.saturating_sub(index).div_ceil(count);
    let mut file = std::fs::OpenOptions::new().append(true).open(&path).map_err(|e| format!("{shown}: {e}"))?;
    let mut solver = Solver::try_new(SolverOptions { hash_mb, threads: 1, ..SolverOptions::default() })
        .map_err(|e| format!("--hash-mb {hash_mb}: {e}"))?;
    eprintln!("{shown}: {done} games already, going on to {target}");
    let (began, first) = (Instant::now(), done);
    let mut pending: Vec<Game> = Vec::new();
    let mut since = Instant::now();
    let write = |pending: &mut Vec<Game>, file: &mut std::fs::File| -> Result<(), String> {
        if !pending.is_empty() {
            file.write_all(&frame(run.size, pending))
                .and_then(|()| file.sync_data())
                .map_err(|e| format!("{shown}: {e}"))?;
            pending.clear();
        }
        Ok(())
    };
    while done < target && !stop.load(Ordering::Relaxed) {
        let g = index + done * count;
        let Some(game) = play_game(run, g, &mut solver, &stop) else { break };
        pending.push(game);
        done += 1;
        if pending.len() >= FRAME_GAMES || since.elapsed().as_secs() >= FRAME_SECONDS {
            write(&mut pending, &mut file)?;
            since = Instant::now();
            let rate = (done - first) as f64 / began.elapsed().as_secs_f64();
            eprintln!("{}: {done} of {target} games ({rate:.2} a second)", path.display());
        }
    }
    write(&mut pending, &mut file)?;
    eprintln!("{}: {done} games in the file", path.display());
    Ok(done)
}

/// What a merge did.
pub struct Merged {
    pub games: usize,
    pub duplicates: usize,
}

/// Writes the games of `paths` (shards of one run) to `out` in index order, each game once: a
/// game whose moves another game already has is dropped.
pub fn merge(paths: &[PathBuf], out: &Path) -> Result<Merged, String> {
    let mut run_header: Option<String> = None;
    let mut size = Size::Eight;
    let mut all = Vec::new();
    for path in paths {
        let file = read(path)?;
        let (front, back) = file
            .header
            .split_once(" shard ")
            .map(|(f, b)| (f.to_string(), b.split_once(' ').map_or("", |x| x.1).to_string()))
            .ok_or_else(|| format!("{}: line 1: no shard", path.display()))?;
        let this = format!("{front} shard all {back}");
        match &run_header {
            Some(h) if *h != this => {
                return Err(format!("{}: a game file of another run ({}); expected {h}", path.display(), file.header));
            }
            _ => run_header = Some(this),
        }
        size = file.size;
        all.extend(file.games);
    }
    let header = run_header.ok_or("no files to merge")?;
    all.sort_by_key(|g| g.index);
    let mut seen = HashSet::new();
    let mut indexes = HashSet::new();
    let mut kept = Vec::new();
    let mut duplicates = 0;
    for game in all {
        if !indexes.insert(game.index) {
            return Err(format!("game {} is in two files: shards of two runs, or one file given twice", game.index));
        }
        if seen.insert(game.moves.clone()) {
            kept.push(game);
        } else {
            duplicates += 1;
        }
    }
    let mut bytes = format!("{header}\n").into_bytes();
    for chunk in kept.chunks(FRAME_GAMES) {
        bytes.extend(frame(size, chunk));
    }
    let tmp = out.with_extension("oxg.tmp");
    std::fs::write(&tmp, &bytes).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, out).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(Merged { games: kept.len(), duplicates })
}

/// A game read back: the run (its header without the shard), index, random plies, moves, black's
/// final score.
pub type ReadGame = (String, u64, usize, String, i32);

/// The games of `paths`, as the fit reads them: `(run, index, opening plies, transcript, black's
/// score)`, the run being the header less its shard.
pub fn read_for_fit(path: &Path) -> Result<Vec<ReadGame>, String> {
    let file = read(path)?;
    let run = file.header.split(" shard ").next().unwrap_or("").to_string()
        + &file.header.split(" depth ").nth(1).map(|s| format!(" depth {s}")).unwrap_or_default();
    Ok(file
        .games
        .into_iter()
        .map(|g| {
            (run.clone(), g.index, g.opening, othello_explorer::notation::transcript::format(&g.moves), g.black_score)
        })
        .collect())
}

/// Counts the games and positions of files: what `games-stats` prints.
pub fn stats(paths: &[PathBuf]) -> Result<String, String> {
    let mut out = String::new();
    let (mut games, mut positions) = (0usize, 0usize);
    for path in paths {
        let file = read(path)?;
        let p: usize = file.games.iter().map(|g| g.moves.len() - g.opening).sum();
        out += &format!(
            "{}: {} games, {p} positions{}\n",
            path.display(),
            file.games.len(),
            if file.torn { " (a frame cut short at the end)" } else { "" }
        );
        games += file.games.len();
        positions += p;
    }
    out += &format!("total: {games} games, {positions} positions after the openings\n");
    Ok(out)
}

#[cfg(test)]
mod tests;
