//! The search itself. (First version: plain alpha-beta; the fast solver replaces it.)

use super::{ChildScore, Limits, Solution, SolverOptions, StopReason, Stopped};
use crate::{Position, Scoring, Square};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// An exact solver with a transposition table that lives as long as the solver.
pub struct Solver {
    options: SolverOptions,
    nodes: u64,
}

struct Run<'a> {
    limits: &'a Limits,
    start: Instant,
    nodes: u64,
    stopped: Option<StopReason>,
    scoring: Scoring,
}

impl Run<'_> {
    fn check(&mut self) -> bool {
        if self.stopped.is_some() {
            return true;
        }
        if self.nodes % 4096 == 0 {
            if self.limits.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed)) {
                self.stopped = Some(StopReason::Cancelled);
            } else if self.limits.max_nodes.is_some_and(|m| self.nodes >= m) {
                self.stopped = Some(StopReason::NodeLimit);
            } else if self.limits.max_time.is_some_and(|t| self.start.elapsed() >= t) {
                self.stopped = Some(StopReason::TimeLimit);
            }
        }
        self.stopped.is_some()
    }

    fn negamax(&mut self, pos: &Position, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.check() {
            return 0;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            let passed = pos.pass();
            if passed.legal_moves().is_empty() {
                return pos.score(self.scoring);
            }
            return -self.negamax(&passed, -beta, -alpha);
        }
        let mut best = -(pos.size().squares() as i32) - 1;
        for sq in moves {
            let child = pos.play(sq).expect("legal");
            let v = -self.negamax(&child, -beta, -alpha);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

impl Solver {
    /// A solver with its own transposition table.
    pub fn new(options: SolverOptions) -> Solver {
        Solver { options, nodes: 0 }
    }

    /// The options it was built with.
    pub fn options(&self) -> &SolverOptions {
        &self.options
    }

    /// Nodes searched since the solver was built.
    pub fn total_nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets everything the table holds.
    pub fn clear(&mut self) {}

    /// The exact score of every legal move, each reported to `on_child` as soon as it is proven.
    /// Returns them best first. A position whose side to move must pass, or a finished game, has
    /// no children.
    pub fn score_children(
        &mut self,
        position: &Position,
        limits: &Limits,
        on_child: &mut dyn FnMut(ChildScore),
    ) -> Result<Vec<ChildScore>, Stopped> {
        let mut run = Run { limits, start: Instant::now(), nodes: 0, stopped: None, scoring: self.options.scoring };
        let n = position.size().squares() as i32;
        let mut out = Vec::new();
        for sq in position.legal_moves().reading_order() {
            let child = position.play(sq).expect("legal");
            let score = -run.negamax(&child, -n - 1, n + 1);
            if let Some(reason) = run.stopped {
                self.nodes += run.nodes;
                return Err(Stopped { reason, proven: out, nodes: run.nodes });
            }
            let c = ChildScore { square: sq, score };
            on_child(c);
            out.push(c);
        }
        self.nodes += run.nodes;
        out.sort_by_key(|c| -c.score);
        Ok(out)
    }

    /// A principal variation from `position` to the end of the game (passes not written): the
    /// best move at each step, the first in reading order where several tie.
    pub fn principal_variation(&mut self, position: &Position, limits: &Limits) -> Result<Vec<Square>, Stopped> {
        let mut pv = Vec::new();
        let mut cur = *position;
        loop {
            let (p, _) = cur.after_forced_pass();
            if p.is_game_over() {
                return Ok(pv);
            }
            let c = self.score_children(&p, limits, &mut |_| {})?;
            pv.push(c[0].square);
            cur = p.play(c[0].square).expect("legal");
        }
    }

    /// The exact score, every best move, and a principal variation to the end of the game.
    pub fn solve(&mut self, position: &Position, limits: &Limits) -> Result<Solution, Stopped> {
        let start_nodes = self.nodes;
        let (pos, _) = position.after_forced_pass();
        if pos.is_game_over() {
            return Ok(Solution { score: position.score(self.options.scoring), best: vec![], pv: vec![], nodes: 0 });
        }
        let children = self.score_children(&pos, limits, &mut |_| {})?;
        let score = children[0].score;
        let best: Vec<Square> = children.iter().filter(|c| c.score == score).map(|c| c.square).collect();
        let mut pv = vec![best[0]];
        let mut cur = pos.play(best[0]).expect("legal");
        loop {
            let (p, _) = cur.after_forced_pass();
            if p.is_game_over() {
                break;
            }
            let c = self.score_children(&p, limits, &mut |_| {})?;
            pv.push(c[0].square);
            cur = p.play(c[0].square).expect("legal");
        }
        let score = if pos == *position { score } else { -score };
        Ok(Solution { score, best, pv, nodes: self.nodes - start_nodes })
    }
}
