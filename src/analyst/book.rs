//! The book: every position of the first plies (and, if asked, of the perfect lines and their near
//! neighbours) solved exactly into the store, each through the one store-aware analysis
//! ([`Analyst`]), its results kept with the source [`Source::Book`]. A position the store already
//! has complete is skipped, so an interrupted build goes on where it stopped.

use super::{Analyst, Ask, Event};
use crate::solver::{Limits, SearchMode, Solver, SolverOptions, Stopped, TableError};
use crate::store::book::positions_by_ply;
use crate::store::{Source, Store, StoreError, Stored};
use crate::{
    board::position::{Position, Scoring},
    board::size::Size,
};
use rustc_hash::FxHashSet;
use std::fmt;
use std::time::{Duration, Instant};

/// What [`build`] solves.
#[derive(Clone, Debug)]
pub struct BookOptions {
    /// The board size.
    pub size: Size,
    /// Every position from ply 0 (the start) to ply `plies - 1` is expanded, so the positions
    /// of plies `0..=plies` get exact scores.
    pub plies: u32,
    /// Then follow every perfect line to the end, expanding each position on it and each of
    /// its children that has at most `near_empties` empty squares.
    pub lines: bool,
    /// The most empty squares a child of a line position may have to be expanded too: each
    /// expansion scores every grandchild exactly, which near the start costs minutes.
    pub near_empties: u32,
    /// The solver (its scoring is the book's).
    pub solver: SolverOptions,
    /// Limits for each search (a stop flag to interrupt the build).
    pub limits: Limits,
}

/// Where [`build`] has got to, after each position.
#[derive(Clone, Debug)]
pub struct Progress {
    /// `"ply 3"` or `"lines"`.
    pub stage: String,
    /// Positions of the stage done (solved or found complete in the store).
    pub done: usize,
    /// Positions of the stage known so far (grows while following lines).
    pub total: usize,
    /// Nodes searched since the build began.
    pub nodes: u64,
    /// Time since the build began.
    pub elapsed: Duration,
}

/// The cost of one stage of the build.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StageCost {
    /// `"ply 3"` or `"lines"`.
    pub stage: String,
    /// Positions expanded (symmetric twins once).
    pub positions: usize,
    /// Of those, the ones the store already had complete.
    pub skipped: usize,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
}

/// What [`build`] did, stage by stage.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BookSummary {
    /// One per ply expanded, then the lines if asked.
    pub stages: Vec<StageCost>,
}

/// Why a build stopped.
#[derive(Debug)]
pub enum BookError {
    /// The store failed.
    Store(StoreError),
    /// The store failed while the analysis kept its results (the message says how).
    Kept(String),
    /// The search was stopped (what was stored before stays).
    Stopped(Stopped),
    /// The solver's table could not be allocated.
    Table(TableError),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Store(e) => write!(f, "{e}"),
            BookError::Kept(e) => write!(f, "{e}"),
            BookError::Stopped(e) => write!(f, "{e}; what was solved before is stored, run again to go on"),
            BookError::Table(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for BookError {}

/// Solves the book into `store`. Positions whose score and children's scores the store
/// already has are skipped, so an interrupted build goes on where it stopped.
pub fn build(
    store: Store,
    options: &BookOptions,
    on_progress: &mut dyn FnMut(&Progress),
) -> Result<BookSummary, BookError> {
    let solver = Solver::try_new(options.solver.clone()).map_err(BookError::Table)?;
    let began = Instant::now();
    let mut summary = BookSummary::default();
    let levels = positions_by_ply(options.size, options.plies.saturating_sub(1));
    let mut builder =
        Builder { analyst: Analyst::new(solver, Some(store)).keeping_as(Source::Book), limits: &options.limits };
    for (ply, level) in levels.iter().enumerate().take(options.plies as usize) {
        let stage = format!("ply {ply}");
        let (nodes0, t0) = (builder.analyst.solver().total_nodes(), Instant::now());
        let mut cost = StageCost { stage: stage.clone(), ..StageCost::default() };
        for (i, position) in level.iter().enumerate() {
            let (_, skipped) = builder.expand(position)?;
            cost.positions += 1;
            cost.skipped += usize::from(skipped);
            let nodes = builder.analyst.solver().total_nodes();
            on_progress(&Progress {
                stage: stage.clone(),
                done: i + 1,
                total: level.len(),
                nodes,
                elapsed: began.elapsed(),
            });
        }
        cost.nodes = builder.analyst.solver().total_nodes() - nodes0;
        cost.time = t0.elapsed();
        summary.stages.push(cost);
    }
    if options.lines {
        let (nodes0, t0) = (builder.analyst.solver().total_nodes(), Instant::now());
        let mut cost = StageCost { stage: "lines".into(), ..StageCost::default() };
        let mut queue = vec![Position::start(options.size)];
        let mut seen: FxHashSet<(u64, u64)> = FxHashSet::default();
        seen.insert(crate::board::symmetry::canonical(&queue[0]).0);
        let mut done = 0;
        while let Some(position) = queue.pop() {
            let (children, skipped) = builder.expand(&position)?;
            cost.positions += 1;
            cost.skipped += usize::from(skipped);
            let best = children.iter().map(|c| c.1).max();
            for (child, score) in &children {
                let on_line = Some(*score) == best;
                if on_line && seen.insert(crate::board::symmetry::canonical(child).0) {
                    queue.push(*child);
                } else if !on_line && child.empty().count() <= options.near_empties {
                    // A near neighbour: one move off the line, its children scored too.
                    let (_, skipped) = builder.expand(child)?;
                    cost.positions += 1;
                    cost.skipped += usize::from(skipped);
                }
            }
            done += 1;
            let nodes = builder.analyst.solver().total_nodes();
            on_progress(&Progress {
                stage: "lines".into(),
                done,
                total: done + queue.len(),
                nodes,
                elapsed: began.elapsed(),
            });
        }
        cost.nodes = builder.analyst.solver().total_nodes() - nodes0;
        cost.time = t0.elapsed();
        summary.stages.push(cost);
    }
    Ok(summary)
}

struct Builder<'a> {
    analyst: Analyst,
    limits: &'a Limits,
}

impl Builder<'_> {
    fn scoring(&self) -> Scoring {
        self.analyst.scoring()
    }

