//! Re-checking stored entries against the exact solver.

use super::{Entry, Source, Stored};
#[cfg(feature = "store")]
use super::{Key, Store, StoreError};
use crate::board::position::{Position, Scoring};
use crate::solver::{Limits, Solver, SolverOptions, StopReason, Stopped};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// An entry the solver disagrees with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The entry (its position in the canonical orientation).
    pub entry: Entry,
    /// What is wrong, in words.
    pub problem: String,
}

/// What [`Store::verify`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerifyReport {
    /// Entries re-solved.
    pub checked: usize,
    /// Entries the solver disagrees with.
    pub mismatches: Vec<Mismatch>,
    /// Entries not checked because their check needed more nodes than the budget: neither
    /// confirmed nor refuted.
    pub skipped: Vec<Entry>,
    /// Nodes the solver searched.
    pub nodes: u64,
    /// Whether the stop flag ended the check early (the counts are then of what was checked).
    pub stopped: bool,
}

/// Which entries [`Store::verify`] re-solves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    /// How many (the fewest empties first, at random among equals from `seed`), or every one.
    pub count: Option<usize>,
    /// Only the entries of this source, or of any.
    pub source: Option<Source>,
    /// The seed of the random order among equals.
    pub seed: u64,
}

/// What [`Store::import_checked`] re-checks before it writes: every entry with at most
/// `exact_up_to` empty squares, and a sample of `sample` beyond (the fewest empties first, at
/// random among equals from `seed`), each within `max_nodes`. A wrong entry is refused; a wrong
/// entry in the sample makes every unchecked entry suspect, and none of them is written. An entry
/// whose check needs more than `max_nodes` is skipped: it counts as unchecked.
#[derive(Clone, Debug)]
pub struct ImportCheck {
    /// Entries with at most this many empty squares are all re-solved.
    pub exact_up_to: u32,
    /// How many of the others are re-solved.
    pub sample: usize,
    /// The seed of the sample.
    pub seed: u64,
    /// The budget of one entry's check, in nodes (`None`: no limit).
    pub max_nodes: Option<u64>,
    /// The solver's settings (its scoring is each entry's).
    pub options: SolverOptions,
}

#[cfg(feature = "store")]
impl Store {
    /// Re-solves the entries `selection` picks, each within `max_nodes` (an entry that needs
    /// more is skipped and reported as such), and reports those the solver disagrees with. `stop`
    /// ends it early (between entries, or inside a long solve).
    pub fn verify(
        &self,
        selection: &Selection,
        options: &SolverOptions,
        max_nodes: Option<u64>,
        stop: Option<Arc<AtomicBool>>,
        on_checked: &mut dyn FnMut(usize, usize),
    ) -> Result<VerifyReport, StoreError> {
        let mut entries = self.entries()?;
        if let Some(source) = selection.source {
            entries.retain(|(_, stored)| stored.source == source);
        }
        let count = selection.count.unwrap_or(entries.len());
        let entries: Vec<Entry> = pick_sample(entries, count, selection.seed)
            .into_iter()
            .map(|(key, stored)| Entry { position: key.position(), scoring: key.scoring, stored })
            .collect();
        Ok(check_entries(&entries, options, max_nodes, stop, on_checked))
    }
}

/// Re-solves `entries` in order (a solver per scoring rule) and reports the wrong ones. An entry
/// whose check needs more than `max_nodes` nodes (its score and its best move's together) is
/// given up and reported in [`VerifyReport::skipped`]. `stop` ends it early.
pub fn check_entries(
    entries: &[Entry],
    options: &SolverOptions,
    max_nodes: Option<u64>,
    stop: Option<Arc<AtomicBool>>,
    on_checked: &mut dyn FnMut(usize, usize),
) -> VerifyReport {
    let mut solvers: Vec<(Scoring, Solver)> = Vec::new();
    let mut report = VerifyReport::default();
    let limits = Limits { stop: stop.clone(), max_nodes, ..Limits::default() };
    for (i, entry) in entries.iter().enumerate() {
        if stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed)) {
            report.stopped = true;
            break;
        }
        let solver = match solvers.iter().position(|(s, _)| *s == entry.scoring) {
            Some(i) => &mut solvers[i].1,
            None => {
                let solver = Solver::new(SolverOptions { scoring: entry.scoring, ..options.clone() });
                solvers.push((entry.scoring, solver));
                &mut solvers.last_mut().expect("just pushed").1
            }
        };
        let before = solver.total_nodes();
        let problem = check_entry_within(entry, solver, &limits);
        report.nodes += solver.total_nodes() - before;
        match problem {
            Ok(problem) => {
                report.checked += 1;
                if let Some(problem) = problem {
                    report.mismatches.push(Mismatch { entry: *entry, problem });
                }
            }
            Err(Stopped { reason: StopReason::NodeLimit, .. }) => report.skipped.push(*entry),
            Err(_) => {
                report.stopped = true;
                break;
            }
        }
        on_checked(i + 1, entries.len());
    }
    report
}

