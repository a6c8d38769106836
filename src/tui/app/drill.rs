//! The drill (`:drill`): the values hide; the user chooses a move; the values of every move
//! show with the loss of the one chosen, and a running tally counts the moves, the best ones
//! and the discs lost. Choosing again plays the move and hides the values for the next one.

use super::super::tree::Edge;
use super::{Activity, Effect, Model, ScoreKind};
use crate::{board::position::Position, board::square::Square};

/// How the drill has gone so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Moves chosen.
    pub moves: u32,
    /// Moves that were the best (no loss).
    pub best: u32,
    /// Discs lost in all.
    pub lost: u32,
    /// Moves judged on estimates rather than exact scores.
    pub estimated: u32,
}

/// The judgement of one chosen move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The move chosen.
    pub square: Square,
    /// Its value, from the side that chose it.
    pub value: i32,
    /// The best value there.
    pub best: i32,
    /// The moves with the best value.
    pub best_moves: Vec<Square>,
    /// Whether both values are exact (else estimates or outcomes).
    pub exact: bool,
}

impl Verdict {
    /// The discs the choice lost (0 for a best move).
    pub fn loss(&self) -> u32 {
        (self.best - self.value).max(0) as u32
    }

    /// One line: "d3 -4, best f5 +0: lost 4 (estimates)".
    pub fn text(&self) -> String {
        let best: Vec<String> = self.best_moves.iter().map(|s| s.to_string()).collect();
        let how = if self.exact { "" } else { " (estimates)" };
        match self.loss() {
            0 => format!("{} {:+}: a best move{how}", self.square, self.value),
            n => format!("{} {:+}, best {} {:+}: lost {n}{how}", self.square, self.value, best.join(" "), self.best),
        }
    }
}

/// The drill's state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Drill {
    /// The move chosen at a position, its values now shown.
    pub chosen: Option<(Position, Square)>,
    /// The running tally.
    pub tally: Tally,
    /// The last judgement.
    pub last: Option<Verdict>,
}

impl Drill {
    /// The move chosen at `p`, if one was.
    pub(crate) fn chosen_at(&self, p: &Position) -> Option<Square> {
        self.chosen.filter(|(q, _)| q == p).map(|(_, s)| s)
    }

    /// The tally in words: "5 moves · 3 best · 7 discs lost (1.4 a move)".
    pub(crate) fn tally_text(&self) -> String {
        let t = self.tally;
        if t.moves == 0 {
            return "no move chosen yet".to_string();
        }
        let mean = f64::from(t.lost) / f64::from(t.moves);
        let est = if t.estimated > 0 { format!(" · {} judged on estimates", t.estimated) } else { String::new() };
        format!(
            "{} · {} best · {} lost ({mean:.1} a move){est}",
            crate::notation::printable::count(i64::from(t.moves), "move", "moves"),
            t.best,
            crate::notation::printable::count(i64::from(t.lost), "disc", "discs")
        )
    }
}

impl Model {
    /// `:drill`: on (the values hide; in place of whatever was on: exploring and its auto-play, a
    /// game) or off (with the tally).
    pub(super) fn set_drill(&mut self, on: bool) -> Vec<Effect> {
        match (on, self.drill().map(|d| d.tally_text())) {
            (true, Some(_)) => {
                self.say("the drill is already on: :drill off ends it");
                Vec::new()
            }
            (true, None) => {
                let effects = self.set_activity(Activity::Drill(Drill::default()));
                self.say(
                    "drill on: the values hide · choose a move (Enter or a click) to see every value and your loss",
                );
                effects
            }
            (false, Some(tally)) => {
                let effects = self.set_activity(Activity::EXPLORE);
                self.say(format!("drill off: {tally}"));
                effects
            }
            (false, None) => {
                self.say("no drill is on: :drill starts one");
                Vec::new()
            }
        }
    }

    /// Drill: choose `square` here (the values show with the loss), or, once shown, play the
    /// move under the cursor and go on.
    pub(super) fn choose(&mut self, square: Square) -> Vec<Effect> {
        let p = self.position();
        if p.is_game_over() {
            self.say("the game is over: u goes back, :drill off ends the drill");
            return Vec::new();
        }
        if p.must_pass() {
            return self.play(Edge::Pass);
        }
        let Some(drill) = self.drill() else { return Vec::new() };
        if drill.chosen_at(&p).is_some() {
            // The values show: play the move and go on.
            if let Some(d) = self.drill_mut() {
                d.chosen = None;
            }
            let effects = self.play(Edge::Move(square));
            if self.status.is_none() {
                self.say("your move: choose (Enter or a click)");
            }
            return effects;
        }
        if !p.legal_moves().contains(square) {
            self.complain(format!("{square} is not a legal move here"));
            return Vec::new();
        }
        let Some(verdict) = self.verdict(square) else {
            self.complain(format!("the solver has no value for {square} yet: choose again in a moment"));
            return Vec::new();
        };
        let tally = self.drill_mut().map(|d| {
            d.chosen = Some((p, square));
            d.tally.moves += 1;
            d.tally.best += u32::from(verdict.loss() == 0);
            d.tally.lost += verdict.loss();
            d.tally.estimated += u32::from(!verdict.exact);
            d.last = Some(verdict.clone());
            d.tally_text()
        });
        self.say(format!("{} · {} · Enter plays it", verdict.text(), tally.unwrap_or_default()));
        Vec::new()
    }

    /// The judgement of `square` by the values known now.
    fn verdict(&self, square: Square) -> Option<Verdict> {
        let a = self.analysis()?;
        let chosen = a.value(square)?;
        let best = a.best_child()?;
        let mut best_moves: Vec<Square> =
            a.children.iter().filter(|c| c.score == best.score).map(|c| c.square).collect();
        best_moves.sort_by_key(|s| s.index(self.position().size()));
        Some(Verdict {
            square,
            value: chosen.score,
            best: best.score.max(chosen.score),
            best_moves,
            exact: chosen.kind == ScoreKind::Exact && best.kind == ScoreKind::Exact,
        })
    }
}
