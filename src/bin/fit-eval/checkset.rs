//! A test set for estimate quality, from self-play games of a seed the training does not use:
//! positions deep in the midgame, each with the exact score of every legal move.
//!
//! `checkset` plays the self-play games of [`selfplay`](crate::selfplay) (the same
//! [`play_game`], with the `selfplay` subcommand's settings) and takes from game `g` at most one
//! position: one drawn, with a random stream seeded by `(seed, g)` alone, from the positions of
//! the game that come at or after its random opening (ply >= the game's random plies), have from
//! `--min-empties` to `--max-empties` empty squares, and whose side to move has at least two
//! legal moves (so it neither passes nor has a forced move: both say nothing about an estimate's
//! choice). A game with no such position (a random opening that reached past the range) gives
//! none. The position's moves are then each solved exactly ([`Solver::score_children`], one
//! thread).
//!
//! Like `selfplay`, a run is deterministic from its seed and split into shards: game `g` belongs to
//! shard `g mod N`. A shard file holds one line per game, appended and flushed as soon as the game
//! is done, so a shard started again keeps the complete lines of its file and goes on from the
//! next game:
//!
//! ```text
//! # fit-eval checkset v1 size 8 seed 777 shard 1/2 depth 6 exact 20 random 40 weights 9f3c... empties 24-26
//! 0 ----XX---OOXX-O-... X; C4:+6; B3:+2; ...;
//! 2 -
//! ```
//!
//! (the game's index, then the position as a problem line of `bench` (`obf::parse_problem`),
//! every move's exact score best first; or `-` for a game that gave no position).
//! `checkset-merge` joins the shard files of one run into the problem file, sorted by game index,
//! under `%` lines that say how it was made.

use crate::Rng;
use crate::selfplay::{Settings, play_game};
use othello_explorer::eval::Evaluator;
use othello_explorer::notation::obf::{format_board, parse_problem};
use othello_explorer::solver::{Limits, SearchMode, Selectivity, Solver, SolverOptions};
use othello_explorer::{Position, Square};
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The table of the solver that plays the games: the `selfplay` subcommand's default.
const PLAY_HASH_MB: usize = 64;

/// What a check-set run is: the games, the empties its positions are taken at, and how their
/// moves are scored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkset {
    pub play: Settings,
    pub min_empties: u32,
    pub max_empties: u32,
    pub scoring: Scoring,
}

/// How the moves of a check-set position are scored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// Each move solved exactly.
    Exact,
    /// Each move valued by the analysis's estimate `depth` plies deep (the move and `depth - 1`
    /// after it) at `selectivity`, once with each evaluation of `evaluators`, the values'
    /// mean rounded half away from zero: for the middle game, where an exact score is out of
    /// reach. Several evaluations keep the set from favouring any one of them.
    Search { depth: u32, selectivity: Selectivity, evaluators: Vec<Evaluator> },
}

impl Checkset {
    /// The header line of the shard file (without the newline): the self-play header's settings
    /// (with the weights the games were played with), the empties range, and for a searched set
    /// the search (`search DEPTH SELECTIVITY% EVAL+EVAL`).
    pub fn header(&self) -> String {
        let play = self.play.header();
        let settings = play.strip_prefix("# fit-eval selfplay v1 ").unwrap_or(&play);
        let mut header = format!("# fit-eval checkset v1 {settings} empties {}-{}", self.min_empties, self.max_empties);
        if let Scoring::Search { depth, selectivity, evaluators } = &self.scoring {
            let names: Vec<&str> = evaluators.iter().map(|e| e.name()).collect();
            header += &format!(" search {depth} {}% {}", selectivity.percent(), names.join("+"));
        }
        header
    }

    /// The shard's file in `dir`.
    pub fn path(&self, dir: &Path) -> PathBuf {
        dir.join(format!(
            "checkset-{n}x{n}-seed{}-empties{}-{}-shard{}of{}.txt",
            self.play.seed,
            self.min_empties,
            self.max_empties,
            self.play.index + 1,
            self.play.count,
            n = self.play.size.n()
        ))
    }
}

