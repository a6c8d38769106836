//! The queries: what the view and the update ask of the model (the position on screen, the
//! active key contexts, whether the values hide, the values, the line shown, the best move known,
//! the solver's state, the score graph). None of them changes the model.

use super::super::keys::Context;
use super::super::teach::{Lesson, lesson_trace};
use super::super::tree::{Edge, NodeId};
use super::{Activity, Focus, Known, Mask, Model, Overlay, PositionValues, Score, ScoreKind};
use crate::board::concepts;
use crate::board::rules::legal_moves;
use crate::board::size::Size;
use crate::solver::{Phase, Selectivity};
use crate::with_size;
use crate::{
    board::bitboard::Bitboard,
    board::position::{Color, Position},
    board::square::Square,
};
use std::time::Duration;

/// A point of the score graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphPoint {
    /// The node.
    pub node: NodeId,
    /// Its ply.
    pub ply: usize,
    /// Its value from black's side, once known.
    pub value: Option<i32>,
    /// Whether the value is exact.
    pub exact: bool,
}

/// What a line shown in the line panel is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// A principal variation to the end of the game: every move keeps the exact score.
    Perfect,
    /// The line the estimate of this depth and selectivity expects: never a proof.
    Estimate {
        /// The estimate's depth, in plies from the position where the line was taken.
        depth: u32,
        /// How selective the estimate was.
        selectivity: Selectivity,
    },
}

impl LineKind {
    /// What the line's value is: exact for a perfect line, else the estimate's kind.
    pub(crate) const fn score_kind(self) -> ScoreKind {
        match self {
            LineKind::Perfect => ScoreKind::Exact,
            LineKind::Estimate { depth, selectivity } => ScoreKind::Estimate { depth, selectivity },
        }
    }
}

/// The line the line panel shows from the position on screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShownLine {
    /// The moves (forced passes not written).
    pub moves: Vec<Square>,
    /// The line's value, from the side to move on screen.
    pub score: i32,
    /// What the line is.
    pub kind: LineKind,
}

/// The solver's state for the position on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverState {
    /// The game is over: nothing to solve.
    GameOver,
    /// Every child is proven.
    Exact {
        /// Nodes the search took.
        nodes: u64,
        /// Time it took.
        elapsed: Duration,
    },
    /// A search runs.
    Solving {
        /// Children proven so far.
        proven: usize,
        /// Children in all.
        total: usize,
        /// What the search does now (estimating, proving outcomes, proving scores), once known.
        phase: Option<Phase>,
        /// The deepest estimate depth a child has reached (the one under way), if estimates were
        /// made.
        depth: Option<u32>,
        /// The selectivity of those estimates (the job's, before a child has one).
        selectivity: Selectivity,
        /// Nodes so far.
        nodes: u64,
        /// Time so far.
        elapsed: Duration,
        /// Time at the last node count (for the rate).
        counted: Duration,
    },
    /// The analysis is paused by the user: no search runs.
    Paused {
        /// Children proven.
        proven: usize,
        /// Children in all.
        total: usize,
        /// The deepest estimate depth reached by every child, if estimates were made.
        depth: Option<u32>,
        /// The selectivity of that estimate ([`Model::selectivity`] when there is none).
        selectivity: Selectivity,
    },
    /// No search runs and not every child is proven.
    NotSolved {
        /// Children proven.
        proven: usize,
        /// Children in all.
        total: usize,
        /// The deepest estimate depth reached by every child, if estimates were made.
        depth: Option<u32>,
        /// The selectivity of that estimate ([`Model::selectivity`] when there is none).
        selectivity: Selectivity,
    },
}

impl SolverState {
    /// The deepest estimate the state names, as a kind (depth and selectivity): what its labels
    /// write (`estimating @12 95%`).
    pub const fn estimate(&self) -> Option<ScoreKind> {
        match *self {
            SolverState::Solving { depth: Some(depth), selectivity, .. }
            | SolverState::Paused { depth: Some(depth), selectivity, .. }
            | SolverState::NotSolved { depth: Some(depth), selectivity, .. } => {
                Some(ScoreKind::Estimate { depth, selectivity })
            }
            _ => None,
        }
    }
}

impl Model {
    /// The position on screen: the tree's current node, or the editor's board while it is open.
    pub fn position(&self) -> Position {
        match self.editor() {
            Some(e) => e.position(),
            None => self.tree.position(),
        }
    }

