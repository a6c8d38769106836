//! The one store-aware analysis under every front end: the explorer's solver thread, `solve`,
//! `review`, and the engine protocols call [`Analyst::analyse`] and nothing else.
//!
//! A call, in order:
//!
//! 1. **Look up** the children in the [`Store`] (by canonical key, so a symmetric twin solved
//!    yesterday counts; [`kept::known_children`]).
//! 2. **Skip the known**: an exact score is reported at once and not searched again; in the
//!    win/loss/draw mode a proven outcome is too. In the other modes a stored outcome is reported
//!    at once but still searched (the search ranks it by its estimate and may make it exact).
//!    Estimates ([`SearchMode::Estimate`]) do not consult the store: they measure the search.
//! 3. **Analyse** under the call's limits ([`Solver::analyse_known`]), the known values ranked
//!    with the searched ones by the one rule ([`crate::solver::rank_key`]).
//! 4. **Keep** what was proven (every exact child, every outcome, the position's own score once
//!    every child is exact) in one transaction, also when the search was stopped. A score derived
//!    from an imported child's value keeps the source `import` ([`kept::keep`]).
//! 5. **The line**: when the call asks for it and the best value is proven, the perfect line as
//!    far as the store knows it and then from the solver ([`kept::stored_line`],
//!    [`Solver::principal_variation`]); otherwise the line the deepest estimate expects, or, for a
//!    proven best child whose perfect line was not followed (the call stopped first, or an
//!    outcome), the line the table expects to the end (marked not proven, [`Line::proven`]).
//!
//! Everything is reported as it happens through one callback ([`Event`]). A store that fails
//! (damaged, or gone from under us) is reported once as [`Event::Notice`], and the analyst goes
//! on without it; one kept busy by another program is reported, and used again at the next call. Scores are from the side to move at the analysed position, as everywhere in the
//! solver.

pub mod book;
pub mod kept;
pub mod play;

use crate::solver::{ChildValue, Kind, Limits, Report, SearchMode, Solver, StopReason};
use crate::store::{Source, Store, StoreError};
use crate::{
    board::position::{Position, Scoring},
    board::square::Square,
};

/// When a call looks for the principal variation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRule {
    /// Never: the children's values are all the call wants (`review`).
    Never,
    /// The perfect line once every child is exact, preceded by [`Event::ChildrenDone`]; nothing
    /// otherwise (the explorer: it has the estimates' lines from [`Report::Line`]).
    WhenAllExact,
    /// The perfect line when the best child is exact, else the line the deepest estimate expects
    /// (`solve`).
    Best,
}

/// What one call asks.
#[derive(Clone, Debug)]
pub struct Ask {
    /// What to compute.
    pub mode: SearchMode,
    /// The deepest estimate, in plies from the position.
    pub max_depth: Option<u32>,
    /// Time, nodes and the stop flag of the whole call (the line's search included).
    pub limits: Limits,
    /// When to look for the line.
    pub line: LineRule,
}

impl Ask {
    /// `mode` under `limits`, no depth bound, no line.
    pub fn new(mode: SearchMode, limits: Limits) -> Ask {
        Ask { mode, max_depth: None, limits, line: LineRule::Never }
    }
}

/// What a call reports while it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// From the search (a child's value, a phase, a depth, an estimate's line). Values the store
    /// knew come first, as [`Report::Child`].
    Report(Report),
    /// Every child is exact: the line's search begins ([`LineRule::WhenAllExact`]).
    ChildrenDone {
        /// Nodes searched by the call so far.
        nodes: u64,
    },
    /// Something about the store: it failed and the analyst goes on without it.
    Notice {
        /// The message, lower-case, one line.
        text: String,
        /// Whether it reports a problem.
        error: bool,
    },
}

/// A line from the analysed position (passes not written).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The moves, the best child first.
    pub moves: Vec<Square>,
    /// A perfect line (every move keeps the exact score), or only what an estimate expects.
    pub proven: bool,
}

