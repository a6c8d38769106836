//! Exactly solved positions for the late stages, in shards ([`super::shards`]).
//!
//! Self-play gives about four positions per game to each late stage, at half a second a game.
//! Positions with few empties are cheap to solve on their own (milliseconds at 10-14 empties), so
//! the late stages get many more, with exact labels, from here: position `g` comes from a
//! randomised game stopped at a number of empties drawn uniformly from the run's range, and is
//! solved exactly by the project's solver. How the game is played (`--play`):
//!
//! - `mixed` (runs of version 1): each move random or the hand-written stand-in's greedy choice,
//!   half and half, so nothing depends on the weights being trained;
//! - `search`: each move random with a probability drawn per game from 1/2 to 1/8, else the best
//!   move of a 2-ply search of the shipped weights (ties at random), like the positions an estimate
//!   search meets and like `tests/data/estimates-14-20.obf`'s. Its games depend on the weights, so
//!   the header records their fingerprint, as self-play's does.
//!
//! A line:
//!
//! ```text
//! # fit-eval solved v1 size 8 seed 1 shard 1/2 empties 4-14
//! # fit-eval solved v2 size 8 seed 5 shard 1/2 empties 2-20 play search weights 9f3c...
//! 0 --XXXO---OOXXX...-OO X -6
//! ```
//!
//! (the index, the board string with the side to move as X, the exact score from its side).
//!
//! **Every move** (`--every-move`): each position's moves are all solved exactly
//! ([`Solver::score_children`]), and the line lists them as a problem file does, best first:
//!
//! ```text
//! # fit-eval solved v2 size 8 seed 25 shard 1/1 empties 14-20 play search weights 9efd... every-move
//! 0 --XXXO---OOXXX...-OO X; G2:+4; B7:+2; A3:-6;
//! ```
//!
//! The children are positions off the games' lines too, one empty further on, and they come
//! cheap: solving every move takes about four times as long as solving the position (the
//! table carries what they share), for about nine exact positions where there was one. Siblings
//! are also what a search compares, move against move. The position's own score is the best
//! move's.

use crate::{Rng, shards};
use othello_explorer::solver::{Limits, Solver, SolverOptions};
use othello_explorer::{Color, Position, Size};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// What a run of solved positions is.
pub struct Settings {
    pub size: Size,
    pub seed: u64,
    pub index: u64,
    pub count: u64,
    pub min_empties: u32,
    pub max_empties: u32,
    pub play: Play,
    /// Every move of each position solved (the module docs).
    pub every_move: bool,
}

/// How the games that positions are taken from are played (the module docs).
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Play {
    /// Random or the stand-in's greedy move, half and half (version 1).
    Mixed,
    /// Random now and then, else a 2-ply search of the shipped weights.
    Search,
}

impl Settings {
    pub fn header(&self) -> String {
        let common = format!(
            "size {} seed {} shard {}/{} empties {}-{}",
            self.size.n(),
            self.seed,
            self.index + 1,
            self.count,
            self.min_empties,
            self.max_empties
        );
        let header = match self.play {
            Play::Mixed => format!("# fit-eval solved v1 {common}"),
            Play::Search => format!(
                "# fit-eval solved v2 {common} play search weights {:016x}",
                crate::play::weights_fingerprint(self.size.n())
            ),
        };
        if self.every_move { format!("{header} {EVERY_MOVE}") } else { header }
    }

    pub fn path(&self, dir: &Path) -> PathBuf {
        dir.join(format!(
            "solved-{n}x{n}-empties{}-{}-seed{}{}{}-shard{}of{}.txt",
            self.min_empties,
            self.max_empties,
            self.seed,
            if self.play == Play::Search { "-search" } else { "" },
            if self.every_move { "-every-move" } else { "" },
            self.index + 1,
            self.count,
            n = self.size.n()
        ))
    }
}

/// The word that ends the header of a run that solves every move.
pub const EVERY_MOVE: &str = "every-move";

