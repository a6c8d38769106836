//! Training data by self-play, in shards.
//!
//! A game: a random opening of `L` plies (`L` uniform from 1 to `--random`, so that every stage
//! of the game gets positions), then the project's own estimate search plays both
//! sides at a fixed depth, ties broken at random, until `--exact` empties remain; from there the
//! exact solver plays a perfect line to the end. The random plies are not training data: they are
//! a way to reach varied positions. Every position from ply `L` on is labelled with the game's
//! final disc difference from its side to move. Along the perfect line that is the position's
//! exact score; before it, it is the score the search's own play reached.
//!
//! A shard file holds one line per game, so a shard is small and a line is all a later step
//! needs:
//!
//! ```text
//! # fit-eval selfplay v1 size 8 seed 1 shard 2/4 depth 6 exact 20 random 40 weights 9f3c...
//! 1 13 f5d6c3d3c4f4f6f3e6e7d7c6b5... -4
//! ```
//!
//! (the game's global index, the number of random plies, the transcript with implicit passes,
//! black's final score). Game `g` of the whole run belongs to shard `g mod N` and is played from a
//! random stream seeded by `(seed, g)` alone, so the games do not depend on how the run is split,
//! and a shard started again reads what its file holds and goes on from the next game.

use crate::games::ReadGame;
use crate::play::weights_fingerprint;
use crate::{Rng, shards};
use othello_explorer::solver::{Limits, SearchMode, Solver, SolverOptions};
use othello_explorer::{Position, Scoring, Size, Square, notation::transcript};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// What a self-play run is: everything a game depends on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub size: Size,
    pub seed: u64,
    /// Shard `index` (0-based) of `count`.
    pub index: u64,
    pub count: u64,
    /// Plies of the midgame search.
    pub depth: u32,
    /// Empties from which the exact solver plays.
    pub exact: u32,
    /// The longest random opening.
    pub random: u32,
}

impl Settings {
    /// The header line of the shard file (without the newline).
    pub fn header(&self) -> String {
        format!(
            "# fit-eval selfplay v1 size {} seed {} shard {}/{} depth {} exact {} random {} weights {:016x}",
            self.size.n(),
            self.seed,
            self.index + 1,
            self.count,
            self.depth,
            self.exact,
            self.random,
            weights_fingerprint(self.size.n())
        )
    }

    /// The shard's file in `dir`.
    pub fn path(&self, dir: &Path) -> PathBuf {
        dir.join(format!(
            "selfplay-{n}x{n}-seed{}-shard{}of{}.txt",
            self.seed,
            self.index + 1,
            self.count,
            n = self.size.n()
        ))
    }
}

/// One game: the number of random plies, the moves, black's final score.
pub struct Game {
    pub random: usize,
    pub moves: Vec<Square>,
    pub black_score: i32,
}

/// The random stream of game `g`.
fn game_rng(seed: u64, g: u64) -> Rng {
    let mut mix = Rng(seed ^ g.wrapping_mul(0x2545_f491_4f6c_dd1d));
    Rng(mix.next() ^ g)
}

/// Plays game `g`. `None` when `stop` was raised during it.
pub fn play_game(settings: &Settings, g: u64, solver: &mut Solver, stop: &Arc<AtomicBool>) -> Option<Game> {
    let mut rng = game_rng(settings.seed, g);
    // Uniform in 1..=random: short openings give the early stages their positions, long ones
    // varied midgames (the first plies repeat a lot; a game from a one-ply opening is played
    // again and again, but only one game in `random` is).
    let random = 1 + rng.below(settings.random as usize);
    let mut position = Position::start(settings.size);
    let mut moves = Vec::new();
    let limits = Limits { stop: Some(stop.clone()), ..Limits::default() };
    loop {
        if position.is_game_over() {
            break;
        }
        if position.must_pass() {
            position = position.after_forced_pass().0;
            continue;
        }
        let legal = position.legal_moves().reading_order();
        let square = if moves.len() < random {
            legal[rng.below(legal.len())]
        } else if position.empty_count() <= settings.exact {
            let pv = solver.principal_variation(&position, &limits).ok()?;
            for &sq in &pv {
                if position.must_pass() {
                    position = position.after_forced_pass().0;
                }
                position = position.play(sq).expect("the solver's line is legal");
                moves.push(sq);
            }
            debug_assert!(position.is_game_over());
            break;
        } else {
            let analysis =
                solver.analyse(&position, SearchMode::Estimate, Some(settings.depth), &limits, &[], &mut |_| {});
            if analysis.stopped.is_some() || stop.load(Ordering::Relaxed) {
                return None;
            }
            let best = analysis.children[0].score;
            let ties: Vec<Square> =
                analysis.children.iter().take_while(|c| c.score == best).map(|c| c.square).collect();
            ties[rng.below(ties.len())]
        };
        position = position.play(square).expect("a legal move");
        moves.push(square);
    }
    let random = random.min(moves.len());
    Some(Game { random, moves, black_score: position.black_score(Scoring::Standard) })
}

/// The line of one game in a shard file.
pub fn format_game(g: u64, game: &Game) -> String {
    format!("{g} {} {} {}", game.random, transcript::format(&game.moves), game.black_score)
}