    fn store(&self) -> Result<&Store, BookError> {
        self.analyst.store().ok_or_else(|| BookError::Kept("the store failed earlier in this build".into()))
    }

    /// Stores the exact score of `position` and of each of its children (after a forced
    /// pass, of the passed position's children). Returns the children with their scores
    /// from the mover's side, and whether the store already had them all.
    fn expand(&mut self, position: &Position) -> Result<(Vec<(Position, i32)>, bool), BookError> {
        let scoring = self.scoring();
        if position.is_game_over() {
            let stored = Stored::exact(position.score(scoring), None, Source::Book);
            self.store()?.put_many(&[(*position, scoring, stored)]).map_err(BookError::Store)?;
            return Ok((vec![], false));
        }
        let (mover, passed) = position.after_forced_pass();
        let children: Vec<Position> =
            mover.legal_moves().reading_order().iter().map(|&sq| mover.play(sq).expect("legal")).collect();
        let mut queries = vec![(*position, scoring), (mover, scoring)];
        queries.extend(children.iter().map(|c| (*c, scoring)));
        let known = self.store()?.get_many(&queries).map_err(BookError::Store)?;
        if known.iter().all(|k| k.is_some_and(|s| s.is_exact())) && known[1].is_some_and(|s| s.best.is_some()) {
            let scored = children.iter().zip(&known[2..]).map(|(c, k)| (*c, -k.expect("known").lower)).collect();
            return Ok((scored, true));
        }
        // The analysis answers the children the store knows, solves the others, and keeps them
        // all with the position's own score and best move.
        let mut failed = None;
        let ask = Ask::new(SearchMode::Exact, self.limits.clone());
        let verdict = self.analyst.analyse(&mover, &ask, &mut |event| {
            if let Event::Notice { text, error: true } = event {
                failed = Some(text);
            }
        });
        if let Some(text) = failed {
            return Err(BookError::Kept(text));
        }
        if let Some(reason) = verdict.stopped {
            return Err(BookError::Stopped(Stopped { reason, proven: vec![], nodes: verdict.nodes }));
        }
        let best = verdict.best().expect("a position with a move has a best child");
        if passed {
            let stored = Stored::exact(-best.score, None, Source::Book);
            self.store()?.put_many(&[(*position, scoring, stored)]).map_err(BookError::Store)?;
        }
        let scored = mover
            .legal_moves()
            .reading_order()
            .iter()
            .zip(&children)
            .map(|(square, child)| {
                let c = verdict.children.iter().find(|c| c.square == *square).expect("every move scored");
                (*child, c.score)
            })
            .collect();
        Ok((scored, false))
    }
}
