//! The root scheduler: the children of one position searched for one job (an estimate of a
//! depth, a win/loss/draw proof or the exact score), shared between the threads one child at a
//! time, each value handed back to the calling thread as it comes. [`Solver::score_children`]
//! and [`Solver::analyse`] both run on it.

use super::control::Control;
use super::engine::Solver;
use super::frontiers::{pv_solved, solved_within};
use super::node::Window;
use super::parallel::on_threads;
use super::searcher::Searcher;
use super::selectivity::Selectivity;
use super::settings::ASPIRATION;
use super::table::FULL_WIDTH;
use super::table::{self, Table};
use super::values::Kind;
use crate::board::isa::Isa;
use crate::board::position::Position;
use crate::board::size::Size;
use crate::board::square::Square;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// A child's search job in one phase.
#[derive(Clone, Copy, Debug)]
pub(super) enum Job {
    Estimate {
        depth: u32,
    },
    Wld,
    Exact,
    /// The exact search at a selectivity below 100% ([`Searcher::window`] at that level, which
    /// then makes no passes of its own): an estimate searched to the end of the game with
    /// probable cutoffs, as Edax's endgame passes climb towards a proof.
    EndEstimate {
        selectivity: Selectivity,
    },
    /// Whether the child's estimate of `depth` plies (from the parent) beats `alpha` (the
    /// parent's side): a null-window search whose fail-soft value is a bound, above `alpha` a
    /// lower one, else an upper one ([`SearchMode::Play`](super::SearchMode::Play)'s children
    /// after the first). Within [`solved_within`] the exact search at full width, a proven bound.
    Beats {
        depth: u32,
        alpha: i32,
    },
    /// The proof that a child estimated at the evaluation's cap is won or lost by everything
    /// ([`Searcher::extreme_proof`]): its exact score, or no value when no depth proves it.
    Extreme,
}

/// What one search thread is handed: a child's index and position, and its last estimate.
#[derive(Clone, Copy)]
pub(super) struct Task {
    pub index: usize,
    pub p: u64,
    pub o: u64,
    pub empties: u32,
    pub guess: Option<i32>,
}

/// The window of [`ASPIRATION`] around the child's previous estimate `guess` (from the parent's
/// side; the full window without one), from the child's side: [`Searcher::aspirated`]'s first.
fn around<const N: usize, const D: bool, I: Isa>(guess: Option<i32>) -> (Window, Window) {
    let max = Searcher::<N, D, I>::MAX;
    let full = Window { alpha: -max, beta: max };
    (guess.map_or(full, |g| Window { alpha: -g - ASPIRATION, beta: -g + ASPIRATION }), full)
}

/// What one child's search for a job gave.
enum Outcome {
    /// Its value from the parent's side.
    Value(i32, Kind),
    /// Nothing proven (a [`Job::Extreme`] that no depth reached).
    Unproven,
    /// The search was stopped.
    Stopped,
}

/// One child's value for `job` from the parent's side.
fn child_value<const N: usize, const D: bool, I: Isa>(s: &mut Searcher<N, D, I>, t: &Task, job: Job) -> Outcome {
    let value = match job {
        Job::Extreme => {
            // A guess at the cap from the parent's side is the child's loss (or win) by everything.
            let side = -t.guess.map_or(0, i32::signum);
            let proof = if side == 0 { None } else { s.extreme_proof(t.p, t.o, side, t.empties) };
            match proof {
                Some(v) => (-v, Kind::Exact),
                None if s.stopped => return Outcome::Stopped,
                None => return Outcome::Unproven,
            }
        }
        Job::Exact => (-s.exact(t.p, t.o), Kind::Exact),
        Job::EndEstimate { selectivity } => {
            let (first, full) = around::<N, D, I>(t.guess);
            let search =
                |s: &mut Searcher<N, D, I>| s.aspirated(first, full, |s, w| s.window(t.p, t.o, w.alpha, w.beta));
            (-s.with_selectivity(selectivity.level(), search), Kind::Estimate { depth: t.empties + 1, selectivity })
        }
        Job::Wld => (-s.window(t.p, t.o, -1, 1).signum(), Kind::Wld),
        Job::Estimate { depth } if solved_within(t.empties, depth - 1) => {
            // Labelled exact, so searched full width whatever the estimates' selectivity: a
            // search with probable cutoffs is no proof (and the store keeps exact values).
            let (first, full) = around::<N, D, I>(t.guess);
            let search =
                |s: &mut Searcher<N, D, I>| s.aspirated(first, full, |s, w| s.window(t.p, t.o, w.alpha, w.beta));
            (-s.with_selectivity(FULL_WIDTH, search), Kind::Exact)
        }
        Job::Beats { depth, alpha } if solved_within(t.empties, depth - 1) => {
            let v = s.with_selectivity(FULL_WIDTH, |s| s.window(t.p, t.o, -alpha - 1, -alpha));
            (-v, Kind::Exact)
        }
        Job::Beats { depth, alpha } => {
            let selectivity = Selectivity::from_level(s.selectivity);
            (-s.estimate(t.p, t.o, -alpha - 1, -alpha, depth - 1), Kind::Estimate { depth, selectivity })
        }
        Job::Estimate { depth } => {
            let selectivity = Selectivity::from_level(s.selectivity);
            let (first, full) = around::<N, D, I>(t.guess);
            (
                -s.aspirated(first, full, |s, w| s.estimate(t.p, t.o, w.alpha, w.beta, depth - 1)),
                Kind::Estimate { depth, selectivity },
            )
        }
    };
    if s.stopped { Outcome::Stopped } else { Outcome::Value(value.0, value.1) }
}