/// A game line read back: index, random plies, moves as text, black's score.
pub struct GameLine<'a> {
    pub index: u64,
    pub random: usize,
    pub moves: &'a str,
    pub black_score: i32,
}

/// Parses a game line; `None` if it is not one (a comment, or a line cut short).
pub fn parse_game(line: &str) -> Option<GameLine<'_>> {
    let mut words = line.split_whitespace();
    let index = words.next()?.parse().ok()?;
    let random = words.next()?.parse().ok()?;
    let moves = words.next()?;
    let black_score = words.next()?.parse().ok()?;
    words.next().is_none().then_some(GameLine { index, random, moves, black_score })
}

/// Runs one shard until it holds `games` games (or `stop` is raised), appending one line per game
/// and flushing it, so an interrupted shard loses at most the game in progress.
pub fn run(settings: &Settings, dir: &Path, games: u64, hash_mb: usize, stop: Arc<AtomicBool>) -> Result<(), String> {
    let mut solver = Solver::try_new(SolverOptions { hash_mb, threads: 1, ..SolverOptions::default() })
        .map_err(|e| format!("--hash-mb {hash_mb}: {e}"))?;
    let valid = |line: &str| parse_game(line).is_some();
    let make = |g: u64| {
        let game = play_game(settings, g, &mut solver, &stop)?;
        let line = format_game(g, &game);
        Some(line.split_once(' ').map_or(line.clone(), |x| x.1.to_string()))
    };
    shards::fill(&settings.path(dir), &settings.header(), (settings.index, settings.count), games, &stop, valid, make)?;
    Ok(())
}

/// Writes the games of `shards` (one run's) to `out`, in order of game index, under a header
/// naming the run with `shard all/N`.
pub fn merge(shards: &[PathBuf], out: &Path) -> Result<(), String> {
    let games = read_games(shards)?;
    let runs: std::collections::BTreeSet<&str> = games.iter().map(|g| g.0.as_str()).collect();
    if runs.len() > 1 {
        return Err(format!("the files hold games of {} different runs: {runs:?}", runs.len()));
    }
    let first = std::fs::read_to_string(&shards[0]).map_err(|e| format!("{}: {e}", shards[0].display()))?;
    let header = first.lines().next().unwrap_or_default();
    let (before, after) =
        header.split_once(" shard ").ok_or_else(|| format!("{}: line 1: no shard", shards[0].display()))?;
    let count = after.split_whitespace().next().and_then(|s| s.split('/').nth(1)).unwrap_or("?");
    let rest = after.split_once(' ').map_or("", |x| x.1);
    let mut text = format!("{before} shard all/{count} {rest}\n");
    for (_, index, random, moves, black_score) in &games {
        let _ = writeln!(text, "{index} {random} {moves} {black_score}");
    }
    std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!("{}: {} games from {} files", out.display(), games.len(), shards.len());
    Ok(())
}

/// Every game of the shard files given, checked and sorted by index; a game index found twice is
/// an error (two shards of different runs mixed).
pub fn read_games(paths: &[PathBuf]) -> Result<Vec<ReadGame>, String> {
    let mut out = Vec::new();
    for path in paths {
        if path.extension().is_some_and(|e| e == "oxg") {
            out.extend(crate::games::read_for_fit(path)?);
            continue;
        }
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut lines = text.lines();
        let header = lines.next().unwrap_or("");
        if !header.starts_with("# fit-eval selfplay v1 ") {
            return Err(format!("{}: line 1: not a fit-eval selfplay shard", path.display()));
        }
        let run = header.split(" shard ").next().unwrap_or("").to_string()
            + &header.split(" depth ").nth(1).map(|s| format!(" depth {s}")).unwrap_or_default();
        for (k, line) in lines.enumerate() {
            let game =
                parse_game(line).ok_or_else(|| format!("{}: line {}: not a game line", path.display(), k + 2))?;
            out.push((run.clone(), game.index, game.random, game.moves.to_string(), game.black_score));
        }
    }
    out.sort_by_key(|g| (g.0.clone(), g.1));
    for pair in out.windows(2) {
        if pair[0].0 == pair[1].0 && pair[0].1 == pair[1].1 {
            return Err(format!("game {} of run {:?} appears twice", pair[0].1, pair[0].0));
        }
    }
    Ok(out)
}

/// The positions of a game after its random opening, each with its label: the final disc
/// difference from its side to move. Finished positions are left out.
pub fn labelled_positions(
    size: Size,
    random: usize,
    moves: &str,
    black_score: i32,
) -> Result<Vec<(u64, u64, i32)>, String> {
    let line = transcript::play(&Position::start(size), moves).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for (k, position) in std::iter::once(&Position::start(size)).chain(&line.positions).enumerate() {
        if k < random || position.is_game_over() {
            continue;
        }
        let (pos, _) = position.after_forced_pass();
        let label = match pos.to_move() {
            othello_explorer::Color::Black => black_score,
            othello_explorer::Color::White => -black_score,
        };
        let (p, o) = pos.raw();
        out.push((p, o, label));
    }
    Ok(out)
}
