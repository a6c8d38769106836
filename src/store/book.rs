//! The opening book: every position of the first plies solved, each child of each scored.
//!
//! [`SHIPPED_6X6`] is the 6x6 book that comes with the program (`data/book-6x6.txt`, in the
//! [`super::text`] form, built by `othello-explorer book --size 6`); [`shipped`] yields its
//! entries. With the `store` feature, [`build`] makes a book into a [`Store`]: the positions of the
//! first plies, and optionally every position along the perfect lines with each of its children
//! expanded one ply further, so the perfect lines and their near neighbours are known at once.
//! See `docs/store.md` for what each ply costs and why the shipped book stops where it does.

use super::Entry;
use super::text;
use crate::symmetry::canonical;
use crate::{Position, Size};
use rustc_hash::FxHashSet;

/// The shipped 6x6 book, in the text form of `store export`.
pub const SHIPPED_6X6: &str = include_str!("../../data/book-6x6.txt");

/// The entries of the shipped 6x6 book.
///
/// ```
/// use othello_explorer::store::book;
/// use othello_explorer::{Position, Size};
/// let start = Position::start(Size::Six);
/// let entry = book::shipped().find(|e| e.position == start).unwrap();
/// assert_eq!(entry.stored.score(), Some(-4)); // white wins 20-16
/// ```
pub fn shipped() -> impl Iterator<Item = Entry> {
    SHIPPED_6X6
        .lines()
        .filter_map(|line| text::parse_entry(line).expect("the shipped book parses (tests/store.rs checks)"))
}

/// The distinct positions (symmetric twins counted once) at each ply from the start of `size`,
/// ply 0 (the start) to `plies`. A pass counts as a ply; finished games have no successors.
///
/// ```
/// use othello_explorer::{Size, store::book::positions_by_ply};
/// let counts: Vec<usize> = positions_by_ply(Size::Six, 3).iter().map(Vec::len).collect();
/// assert_eq!(counts, [1, 1, 3, 14]);
/// ```
pub fn positions_by_ply(size: Size, plies: u32) -> Vec<Vec<Position>> {
    let mut levels = vec![vec![Position::start(size)]];
    for _ in 0..plies {
        let mut seen = FxHashSet::default();
        let mut next = Vec::new();
        for position in levels.last().expect("ply 0 is there") {
            let successors: Vec<Position> = if position.is_game_over() {
                vec![]
            } else if position.must_pass() {
                vec![position.pass()]
            } else {
                position.legal_moves().reading_order().into_iter().map(|sq| position.play(sq).expect("legal")).collect()
            };
            for child in successors {
                if seen.insert(canonical(&child).0) {
                    next.push(child);
                }
            }
        }
        levels.push(next);
    }
    levels
}

#[cfg(feature = "store")]
pub use builder::{BookError, BookOptions, BookSummary, Progress, StageCost, build};