/// What a call found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Every child with a value, best first by the one ranking rule.
    pub children: Vec<ChildValue>,
    /// The children whose values came from the store.
    pub from_store: Vec<Square>,
    /// The deepest completed estimate depth, if any.
    pub depth: Option<u32>,
    /// Nodes searched by the call (the line's search included).
    pub nodes: u64,
    /// Why the call stopped early, if it did (the values are then the best known).
    pub stopped: Option<StopReason>,
    /// The line, as [`Ask::line`] asked.
    pub line: Option<Line>,
}

impl Verdict {
    /// The best child, if any has a value.
    pub fn best(&self) -> Option<ChildValue> {
        self.children.first().copied()
    }

    /// Whether every legal move of `position` has its exact score (true of a position with none:
    /// its line is the opponent's after the pass, or the game is over).
    pub(crate) fn all_exact(&self, position: &Position) -> bool {
        let moves = position.legal_moves().count() as usize;
        self.children.iter().filter(|c| c.kind == Kind::Exact).count() == moves
    }
}

/// A solver and, optionally, the store of proven results: the one analysis every front end
/// calls.
pub struct Analyst {
    solver: Solver,
    store: Option<Store>,
    /// The source what is kept is written with.
    source: Source,
}

impl Analyst {
    /// An analyst with `solver` and `store`.
    pub fn new(solver: Solver, store: Option<Store>) -> Analyst {
        Analyst { solver, store, source: Source::Explorer }
    }

    /// The same analyst, keeping what it proves with the source `source` (the book's builder
    /// keeps [`Source::Book`]; everything else [`Source::Explorer`]).
    pub(crate) fn keeping_as(self, source: Source) -> Analyst {
        Analyst { source, ..self }
    }

    /// The solver, for what is not an analysis of children (a score, a perft of the table).
    pub fn solver(&mut self) -> &mut Solver {
        &mut self.solver
    }

    /// The store, while it works.
    pub fn store(&self) -> Option<&Store> {
        self.store.as_ref()
    }

    /// The scoring rule of the solver (and of what is looked up and kept).
    pub fn scoring(&self) -> Scoring {
        self.solver.options().scoring
    }

    /// Runs `f` on the store; after a failure, reports it once and drops the store. A store kept
    /// busy by another program ([`StoreError::Busy`]) is reported and kept: only this call's
    /// lookup or write is lost.
    fn with_store<T>(
        &mut self,
        f: impl FnOnce(&Store, Scoring) -> Result<T, StoreError>,
        on: &mut dyn FnMut(Event),
    ) -> Option<T> {
        let scoring = self.scoring();
        let store = self.store.as_ref()?;
        match f(store, scoring) {
            Ok(v) => Some(v),
            Err(e @ StoreError::Busy { .. }) => {
                on(Event::Notice { text: format!("{e}; this position's results are not kept"), error: true });
                None
            }
            Err(e) => {
                self.store = None;
                on(Event::Notice { text: format!("{e}; going on without the store"), error: true });
                None
            }
        }
    }

    /// What the store knows of `position`'s children, for an analysis in `mode`: the values the
    /// search takes as they are (and skips), and the ones it shows first but searches all the same
    /// (steps 1 and 2 of the module documentation).
    pub fn known(
        &mut self,
        position: &Position,
        mode: SearchMode,
        on_event: &mut dyn FnMut(Event),
    ) -> (Vec<ChildValue>, Vec<ChildValue>) {
        let (taken, shown, _) = self.lookup(position, mode, on_event);
        (taken, shown)
    }

    /// [`Analyst::known`], and the children whose values came from imported entries.
    fn lookup(
        &mut self,
        position: &Position,
        mode: SearchMode,
        on_event: &mut dyn FnMut(Event),
    ) -> (Vec<ChildValue>, Vec<ChildValue>, Vec<Square>) {
        if mode == SearchMode::Estimate {
            return (Vec::new(), Vec::new(), Vec::new());
        }
        let stored = self
            .with_store(|store, scoring| kept::known_children(store, position, scoring), on_event)
            .unwrap_or_default();
        let imported = stored.iter().filter(|(_, s)| *s == Source::Import).map(|(c, _)| c.square).collect();
        let (mut taken, mut shown) = (Vec::new(), Vec::new());
        for (c, _) in stored {
            match (mode, c.kind) {
                (SearchMode::Wld, Kind::Exact) => {
                    taken.push(ChildValue { score: c.score.signum(), kind: Kind::Wld, ..c })
                }
                (SearchMode::Wld, Kind::Wld) | (_, Kind::Exact) => taken.push(c),
                _ => shown.push(c),
            }
        }
        (taken, shown, imported)
    }

