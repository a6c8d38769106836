//! The solver's entry points (floor 6 of the search core, `mod.rs`): [`Solver::solve`],
//! [`Solver::score`], [`Solver::wld`], [`Solver::estimate`], [`Solver::score_children`] and the
//! lines ([`Solver::principal_variation`], [`Solver::expected_line`]), each an [`EntrySearch`]
//! run by [`Solver::run_search`] (`engine.rs`), or the root scheduler (`root.rs`).

use super::engine::{EntrySearch, Solver};
use super::frontiers::pv_solved;
use super::limits::{ChildScore, Limits, Stopped};
use super::root::{self, root_order, twin_groups};
use super::searcher::Searcher;
use super::selectivity::Selectivity;
use super::table::{self, Table};
use crate::board::isa::Isa;
use crate::board::position::Position;
use crate::board::size::Size;
use crate::board::square::Square;

/// The result of [`Solver::solve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The exact score from the side to move.
    pub score: i32,
    /// Every move that reaches the score (empty when the side to move must pass or the game is
    /// over).
    pub best: Vec<Square>,
    /// A principal variation to the end of the game; passes are not written.
    pub pv: Vec<Square>,
    /// Nodes searched.
    pub nodes: u64,
}

impl Solver {
    /// The exact score of every legal move, each reported to `on_child` as soon as it is proven
    /// (from the calling thread). Returns them best first, ties in reading order. A position whose
    /// side to move must pass, or a finished game, has no children.
    ///
    /// Stopped early, it returns the children proven so far in [`Stopped::proven`].
    pub fn score_children(
        &mut self,
        position: &Position,
        limits: &Limits,
        on_child: &mut dyn FnMut(ChildScore),
    ) -> Result<Vec<ChildScore>, Stopped> {
        // Children that are symmetric images of each other (same canonical key, same side to
        // move) have the same score: one of each group is searched, the group reported, even
        // with fewer groups than threads (the symmetric openings), as the split points share one
        // search between the threads (docs/solver.md, "Symmetric twins at the root").
        let moves = root_order(position, &self.table);
        let groups = twin_groups(position, &moves);
        let tasks: Vec<root::Task> = groups
            .iter()
            .enumerate()
            .map(|(index, group)| {
                let child = position.play(group[0]).expect("a legal move");
                let (p, o) = child.raw();
                root::Task { index, p, o, empties: child.empty_count(), guess: None }
            })
            .collect();
        let (mut proven, nodes, stopped) = self.searched(limits, true, |solver, control| {
            let mut proven = Vec::new();
            solver.schedule(control, position.size(), &tasks, root::Job::Exact, &mut |task, score, _| {
                for &square in &groups[task.index] {
                    let child = ChildScore { square, score };
                    on_child(child);
                    proven.push(child);
                }
            });
            proven
        });
        if let Some(reason) = stopped {
            return Err(Stopped { reason, proven, nodes });
        }
        proven.sort_by_key(|c| (-c.score, c.square));
        Ok(proven)
    }

    /// The exact score from the side to move, every best move, and a principal variation to the
    /// end of the game. When the side to move must pass, the score is still from its side and
    /// the best moves are the opponent's replies after the pass.
    pub fn solve(&mut self, position: &Position, limits: &Limits) -> Result<Solution, Stopped> {
        let (pos, passed) = position.after_forced_pass();
        let sign = if passed { -1 } else { 1 };
        if pos.is_game_over() {
            return Ok(Solution { score: position.score(self.options.scoring), best: vec![], pv: vec![], nodes: 0 });
        }
        let ((score, best), nodes) = self.run_search(pos.size(), limits, ScoreAndBest(&pos))?;
        let pv = self.principal_variation_scored(&pos, score, limits)?;
        Ok(Solution { score: sign * score, best, pv, nodes })
    }

    /// The exact score from the side to move and one best move, with nodes searched: the least
    /// work that settles a position (what `bench` measures). The side to move must have a move
    /// or the game must be over.
    pub fn score(&mut self, position: &Position, limits: &Limits) -> Result<(i32, Option<Square>, u64), Stopped> {
        let (score, nodes) = self.run_search(position.size(), limits, Windowed { position, window: None })?;
        // Near the end the search skips the table: find a move that keeps the score.
        let best = match table_move(&self.table, position) {
            Some(sq) => Some(sq),
            None => self.solve(position, limits)?.best.first().copied(),
        };
        Ok((score, best, nodes))
    }

