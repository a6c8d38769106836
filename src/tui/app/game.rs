//! A game against the engine (`--play black|white`, `:play black|white|both|off`).
//!
//! The engine thinks with the explorer's own analysis of the position on screen: the solver
//! thread runs it (cancellable, the interface answers keys meanwhile), and the engine moves on a
//! tick once the analysis is good enough for its strength ([`Strength`]):
//!
//! - a proven best move is played at once (4x4 always; 6x6 wherever the book or the store knows
//!   the position; every endgame the solver proves);
//! - `--level N`: once every move is estimated to depth `N`, or, within [`exact_empties`] of
//!   the end, once the moves are proven; never longer than the level's time ([`level_time`](crate::analyst::play::level_time),
//!   three times that near the end), after which the best move known is played;
//! - `--move-time S`: after `S` seconds, the best move known then.
//!
//! The values stay hidden until `x` shows them; `u` takes back to the user's previous move.
//!
//! The history keys (`t` then ← →, Home, End, `[` `]`, a click in the history) look back at the
//! game: while the position on screen is not the end of the game's line the engine waits
//! ([`Game::browsing`]), and a move played there goes on from there (a new branch); → or End
//! back to the end goes on with the game. `b` plays the best move known for you and says which,
//! `u` says what it took back.

use super::super::tree::Edge;
use super::{Activity, Effect, Known, Model, game_over_text, unproven_text};
use crate::{
    board::position::{Color, Position},
    board::size::Size,
};
use std::time::{Duration, Instant};

pub use crate::analyst::play::{Strength, exact_empties, think_budget};

/// A game on: who plays what, and where the engine is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The colour the user plays; `None`: the engine plays both sides.
    pub human: Option<Color>,
    /// Whether the values show (`x`); hidden at the start.
    pub(crate) show_values: bool,
    /// The position the engine thinks on, and since when.
    pub thinking: Option<(Position, Instant)>,
    /// When the engine last moved (engine against engine keeps the auto-play delay between moves).
    pub last_move: Option<Instant>,
    /// Whether the end of the game was announced.
    pub ended: bool,
    /// The user is looking back at the game with the history keys: the position on screen is not
    /// the end of the line, and the engine waits (no move, no forced pass) until a move is played
    /// or the end of the line is reached again.
    pub browsing: bool,
    /// What the user's last key did for them (`b` played a move), said again with the engine's
    /// reply, which would otherwise take its place in the status line at once.
    pub note: Option<String>,
}

impl Game {
    /// Whether the engine plays `color`.
    pub(crate) fn engine_plays(&self, color: Color) -> bool {
        self.human != Some(color)
    }
}

/// "black", "white", "both".
fn seat_name(human: Option<Color>) -> String {
    human.map_or_else(|| "both".to_string(), |c| c.to_string())
}

impl Model {
    /// `:play black|white|both`, `--play`: a game from the position on screen (in place of
    /// whatever was on: exploring and its auto-play, a drill, another game).
    pub(crate) fn start_game(&mut self, human: Option<Color>) -> Vec<Effect> {
        let game = Game {
            human,
            show_values: false,
            thinking: None,
            last_move: None,
            ended: false,
            browsing: false,
            note: None,
        };
        let mut effects = self.set_activity(Activity::Game(game));
        let resumed = if self.paused { " · analysis resumed" } else { "" };
        self.paused = false;
        let strength = self.config.strength;
        // Added to what the start announced (a resumed session), else the new status.
        self.notice(match human {
            Some(c) => format!(
                "you play {c} against the engine ({strength}): values hidden, x shows them · u takes back · :play off ends{resumed}"
            ),
            None => format!("the engine plays both sides ({strength}) · :play off ends{resumed}"),
        }, false);
        effects.extend(self.arrived());
        effects
    }

    /// `:play off`: back to exploring, the values shown.
    pub(super) fn end_game(&mut self) -> Vec<Effect> {
        let Some(human) = self.game().map(|g| g.human) else {
            self.say("no game is on: :play black, white or both starts one");
            return Vec::new();
        };
        let effects = self.set_activity(Activity::EXPLORE);
        self.say(format!("game off ({} played): exploring again, the values show", seat_name(human)));
        effects
    }

    /// `x`: show or hide the values during a game.
    pub(super) fn toggle_values(&mut self) -> Vec<Effect> {
        if let Some(g) = self.game_mut() {
            g.show_values = !g.show_values;
            let shown = g.show_values;
            self.say(if shown { "values shown (x hides them)" } else { "values hidden (x shows them)" });
        }
        Vec::new()
    }

    /// `u` in a game: back to the user's previous move (the engine's reply taken back too), and
    /// says which moves it took back.
    pub(super) fn undo(&mut self) -> Vec<Effect> {
        let Some(human) = self.game().map(|g| g.human) else { return Vec::new() };
        let mut taken = Vec::new();
        while let Some(edge) = self.tree.edge(self.tree.current()) {
            if !self.tree.back() {
                break;
            }
            taken.push(edge);
            let p = self.tree.position();
            let theirs = human.is_none_or(|c| p.to_move() == c) && !p.must_pass();
            if theirs {
                break;
            }
        }
        let clock = self.clock;
        if let Some(g) = self.game_mut() {
            g.thinking = None;
            g.ended = false;
            g.browsing = false;
            // Engine against engine: the next move waits a full delay, so the take-back is seen.
            g.last_move = Some(clock);
        }
        let effects = self.navigate(!taken.is_empty(), "at the start of the game: nothing to take back");
        // A take-back is not a look back: the game goes on from here.
        self.game_moved();
        if !taken.is_empty() {
            let moves: Vec<String> = taken.iter().rev().map(|e| e.to_string()).collect();
            let whose = match human {
                Some(c) => format!("your move ({c})"),
                None => format!("{} to move", self.position().to_move()),
            };
            self.say(format!("took back {}: {whose}", moves.join(" ")));
        }
        effects
    }

