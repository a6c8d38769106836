//! Searched labels for the games of `games` files (`fit-eval label`): the network's training
//! targets (`docs/training-data.md`, "Searched labels").
//!
//! A game of `fit-eval games` labels its positions with its final result: exact along its perfect
//! line (from 20 empties on 8x8), but above it only what the cheap, randomised play made of the
//! position, about 3 discs from the exact value at 21-23 empties and more further up. This job
//! gives `--per-game` positions of every game a label made by search instead:
//!
//! - a position with at most `--exact` empties gets its exact score (the solver);
//! - one with more gets the estimate search's value `--depth` plies deep at `--selectivity`
//!   (the search the explorer runs, its principal variations solved near the end), with the
//!   pattern tables or, `--eval network`, the network at its leaves (the run's tag then ends in
//!   `n`, `d8s73x22n`, and its header names the network file's fingerprint, `weights n…`).
//!
//! Which positions: those a game reached after its opening (from its start with `--openings`,
//! the tag then ending in `o`: the random openings are the only positions of 49 or more empties
//! the games hold), with a move to play and a number of
//! empties in `--min-empties..=--max-empties` (by default above the games' perfect lines), drawn
//! without replacement by the run's seed and the game's index. So a game's labelled plies depend
//! only on the seed and the game; its labels on the binary (its search and weights, whose
//! fingerprint the header names) and the settings, as the solver's table is cleared before
//! every game.
//!
//! With `--check E`, a position searched by estimate that has at most `E` empties is solved too,
//! and its exact score is written beside the label: `label-stats` then gives the labels' own
//! error per stage against exact scores.
//!
//! ## The file
//!
//! One file per games file and shard, `labels-8x8-d10s73x24-seed1-from-<games file>-shard1of2.txt`
//! (the lines of [`crate::shards`]):
//!
//! ```text
//! # fit-eval labels v1 size 8 seed 1 shard 1/2 per-game 2 empties 21-60 depth 10 selectivity 73 exact 24 check 0 weights 9f3c... from # othello-explorer games v1 ...
//! 12 31:-4 17:2
//! 14 40:6:8
//! ```
//!
//! A line: the game's index in its run, then for each labelled position `ply:label` (the position
//! after `ply` moves of the game, a forced pass taken; the label from the side to move then), and
//! `:exact` after it where `--check` solved it too. Every position takes 4-6 bytes of text, about
//! 2 bytes a label once the file is compressed with `xz`.

use crate::{Rng, shards};
use othello_explorer::eval::Evaluator;
use othello_explorer::solver::{Limits, Selectivity, Solver, SolverOptions};
use othello_explorer::{Position, Size};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// What a labelling run is.
#[derive(Clone, Debug)]
pub struct Settings {
    pub seed: u64,
    pub index: u64,
    pub count: u64,
    pub per_game: usize,
    pub min_empties: u32,
    pub max_empties: u32,
    pub depth: u32,
    pub selectivity: Selectivity,
    pub exact: u32,
    pub check: u32,
    /// Label at most this many games of each file (its first ones): the run's target.
    pub games: u64,
    /// The evaluation at the estimate search's leaves.
    pub evaluator: Evaluator,
    /// The fingerprint of the network file in use instead of the one built in (`--network`), which
    /// the header names.
    pub network: Option<u64>,
    /// Draw positions from the game's random opening too, not only after it.
    pub openings: bool,
}

impl Settings {
    fn tag(&self) -> String {
        let net = if self.evaluator == Evaluator::Network { "n" } else { "" };
        let openings = if self.openings { "o" } else { "" };
        format!("d{}s{}x{}{net}{openings}", self.depth, self.selectivity.percent(), self.exact)
    }

    /// The first line of the label file of the games file whose first line is `source`.
    pub fn header(&self, size: Size, source: &str) -> String {
        format!(
            "# fit-eval labels v1 size {n} seed {} shard {}/{} per-game {} empties {}-{}{} depth {} selectivity {} exact {} check {} weights {} from {source}",
            self.seed,
            self.index + 1,
            self.count,
            self.per_game,
            self.min_empties,
            self.max_empties,
            if self.openings { " openings" } else { "" },
            self.depth,
            self.selectivity.percent(),
            self.exact,
            self.check,
            self.fingerprint(size),
            n = size.n()
        )
    }

