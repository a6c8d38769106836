//! Reviewing a game: every move judged against the best the solver knows there.
//!
//! For each move, from the mover's side: the best value and the best moves, the value of the move
//! played, the loss (best minus played, never negative), what the values are (exact, a proven
//! win/loss/draw, or an estimate of some depth), and a mark:
//!
//! | mark | meaning | loss in discs |
//! |---|---|---|
//! | `?!` | inaccuracy | 2 to 5 |
//! | `?` | mistake | 6 to 11 |
//! | `??` | blunder | 12 or more |
//!
//! When only outcomes are known (win/loss/draw), a move that changes the outcome (a win thrown to
//! a draw or a loss, a draw to a loss) is a blunder, and any other loses 0.
//!
//! The search itself is the caller's ([`review`] takes a closure that analyses one position), so
//! the command line can add its store and its limits, and tests a plain negamax.

use crate::solver::{ChildValue, Kind, rank};
use crate::{Color, Position, Square};

/// A mark on a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mark {
    /// `?!`: lost 2 to 5 discs.
    Inaccuracy,
    /// `?`: lost 6 to 11 discs.
    Mistake,
    /// `??`: lost 12 or more, or changed the proven outcome.
    Blunder,
}

impl Mark {
    /// Every mark, mildest first.
    pub const ALL: [Mark; 3] = [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder];

    /// `?!`, `?`, `??`.
    pub const fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// `inaccuracy`, `mistake`, `blunder`.
    pub const fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// The mark of a loss in discs.
    pub const fn of_loss(loss: i32) -> Option<Mark> {
        match loss {
            i32::MIN..=1 => None,
            2..=5 => Some(Mark::Inaccuracy),
            6..=11 => Some(Mark::Mistake),
            _ => Some(Mark::Blunder),
        }
    }
}

/// One move judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judged {
    /// The ply of the move, from 1.
    pub ply: usize,
    /// Who played it.
    pub side: Color,
    /// The move.
    pub played: Square,
    /// The moves of the best value.
    pub best: Vec<Square>,
    /// The best value, from the mover's side (for [`Kind::Wld`]: +1, 0 or -1).
    pub best_value: i32,
    /// The value of the move played, from the mover's side.
    pub value: i32,
    /// Best minus played, never negative (for outcomes: 0, or 1 when the outcome changed).
    pub loss: i32,
    /// What the values are: the weaker of the two.
    pub kind: Kind,
    /// The mark, if the move deserves one.
    pub mark: Option<Mark>,
}

/// Judges `played` among `children` (every legal move's value at the position, from the mover's
/// side). `None` when the played move has no value.
pub fn judge(ply: usize, side: Color, played: Square, children: &[ChildValue]) -> Option<Judged> {
    let mine = children.iter().find(|c| c.square == played)?;
    let top = children.iter().max_by_key(|c| rank(c.score, c.kind, None))?;
    // The weaker of the two.
    let kind = if mine.kind.strength() <= top.kind.strength() { mine.kind } else { top.kind };
    let outcome_only = mine.kind == Kind::Wld || top.kind == Kind::Wld;
    let (best_value, value, loss, mark) = if outcome_only {
        let (b, v) = (top.score.signum(), mine.score.signum());
        let changed = v < b;
        (b, v, i32::from(changed), changed.then_some(Mark::Blunder))
    } else {
        let loss = (top.score - mine.score).max(0);
        (top.score, mine.score, loss, Mark::of_loss(loss))
    };
    let mut best: Vec<Square> = children
        .iter()
        .filter(|c| if outcome_only { c.score.signum() == best_value } else { c.score == best_value })
        .map(|c| c.square)
        .collect();
    best.sort_by_key(|s| (s.row(), s.col()));
    Some(Judged { ply, side, played, best, best_value, value, loss, kind, mark })
}

/// What one side did over a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideSummary {
    /// Moves judged.
    pub moves: usize,
    /// Discs lost in all (outcome-only judgements count nothing).
    pub loss: i32,
    /// The count of each mark, in [`Mark::ALL`] order.
    pub marks: [usize; 3],
}

impl SideSummary {
    /// The mean loss a move (0 with no move).
    pub fn mean_loss(&self) -> f64 {
        if self.moves == 0 { 0.0 } else { f64::from(self.loss) / self.moves as f64 }
    }
}

/// The summary per side: black's, then white's.
pub fn summary(judged: &[Judged]) -> (SideSummary, SideSummary) {
    let mut out = (SideSummary::default(), SideSummary::default());
    for j in judged {
        let s = if j.side == Color::Black { &mut out.0 } else { &mut out.1 };
        s.moves += 1;
        if j.kind != Kind::Wld {
            s.loss += j.loss;
        }
        if let Some(m) = j.mark {
            s.marks[m as usize] += 1;
        }
    }
    out
}

/// Reviews the game from `start` with `moves` (passes implicit): `analyse` gives every legal
/// move's value at a position (the mover's side), and `progress(done, total)` is called after
/// each move. Stops at the first move that is not legal, or whose value `analyse` did not give.
pub fn review(
    start: &Position,
    moves: &[Square],
    analyse: &mut dyn FnMut(&Position) -> Vec<ChildValue>,
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<Judged> {
    let mut out = Vec::with_capacity(moves.len());
    let mut p = *start;
    for (i, &m) in moves.iter().enumerate() {
        p = p.after_forced_pass().0;
        if !p.legal_moves().contains(m) {
            break;
        }
        let children = analyse(&p);
        match judge(i + 1, p.to_move(), m, &children) {
            Some(j) => out.push(j),
            None => break,
        }
        p = p.play(m).expect("a legal move");
        progress(i + 1, moves.len());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cv(s: &str, score: i32, kind: Kind) -> ChildValue {
        ChildValue { square: s.parse().unwrap(), score, kind }
    }

    #[test]
    fn losses_and_marks() {
        let e = Kind::Exact;
        let kids = [cv("a1", 4, e), cv("b1", 2, e), cv("c1", -2, e), cv("d1", -10, e), cv("e1", 4, e)];
        let j = |m: &str| judge(1, Color::Black, m.parse().unwrap(), &kids).unwrap();
        assert_eq!((j("a1").loss, j("a1").mark), (0, None));
        assert_eq!(j("a1").best.iter().map(|s| s.to_string()).collect::<Vec<_>>(), ["a1", "e1"]);
        assert_eq!((j("b1").loss, j("b1").mark), (2, Some(Mark::Inaccuracy)));
        assert_eq!((j("c1").loss, j("c1").mark), (6, Some(Mark::Mistake)));
        assert_eq!((j("d1").loss, j("d1").mark), (14, Some(Mark::Blunder)));
    }

    #[test]
    fn an_outcome_thrown_away_is_a_blunder() {
        let kids = [cv("a1", 1, Kind::Wld), cv("b1", 0, Kind::Wld), cv("c1", 1, Kind::Wld)];
        let j = judge(3, Color::White, "b1".parse().unwrap(), &kids).unwrap();
        assert_eq!((j.best_value, j.value, j.mark, j.kind), (1, 0, Some(Mark::Blunder), Kind::Wld));
        let j = judge(3, Color::White, "c1".parse().unwrap(), &kids).unwrap();
        assert_eq!(j.mark, None);
    }
}