/// The random stream of item `g` of a run of `seed`: it depends on nothing else, so an item is
/// the same whichever shard makes it.
pub fn item_rng(seed: u64, g: u64) -> Rng {
    let mut rng = Rng(seed ^ g.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    rng.next();
    rng
}

/// Position `g` of the run: (side to move, opponent).
pub fn position(settings: &Settings, g: u64) -> (u64, u64) {
    let mut rng = item_rng(settings.seed, g);
    let span = (settings.max_empties - settings.min_empties + 1) as usize;
    loop {
        let e = settings.min_empties as usize + rng.below(span);
        let game = match (settings.play, settings.size.n()) {
            (Play::Mixed, 4) => crate::game::<4>(&mut rng),
            (Play::Mixed, 6) => crate::game::<6>(&mut rng),
            (Play::Mixed, _) => crate::game::<8>(&mut rng),
            (Play::Search, 6) => searched_game::<6>(&mut rng, e),
            (Play::Search, _) => searched_game::<8>(&mut rng, e),
        };
        let full = othello_explorer::board::geometry::full_mask(settings.size.n());
        if let Some(&(p, o)) = game.iter().find(|&&(p, o)| (full & !(p | o)).count_ones() as usize == e) {
            return (p, o);
        }
    }
}

/// A game of [`Play::Search`] down to `stop` empties: every position with a move to play, in
/// order (the rest of the game is not needed).
fn searched_game<const N: usize>(rng: &mut Rng, stop: usize) -> Vec<(u64, u64)> {
    let w = othello_explorer::eval::weights::shipped(N).expect("the shipped weights load");
    let random = 2 + rng.below(7) as u64;
    crate::game_played::<N>(rng, stop, random, |cp, co, empties| {
        -crate::bootstrap::<N>(w, cp, co, empties.saturating_sub(2), -i32::MAX, i32::MAX)
    })
}

/// A line's board string: `p` as X, X to move.
pub fn board(size: Size, p: u64, o: u64) -> String {
    let position = Position::from_player(size, p, o, Color::Black).expect("a position from play");
    othello_explorer::notation::obf::format_board(&position)
}

/// Parses a line's body: (side to move, opponent, score).
pub fn parse(size: Size, line: &str) -> Option<(u64, u64, i32)> {
    let mut words = line.split_whitespace();
    words.next()?;
    let board = words.next()?;
    let side = words.next()?;
    let score: i32 = words.next()?.parse().ok()?;
    let position = othello_explorer::notation::obf::parse_board(&format!("{board} {side}")).ok()?;
    let (p, o) = position.raw();
    (words.next().is_none() && side == "X" && position.size() == size).then_some((p, o, score))
}

/// Parses a line of an every-move run (after its index): the position, X to move, and each
/// move's exact score, best first.
pub fn parse_every_move(size: Size, line: &str) -> Option<othello_explorer::notation::obf::Problem> {
    let (_, body) = line.trim_end().split_once(' ')?;
    let problem = othello_explorer::notation::obf::parse_problem(body).ok()?;
    let complete = problem.scores.len() == problem.position.legal_moves().count() as usize;
    let sorted = problem.scores.windows(2).all(|w| w[0].1 >= w[1].1);
    (problem.position.size() == size
        && problem.position.to_move() == Color::Black
        && !problem.scores.is_empty()
        && complete
        && sorted)
        .then_some(problem)
}

/// The positions of an every-move line with their exact scores, each from its own side to move,
/// and how many of them are *siblings*: the position (its best move's score), then the children
/// whose side to move has a move, best first (the siblings: each value the negation of its
/// move's score), then the children whose side to move must pass, as the position after the
/// pass (the mover's side to move again). A child that ends the game is left out (it needs no
/// evaluation).
pub fn every_move_positions(problem: &othello_explorer::notation::obf::Problem) -> (Vec<(Position, i32)>, usize) {
    let parent = &problem.position;
    let mut out = vec![(*parent, problem.best_score().expect("a move at least"))];
    let mut passed = Vec::new();
    for &(square, score) in &problem.scores {
        let child = parent.play(square).expect("a listed move is legal");
        if child.is_game_over() {
            continue;
        }
        if child.must_pass() { passed.push((child.pass(), score)) } else { out.push((child, -score)) }
    }
    let siblings = out.len() - 1;
    out.extend(passed);
    (out, siblings)
}

/// Whether a solved file's header (its first line) is that of an every-move run.
pub fn is_every_move(header: &str) -> bool {
    header.split_whitespace().last() == Some(EVERY_MOVE)
}

/// The positions of a line of a solved file (not a `games-solve` line `g none`) with their exact
/// scores, each from its own side to move, and how many after the first are siblings: with
/// `every_move` those of [`every_move_positions`], else the one position and none. `None`: not a
/// line of such a file.
pub fn line_records(size: Size, every_move: bool, line: &str) -> Option<(Vec<(Position, i32)>, usize)> {
    if every_move {
        return Some(every_move_positions(&parse_every_move(size, line)?));
    }
    let (p, o, score) = parse(size, line)?;
    Some((vec![(Position::from_player(size, p, o, Color::Black).ok()?, score)], 0))
}

/// The positions a line of a solved file gives, each `(side to move, opponent, exact score from
/// its side)`: those of [`line_records`]; none for a `games-solve` game with no position in its
/// range. `None`: not a line of such a file.
pub fn line_positions(size: Size, every_move: bool, line: &str) -> Option<Vec<(u64, u64, i32)>> {
    if line.split_whitespace().nth(1) == Some("none") {
        return Some(Vec::new());
    }
    let (positions, _) = line_records(size, every_move, line)?;
    Some(
        positions
            .into_iter()
            .map(|(position, score)| {
                let (p, o) = position.raw();
                (p, o, score)
            })
            .collect(),
    )
}

/// Runs one shard up to `positions` positions.
pub fn run(settings: &Settings, dir: &Path, positions: u64, stop: &AtomicBool) -> Result<(), String> {
    let mut solver = Solver::new(SolverOptions { hash_mb: 32, threads: 1, ..SolverOptions::default() });
    let size = settings.size;
    let make = |g: u64| {
        let (p, o) = position(settings, g);
        let position = Position::from_player(size, p, o, Color::Black).expect("a position from play");
        // Positions come from play with a move to make, never a pass.
        if settings.every_move {
            let children = solver.score_children(&position, &Limits::default(), &mut |_| {}).ok()?;
            let mut line = board(size, p, o);
            for c in children {
                line += &format!("; {}:{:+}", c.square.to_string().to_uppercase(), c.score);
            }
            return Some(line + ";");
        }
        let score = solver.score(&position, &Limits::default()).ok()?.0;
        Some(format!("{} {score}", board(size, p, o)))
    };
    let valid = |line: &str| line_records(size, settings.every_move, line).is_some();
    shards::fill(
        &settings.path(dir),
        &settings.header(),
        (settings.index, settings.count),
        positions,
        stop,
        valid,
        make,
    )?;
    Ok(())
}

/// A run that solves one position of every game of `games` files exactly (`fit-eval games-solve`):
/// labels for the stages above the games' perfect lines, where a game's result is a noisy stand-in
/// for a position's value. The positions are the games' own (realistic play, no random moves); game
/// `g` gives the position with a number of empties drawn from the range by `(seed, g)`, and the
/// line starts with `g`, so the fit holds it out exactly when it holds out the game (`g mod 10 =
/// 9`). A game with no position in the range (it ended early) gets the line `g none`.
pub struct FromGames {
    pub seed: u64,
    pub index: u64,
    pub count: u64,
    pub min_empties: u32,
    pub max_empties: u32,
}

impl FromGames {
    /// The first line of the labels of `source` (a games file with first line `source_header`).
    pub fn header(&self, size: Size, source_header: &str) -> String {
        let from = source_header.trim_start_matches('#').trim();
        format!(
            "# fit-eval solved v3 size {} seed {} shard {}/{} empties {}-{} from {from}",
            size.n(),
            self.seed,
            self.index + 1,
            self.count,
            self.min_empties,
            self.max_empties
        )
    }

    /// Where the labels of `source` go in `dir`.
    pub fn path(&self, size: Size, dir: &Path, source: &Path) -> PathBuf {
        let stem = source.file_stem().map_or("games".into(), |s| s.to_string_lossy());
        dir.join(format!(
            "solved-{n}x{n}-empties{}-{}-seed{}-from-{stem}-shard{}of{}.txt",
            self.min_empties,
            self.max_empties,
            self.seed,
            self.index + 1,
            self.count,
            n = size.n()
        ))
    }

    /// Game `g`'s position (side to move, opponent) of those `positions` of it that are in the
    /// range, each with a move to play; `None` if it has none.
    pub fn pick(&self, size: Size, g: u64, positions: &[(u64, u64, i32)]) -> Option<(u64, u64)> {
        let full = othello_explorer::board::geometry::full_mask(size.n());
        let range = self.min_empties..=self.max_empties;
        let inside: Vec<(u64, u64)> = positions
            .iter()
            .filter(|&&(p, o, _)| range.contains(&(full & !(p | o)).count_ones()))
            .map(|&(p, o, _)| (p, o))
            .collect();
        let mut rng = item_rng(self.seed, g);
        (!inside.is_empty()).then(|| inside[rng.below(inside.len())])
    }
}

/// Labels this shard's games of each file of `sources` (item `k` of a file: its `k`-th game, for
/// `k mod count = index`) until every game the file holds has its line or `stop` is raised.
/// Returns the lines written over all files.
pub fn run_from_games(
    settings: &FromGames,
    sources: &[PathBuf],
    dir: &Path,
    hash_mb: usize,
    stop: &Arc<AtomicBool>,
) -> Result<u64, String> {
    let mut solver = Solver::new(SolverOptions { hash_mb, threads: 1, ..SolverOptions::default() });
    let mut total = 0;
    for source in sources {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        let file = crate::games::read(source)?;
        let size = file.size;
        let games = &file.games;
        let items = (games.len() as u64).saturating_sub(settings.index).div_ceil(settings.count);
        let item = |done: u64| games[(settings.index + done * settings.count) as usize].index;
        let by_index: std::collections::HashMap<u64, &crate::games::Game> =
            games.iter().map(|g| (g.index, g)).collect();
        let make = |g: u64| {
            let game = by_index[&g];
            let moves = othello_explorer::notation::transcript::format(&game.moves);
            let positions = crate::selfplay::labelled_positions(size, game.opening, &moves, game.black_score).ok()?;
            let Some((p, o)) = settings.pick(size, g, &positions) else { return Some("none".to_string()) };
            let position = Position::from_player(size, p, o, Color::Black).expect("a position from play");
            // The table is kept from position to position: an exact score does not depend on it.
            let limits = Limits { stop: Some(Arc::clone(stop)), ..Limits::default() };
            let score = solver.score(&position, &limits).ok()?.0;
            Some(format!("{} {score}", board(size, p, o)))
        };
        let valid = |line: &str| line.split_whitespace().nth(1) == Some("none") || parse(size, line).is_some();
        total += shards::fill_items(
            &settings.path(size, dir, source),
            &settings.header(size, &file.header),
            items,
            item,
            stop,
            valid,
            make,
        )?;
    }
    Ok(total)
}