    /// The fingerprint of the evaluation the labels come from: the pattern weights' (the header
    /// `weights …`), or the network file's, marked `n` (`weights n…`).
    fn fingerprint(&self, size: Size) -> String {
        let n = size.n();
        let network =
            self.network.or_else(|| othello_explorer::eval::network::shipped_bytes(n).map(crate::play::fingerprint_of));
        match (self.evaluator, network) {
            (Evaluator::Network, Some(fingerprint)) => format!("n{fingerprint:016x}"),
            _ => format!("{:016x}", crate::play::weights_fingerprint(n)),
        }
    }

    /// This shard's label file for the games file `source`.
    pub fn path(&self, size: Size, dir: &Path, source: &Path) -> PathBuf {
        let n = size.n();
        let stem = source.file_stem().map_or("games".into(), |s| s.to_string_lossy().into_owned());
        dir.join(format!(
            "labels-{n}x{n}-{}-seed{}-from-{stem}-shard{}of{}.txt",
            self.tag(),
            self.seed,
            self.index + 1,
            self.count
        ))
    }

    /// The plies of a game to label: of `eligible` (the plies whose positions qualify, in order),
    /// `per_game` drawn without replacement by the seed and the game, in increasing order.
    pub fn pick(&self, g: u64, eligible: &[usize]) -> Vec<usize> {
        let mut pool = eligible.to_vec();
        let mut rng =
            Rng(self.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ g.wrapping_mul(0xd1b5_4a32_d192_ed03) ^ 0x1abe1);
        rng.next();
        let take = self.per_game.min(pool.len());
        for k in 0..take {
            let j = k + rng.below(pool.len() - k);
            pool.swap(k, j);
        }
        let mut chosen = pool[..take].to_vec();
        chosen.sort_unstable();
        chosen
    }
}

/// The positions of a game by ply: the position after `k` moves with a forced pass taken, for
/// every `k` from 0 to the last move (the finished board is not included).
pub fn positions(size: Size, moves: &[othello_explorer::Square]) -> Vec<Position> {
    let mut out = Vec::with_capacity(moves.len());
    let mut position = Position::start(size);
    for &square in moves {
        let (pos, _) = position.after_forced_pass();
        out.push(pos);
        position = pos.play(square).expect("a legal move");
    }
    out
}

/// One labelled position of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Label {
    pub ply: usize,
    pub score: i32,
    pub exact: Option<i32>,
}

/// Parses a line's labels (after the game index).
pub fn parse_labels(line: &str) -> Option<Vec<Label>> {
    let mut words = line.split_whitespace();
    words.next()?.parse::<u64>().ok()?;
    words
        .map(|w| {
            let mut parts = w.split(':');
            let ply = parts.next()?.parse().ok()?;
            let score: i32 = parts.next()?.parse().ok()?;
            let exact = match parts.next() {
                None => None,
                Some(x) => Some(x.parse::<i32>().ok()?),
            };
            (parts.next().is_none() && score.abs() <= 64 && exact.is_none_or(|x| x.abs() <= 64)).then_some(Label {
                ply,
                score,
                exact,
            })
        })
        .collect()
}