    /// Analyses the children of `position` as `ask` says (the steps of the module documentation),
    /// reporting through `on_event`. A position whose side to move must pass, or a finished game,
    /// has no children (and, with [`LineRule::WhenAllExact`], the line after the pass).
    pub fn analyse(&mut self, position: &Position, ask: &Ask, on_event: &mut dyn FnMut(Event)) -> Verdict {
        let first_nodes = self.solver.total_nodes();
        let mode = ask.mode;
        let (known, shown, imported) = self.lookup(position, mode, on_event);
        for c in shown {
            on_event(Event::Report(Report::Child(c)));
        }
        let from_store: Vec<Square> = known.iter().map(|c| c.square).collect();
        // 3. The search.
        let analysis = self
            .solver
            .analyse_known(position, mode, ask.max_depth, &ask.limits, &known, &mut |r| on_event(Event::Report(r)));
        // 4. Everything proven, kept.
        let source = self.source;
        self.with_store(
            |store, scoring| kept::keep(store, position, scoring, &analysis.children, source, &imported),
            on_event,
        );
        let mut verdict = Verdict {
            children: analysis.children,
            from_store,
            depth: analysis.depth,
            nodes: 0,
            stopped: analysis.stopped,
            line: None,
        };
        // 5. The line.
        let best = verdict.best();
        let proven_wanted = match ask.line {
            LineRule::Never => false,
            LineRule::WhenAllExact => verdict.stopped.is_none() && verdict.all_exact(position),
            LineRule::Best => verdict.stopped.is_none() && best.is_some_and(|b| b.kind == Kind::Exact),
        };
        if proven_wanted {
            if ask.line == LineRule::WhenAllExact {
                on_event(Event::ChildrenDone { nodes: self.solver.total_nodes() - first_nodes });
            }
            let (mut moves, mut end) = self
                .with_store(|store, scoring| Ok(kept::stored_line(store, position, scoring)), on_event)
                .unwrap_or((Vec::new(), *position));
            // With no stored line, it starts from the best child, whose score is proven: the one
            // searched of its symmetric twins (the first in reading order), whose proof the table
            // holds. Solving the position again would search a twin the table knows nothing of
            // (the 6x6 start: 45 s on one thread after 15 s for its children on two).
            let mut known = None;
            if moves.is_empty()
                && let Some(b) = best.filter(|b| b.kind == Kind::Exact)
            {
                let square = verdict
                    .children
                    .iter()
                    .filter(|c| c.kind == Kind::Exact && c.score == b.score)
                    .map(|c| c.square)
                    .min()
                    .unwrap_or(b.square);
                moves.push(square);
                end = position.play(square).expect("a legal move");
                known = Some(-b.score);
            }
            let rest = match known {
                Some(score) => self.solver.principal_variation_scored(&end, score, &ask.limits),
                None => self.solver.principal_variation(&end, &ask.limits),
            };
            // Stopped here, the values stand; the line falls back to the estimate's (or none).
            if let Ok(rest) = rest {
                moves.extend(rest);
                verdict.line = Some(Line { moves, proven: true });
            }
        }
        if verdict.line.is_none()
            && ask.line == LineRule::Best
            && let Some(b) = best
        {
            let child = position.play(b.square).expect("a legal move");
            // An estimate's line is as long as its depth; a proven child whose perfect line was
            // not followed (the call stopped first, or an outcome, proven without one) gets the
            // line the table expects, to the end of the game (not proven: `proven` stays false,
            // and the front ends say so).
            let rest = match b.kind {
                Kind::Estimate { depth, .. } => depth as usize - 1,
                _ => child.empty_count() as usize,
            };
            let moves = std::iter::once(b.square).chain(self.solver.expected_line(&child, rest)).collect();
            verdict.line = Some(Line { moves, proven: false });
        }
        verdict.nodes = self.solver.total_nodes() - first_nodes;
        verdict
    }
}