    /// Whether the side to move wins (+1), draws (0) or loses (-1), with nodes searched: the
    /// exact search with the window (-1, 1), cheaper than the exact score. A side to move that
    /// must pass is answered from its side.
    pub fn wld(&mut self, position: &Position, limits: &Limits) -> Result<(i32, u64), Stopped> {
        let (value, nodes) = self.run_search(position.size(), limits, Windowed { position, window: Some((-1, 1)) })?;
        Ok((value.signum(), nodes))
    }

    /// The value of `position` searched `depth` plies deep by the estimate search, with the
    /// full window, and the nodes searched: at the options' selectivity (full width: the plain
    /// `depth`-ply minimax of the evaluation, nodes the exact search reaches within
    /// [`EXACT_MARGIN`](super::settings::EXACT_MARGIN) scored exactly, and, when the options keep it on, the principal
    /// variation solved from [`pv_solved`] empties). A side
    /// to move that must pass is answered from its side; a finished game gets its score.
    pub fn estimate(&mut self, position: &Position, depth: u32, limits: &Limits) -> Result<(i32, u64), Stopped> {
        let (pos, passed) = position.after_forced_pass();
        let sign = if passed { -1 } else { 1 };
        if pos.is_game_over() || depth == 0 {
            let value = if pos.is_game_over() {
                pos.score(self.options.scoring)
            } else {
                let (p, o) = pos.raw();
                let by = self.options.evaluator;
                match pos.size() {
                    Size::Four => crate::eval::evaluate_by::<4>(by, p, o),
                    Size::Six => crate::eval::evaluate_by::<6>(by, p, o),
                    Size::Eight => crate::eval::evaluate_by::<8>(by, p, o),
                }
            };
            return Ok((sign * value, 0));
        }
        let pv_solved = if self.options.pv_extension { pv_solved(depth) } else { 0 };
        let selectivity = self.options.selectivity;
        let (value, nodes) =
            self.run_search(pos.size(), limits, Estimated { position: &pos, depth, pv_solved, selectivity })?;
        Ok((sign * value, nodes))
    }

    /// The line the table expects from `position`: at each step the best move it holds (from
    /// either search), forced passes taken, at most `max_len` moves. After an exact solve it is
    /// a principal variation; after estimates, the line the deepest estimate preferred.
    pub fn expected_line(&self, position: &Position, max_len: usize) -> Vec<Square> {
        let mut line = Vec::new();
        let (mut pos, _) = position.after_forced_pass();
        while line.len() < max_len && !pos.is_game_over() {
            let Some(square) = table_move(&self.table, &pos) else { break };
            line.push(square);
            pos = pos.play(square).expect("a legal move").after_forced_pass().0;
        }
        line
    }

    /// A principal variation from `position` to the end of the game (passes not written): at each
    /// step a move that keeps the exact score, the table's best move tried first.
    pub fn principal_variation(&mut self, position: &Position, limits: &Limits) -> Result<Vec<Square>, Stopped> {
        Ok(self.run_search(position.size(), limits, Line { position, score: None })?.0)
    }

    /// [`Self::principal_variation`] of a position whose exact score is known (`score`, from its
    /// side to move, in the solver's scoring): the position itself is not solved again, only the
    /// children that keep the score are looked for. After [`Self::analyse`] has proven the best
    /// child, its line starts here, from the child it searched: the table holds that child's proof,
    /// not a symmetric twin's. A wrong `score` gives a wrong line.
    pub(crate) fn principal_variation_scored(
        &mut self,
        position: &Position,
        score: i32,
        limits: &Limits,
    ) -> Result<Vec<Square>, Stopped> {
        Ok(self.run_search(position.size(), limits, Line { position, score: Some(score) })?.0)
    }
}

/// [`Solver::solve`]'s search of a position whose side to move has a move: its exact score and
/// every move that reaches it.
struct ScoreAndBest<'a>(&'a Position);

