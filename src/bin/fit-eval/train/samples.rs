//! The fit's samples: a position kept in 24 bytes, read from the games and solved files, its
//! features read from the board again at every pass, and the check that a position and its images
//! give the same table entries.

use crate::{selfplay, solved};
use othello_explorer::Size;
use othello_explorer::board::geometry::full_mask;
use othello_explorer::board::symmetry::Symmetry;
use othello_explorer::eval::Weights;
use othello_explorer::eval::features::{SCALARS, scalars};
use othello_explorer::eval::pattern::pattern_entries;
use std::path::{Path, PathBuf};

/// One position as the fit keeps it: 24 bytes. Its features (the table entries and scalars) are
/// read from the board again at every pass ([`Features`]), so memory grows by 24 bytes a position
/// and not by the 200 bytes its 46 entries would take: 50 million positions fit in 1.2 GB.
#[derive(Clone, Copy)]
pub struct Sample {
    pub p: u64,
    pub o: u64,
    pub label: f32,
    pub stage: u8,
    /// The label is the position's exact score (the perfect line, a solved position); else it is
    /// the result of the search's own play from it.
    pub exact: bool,
}

pub(super) fn sample<const N: usize>(w: &Weights, p: u64, o: u64, label: i32, exact: bool) -> Sample {
    let empties = (full_mask(N) & !(p | o)).count_ones() as usize;
    Sample { p, o, stage: w.stage_of(empties) as u8, label: label as f32, exact }
}

/// A sample's features, read from its board into a buffer a worker keeps.
pub(super) struct Features {
    pub(super) scalars: [f32; SCALARS],
    pub(super) entries: Vec<u32>,
}

impl Features {
    pub(super) fn new() -> Features {
        Features { scalars: [0.0; SCALARS], entries: Vec::with_capacity(64) }
    }

    pub(super) fn read<const N: usize>(&mut self, s: &Sample) -> &Features {
        self.entries.clear();
        pattern_entries::<N>(s.p, s.o, &mut self.entries);
        self.scalars = scalars::<N>(s.p, s.o).map(|x| x as f32);
        self
    }
}

/// The empties from which `selfplay` games follow the solver's perfect line (the runs' `--exact`,
/// 20 on both sizes: checked against the headers by [`read_samples`]); a `games` run's header
/// gives its own.
pub(super) const fn exact_from<const N: usize>() -> u32 {
    20
}

/// The samples of the files (self-play games and solved positions, told apart by their
/// header): (training, validation, games, solved positions). Item `g` of a file is held out when
/// `g mod 10 == 9`.
pub fn read_samples<const N: usize>(
    w: &Weights,
    files: &[PathBuf],
) -> Result<(Vec<Sample>, Vec<Sample>, usize, usize), String> {
    let size = Size::from_n(N).expect("6 or 8");
    let (mut games_files, mut solved_files) = (Vec::new(), Vec::new());
    for path in files {
        if path.extension().is_some_and(|e| e == "oxg") {
            games_files.push(path.clone()); // `fit-eval games` files, read by `selfplay::read_games`
            continue;
        }
        let header = first_line(path)?;
        let header = header.as_str();
        if !header.contains(&format!(" size {N} ")) {
            return Err(format!("{}: line 1: not {N}x{N} data", path.display()));
        }
        if header.starts_with("# fit-eval selfplay ") && !header.contains(&format!(" exact {} ", exact_from::<N>())) {
            return Err(format!(
                "{}: line 1: the games must switch to the solver at {} empties",
                path.display(),
                exact_from::<N>()
            ));
        }
        if ["v1", "v2", "v3"].iter().any(|v| header.starts_with(&format!("# fit-eval solved {v} "))) {
            solved_files.push(path.clone());
        } else {
            games_files.push(path.clone());
        }
    }
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    // Solved positions first: a game's position solved by `games-solve` trains on its exact score
    // in place of the game's result.
    let mut solved = 0;
    let mut exact_positions = std::collections::HashSet::new();
    for path in &solved_files {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut every_move = false;
        for (k, line) in std::io::BufRead::lines(std::io::BufReader::new(file)).enumerate() {
            let line = line.map_err(|e| format!("{}: line {}: {e}", path.display(), k + 1))?;
            let line = line.as_str();
            if k == 0 {
                every_move = solved::is_every_move(line);
                continue;
            }
            // A game with no position in the range (`games-solve`) gives none; an every-move
            // line gives the position and its children, held out together.
            let positions = solved::line_positions(size, every_move, line)
                .ok_or_else(|| format!("{}: line {}: not a solved position", path.display(), k + 1))?;
            let index = crate::shards::line_index(line).unwrap_or(0);
            let into = if index % 10 == 9 { &mut valid } else { &mut train };
            for (p, o, y) in positions {
                into.push(sample::<N>(w, p, o, y, true));
                exact_positions.insert((p, o));
                solved += 1;
            }
        }
    }
    let games = selfplay::read_games(&games_files)?;
    for (run, index, random, moves, black_score) in &games {
        let positions = selfplay::labelled_positions(size, *random, moves, *black_score)
            .map_err(|e| format!("game {index} of {run:?}: {e}"))?;
        let into = if index % 10 == 9 { &mut valid } else { &mut train };
        // A `games` run names where its perfect lines begin (`exact E` in its header).
        let exact_from = run
            .split(" exact ")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
            .unwrap_or(exact_from::<N>());
        into.extend(positions.into_iter().filter(|&(p, o, _)| !exact_positions.contains(&(p, o))).map(|(p, o, y)| {
            let empties = (full_mask(N) & !(p | o)).count_ones();
            sample::<N>(w, p, o, y, empties <= exact_from)
        }));
    }
    Ok((train, valid, games.len(), solved))
}

/// The first line of a text file, read without reading the rest.
pub(super) fn first_line(path: &Path) -> Result<String, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(std::io::Read::take(file, 4096)), &mut line)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(line.trim_end().to_string())
}

/// Checks on a few hundred samples that the eight images of a position give the same multiset of
/// table entries and the same scalar features: the augmentation the shared tables stand for.
pub fn check_symmetry<const N: usize>(samples: &[Sample]) -> Result<(), String> {
    let size = Size::from_n(N).expect("6 or 8");
    for s in samples.iter().step_by((samples.len() / 300).max(1)) {
        let mut mine = Features::new();
        mine.read::<N>(s);
        mine.entries.sort_unstable();
        for g in Symmetry::ALL {
            let (p, o) = (g.apply(size, s.p), g.apply(size, s.o));
            let mut image = Features::new();
            image.read::<N>(&Sample { p, o, ..*s });
            image.entries.sort_unstable();
            if image.entries != mine.entries || image.scalars != mine.scalars {
                return Err(format!("{g:?} changes the features of {:#x} {:#x}", s.p, s.o));
            }
        }
    }
    Ok(())
}