    /// The score graph: the value of every position along the line shown (root to the end of
    /// the preferred line), from black's side, as far as the cache knows it. A position's value is
    /// its best child's (an exact score, else an estimate; a proven outcome by its last estimate).
    pub fn graph(&self) -> Vec<GraphPoint> {
        let line = self.tree.line();
        line.iter()
            .enumerate()
            .map(|(i, &node)| {
                let p = self.tree.position_of(node);
                let ply = self.tree.depth(node);
                if p.is_game_over() {
                    let value = p.black_score(self.config.scoring);
                    return GraphPoint { node, ply, value: Some(value), exact: true };
                }
                let target = p.after_forced_pass().0;
                let best = self.cache.get(&target).and_then(|a| {
                    let c = a.best_child()?;
                    let (v, _) = a.rank_key(&c);
                    Some((v, c.kind == ScoreKind::Exact))
                });
                // Else what the review found there (its values are not filed with the others:
                // their estimates are of the review's own settings).
                let best = best.or_else(|| {
                    let played = self.line_move_after(&line, i);
                    let c = self.verdicts.get(&(target, played))?.first()?;
                    Some((c.score, c.kind == crate::solver::Kind::Exact))
                });
                let from_black = |v: i32| if target.to_move() == Color::Black { v } else { -v };
                GraphPoint { node, ply, value: best.map(|(v, _)| from_black(v)), exact: best.is_some_and(|b| b.1) }
            })
            .collect()
    }

    /// The move the line plays after its `i`-th node, if it is one (a pass is not).
    fn line_move_after(&self, line: &[NodeId], i: usize) -> Option<Square> {
        match line.get(i + 1).and_then(|&next| self.tree.edge(next)) {
            Some(Edge::Move(square)) => Some(square),
            _ => None,
        }
    }

    /// The review's mark on the move that reached `node`, judged ([`crate::studies::review::judge`]) on
    /// the values the review's step found at the position it was played in, and no others, so it
    /// is the mark `review` gives the same game for the same budget; and whether it is proven
    /// (false: from estimates, beyond their measured error). `None` until that step has run.
    pub fn mark(&self, node: NodeId) -> Option<(crate::studies::review::Mark, bool)> {
        let Some(Edge::Move(square)) = self.tree.edge(node) else { return None };
        let parent = self.tree.parent(node)?;
        let p = self.tree.position_of(parent).after_forced_pass().0;
        let children = self.verdicts.get(&(p, Some(square)))?;
        let judged =
            crate::studies::review::judge_for(self.review_evaluator, self.tree.depth(node), &p, square, children)?;
        judged.mark.map(|m| (m, judged.proven))
    }

    /// Why the move into `node` loses, when review marked it and found its refutation.
    pub fn why(&self, node: NodeId) -> Option<&crate::studies::review::reasons::Why> {
        let Some(Edge::Move(square)) = self.tree.edge(node) else { return None };
        let parent = self.tree.parent(node)?;
        let p = self.tree.position_of(parent).after_forced_pass().0;
        self.mark(node)?;
        self.whys.get(&(p, square))
    }

    /// While the engine thinks in a game: how long it has, and the most it will (its level's
    /// time or the move time, [`super::game::think_budget`]).
    pub fn engine_thinking(&self) -> Option<(Duration, Duration)> {
        let g = self.game()?;
        let p = self.position();
        match g.thinking {
            Some((q, since)) if q == p && g.engine_plays(p.to_move()) && !p.is_game_over() => {
                Some((self.clock.saturating_duration_since(since), super::game::think_budget(self.config.strength, &p)))
            }
            _ => None,
        }
    }

