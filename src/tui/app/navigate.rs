//! Moving in the tree: playing a move, going back and forth, arriving at a node (which asks for
//! its analysis).

use super::super::tree::Edge;
use super::{Effect, Job, Model, game_over_text};
use crate::{board::position::Position, board::square::Square};
use std::time::Duration;

impl Model {
    /// After the current node changed: fix the cursor and ask for the analysis it needs.
    pub(super) fn arrived(&mut self) -> Vec<Effect> {
        self.fix_cursor();
        if self.paused {
            return self.job.take().map(|_| vec![Effect::Cancel]).unwrap_or_default();
        }
        if let Some((next, played)) = self.review_target() {
            if self.job.as_ref().is_some_and(|j| j.position == next) {
                return Vec::new();
            }
            self.reviewed.insert((next, played));
            let id = self.start_job(next);
            return vec![Effect::Review { job: id, position: next, played, budget: super::REVIEW_BUDGET }];
        }
        let Some(target) = self.target() else {
            return self.job.take().map(|_| vec![Effect::Cancel]).unwrap_or_default();
        };
        let done = self.cache.get(&target).is_some_and(|a| a.complete && a.pv.is_some());
        if done {
            return self.job.take().map(|_| vec![Effect::Cancel]).unwrap_or_default();
        }
        if self.job.as_ref().is_some_and(|j| j.position == target) {
            return Vec::new();
        }
        let id = self.start_job(target);
        vec![Effect::Analyse { job: id, position: target, selectivity: self.selectivity }]
    }

    /// Estimates from now on at `selectivity` (`%`, `:selectivity`): the estimates of every
    /// position are forgotten (proofs stay proofs), and the position on screen is analysed again
    /// at the new level. The review's values stay: its searches have settings of their own.
    pub(super) fn set_selectivity(&mut self, selectivity: crate::solver::Selectivity) -> Vec<Effect> {
        if selectivity == self.selectivity {
            self.say(format!("selectivity {selectivity} already"));
            return Vec::new();
        }
        self.selectivity = selectivity;
        self.selective_since = self.next_job;
        for values in self.cache.values_mut() {
            values.forget_estimates();
        }
        self.say(if selectivity.is_full() {
            "selectivity 100%: estimates search full width, proofs unchanged".to_string()
        } else {
            format!("selectivity {selectivity}: estimates cut at {selectivity} confidence (ProbCut), proofs unchanged")
        });
        // The running job searches at the old level: a new one replaces it.
        let running = self.job.take().is_some();
        let mut effects = self.arrived();
        if running && !effects.iter().any(|e| matches!(e, Effect::Analyse { .. } | Effect::Review { .. })) {
            effects.push(Effect::Cancel);
        }
        effects
    }

    /// A new job on `position`: its number.
    fn start_job(&mut self, position: Position) -> u64 {
        let id = self.next_job;
        self.next_job += 1;
        self.job = Some(Job {
            id,
            position,
            started: self.clock,
            nodes: 0,
            elapsed: Duration::ZERO,
            phase: None,
            depth: None,
            selectivity: self.selectivity,
        });
        id
    }

    /// The next position the review analyses, with the move the line plays there. None while
    /// the editor is open: the review waits for it.
    fn review_target(&self) -> Option<(Position, Option<Square>)> {
        if !self.review || self.editor().is_some() {
            return None;
        }
        self.review_plan().into_iter().next()
    }

    /// The positions of the line shown that the review has still to examine, each with the move
    /// the line plays there: the one on screen first, then from the line's start, each once,
    /// skipping those where the side to move passes. A position the explorer has proven is
    /// examined all the same: the marks are judged on the review's values alone.
    pub(super) fn review_plan(&self) -> Vec<(Position, Option<Square>)> {
        let line = self.tree.line();
        let current = self.tree.current();
        let mut steps: Vec<(bool, Position, Option<Square>)> = Vec::with_capacity(line.len());
        for (i, &id) in line.iter().enumerate() {
            let p = self.tree.position_of(id);
            if p.is_game_over() || p.legal_moves().is_empty() {
                continue;
            }
            let played = match line.get(i + 1).and_then(|&next| self.tree.edge(next)) {
                Some(Edge::Move(square)) => Some(square),
                _ => None,
            };
            steps.push((id == current, p, played));
        }
        if let Some(k) = steps.iter().position(|s| s.0) {
            let on_screen = steps.remove(k);
            steps.insert(0, on_screen);
        }
        let mut seen = std::collections::HashSet::new();
        steps
            .into_iter()
            .filter(|(_, p, played)| seen.insert((*p, *played)))
            .filter(|(_, p, played)| !self.reviewed.contains(&(*p, *played)))
            .map(|(_, p, m)| (p, m))
            .collect()
    }

    pub(super) fn play(&mut self, edge: Edge) -> Vec<Effect> {
        match self.tree.play(edge) {
            Ok(_) => {
                self.status = None;
                self.game_moved();
                if self.position().must_pass() {
                    let side = self.position().to_move();
                    self.say(format!("{side} has no move and must pass: Enter passes"));
                } else if let Some(score) = self.final_score() {
                    let p = self.position();
                    let text = if self.game().is_some() { self.game_end_text(&p) } else { game_over_text(&p, score) };
                    self.say(text);
                }
                self.arrived()
            }
            Err(e) => {
                self.complain(e.to_string());
                Vec::new()
            }
        }
    }

    /// Back one move (a key or the mouse wheel).
    pub(super) fn step_back(&mut self) -> Vec<Effect> {
        let moved = self.tree.back();
        self.navigate(moved, "at the start of the game")
    }

    /// Forward one move along the line (a key or the mouse wheel).
    pub(super) fn step_forward(&mut self) -> Vec<Effect> {
        let moved = self.tree.forward();
        self.navigate(moved, "at the end of the line")
    }

    pub(super) fn navigate(&mut self, moved: bool, refusal: &str) -> Vec<Effect> {
        if moved {
            self.status = None;
            self.game_browsed();
            self.arrived()
        } else {
            self.say(refusal.to_string());
            Vec::new()
        }
    }

    pub(super) fn move_cursor(&mut self, dc: isize, dr: isize) {
        let n = self.position().size().n() as isize;
        let c = (self.cursor.col() as isize + dc).clamp(0, n - 1) as usize;
        let r = (self.cursor.row() as isize + dr).clamp(0, n - 1) as usize;
        if let Some(sq) = Square::new(c, r) {
            self.cursor = sq;
        }
    }

    pub(super) fn cycle_move(&mut self, forward: bool) {
        let size = self.position().size();
        let moves = self.position().legal_moves().reading_order();
        if moves.is_empty() {
            return;
        }
        let at = self.cursor.index(size);
        let next = if forward {
            moves.iter().find(|s| s.index(size) > at).unwrap_or(&moves[0])
        } else {
            moves.iter().rev().find(|s| s.index(size) < at).unwrap_or(&moves[moves.len() - 1])
        };
        self.cursor = *next;
    }

    pub(super) fn play_here(&mut self) -> Vec<Effect> {
        let p = self.position();
        if p.must_pass() {
            return self.play(Edge::Pass);
        }
        if let Some(score) = self.final_score() {
            let text = if self.game().is_some() { self.game_end_text(&p) } else { game_over_text(&p, score) };
            self.say(text);
            return Vec::new();
        }
        self.play(Edge::Move(self.cursor))
    }
}