/// Labels this shard's games of each file of `sources` (item `k` of a file: its `k`-th game, for
/// `k mod count = index` and `k < games`) until each has its line or `stop` is raised.
pub fn run(
    settings: &Settings,
    sources: &[PathBuf],
    dir: &Path,
    hash_mb: usize,
    stop: &Arc<AtomicBool>,
) -> Result<u64, String> {
    let options = SolverOptions {
        hash_mb,
        threads: 1,
        selectivity: settings.selectivity,
        evaluator: settings.evaluator,
        ..SolverOptions::default()
    };
    let mut solver = Solver::try_new(options).map_err(|e| format!("--hash-mb {hash_mb}: {e}"))?;
    let mut total = 0;
    for source in sources {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        let file = crate::games::read(source)?;
        let size = file.size;
        let games = &file.games[..file.games.len().min(settings.games as usize)];
        let items = (games.len() as u64).saturating_sub(settings.index).div_ceil(settings.count);
        let item = |done: u64| games[(settings.index + done * settings.count) as usize].index;
        let by_index: std::collections::HashMap<u64, &crate::games::Game> =
            games.iter().map(|g| (g.index, g)).collect();
        let make = |g: u64| {
            let game = by_index[&g];
            let positions = positions(size, &game.moves);
            let first = if settings.openings { 0 } else { game.opening };
            let eligible: Vec<usize> = (first..positions.len())
                .filter(|&k| (settings.min_empties..=settings.max_empties).contains(&positions[k].empty_count()))
                .collect();
            solver.clear();
            let limits = Limits { stop: Some(Arc::clone(stop)), ..Limits::default() };
            let mut line = String::new();
            for ply in settings.pick(g, &eligible) {
                let position = &positions[ply];
                let empties = position.empty_count();
                let score = if empties <= settings.exact {
                    solver.score(position, &limits).ok()?.0
                } else {
                    solver.estimate(position, settings.depth, &limits).ok()?.0
                };
                line += &format!(" {ply}:{score}");
                if empties > settings.exact && empties <= settings.check {
                    line += &format!(":{}", solver.score(position, &limits).ok()?.0);
                }
            }
            Some(line.trim_start().to_string())
        };
        let valid = |line: &str| parse_labels(line).is_some();
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

/// The run a games file's first line names: the line less its shard, the same for every shard
/// (and the merged file) of one run. Game indexes are unique within a run.
pub fn games_run(header: &str) -> &str {
    header.split(" shard ").next().unwrap_or("")
}

/// A label file read back: its header and `(game index, labels)` lines.
pub struct LabelFile {
    pub header: String,
    pub size: Size,
    pub exact: u32,
    pub lines: Vec<(u64, Vec<Label>)>,
}

impl LabelFile {
    /// The games run it labels ([`games_run`] of the games file's first line its header quotes).
    pub fn run(&self) -> &str {
        games_run(self.header.split(" from ").nth(1).unwrap_or(""))
    }
}

/// Reads a label file (a last line cut short is left out).
pub fn read(path: &Path) -> Result<LabelFile, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
    let mut lines = text.split_inclusive('\n');
    let header = lines.next().unwrap_or("").trim_end().to_string();
    if !header.starts_with("# fit-eval labels v1 ") {
        return Err(format!("{shown}: line 1: not a label file"));
    }
    let word = |name: &str| -> Option<u32> {
        let mut w = header.split_whitespace();
        w.position(|x| x == name)?;
        w.next()?.split('-').next()?.parse().ok()
    };
    let size = match word("size") {
        Some(4) => Size::Four,
        Some(6) => Size::Six,
        Some(8) => Size::Eight,
        _ => return Err(format!("{shown}: line 1: no board size")),
    };
    let exact = word("exact").ok_or_else(|| format!("{shown}: line 1: no exact"))?;
    let mut out = Vec::new();
    for (k, line) in lines.enumerate() {
        if !line.ends_with('\n') {
            break;
        }
        let g = shards::line_index(line).ok_or_else(|| format!("{shown}: line {}: no game index", k + 2))?;
        let labels = parse_labels(line).ok_or_else(|| format!("{shown}: line {}: not a label line", k + 2))?;
        out.push((g, labels));
    }
    Ok(LabelFile { header, size, exact, lines: out })
}

/// What `label-stats` prints: labels per band of empties, and where `--check` solved them, the
/// labels' mean absolute error against the exact scores and how often the sign is wrong.
pub fn stats(files: &[PathBuf], sources: &[PathBuf]) -> Result<String, String> {
    // The empties of each position of each game, by (run, game index): replayed from the games
    // files (two runs number their games alike).
    let mut games: std::collections::HashMap<(String, u64), Vec<u32>> = std::collections::HashMap::new();
    for source in sources {
        let file = crate::games::read(source)?;
        let run = games_run(&file.header).to_string();
        for game in &file.games {
            let empties = positions(file.size, &game.moves).iter().map(|p| p.empty_count()).collect();
            games.insert((run.clone(), game.index), empties);
        }
    }
    // bands of 4 empties: (labels, exact labels, checked, |error| sum, sign errors)
    let mut bands = [(0u64, 0u64, 0u64, 0i64, 0u64); 16];
    let mut lines = 0u64;
    for path in files {
        let file = read(path)?;
        let run = file.run().to_string();
        for (g, labels) in &file.lines {
            lines += 1;
            for label in labels {
                let empties = games.get(&(run.clone(), *g)).and_then(|e| e.get(label.ply)).copied();
                let Some(empties) = empties else {
                    return Err(format!(
                        "{}: game {g} ply {}: not in the games files given",
                        path.display(),
                        label.ply
                    ));
                };
                let band = &mut bands[(empties as usize / 4).min(15)];
                band.0 += 1;
                if empties <= file.exact {
                    band.1 += 1;
                }
                if let Some(x) = label.exact {
                    band.2 += 1;
                    band.3 += (label.score - x).abs() as i64;
                    band.4 += ((label.score.signum() != x.signum()) as u64) & ((x != 0) as u64);
                }
            }
        }
    }
    let mut out = format!("{lines} games labelled\nempties  labels  exact  checked  mean |error|  wrong sign\n");
    let mut all = 0;
    for (b, band) in bands.iter().enumerate() {
        if band.0 == 0 {
            continue;
        }
        all += band.0;
        let check = if band.2 > 0 {
            format!("{:>13.2}  {:>9.1}%", band.3 as f64 / band.2 as f64, 100.0 * band.4 as f64 / band.2 as f64)
        } else {
            String::new()
        };
        out += &format!("{:>2}-{:<4} {:>7}  {:>5}  {:>7}{check}\n", b * 4, b * 4 + 3, band.0, band.1, band.2);
    }
    out += &format!("total: {all} labelled positions\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_are_distinct_sorted_and_depend_on_the_game_alone() {
        let settings = Settings {
            seed: 3,
            index: 0,
            count: 1,
            per_game: 3,
            min_empties: 21,
            max_empties: 60,
            depth: 4,
            selectivity: Selectivity::FULL,
            exact: 24,
            check: 0,
            games: 10,
            evaluator: Evaluator::Patterns,
            network: None,
            openings: false,
        };
        let eligible: Vec<usize> = (10..40).collect();
        let a = settings.pick(7, &eligible);
        assert_eq!(a, settings.pick(7, &eligible));
        assert_eq!(a.len(), 3);
        assert!(a.windows(2).all(|w| w[0] < w[1]) && a.iter().all(|k| eligible.contains(k)));
        assert_ne!(a, settings.pick(8, &eligible));
        assert_eq!(settings.pick(7, &[12, 13]), vec![12, 13]);
    }

    #[test]
    fn a_label_file_names_the_run_of_its_games_whatever_the_shards() {
        let games = "# othello-explorer games v1 size 8 seed 11 shard 1/8 depth 4 exact 20";
        assert_eq!(games_run(games), "# othello-explorer games v1 size 8 seed 11");
        let file = LabelFile {
            header: format!("# fit-eval labels v1 size 8 seed 1 shard 2/2 per-game 2 exact 22 from {games}"),
            size: Size::Eight,
            exact: 22,
            lines: vec![],
        };
        assert_eq!(file.run(), games_run(games));
        assert_ne!(file.run(), games_run("# othello-explorer games v1 size 8 seed 10 shard 1/8 depth 4"));
    }

    #[test]
    fn label_lines_round_trip_and_refuse_nonsense() {
        assert_eq!(
            parse_labels("12 31:-4 17:2:6"),
            Some(vec![Label { ply: 31, score: -4, exact: None }, Label { ply: 17, score: 2, exact: Some(6) }])
        );
        assert_eq!(parse_labels("12"), Some(vec![]));
        assert_eq!(parse_labels("12 31:99"), None);
        assert_eq!(parse_labels("12 31:4:2:1"), None);
        assert_eq!(parse_labels("x 31:4"), None);
    }
}