/// The random stream that picks game `g`'s position: seeded by `(seed, g)` alone, apart from the
/// stream that played the game.
fn pick_rng(seed: u64, g: u64) -> Rng {
    let mut mix = Rng(seed ^ 0x6368_6563_6b73_6574 ^ g.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    Rng(mix.next() ^ g.rotate_left(32))
}

/// The position game `g` gives, if any: drawn from the positions at or after its random opening
/// with empties in the range and at least two moves for the side to move.
pub fn pick(run: &Checkset, g: u64, random: usize, moves: &[Square]) -> Option<Position> {
    let mut position = Position::start(run.play.size);
    let mut candidates = Vec::new();
    for (ply, &square) in moves.iter().enumerate() {
        // The side to move passes: that position is no problem, the one after the pass may be.
        position = position.after_forced_pass().0;
        if ply >= random
            && (run.min_empties..=run.max_empties).contains(&position.empty_count())
            && position.legal_moves().count() >= 2
        {
            candidates.push(position);
        }
        position = position.play(square).expect("a move of the game");
    }
    if candidates.is_empty() {
        return None;
    }
    Some(candidates[pick_rng(run.play.seed, g).below(candidates.len())])
}

/// The problem line of `position`: the board, the side to move, every move's exact score, best
/// first (ties in reading order), squares in capitals as in the FFO files.
pub fn problem_line(solver: &mut Solver, position: &Position, limits: &Limits) -> Option<String> {
    let children = solver.score_children(position, limits, &mut |_| {}).ok()?;
    let scores: Vec<String> =
        children.iter().map(|c| format!("{}:{:+}", c.square.to_string().to_uppercase(), c.score)).collect();
    Some(format!("{}; {};", format_board(position), scores.join("; ")))
}

/// The problem line of `position` with every move valued by `scoring`'s searches (see
/// [`Scoring::Search`]), best first (ties in reading order); `scorers` holds one solver per
/// evaluation, each cleared before its analysis.
pub fn searched_line(scorers: &mut [Solver], position: &Position, depth: u32, limits: &Limits) -> Option<String> {
    let mut sums: BTreeMap<Square, i32> = BTreeMap::new();
    for scorer in scorers.iter_mut() {
        scorer.clear();
        let analysis = scorer.analyse(position, SearchMode::Estimate, Some(depth), limits, &[], &mut |_| {});
        if analysis.children.len() != position.legal_moves().count() as usize {
            return None;
        }
        for child in &analysis.children {
            *sums.entry(child.square).or_default() += child.score;
        }
    }
    let k = scorers.len().max(1) as i32;
    // The mean, rounded half away from zero.
    let mean = |sum: i32| (2 * sum + sum.signum() * k) / (2 * k);
    let mut scores: Vec<(Square, i32)> = sums.into_iter().map(|(sq, sum)| (sq, mean(sum))).collect();
    scores.sort_by_key(|&(sq, v)| (-v, sq.row(), sq.col()));
    let scores: Vec<String> = scores.iter().map(|(sq, v)| format!("{}:{v:+}", sq.to_string().to_uppercase())).collect();
    Some(format!("{}; {};", format_board(position), scores.join("; ")))
}

/// A shard line read back: the game's index and its problem line (`None` for a game without a
/// position). `None` if it is not one.
fn parse_line(line: &str) -> Option<(u64, Option<&str>)> {
    let (index, rest) = line.trim_end().split_once(' ')?;
    let index = index.parse().ok()?;
    match rest {
        "-" => Some((index, None)),
        problem => parse_problem(problem).is_ok().then_some((index, Some(problem))),
    }
}

/// Runs one shard until its file holds `positions` positions (or `stop` is raised), appending one
/// line per game and flushing it, so an interrupted shard loses at most the game in progress.
/// `hash_mb` is the table of the solver that scores the moves.
pub fn run(run: &Checkset, dir: &Path, positions: u64, hash_mb: usize, stop: Arc<AtomicBool>) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let settings = &run.play;
    let path = run.path(dir);
    let header = run.header();
    let shown = path.display();
    // Resume: keep the complete lines of an existing file with the same header.
    let (mut games, mut done) = (0u64, 0u64);
    let mut kept = String::new();
    if path.exists() {
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{shown}: {e}"))?;
        let mut lines = text.split_inclusive('\n');
        match lines.next() {
            Some(first) if first.trim_end() == header => kept.push_str(first),
            Some(first) => {
                return Err(format!(
                    "{shown}: line 1: written by another run ({}); expected {header}",
                    first.trim_end()
                ));
            }
            None => {}
        }
        let total = text.lines().count();
        for (k, line) in lines.enumerate() {
            let expected = settings.index + games * settings.count;
            match parse_line(line) {
                Some((index, problem)) if line.ends_with('\n') && index == expected => {
                    kept.push_str(line);
                    games += 1;
                    done += u64::from(problem.is_some());
                }
                // A line cut short by an interruption: its game is played again.
                _ if k + 2 == total || !line.ends_with('\n') => break,
                _ => return Err(format!("{shown}: line {}: not game {expected} of this shard", k + 2)),
            }
        }
    }
    if kept.is_empty() {
        kept = format!("{header}\n");
    }
    std::fs::write(&path, &kept).map_err(|e| format!("{shown}: {e}"))?;
    let mut file = std::fs::OpenOptions::new().append(true).open(&path).map_err(|e| format!("{shown}: {e}"))?;
    let mut player = Solver::try_new(SolverOptions { hash_mb: PLAY_HASH_MB, threads: 1, ..SolverOptions::default() })
        .map_err(|e| format!("a {PLAY_HASH_MB} MiB table: {e}"))?;
    let (evaluators, selectivity, depth) = match &run.scoring {
        Scoring::Exact => (vec![Evaluator::Patterns], Selectivity::FULL, 0),
        Scoring::Search { depth, selectivity, evaluators } => (evaluators.clone(), *selectivity, *depth),
    };
    let mut scorers = evaluators
        .iter()
        .map(|&evaluator| {
            Solver::try_new(SolverOptions { hash_mb, threads: 1, evaluator, selectivity, ..SolverOptions::default() })
                .map_err(|e| format!("--hash-mb {hash_mb}: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let limits = Limits { stop: Some(stop.clone()), ..Limits::default() };
    let began = Instant::now();
    let first = done;
    eprintln!("{shown}: {done} positions from {games} games already, going on to {positions}");
    while done < positions && !stop.load(Ordering::Relaxed) {
        let g = settings.index + games * settings.count;
        let started = Instant::now();
        // From an empty table, so that game g does not depend on the games before it in the shard
        // (the estimates read deeper entries left by earlier searches).
        player.clear();
        let Some(game) = play_game(settings, g, &mut player, &stop) else { break };
        let played = started.elapsed().as_secs_f64();
        let line = match pick(run, g, game.random, &game.moves) {
            None => {
                eprintln!("{shown}: game {g}: no position ({} random plies; {played:.1} s)", game.random);
                format!("{g} -\n")
            }
            Some(position) => {
                eprintln!(
                    "{shown}: game {g}: played in {played:.1} s, solving {} ({} empties, {} moves)",
                    format_board(&position),
                    position.empty_count(),
                    position.legal_moves().count()
                );
                let solving = Instant::now();
                let problem = match run.scoring {
                    Scoring::Exact => problem_line(&mut scorers[0], &position, &limits),
                    Scoring::Search { .. } => searched_line(&mut scorers, &position, depth, &limits),
                };
                let Some(problem) = problem else { break };
                done += 1;
                eprintln!(
                    "{shown}: game {g}: solved in {:.1} s; {done} positions, {:.1} s each",
                    solving.elapsed().as_secs_f64(),
                    began.elapsed().as_secs_f64() / (done - first) as f64,
                );
                format!("{g} {problem}\n")
            }
        };
        file.write_all(line.as_bytes()).and_then(|()| file.flush()).map_err(|e| format!("{shown}: {e}"))?;
        games += 1;
    }
    eprintln!("{shown}: {done} positions from {games} games in the file");
    Ok(())
}

/// Joins the shard files of one run into a problem file at `out`, positions sorted by game index,
/// under `%` lines saying what they are and the commands that made them. The shards must come from
/// the same run (the same header but for the shard), and no game may appear twice.
pub fn merge(paths: &[PathBuf], out: &Path) -> Result<(), String> {
    let mut run: Option<String> = None;
    let mut commands = Vec::new();
    let mut problems: Vec<(u64, String)> = Vec::new();
    let mut games = 0;
    for path in paths {
        let shown = path.display();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
        let mut lines = text.lines();
        let header = lines.next().unwrap_or("");
        let settings = header
            .strip_prefix("# fit-eval checkset v1 ")
            .ok_or_else(|| format!("{shown}: line 1: not a fit-eval checkset shard"))?;
        // The run is the settings without "shard I/N".
        let words: Vec<&str> = settings.split(' ').collect();
        let at = words.iter().position(|&w| w == "shard").ok_or_else(|| format!("{shown}: line 1: no shard"))?;
        let shard = words.get(at + 1).copied().unwrap_or("?");
        let this = [&words[..at], words.get(at + 2..).unwrap_or(&[])].concat().join(" ");
        match &run {
            Some(r) if *r != this => {
                return Err(format!("{shown}: line 1: another run ({this}) than the first file's ({r})"));
            }
            _ => run = Some(this),
        }
        let mut held = 0;
        for (k, line) in lines.enumerate() {
            let (index, problem) =
                parse_line(line).ok_or_else(|| format!("{shown}: line {}: not a checkset line", k + 2))?;
            games += 1;
            if let Some(problem) = problem {
                problems.push((index, problem.to_string()));
                held += 1;
            }
        }
        let value = |key: &str| words.iter().position(|&w| w == key).and_then(|i| words.get(i + 1)).copied();
        let value = |key: &str| value(key).unwrap_or("?");
        let (min, max) = value("empties").split_once('-').unwrap_or(("?", "?"));
        commands.push(format!(
            "% cargo run --release --bin fit-eval -- checkset --size {} --seed {} --shard {shard} --positions {held} \
             --min-empties {min} --max-empties {max} --depth {} --exact {} --random {} --out DIR",
            value("size"),
            value("seed"),
            value("depth"),
            value("exact"),
            value("random"),
        ));
        if let Some(at) = words.iter().position(|&w| w == "search") {
            let word = |k: usize| words.get(at + k).copied().unwrap_or("?");
            let last = commands.last_mut().expect("the command just pushed");
            *last += &format!(
                " --search-depth {} --selectivity {} --label-eval {}",
                word(1),
                word(2).trim_end_matches('%'),
                word(3).replace('+', ",")
            );
        }
    }
    let run = run.ok_or("no shard files given")?;
    problems.sort_by_key(|p| p.0);
    if let Some(pair) = problems.windows(2).find(|pair| pair[0].0 == pair[1].0) {
        return Err(format!("game {} appears twice", pair[0].0));
    }
    let words: Vec<&str> = run.split(' ').collect();
    let value = |key: &str| words.iter().position(|&w| w == key).and_then(|i| words.get(i + 1)).copied();
    let (n, seed) = (value("size").unwrap_or("?"), value("seed").unwrap_or("?"));
    let empties = match value("empties").and_then(|e| e.split_once('-')) {
        Some((min, max)) if min == max => min.to_string(),
        Some((min, max)) => format!("{min}-{max}"),
        None => "?".to_string(),
    };
    let scored = match words.iter().position(|&w| w == "search") {
        Some(at) => {
            let word = |k: usize| words.get(at + k).copied().unwrap_or("?");
            format!(
                "value by the estimate {} plies deep at {} with {}, the mean of the evaluations rounded half away \
                 from zero",
                word(1),
                word(2),
                word(3).replace('+', " and ")
            )
        }
        None => "exact score".to_string(),
    };
    let mut text = format!(
        "% {} {n}x{n} positions with {empties} empty squares from fit-eval self-play games of seed {seed} (not a \
         training seed), at most one a game, drawn after its random opening, side to move with 2+ moves; every \
         move's {scored}, best first\n% the games: {run}; {games} games in {} shard(s)\n",
        problems.len(),
        paths.len(),
    );
    for command in commands {
        text.push_str(&command);
        text.push('\n');
    }
    if scored != "exact score" {
        // What `bench` reads as "the values are estimates": no parity to check.
        text.push_str("% values: estimates\n");
    }
    let names: Vec<String> =
        paths.iter().map(|p| format!("DIR/{}", p.file_name().map_or("?".into(), |f| f.to_string_lossy()))).collect();
    text.push_str(&format!(
        "% cargo run --release --bin fit-eval -- checkset-merge --out {} {}\n",
        out.display(),
        names.join(" ")
    ));
    for (_, problem) in &problems {
        text.push_str(problem);
        text.push('\n');
    }
    std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!("{}: {} positions from {} shard file(s)", out.display(), problems.len(), paths.len());
    Ok(())
}
