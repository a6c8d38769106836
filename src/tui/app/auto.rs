//! The clock: auto-play steps through the line shown, and in a game the engine moves.

use super::super::tree::Edge;
use super::{Effect, Known, LineKind, Model, Score, game_over_text, unproven_text};
use crate::{
    board::position::{Color, Position},
    board::square::Square,
};
use std::collections::VecDeque;
use std::time::Instant;

/// Auto-play, while it runs (`p`): part of exploring ([`super::Activity::Explore`]), so it stops
/// when a game, a drill or the editor starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AutoPlay {
    /// When it started or last stepped.
    pub last: Instant,
    /// The line it is playing: the one the line panel printed when auto-play took it, so that `p`
    /// plays exactly what was shown; the panel shows it while it lasts.
    pub line: Option<AutoLine>,
    /// Whether it plays the engine's line (`P`, or `p` at the end of the tree's line); else it
    /// steps along the moves ahead in the tree (a loaded game), and stops where they end.
    pub engine: bool,
}

/// The line auto-play is stepping through, taken from the line panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AutoLine {
    /// The position the next move is played from.
    pub at: Position,
    /// The moves still to play (forced passes are played as they come).
    pub moves: VecDeque<Square>,
    /// The line's value from black's side (it does not change along the line).
    pub black_score: i32,
    /// What the line is.
    pub kind: LineKind,
}

impl Model {
    /// Time passed: the engine's move in a game, else auto-play's next step.
    pub(super) fn tick(&mut self, now: Instant) -> Vec<Effect> {
        self.clock = now;
        // A letter typed alone does what its key does once the row is no longer expected.
        if let Some((letter, at)) = self.typed
            && now.saturating_duration_since(at) >= super::TYPED_WAIT
        {
            self.typed = None;
            return self.letter_key(letter);
        }
        if self.game().is_some() {
            return self.engine_tick(now);
        }
        let Some(last) = self.auto().map(|a| a.last) else { return Vec::new() };
        if self.position().is_game_over() {
            self.stop_auto();
            let score = self.final_score().unwrap_or(0);
            let text = format!("auto-play done: {}", game_over_text(&self.position(), score));
            self.say(text);
            return Vec::new();
        }
        if now.saturating_duration_since(last) < self.config.auto_delay {
            return Vec::new();
        }
        if self.auto().is_some_and(|a| !a.engine) {
            return self.replay_step(now);
        }
        match self.auto_step() {
            Some((edge, known)) => {
                let line = self.auto_mut().and_then(|a| {
                    a.last = now;
                    a.line.take()
                });
                let effects = self.play(edge);
                // The rest of the line goes on from the new position.
                let at = self.position();
                if let Some(a) = self.auto_mut() {
                    a.line = line.map(|l| AutoLine { at, ..l });
                }
                if let Some(score) = self.final_score() {
                    self.stop_auto();
                    let text = format!("auto-play done: {}", game_over_text(&self.position(), score));
                    self.say(text);
                } else if self.status.is_none() {
                    let text = match (edge, known) {
                        (Edge::Move(square), Known::Unproven(score)) => {
                            format!("auto-play: {square}, {}", unproven_text(score))
                        }
                        (Edge::Move(square), Known::Proven) => format!("auto-play: {square}, proven best"),
                        (Edge::Pass, _) => "auto-play: pass (forced)".to_string(),
                    };
                    self.say(text);
                }
                effects
            }
            None => {
                self.say("auto-play waits for the solver's first values");
                Vec::new()
            }
        }
    }

    /// Starts auto-play while exploring (the first step after one delay, so it can be seen
    /// coming; the line played is the one shown now). Whether it started.
    pub(super) fn start_auto(&mut self, engine: bool) -> bool {
        let super::Activity::Explore { auto } = &mut self.activity else { return false };
        *auto = Some(AutoPlay { last: self.clock, line: None, engine });
        self.take_auto_line();
        true
    }

    /// Stops auto-play, if it runs.
    pub(super) fn stop_auto(&mut self) {
        if let super::Activity::Explore { auto } = &mut self.activity {
            *auto = None;
        }
    }

    /// Takes the line shown as auto-play's line, if there is one and auto-play has none here.
    pub(super) fn take_auto_line(&mut self) {
        let p = self.position();
        if self.auto().and_then(|a| a.line.as_ref()).is_some_and(|a| a.at == p && !a.moves.is_empty()) {
            return;
        }
        let line = self.shown_line().filter(|l| !l.moves.is_empty()).map(|l| AutoLine {
            at: p,
            moves: l.moves.into_iter().collect(),
            black_score: if p.to_move() == Color::Black { l.score } else { -l.score },
            kind: l.kind,
        });
        if let Some(a) = self.auto_mut() {
            a.line = line;
        }
    }

    /// Auto-play along the tree's line: the next move ahead, as `r` would go; at its end auto-play
    /// stops and says so.
    fn replay_step(&mut self, now: Instant) -> Vec<Effect> {
        let Some(next) = self.tree.preferred_child(self.tree.current()).filter(|_| !self.position().is_game_over())
        else {
            self.stop_auto();
            self.say("auto-play done: the end of the line (P plays the engine's line from here)");
            return Vec::new();
        };
        let edge = self.tree.edge(next);
        if let Some(a) = self.auto_mut() {
            a.last = now;
        }
        let effects = self.step_forward();
        if self.status.is_none() {
            let text = match edge {
                Some(Edge::Move(square)) => format!("auto-play: {square}, the line's move"),
                _ => "auto-play: pass (forced)".to_string(),
            };
            self.say(text);
        }
        effects
    }

    /// Auto-play's next move: a forced pass; the next move of its line; else the best known.
    fn auto_step(&mut self) -> Option<(Edge, Known)> {
        let p = self.position();
        if p.must_pass() {
            return Some((Edge::Pass, Known::Proven));
        }
        self.take_auto_line();
        let auto = self.auto_mut()?;
        if let Some(line) = auto.line.as_mut().filter(|a| a.at == p) {
            match line.moves.pop_front() {
                Some(square) if p.legal_moves().contains(square) => {
                    let known = match line.kind {
                        LineKind::Perfect => Known::Proven,
                        kind @ LineKind::Estimate { .. } => {
                            let value = if p.to_move() == Color::Black { line.black_score } else { -line.black_score };
                            Known::Unproven(Score { value, kind: kind.score_kind() })
                        }
                    };
                    return Some((Edge::Move(square), known));
                }
                _ => auto.line = None,
            }
        }
        auto.line = None;
        self.best_known()
    }
}
