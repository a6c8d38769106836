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
//! **A mark means the move loses.** A mark is *proven* when both values are exact scores or
//! proven outcomes. When either is an estimate, the loss may be noise: the move is marked by the
//! loss less the estimate's measured [`margins`] (its error at that depth and stage, 95th
//! percentile), so an estimated loss of 5 with a margin of 6 gives no mark, and the mark is
//! shown apart (`~?`, [`Judged::proven`] false). A move whose estimated loss is 2 or more is *in
//! doubt* ([`Judged::in_doubt`]) and [`examine`] looks deeper before judging it: a proof when the
//! position is shallow enough, else an estimate of a fixed depth ([`verdict_depth`]) from a
//! cleared table, so reviewing the same game twice gives the same marks.
//!
//! The search itself is the caller's ([`review`] takes a closure that analyses one position), so
//! the command line can add its store and its limits, and tests a plain negamax; [`examine`] is
//! the analysis every front end passes it.

pub mod margins;

#[cfg(feature = "store")]
use crate::analyst::{Analyst, Ask, Event};
use crate::solver::{ChildValue, Kind, rank};
#[cfg(feature = "store")]
use crate::solver::{Limits, SearchMode};
use crate::{Color, Position, Size, Square};
use std::time::Duration;

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
    /// Whether the judgement rests on proofs (both values exact or proven outcomes); false when
    /// an estimate is involved, and then any mark is the loss less [`Judged::margin`].
    pub proven: bool,
    /// The estimate's measured margin used, in discs (`None` when proven, or when nothing was
    /// measured for the board: then an estimate never gives a mark).
    pub margin: Option<i32>,
    /// Whether a deeper look could change the mark: the values are not proven and the move looks
    /// worse than the best (an estimated loss of 2 or more, or an estimate below a proven
    /// outcome).
    pub in_doubt: bool,
}

impl Judged {
    /// The mark as the front ends write it: `?!`, `?`, `??` when proven, `~?!`, `~?`, `~??` from
    /// estimates.
    pub fn mark_text(&self) -> Option<String> {
        self.mark.map(|m| mark_text(m, self.proven))
    }
}

/// A mark as the front ends write it: `~` before a mark from estimates.
pub fn mark_text(mark: Mark, proven: bool) -> String {
    if proven { mark.symbol().to_string() } else { format!("~{}", mark.symbol()) }
}

/// The legend of the marks, one line, as `review` and the explorer's help write it.
pub const LEGEND: &str = "marks: ?! lost 2-5 discs, ? 6-11, ?? 12 or more (or a proven outcome thrown away); ~ before a mark: from estimates, the loss less their measured error";

/// Judges `played` among `children` (every legal move's value at `position`, from the mover's
/// side), `ply` being the move's number. `None` when the played move has no value.
pub fn judge(ply: usize, position: &Position, played: Square, children: &[ChildValue]) -> Option<Judged> {
    judge_with(ply, position, played, children, &|size, empties, depth| margins::margin(size, empties, depth))
}

/// [`judge`] with the margins from `margin(size, empties, depth)`.
pub fn judge_with(
    ply: usize,
    position: &Position,
    played: Square,
    children: &[ChildValue],
    margin: &dyn Fn(Size, u32, u32) -> Option<i32>,
) -> Option<Judged> {
    let side = position.to_move();
    let mine = children.iter().find(|c| c.square == played)?;
    let top = children.iter().max_by_key(|c| rank(c.score, c.kind, None))?;
    // The weaker of the two.
    let kind = if mine.kind.strength() <= top.kind.strength() { mine.kind } else { top.kind };
    let outcome_only = mine.kind == Kind::Wld || top.kind == Kind::Wld;
    let proven = !matches!(kind, Kind::Estimate { .. });
    let mut used = None;
    let mut in_doubt = false;
    let (best_value, value, loss, mark) = if outcome_only && proven {
        let (b, v) = (top.score.signum(), mine.score.signum());
        let changed = v < b;
        (b, v, i32::from(changed), changed.then_some(Mark::Blunder))
    } else if outcome_only {
        // An outcome against an estimate: a loss in discs cannot be told.
        let (b, v) = (top.score.signum(), mine.score.signum());
        in_doubt = v < b;
        (b, v, 0, None)
    } else {
        let loss = (top.score - mine.score).max(0);
        in_doubt = !proven && loss >= 2;
        let mark = match kind {
            Kind::Estimate { depth, .. } => {
                used = margin(position.size(), position.empty_count(), depth);
                used.and_then(|m| Mark::of_loss(loss - m))
            }
            _ => Mark::of_loss(loss),
        };
        (top.score, mine.score, loss, mark)
    };
    let mut best: Vec<Square> = children
        .iter()
        .filter(|c| if outcome_only { c.score.signum() == best_value } else { c.score == best_value })
        .map(|c| c.square)
        .collect();
    best.sort_by_key(|s| (s.row(), s.col()));
    Some(Judged { ply, side, played, best, best_value, value, loss, kind, mark, proven, margin: used, in_doubt })
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
    /// How many of the marks come from estimates.
    pub estimated: usize,
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
            s.estimated += usize::from(!j.proven);
        }
    }
    out
}