#[cfg(feature = "store")]
mod builder {
    use super::positions_by_ply;
    use crate::solver::{Limits, Solver, SolverOptions, Stopped, TableError};
    use crate::store::{Source, Store, StoreError, Stored};
    use crate::{Position, Scoring, Size, Square};
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
        /// The search was stopped (what was stored before stays).
        Stopped(Stopped),
        /// The solver's table could not be allocated.
        Table(TableError),
    }

    impl fmt::Display for BookError {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            match self {
                BookError::Store(e) => write!(f, "{e}"),
                BookError::Stopped(e) => write!(f, "{e}; what was solved before is stored, run again to go on"),
                BookError::Table(e) => write!(f, "{e}"),
            }
        }
    }

    impl std::error::Error for BookError {}

    /// Solves the book into `store`. Positions whose score and children's scores the store
    /// already has are skipped, so an interrupted build goes on where it stopped.
    pub fn build(
        store: &Store,
        options: &BookOptions,
        on_progress: &mut dyn FnMut(&Progress),
    ) -> Result<BookSummary, BookError> {
        let mut solver = Solver::try_new(options.solver.clone()).map_err(BookError::Table)?;
        let began = Instant::now();
        let mut summary = BookSummary::default();
        let levels = positions_by_ply(options.size, options.plies.saturating_sub(1));
        let mut builder = Builder { store, solver: &mut solver, limits: &options.limits };
        for (ply, level) in levels.iter().enumerate().take(options.plies as usize) {
            let stage = format!("ply {ply}");
            let (nodes0, t0) = (builder.solver.total_nodes(), Instant::now());
            let mut cost = StageCost { stage: stage.clone(), ..StageCost::default() };
            for (i, position) in level.iter().enumerate() {
                let (_, skipped) = builder.expand(position)?;
                cost.positions += 1;
                cost.skipped += usize::from(skipped);
                let nodes = builder.solver.total_nodes();
                on_progress(&Progress {
                    stage: stage.clone(),
                    done: i + 1,
                    total: level.len(),
                    nodes,
                    elapsed: began.elapsed(),
                });
            }
            cost.nodes = builder.solver.total_nodes() - nodes0;
            cost.time = t0.elapsed();
            summary.stages.push(cost);
        }
        if options.lines {
            let (nodes0, t0) = (builder.solver.total_nodes(), Instant::now());
            let mut cost = StageCost { stage: "lines".into(), ..StageCost::default() };
            let mut queue = vec![Position::start(options.size)];
            let mut seen: FxHashSet<(u64, u64)> = FxHashSet::default();
            seen.insert(crate::symmetry::canonical(&queue[0]).0);
            let mut done = 0;
            while let Some(position) = queue.pop() {
                let (children, skipped) = builder.expand(&position)?;
                cost.positions += 1;
                cost.skipped += usize::from(skipped);
                let best = children.iter().map(|c| c.1).max();
                for (child, score) in &children {
                    let on_line = Some(*score) == best;
                    if on_line && seen.insert(crate::symmetry::canonical(child).0) {
                        queue.push(*child);
                    } else if !on_line && child.empty().count() <= options.near_empties {
                        // A near neighbour: one move off the line, its children scored too.
                        let (_, skipped) = builder.expand(child)?;
                        cost.positions += 1;
                        cost.skipped += usize::from(skipped);
                    }
                }
                done += 1;
                let nodes = builder.solver.total_nodes();
                on_progress(&Progress {
                    stage: "lines".into(),
                    done,
                    total: done + queue.len(),
                    nodes,
                    elapsed: began.elapsed(),
                });
            }
            cost.nodes = builder.solver.total_nodes() - nodes0;
            cost.time = t0.elapsed();
            summary.stages.push(cost);
        }
        Ok(summary)
    }

    struct Builder<'a> {
        store: &'a Store,
        solver: &'a mut Solver,
        limits: &'a Limits,
    }

    impl Builder<'_> {
        fn scoring(&self) -> Scoring {
            self.solver.options().scoring
        }

        /// Stores the exact score of `position` and of each of its children (after a forced
        /// pass, of the passed position's children). Returns the children with their scores
        /// from the mover's side, and whether the store already had them all.
        fn expand(&mut self, position: &Position) -> Result<(Vec<(Position, i32)>, bool), BookError> {
            let scoring = self.scoring();
            if position.is_game_over() {
                let stored = Stored::exact(position.score(scoring), None, Source::Book);
                self.store.put_many(&[(*position, scoring, stored)]).map_err(BookError::Store)?;
                return Ok((vec![], false));
            }
            let (mover, passed) = position.after_forced_pass();
            let moves: Vec<Square> = mover.legal_moves().reading_order();
            let children: Vec<Position> = moves.iter().map(|&sq| mover.play(sq).expect("legal")).collect();
            let mut queries = vec![(*position, scoring), (mover, scoring)];
            queries.extend(children.iter().map(|c| (*c, scoring)));
            let known = self.store.get_many(&queries).map_err(BookError::Store)?;
            if known.iter().all(|k| k.is_some_and(|s| s.is_exact())) && known[1].is_some_and(|s| s.best.is_some()) {
                let scored = children.iter().zip(&known[2..]).map(|(c, k)| (*c, -k.expect("known").lower)).collect();
                return Ok((scored, true));
            }
            let scores = self.solver.score_children(&mover, self.limits, &mut |_| {}).map_err(BookError::Stopped)?;
            let best = scores[0];
            let mut entries = vec![(mover, scoring, Stored::exact(best.score, Some(best.square), Source::Book))];
            if passed {
                entries.push((*position, scoring, Stored::exact(-best.score, None, Source::Book)));
            }
            let mut scored = Vec::new();
            for (square, child) in moves.iter().zip(&children) {
                let score = scores.iter().find(|c| c.square == *square).expect("every move scored").score;
                entries.push((*child, scoring, Stored::exact(-score, None, Source::Book)));
                scored.push((*child, score));
            }
            self.store.put_many(&entries).map_err(BookError::Store)?;
            Ok((scored, false))
        }
    }
}
