//! Re-checking stored entries against the exact solver.

use super::{Entry, Stored};
#[cfg(feature = "store")]
use super::{Key, Store, StoreError};
use crate::Position;
use crate::solver::{Limits, Solver, Stopped};
#[cfg(feature = "store")]
use crate::{Scoring, solver::SolverOptions};

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
    /// Nodes the solver searched.
    pub nodes: u64,
}

#[cfg(feature = "store")]
impl Store {
    /// Re-solves `sample` entries and reports those the solver disagrees with. The sample is the
    /// entries with the fewest empty squares (the quickest to solve), chosen at random (from
    /// `seed`) among equals.
    pub fn verify(
        &self,
        sample: usize,
        seed: u64,
        options: &SolverOptions,
        on_checked: &mut dyn FnMut(usize, usize),
    ) -> Result<VerifyReport, StoreError> {
        let entries = pick_sample(self.entries()?, sample, seed);
        let mut solvers: Vec<(Scoring, Solver)> = Vec::new();
        let mut report = VerifyReport::default();
        for (i, (key, stored)) in entries.iter().enumerate() {
            let solver = match solvers.iter().position(|(s, _)| *s == key.scoring) {
                Some(i) => &mut solvers[i].1,
                None => {
                    let solver = Solver::new(SolverOptions { scoring: key.scoring, ..options.clone() });
                    solvers.push((key.scoring, solver));
                    &mut solvers.last_mut().expect("just pushed").1
                }
            };
            let entry = Entry { position: key.position(), scoring: key.scoring, stored: *stored };
            let before = solver.total_nodes();
            let problem = check_entry(&entry, solver).expect("an unlimited search is never stopped");
            report.nodes += solver.total_nodes() - before;
            report.checked += 1;
            if let Some(problem) = problem {
                report.mismatches.push(Mismatch { entry, problem });
            }
            on_checked(i + 1, entries.len());
        }
        Ok(report)
    }
}

#[cfg(feature = "store")]
/// The `sample` entries with the fewest empties, in a random order (from `seed`) among equals.
fn pick_sample(mut entries: Vec<(Key, Stored)>, sample: usize, seed: u64) -> Vec<(Key, Stored)> {
    let mut state = seed | 1;
    let mut keyed: Vec<(u32, u64, (Key, Stored))> = entries
        .drain(..)
        .map(|e| {
            // xorshift64
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (e.0.empties(), state, e)
        })
        .collect();
    keyed.sort_by_key(|(empties, r, _)| (*empties, *r));
    keyed.into_iter().take(sample).map(|(_, _, e)| e).collect()
}

/// The exact score of `position` from its side to move, under the solver's scoring (a position
/// whose side must pass included).
pub fn exact_score(solver: &mut Solver, position: &Position) -> Result<i32, Stopped> {
    if position.is_game_over() {
        return Ok(position.score(solver.options().scoring));
    }
    let (pos, passed) = position.after_forced_pass();
    let (score, _, _) = solver.score(&pos, &Limits::default())?;
    Ok(if passed { -score } else { score })
}

/// Checks one entry with `solver` (whose scoring must be the entry's): the exact score lies within
/// the bounds, and the best move, if any, reaches it. `None` when all is well, else the problem.
pub fn check_entry(entry: &Entry, solver: &mut Solver) -> Result<Option<String>, Stopped> {
    assert_eq!(solver.options().scoring, entry.scoring, "the solver's scoring must be the entry's");
    let Stored { lower, upper, best, .. } = entry.stored;
    let score = exact_score(solver, &entry.position)?;
    if score < lower || score > upper {
        let kept = if lower == upper { format!("{lower:+}") } else { format!("{lower:+}..{upper:+}") };
        return Ok(Some(format!("stored {kept}, the solver finds {score:+}")));
    }
    if let Some(square) = best {
        let Ok(child) = entry.position.play(square) else {
            return Ok(Some(format!("best move {square} is not legal")));
        };
        let reached = -exact_score(solver, &child)?;
        if reached != score {
            return Ok(Some(format!("best move {square} reaches {reached:+}, not {score:+}")));
        }
    }
    Ok(None)
}