impl Solver {
    /// Searches every task for `job`, in the order given, the tasks shared between the threads;
    /// hands each value (from the parent's side) to `on_value` on the calling thread as it comes.
    /// A stopped search hands over nothing more.
    pub(super) fn schedule(
        &self,
        control: &Control,
        size: Size,
        tasks: &[Task],
        job: Job,
        on_value: &mut dyn FnMut(&Task, i32, Kind),
    ) {
        let threads = self.threads().min(tasks.len()).max(1);
        let (table, scoring, cpu) = (&self.table, self.options.scoring, self.cpu);
        let (selectivity, selective_solve) = (self.options.selectivity, self.options.selective_solve);
        let evaluator = self.options.evaluator;
        let pv_solved = match job {
            Job::Estimate { depth } | Job::Beats { depth, .. } if self.options.pv_extension => pv_solved(depth),
            _ => 0,
        };
        let next = AtomicUsize::new(0);
        let (tx, rx) = mpsc::channel::<(usize, i32, Kind)>();
        std::thread::scope(|scope| {
            let (next, tasks) = (&next, &tasks);
            let pool = self.pool.as_ref();
            scope.spawn(move || {
                // Each thread takes the next child not yet taken; near the end, the threads
                // without a child join the searches still running at their split points.
                on_threads(pool, threads, || {
                    let tx = tx.clone();
                    specialised!(size, scoring, cpu, N, D, isa => {
                        let mut searcher = Searcher::<N, D, _>::new(isa, table, control);
                        searcher.pv_solved = pv_solved;
                        searcher.iterate = selective_solve;
                        searcher.use_evaluator(evaluator);
                        if let Job::Estimate { .. } | Job::Beats { .. } = job {
                            searcher.selectivity = selectivity.level();
                        }
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(task) = tasks.get(i) else { break };
                            match child_value(&mut searcher, task, job) {
                                Outcome::Value(score, kind) => {
                                    if tx.send((i, score, kind)).is_err() {
                                        break;
                                    }
                                }
                                Outcome::Unproven => {}
                                Outcome::Stopped => break,
                            }
                        }
                        searcher.flush_nodes();
                    })
                });
            });
            for (index, score, kind) in rx {
                on_value(&tasks[index], score, kind);
            }
        });
    }
}

/// The moves grouped by their child's canonical key, in the order given: each group's children
/// are symmetric images of one another, so they share one score.
pub(crate) fn twin_groups(position: &Position, moves: &[Square]) -> Vec<Vec<Square>> {
    let mut groups: Vec<((u64, u64), Vec<Square>)> = Vec::new();
    for &square in moves {
        let child = position.play(square).expect("a legal move");
        let key = crate::board::symmetry::canonical(&child).0;
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, group)) => group.push(square),
            None => groups.push((key, vec![square])),
        }
    }
    groups.into_iter().map(|(_, group)| group).collect()
}

/// The root moves in the order children are handed out: the table's best move first, then by
/// fewest replies for the opponent.
pub(super) fn root_order(position: &Position, table: &Table) -> Vec<Square> {
    let mut moves: Vec<(i32, Square)> = position
        .legal_moves()
        .reading_order()
        .into_iter()
        .map(|sq| {
            let child = position.play(sq).expect("a legal move");
            let (cp, co) = child.raw();
            let key = match table.probe(table::hash(position.size().n(), cp, co)) {
                // A known child score: lowest for the opponent first.
                Some(e) if e.is_exact() && e.lower == e.upper => e.lower as i32 - 1000,
                _ => child.legal_moves().count() as i32,
            };
            (key, sq)
        })
        .collect();
    moves.sort();
    moves.into_iter().map(|(_, sq)| sq).collect()
}
