//! The clock: auto-play steps through the line shown, and in a game the engine moves.

use super::super::tree::Edge;
use super::{AutoLine, Effect, Known, LineKind, Model, Score, ScoreKind, game_over_text, unproven_text};
use crate::Color;
use std::time::Instant;

impl Model {
    /// Time passed: the engine's move in a game, else auto-play's next step.
    pub(super) fn tick(&mut self, now: Instant) -> Vec<Effect> {
        self.clock = now;
        if self.game.is_some() {
            return self.engine_tick(now);
        }
        let Some(last) = self.auto else { return Vec::new() };
        if self.position().is_game_over() {
            self.auto = None;
            let score = self.final_score().unwrap_or(0);
            let text = format!("auto-play done: {}", game_over_text(&self.position(), score));
            self.say(text);
            return Vec::new();
        }
        if now.saturating_duration_since(last) < self.config.auto_delay {
            return Vec::new();
        }
        match self.auto_step() {
            Some((edge, known)) => {
                self.auto = Some(now);
                let line = self.auto_line.take();
                let effects = self.play(edge);
                // The rest of the line goes on from the new position.
                self.auto_line = line.map(|l| AutoLine { at: self.position(), ..l });
                if let Some(score) = self.final_score() {
                    self.auto = None;
                    self.auto_line = None;
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

    /// Takes the line shown as auto-play's line, if there is one and auto-play has none here.
    pub(super) fn take_auto_line(&mut self) {
        let p = self.position();
        if self.auto_line.as_ref().is_some_and(|a| a.at == p && !a.moves.is_empty()) {
            return;
        }
        self.auto_line = self.shown_line().filter(|l| !l.moves.is_empty()).map(|l| AutoLine {
            at: p,
            moves: l.moves.into_iter().collect(),
            black_score: if p.to_move() == Color::Black { l.score } else { -l.score },
            kind: l.kind,
        });
    }

    /// Auto-play's next move: a forced pass; the next move of its line; else the best known.
    fn auto_step(&mut self) -> Option<(Edge, Known)> {
        let p = self.position();
        if p.must_pass() {
            return Some((Edge::Pass, Known::Proven));
        }
        self.take_auto_line();
        if let Some(line) = self.auto_line.as_mut().filter(|a| a.at == p) {
            match line.moves.pop_front() {
                Some(square) if p.legal_moves().contains(square) => {
                    let known = match line.kind {
                        LineKind::Perfect => Known::Proven,
                        LineKind::Estimate { depth } => {
                            let value = if p.to_move() == Color::Black { line.black_score } else { -line.black_score };
                            Known::Unproven(Score { value, kind: ScoreKind::Estimate { depth } })
                        }
                    };
                    return Some((Edge::Move(square), known));
                }
                _ => self.auto_line = None,
            }
        }
        self.auto_line = None;
        self.best_known()
    }
}