/// Reviews the game from `start` with `moves` (passes implicit): `analyse(position, played)`
/// gives every legal move's value at a position (the mover's side; [`examine`] is the analysis
/// the front ends pass), and `progress(done, total)` is called after each move. Stops at the
/// first move that is not legal, or whose value `analyse` did not give.
pub fn review(
    start: &Position,
    moves: &[Square],
    analyse: &mut dyn FnMut(&Position, Square) -> Vec<ChildValue>,
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<Judged> {
    let mut out = Vec::with_capacity(moves.len());
    let mut p = *start;
    for (i, &m) in moves.iter().enumerate() {
        p = p.after_forced_pass().0;
        if !p.legal_moves().contains(m) {
            break;
        }
        let children = analyse(&p, m);
        match judge(i + 1, &p, m, &children) {
            Some(j) => out.push(j),
            None => break,
        }
        p = p.play(m).expect("a legal move");
        progress(i + 1, moves.len());
    }
    out
}

/// The depth of the estimate that settles a mark in doubt, for a review of `budget` a position:
/// 14 plies at 1 s, one more for each doubling, one fewer for each halving, 8 to 20. Fixed by
/// the budget alone, so the marks do not depend on the machine's speed or load.
pub fn verdict_depth(budget: Duration) -> u32 {
    let doublings = budget.as_secs_f64().max(1e-3).log2().round() as i64;
    (14 + doublings).clamp(8, 20) as u32
}

/// The nodes the proof of a mark in doubt may take for a review of `budget` a position: 200 M a
/// second of budget, at least 20 M. A count, not a time, so that whether the proof ends does
/// not depend on the machine's speed or load (on one thread exactly; on several nearly, as the
/// threads' counts interleave); and generous, so that what the budgeted analysis proved, the
/// deeper look proves too.
pub fn proof_nodes(budget: Duration) -> u64 {
    ((budget.as_secs_f64() * 200e6) as u64).max(20_000_000)
}

/// The most empties at which a mark in doubt is settled by proving every move's exact score
/// (within [`proof_nodes`]) before falling back to [`verdict_depth`].
pub fn proof_reach(size: Size) -> u32 {
    match size {
        Size::Four => 16,
        Size::Six => 24,
        Size::Eight => 22,
    }
}

/// The review's analysis of one position, where `played` was played (with the `store` feature,
/// which brings the analyst): the store-aware analysis
/// for `budget` (`limits` adds the stop flag and progress; its time is replaced), then, when the
/// move's mark is in doubt ([`Judged::in_doubt`]), a deeper look that does not depend on the
/// clock: every move's exact score when the position has at most [`proof_reach`] empties and the
/// proof ends within [`proof_nodes`]; else estimates to [`verdict_depth`]; both from a cleared
/// table.
/// Everything found is reported through `on_event`, the deeper look after
/// [`Examined::deepened`]'s start.
#[cfg(feature = "store")]
pub fn examine(
    analyst: &mut Analyst,
    position: &Position,
    played: Square,
    budget: Duration,
    limits: &Limits,
    on_event: &mut dyn FnMut(Event),
) -> Examined {
    let stopped = |l: &Limits| l.stop.as_ref().is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
    let first = Limits { max_time: Some(budget), ..limits.clone() };
    let verdict = analyst.analyse(position, &Ask::new(SearchMode::Auto, first), on_event);
    let mut out = Examined { children: verdict.children, nodes: verdict.nodes, deepened: false };
    let legal = position.legal_moves().count() as usize;
    let doubt = out.children.len() == legal
        && judge(0, position, played, &out.children).is_some_and(|j| j.in_doubt)
        && !stopped(limits);
    if !doubt {
        return out;
    }
    out.deepened = true;
    if position.empty_count() <= proof_reach(position.size()) {
        // From a cleared table: what the budgeted analysis left there depends on the clock, and
        // so would whether the proof ends within its nodes.
        analyst.solver().clear();
        let proof = Limits { max_time: None, max_nodes: Some(proof_nodes(budget)), ..limits.clone() };
        let v = analyst.analyse(position, &Ask::new(SearchMode::Exact, proof), on_event);
        out.nodes += v.nodes;
        if v.children.len() == legal && v.children.iter().all(|c| c.kind == Kind::Exact) {
            out.children = v.children;
            return out;
        }
        if stopped(limits) {
            return out;
        }
    }
    // Cleared again after an unfinished proof: what it left in the table depends on how the
    // threads shared its nodes, and the estimates must not.
    analyst.solver().clear();
    let mut ask = Ask::new(SearchMode::Estimate, Limits { max_time: None, ..limits.clone() });
    ask.max_depth = Some(verdict_depth(budget));
    let v = analyst.analyse(position, &ask, on_event);
    out.nodes += v.nodes;
    if v.stopped.is_none() && v.children.len() == legal {
        // The fixed-depth values alone (a child the budgeted analysis happened to prove is not
        // mixed in: whether it did depends on the clock).
        out.children = v.children;
    }
    out
}

/// What `examine` found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Examined {
    /// Every legal move's value (fewer if stopped), from the mover's side.
    pub children: Vec<ChildValue>,
    /// Nodes searched.
    pub nodes: u64,
    /// Whether the mark was in doubt and the position looked at deeper.
    pub deepened: bool,
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
        let p = Position::start(Size::Eight);
        let j = |m: &str| judge(1, &p, m.parse().unwrap(), &kids).unwrap();
        assert_eq!((j("a1").loss, j("a1").mark), (0, None));
        assert_eq!(j("a1").best.iter().map(|s| s.to_string()).collect::<Vec<_>>(), ["a1", "e1"]);
        assert_eq!((j("b1").loss, j("b1").mark), (2, Some(Mark::Inaccuracy)));
        assert_eq!((j("c1").loss, j("c1").mark), (6, Some(Mark::Mistake)));
        assert_eq!((j("d1").loss, j("d1").mark), (14, Some(Mark::Blunder)));
    }

    #[test]
    fn an_outcome_thrown_away_is_a_blunder() {
        let kids = [cv("a1", 1, Kind::Wld), cv("b1", 0, Kind::Wld), cv("c1", 1, Kind::Wld)];
        let p = Position::start(Size::Eight);
        let j = judge(3, &p, "b1".parse().unwrap(), &kids).unwrap();
        assert_eq!((j.best_value, j.value, j.mark, j.kind), (1, 0, Some(Mark::Blunder), Kind::Wld));
        let j = judge(3, &p, "c1".parse().unwrap(), &kids).unwrap();
        assert_eq!(j.mark, None);
    }

    #[test]
    fn an_estimated_loss_is_marked_by_what_exceeds_its_margin() {
        let d = Kind::estimate(10);
        let kids = [cv("a1", 4, d), cv("b1", -1, d), cv("c1", -4, d), cv("d1", -20, Kind::Exact)];
        let p = Position::start(Size::Eight);
        let margin = |_: Size, _: u32, _: u32| Some(6);
        let j = |m: &str| judge_with(1, &p, m.parse().unwrap(), &kids, &margin).unwrap();
        // A loss of 5 within the margin of 6: in doubt, no mark.
        assert_eq!((j("b1").loss, j("b1").mark, j("b1").proven, j("b1").in_doubt), (5, None, false, true));
        // 8 less 6 is 2: an inaccuracy at least; 24 less 6: a blunder, from estimates.
        assert_eq!(j("c1").mark, Some(Mark::Inaccuracy));
        assert_eq!((j("d1").mark, j("d1").mark_text().as_deref()), (Some(Mark::Blunder), Some("~??")));
        assert_eq!(j("d1").margin, Some(6));
        // Nothing measured: never a mark from an estimate.
        let none = |_: Size, _: u32, _: u32| None;
        assert_eq!(judge_with(1, &p, "d1".parse().unwrap(), &kids, &none).unwrap().mark, None);
        assert_eq!(verdict_depth(Duration::from_secs(1)), 14);
        assert_eq!(verdict_depth(Duration::from_millis(500)), 13);
        assert_eq!(verdict_depth(Duration::from_secs(1000)), 20);
    }
}