impl EntrySearch for ScoreAndBest<'_> {
    type Output = (i32, Vec<Square>);

    fn search<const N: usize, const D: bool, I: Isa>(self, s: &mut Searcher<'_, N, D, I>) -> (i32, Vec<Square>) {
        let pos = self.0;
        let (p, o) = pos.raw();
        let score = s.exact(p, o);
        let mut best = Vec::new();
        if !s.stopped {
            // Every move that reaches the score: its child is at most -score.
            for square in pos.legal_moves().reading_order() {
                let (cp, co) = pos.play(square).expect("a legal move").raw();
                if s.above(cp, co, -score) <= -score && !s.stopped {
                    best.push(square);
                }
            }
        }
        (score, best)
    }
}

/// The exact search of `position` with `window` (`None`: the full window): what [`Solver::score`]
/// and [`Solver::wld`] search.
struct Windowed<'a> {
    position: &'a Position,
    window: Option<(i32, i32)>,
}

impl EntrySearch for Windowed<'_> {
    type Output = i32;

    fn search<const N: usize, const D: bool, I: Isa>(self, s: &mut Searcher<'_, N, D, I>) -> i32 {
        let (p, o) = self.position.raw();
        match self.window {
            Some((alpha, beta)) => s.window(p, o, alpha, beta),
            None => s.exact(p, o),
        }
    }
}

/// [`Solver::estimate`]'s search: `depth` plies of the estimate search with the full window.
struct Estimated<'a> {
    position: &'a Position,
    depth: u32,
    pv_solved: u32,
    selectivity: Selectivity,
}

impl EntrySearch for Estimated<'_> {
    type Output = i32;

    fn search<const N: usize, const D: bool, I: Isa>(self, s: &mut Searcher<'_, N, D, I>) -> i32 {
        let (p, o) = self.position.raw();
        s.pv_solved = self.pv_solved;
        s.selectivity = self.selectivity.level();
        s.estimate(p, o, -Searcher::<N, D, I>::MAX, Searcher::<N, D, I>::MAX, self.depth)
    }
}

/// [`Solver::principal_variation`]'s search: at each step a move that keeps the exact score, the
/// table's best move tried first. A follow-up of the search that scored the position (the same
/// table generation), on the pool like the others, so its null-window searches split.
struct Line<'a> {
    position: &'a Position,
    /// The position's exact score from its side to move, if known.
    score: Option<i32>,
}

impl EntrySearch for Line<'_> {
    const FRESH: bool = false;
    type Output = Vec<Square>;

    fn search<const N: usize, const D: bool, I: Isa>(self, s: &mut Searcher<'_, N, D, I>) -> Vec<Square> {
        let mut pv = Vec::new();
        let (mut pos, passed) = self.position.after_forced_pass();
        let mut value = match self.score {
            Some(score) if passed => -score,
            Some(score) => score,
            None => {
                let (p, o) = pos.raw();
                s.exact(p, o)
            }
        };
        while !s.stopped && !pos.is_game_over() {
            let mut moves = pos.legal_moves().reading_order();
            if let Some(best) = table_move(s.table, &pos)
                && let Some(i) = moves.iter().position(|&m| m == best)
            {
                moves[..=i].rotate_right(1);
            }
            let mut found = None;
            for square in moves {
                let child = pos.play(square).expect("a legal move");
                let (cp, co) = child.raw();
                if s.above(cp, co, -value) <= -value {
                    found = Some((square, child));
                    break;
                }
                if s.stopped {
                    break;
                }
            }
            let Some((square, child)) = found else { break };
            pv.push(square);
            value = -value;
            let (next, passed) = child.after_forced_pass();
            if passed {
                value = -value;
            }
            pos = next;
        }
        pv
    }
}

/// The best move `table` holds for `position` (from either search), if it is a legal move there.
fn table_move(table: &Table, position: &Position) -> Option<Square> {
    let (p, o) = position.raw();
    table
        .probe(table::hash(position.size().n(), p, o))
        .and_then(|e| Square::from_bit(position.size(), e.best as u32))
        .filter(|&sq| position.legal_moves().contains(sq))
}