    /// The name of the 8x8 opening the line to the position on screen last reached, if any (see
    /// [`crate::notation::opening`]).
    pub fn opening(&self) -> Option<&'static str> {
        if self.editor().is_some() {
            return crate::notation::opening::name(&self.position());
        }
        crate::notation::opening::name_along(&self.tree.position_of(self.tree.root()), &self.tree.moves())
    }

    /// Why the values are hidden, for the panel that would show the line.
    pub(crate) fn hidden_text(&self) -> String {
        match self.activity {
            Activity::Edit(_) => "nothing is analysed while the editor is open".to_string(),
            Activity::Drill(_) => "the values show once you choose a move (Enter or a click)".to_string(),
            Activity::Game(_) | Activity::Explore { .. } => {
                "the values are hidden while you play: x shows them".to_string()
            }
        }
    }

    /// The game's, the drill's or the editor's state in a word and a line, while one is on.
    pub fn mode_text(&self) -> Option<(&'static str, String)> {
        let g = match &self.activity {
            Activity::Explore { .. } => return None,
            Activity::Edit(e) => return Some(("edit", e.editor.summary())),
            Activity::Drill(d) => {
                let last = d.last.as_ref().map_or(String::new(), |v| format!("last: {} · ", v.text()));
                return Some(("drill", format!("{last}{}", d.tally_text())));
            }
            Activity::Game(g) => g,
        };
        let who = match g.human {
            Some(c) => format!("you play {c} against the engine ({})", self.config.strength),
            None => format!("engine against engine ({})", self.config.strength),
        };
        let p = self.position();
        let turn = if g.browsing {
            "looking back: the engine waits (→ or End to the end goes on)".to_string()
        } else if p.is_game_over() {
            "game over".to_string()
        } else if p.must_pass() {
            format!("{} has no move and passes", p.to_move())
        } else if g.engine_plays(p.to_move()) && g.human.is_some() {
            match self.engine_thinking() {
                Some((spent, budget)) => {
                    format!("the engine thinks: {:.1}s of at most {:.1}s", spent.as_secs_f64(), budget.as_secs_f64())
                }
                None => "the engine's move".to_string(),
            }
        } else if g.human.is_some() {
            "your move".to_string()
        } else {
            format!("{} to move", p.to_move())
        };
        Some(("game", format!("{who} · {turn}")))
    }

    /// The active key contexts, the most specific first (see [`super::super::keys`]).
    pub fn contexts(&self) -> Vec<Context> {
        match self.overlay {
            Overlay::Help => return vec![Context::Help],
            Overlay::Command(_) => return vec![Context::Command],
            Overlay::Pick(_) => return vec![Context::Pick],
            Overlay::None => {}
        }
        self.board_contexts()
    }

    /// The contexts the help overlay lists first: itself, then those under it.
    pub fn help_contexts(&self) -> Vec<Context> {
        let mut out = vec![Context::Help];
        out.extend(self.board_contexts());
        out
    }

    /// The contexts of the board, the overlays aside.
    fn board_contexts(&self) -> Vec<Context> {
        let activity = match self.activity {
            Activity::Edit(_) => return vec![Context::Edit],
            Activity::Drill(_) => Some(Context::Drill),
            Activity::Game(_) => Some(Context::Play),
            Activity::Explore { .. } => None,
        };
        let mut out = Vec::new();
        if self.teach.is_some() {
            out.push(Context::Teaching);
        } else if self.focus == Focus::History {
            out.push(Context::History);
        }
        out.extend(activity);
        out.push(Context::Normal);
        out
    }

    /// Whether the values are hidden: in a game until `x` shows them, in a drill until a move
    /// is chosen here, in the editor (nothing is analysed).
    pub fn values_hidden(&self) -> bool {
        match &self.activity {
            Activity::Explore { .. } => false,
            Activity::Game(g) => !g.show_values,
            Activity::Drill(d) => d.chosen_at(&self.position()).is_none(),
            Activity::Edit(_) => true,
        }
    }

    /// The position the solver analyses for the one on screen: itself, or after the forced pass;
    /// `None` when the game is over.
    pub fn target(&self) -> Option<Position> {
        if self.editor().is_some() {
            return None;
        }
        let p = self.position();
        if p.is_game_over() { None } else { Some(p.after_forced_pass().0) }
    }

    /// What is proven about the position on screen.
    pub fn analysis(&self) -> Option<&PositionValues> {
        self.target().and_then(|t| self.cache.get(&t))
    }

    /// The best known value of the move on `square` (from the side to move): an estimate, a
    /// proven outcome or the exact score.
    pub fn child_score(&self, square: Square) -> Option<Score> {
        if self.position().must_pass() {
            return None;
        }
        self.analysis().and_then(|a| a.value(square)).map(|c| Score { value: c.score, kind: c.kind })
    }

    /// A value from the side to move at the position on screen, as the screen shows it: the same,
    /// or from black's side when the user asked for that (`v`).
    pub fn shown_value(&self, value: i32) -> i32 {
        if self.black_view && self.position().to_move() == Color::White { -value } else { value }
    }

    /// Whose side the screen's values are from: `None` for the side to move.
    pub(crate) fn value_side(&self) -> Option<Color> {
        self.black_view.then_some(Color::Black)
    }

    /// The proven score of passing, when the side to move must pass.
    pub(crate) fn pass_score(&self) -> Option<Score> {
        if !self.position().must_pass() {
            return None;
        }
        self.analysis().and_then(|a| a.best()).map(|v| Score { value: -v, kind: ScoreKind::Exact })
    }

    /// The best score here, once proven.
    pub fn best_score(&self) -> Option<i32> {
        if self.position().must_pass() { self.pass_score().map(|s| s.value) } else { self.analysis()?.best() }
    }

    /// The best edge: the pass when it is forced, else the best move once every child is proven:
    /// the principal variation's first move when it is known, else the first best in reading order.
    pub fn best_edge(&self) -> Option<Edge> {
        let p = self.position();
        if p.must_pass() {
            return Some(Edge::Pass);
        }
        let a = self.analysis()?;
        let best = a.best()?;
        // The principal variation's move when known, so `b` and auto-play follow the line shown.
        if let Some(&first) = a.pv.as_ref().and_then(|pv| pv.first())
            && a.score(first) == Some(best)
        {
            return Some(Edge::Move(first));
        }
        p.legal_moves().reading_order().into_iter().find(|&sq| a.score(sq) == Some(best)).map(Edge::Move)
    }

    /// The line the line panel shows: auto-play's line while it plays one; else the principal
    /// variation once proven; else the deepest completed estimate's line.
    pub fn shown_line(&self) -> Option<ShownLine> {
        let p = self.position();
        if p.is_game_over() {
            return None;
        }
        let from_black = |v: i32| if p.to_move() == Color::Black { v } else { -v };
        if let Some(auto) = self.auto().and_then(|a| a.line.as_ref()).filter(|a| a.at == p && !a.moves.is_empty()) {
            let moves = auto.moves.iter().copied().collect();
            return Some(ShownLine { moves, score: from_black(auto.black_score), kind: auto.kind });
        }
        let a = self.analysis()?;
        if let (Some(pv), Some(score)) = (a.pv.as_ref(), self.best_score()) {
            return Some(ShownLine { moves: pv.clone(), score, kind: LineKind::Perfect });
        }
        let (kind, moves) = a.line.as_ref()?;
        let ScoreKind::Estimate { depth, selectivity } = *kind else { return None };
        let first = a.value(*moves.first()?)?;
        let score = if p.must_pass() { -first.score } else { first.score };
        Some(ShownLine { moves: moves.clone(), score, kind: LineKind::Estimate { depth, selectivity } })
    }

    /// The move `b` and auto-play make here: the forced pass; the proven best move; the first
    /// move of the line shown; else the child the values known rank best. With whether it is
    /// proven best.
    pub(crate) fn best_known(&self) -> Option<(Edge, Known)> {
        if let Some(edge) = self.best_edge() {
            return Some((edge, Known::Proven));
        }
        let p = self.position();
        if p.is_game_over() {
            return None;
        }
        let a = self.analysis()?;
        let child = match self.shown_line() {
            Some(line) if line.kind != LineKind::Perfect => a.value(line.moves[0]),
            _ => None,
        }
        .or_else(|| a.best_child())?;
        Some((Edge::Move(child.square), Known::Unproven(Score { value: child.score, kind: child.kind })))
    }

    /// The moves reaching the best score, once proven.
    pub fn best_moves(&self) -> Vec<Square> {
        match (self.analysis(), self.position().must_pass()) {
            (Some(a), false) => match a.best() {
                Some(b) => {
                    a.children.iter().filter(|c| c.score == b && c.kind == ScoreKind::Exact).map(|c| c.square).collect()
                }
                None => Vec::new(),
            },
            _ => Vec::new(),
        }
    }

    /// The principal variation from the position on screen, once known.
    pub fn pv(&self) -> Option<&[Square]> {
        self.analysis().and_then(|a| a.pv.as_deref())
    }

    /// The move under the cursor, if it is legal.
    pub fn selected(&self) -> Option<Square> {
        let p = self.position();
        p.legal_moves().contains(self.cursor).then_some(self.cursor)
    }

    /// The discs the selected move flips.
    pub fn flips(&self) -> Bitboard {
        let p = self.position();
        match self.selected() {
            Some(sq) => p.flips(sq),
            None => Bitboard::empty(p.size()),
        }
    }

    /// A mask of the position on screen.
    pub fn mask(&self, mask: Mask) -> Bitboard {
        let p = self.position();
        match mask {
            Mask::Black => p.black(),
            Mask::White => p.white(),
            Mask::Empty => p.empty(),
            Mask::Legal => p.legal_moves(),
            Mask::Flips => self.flips(),
            concept => {
                // Only the concept asked for: the panel asks for each mask on every frame.
                let size = p.size();
                let (me, you) = (p.player().bits(), p.opponent().bits());
                let both = |f: fn(Size, u64, u64) -> u64| f(size, me, you) | f(size, you, me);
                let bits = match concept {
                    Mask::Replies => with_size!(size, N => legal_moves::<N>(you, me)),
                    Mask::Stable => both(concepts::stable),
                    Mask::Frontier => both(concepts::frontier),
                    Mask::Potential => concepts::potential_mobility(size, me, you),
                    Mask::OddRegions => concepts::regions(size, me | you)
                        .into_iter()
                        .filter(|r| r.count_ones() % 2 == 1)
                        .fold(0, |m, r| m | r),
                    _ => {
                        let corners = concepts::corners(size);
                        let open = with_size!(size, N => legal_moves::<N>(me, you) | legal_moves::<N>(you, me));
                        (open & corners) | concepts::x_beside_empty_corner(size, me | you) & (me | you)
                    }
                };
                Bitboard::new(size, bits)
            }
        }
    }

    /// The mask drawn onto the board: the teaching view's current step when it is open, else
    /// the mask chosen with `o`, else on a move review marked the squares of its first reason.
    pub fn board_mask(&self) -> Option<Bitboard> {
        match self.teach {
            Some(teach) => match teach.lesson() {
                Lesson::Trace(topic) => {
                    let trace = lesson_trace(topic, &self.position(), self.cursor).ok()?;
                    let step = trace.steps.get(teach.step.min(trace.steps.len().saturating_sub(1)))?;
                    step.value.mask()
                }
                Lesson::Lab => None,
            },
            None => match self.drawn_mask {
                Some(mask) => Some(self.mask(mask)),
                // On a marked move whose refutation review found: its first reason's squares.
                None => self
                    .why(self.tree.current())
                    .filter(|_| !self.values_hidden())
                    .and_then(|w| w.reasons.first())
                    .map(|r| r.mask(self.position().size())),
            },
        }
    }

    /// The number of steps of the teaching view's current trace (0 on the lab page or when the
    /// trace cannot be made).
    pub fn teach_steps(&self) -> usize {
        match self.teach.map(|t| t.lesson()) {
            Some(Lesson::Trace(topic)) => {
                lesson_trace(topic, &self.position(), self.cursor).map_or(0, |t| t.steps.len())
            }
            _ => 0,
        }
    }

    /// The square of the move that led here, if it was a move.
    pub fn last_move(&self) -> Option<Square> {
        match self.tree.edge(self.tree.current()) {
            Some(Edge::Move(sq)) => Some(sq),
            _ => None,
        }
    }

    /// The solver's state for the position on screen.
    pub fn solver_state(&self) -> SolverState {
        let Some(target) = self.target() else { return SolverState::GameOver };
        let total = target.legal_moves().count() as usize;
        let a = self.cache.get(&target);
        let proven = a.map_or(0, |a| a.exact_count());
        if let Some(a) = a.filter(|a| a.complete) {
            return SolverState::Exact { nodes: a.nodes, elapsed: a.elapsed };
        }
        let deepest = a.and_then(|a| a.deepest_estimate());
        let (estimated, selectivity) = match deepest {
            Some(ScoreKind::Estimate { depth, selectivity }) => (Some(depth), selectivity),
            _ => (None, self.selectivity),
        };
        match &self.job {
            _ if self.paused => SolverState::Paused { proven, total, depth: estimated, selectivity },
            Some(j) if j.position == target => SolverState::Solving {
                proven,
                total,
                phase: j.phase,
                // The deepest a child has reached, as the moves table shows it (the depth every
                // child completed can be one less while the next runs).
                depth: estimated.max(j.depth),
                selectivity: if deepest.is_some() { selectivity } else { j.selectivity },
                nodes: j.nodes,
                elapsed: j.elapsed.max(self.clock.saturating_duration_since(j.started)),
                counted: j.elapsed,
            },
            _ => SolverState::NotSolved { proven, total, depth: estimated, selectivity },
        }
    }

    /// The final score from black's side, when the game is over.
    pub fn final_score(&self) -> Option<i32> {
        let p = self.position();
        p.is_game_over().then(|| p.black_score(self.config.scoring))
    }

    /// The board string of the position on screen and the transcript from the root.
    pub(crate) fn yank_text(&self) -> (String, String) {
        (self.position().to_string(), self.tree.transcript())
    }
}