    /// After the history keys moved in a game: the engine waits while the position on screen is
    /// not the end of the line ([`Game::browsing`]), and goes on when it is again.
    pub(super) fn game_browsed(&mut self) {
        let at_end = self.tree.preferred_child(self.tree.current()).is_none();
        let Some(g) = self.game_mut() else { return };
        let was = g.browsing;
        g.browsing = !at_end;
        g.thinking = None;
        if !at_end && !was {
            self.say("looking back at the game: the engine waits · → or End to the end goes on, a move here plays on from here");
        } else if at_end && was {
            self.say("back at the end of the game: it goes on");
        }
    }

    /// A move played in a game (by either side): the game goes on from it.
    pub(super) fn game_moved(&mut self) {
        if let Some(g) = self.game_mut() {
            g.browsing = false;
            g.note = None;
        }
    }

    /// A tick in a game: the engine moves when the analysis is good enough, a forced pass is
    /// played, the end is announced once.
    pub(super) fn engine_tick(&mut self, now: Instant) -> Vec<Effect> {
        let p = self.position();
        let delay = self.config.auto_delay;
        let paused = self.paused;
        let Some(game) = self.game_mut() else { return Vec::new() };
        if p.is_game_over() {
            game.thinking = None;
            if !game.ended {
                game.ended = true;
                let text = self.game_end_text(&p);
                self.say(text);
            }
            return Vec::new();
        }
        game.ended = false;
        if game.browsing {
            game.thinking = None;
            return Vec::new();
        }
        if p.must_pass() {
            let side = p.to_move();
            let effects = self.play(Edge::Pass);
            if self.status.is_none() {
                self.say(format!("{side} has no move: passed"));
            }
            return effects;
        }
        if !game.engine_plays(p.to_move()) {
            game.thinking = None;
            return Vec::new();
        }
        if paused {
            return Vec::new();
        }
        let since = match game.thinking {
            Some((q, since)) if q == p => since,
            _ => {
                game.thinking = Some((p, now));
                now
            }
        };
        if game.human.is_none() && game.last_move.is_some_and(|t| now.saturating_duration_since(t) < delay) {
            return Vec::new();
        }
        if !self.engine_ready(&p, now.saturating_duration_since(since)) {
            return Vec::new();
        }
        let Some((edge, known)) = self.best_known() else { return Vec::new() };
        let side = p.to_move();
        // What the user's key did, said again before the reply (the move clears it).
        let note = self.game_mut().and_then(|g| g.note.take());
        let effects = self.play(edge);
        if let Some(g) = self.game_mut() {
            g.thinking = None;
            g.last_move = Some(now);
        }
        if self.status.is_none() {
            let how = match known {
                Known::Proven => "proven best".to_string(),
                Known::Unproven(score) if self.game().is_some_and(|g| g.show_values) => unproven_text(score),
                Known::Unproven(_) => "not proven best".to_string(),
            };
            let yours = self.game().and_then(|g| g.human).map_or(String::new(), |c| format!(" · your move ({c})"));
            let before = note.map_or(String::new(), |n| format!("{n} · "));
            self.say(format!("{before}{side} (engine) played {edge}: {how}{yours}"));
        }
        effects
    }

    /// Whether the engine's analysis of `p` is good enough to move, `thought` into it.
    fn engine_ready(&self, p: &Position, thought: Duration) -> bool {
        if self.best_edge().is_some() {
            return true;
        }
        let Some(a) = self.analysis() else { return false };
        if a.children.is_empty() {
            return false;
        }
        // The search ended without a proof (a depth limit): the best known is all there is.
        let searching = self.job.as_ref().is_some_and(|j| Some(j.position) == self.target());
        if !searching {
            return true;
        }
        let budget = think_budget(self.config.strength, p);
        match self.config.strength {
            Strength::MoveTime(_) => thought >= budget,
            Strength::Level(n) => {
                let exact_zone = p.size() == Size::Four || p.empty_count() <= exact_empties(n);
                let depth = self.job.as_ref().and_then(|j| j.depth).unwrap_or(0);
                // Near the end the engine waits for the proof; never beyond the level's time.
                (!exact_zone && depth >= n) || thought >= budget
            }
        }
    }

    /// The end of a game: who won, by how much, and what now.
    pub(super) fn game_end_text(&self, p: &Position) -> String {
        let black = p.black_score(self.config.scoring);
        let base = game_over_text(p, black);
        let human = self.game().and_then(|g| g.human);
        let verdict = match human {
            Some(c) => {
                let mine = if c == Color::Black { black } else { -black };
                match mine.signum() {
                    1 => format!("you won by {mine}"),
                    -1 => format!("the engine won by {}", -mine),
                    _ => "a draw".to_string(),
                }
            }
            None => "engine against engine".to_string(),
        };
        format!("{base} · {verdict} · :review marks every move, u takes back, :play off explores the game")
    }
}