#[cfg(feature = "store")]
/// The `sample` entries with the fewest empties, in a random order (from `seed`) among equals.
fn pick_sample(entries: Vec<(Key, Stored)>, sample: usize, seed: u64) -> Vec<(Key, Stored)> {
    pick_by(entries, sample, seed, |(key, _)| key.empties())
}

/// The `sample` items with the fewest empties (`empties` of each), in a random order (from
/// `seed`) among equals.
#[cfg(feature = "store")]
pub(crate) fn pick_by<T>(entries: Vec<T>, sample: usize, seed: u64, empties: impl Fn(&T) -> u32) -> Vec<T> {
    let mut state = seed | 1;
    let mut keyed: Vec<(u32, u64, T)> = entries
        .into_iter()
        .map(|e| {
            // xorshift64
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (empties(&e), state, e)
        })
        .collect();
    keyed.sort_by_key(|(empties, r, _)| (*empties, *r));
    keyed.into_iter().take(sample).map(|(_, _, e)| e).collect()
}

/// The exact score of `position` from its side to move, under the solver's scoring (a position
/// whose side must pass included).
pub fn exact_score(solver: &mut Solver, position: &Position) -> Result<i32, Stopped> {
    exact_score_within(solver, position, &Limits::default())
}

/// [`exact_score`] under `limits`.
fn exact_score_within(solver: &mut Solver, position: &Position, limits: &Limits) -> Result<i32, Stopped> {
    if position.is_game_over() {
        return Ok(position.score(solver.options().scoring));
    }
    let (pos, passed) = position.after_forced_pass();
    let (score, _, _) = solver.score(&pos, limits)?;
    Ok(if passed { -score } else { score })
}

/// Checks one entry with `solver` (whose scoring must be the entry's): the exact score lies within
/// the bounds, and the best move, if any, reaches it. `None` when all is well, else the problem.
pub fn check_entry(entry: &Entry, solver: &mut Solver) -> Result<Option<String>, Stopped> {
    check_entry_within(entry, solver, &Limits::default())
}

/// [`check_entry`] under `limits` (a stop flag; a node budget for the whole check, the best
/// move's included).
fn check_entry_within(entry: &Entry, solver: &mut Solver, limits: &Limits) -> Result<Option<String>, Stopped> {
    assert_eq!(solver.options().scoring, entry.scoring, "the solver's scoring must be the entry's");
    let Stored { lower, upper, best, .. } = entry.stored;
    let before = solver.total_nodes();
    let score = exact_score_within(solver, &entry.position, limits)?;
    if score < lower || score > upper {
        let kept = if lower == upper { format!("{lower:+}") } else { format!("{lower:+}..{upper:+}") };
        return Ok(Some(format!("stored {kept}, the solver finds {score:+}")));
    }
    if let Some(square) = best {
        let Ok(child) = entry.position.play(square) else {
            return Ok(Some(format!("best move {square} is not legal")));
        };
        let used = solver.total_nodes() - before;
        let rest = Limits { max_nodes: limits.max_nodes.map(|n| n.saturating_sub(used).max(1)), ..limits.clone() };
        let reached = -exact_score_within(solver, &child, &rest)?;
        if reached != score {
            return Ok(Some(format!("best move {square} reaches {reached:+}, not {score:+}")));
        }
    }
    Ok(None)
}
