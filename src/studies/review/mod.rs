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
//! shown apart (`~?`, [`Judged::proven`] false).
//!
//! **The same marks everywhere.** The values a move is judged on come from one place,
//! [`Reviewer::examine`]: a solver of the review's own ([`verdict_options`]: one thread, a fixed
//! table, full width, the pattern evaluation), every search from a cleared table and bounded by
//! a depth ([`gate_depth`], [`verdict_depth`]) or a node count ([`proof_nodes`]) the budget
//! fixes, never by the clock, and no store read. `review`, the explorer's `:review` and the JSON all judge those
//! values with [`judge`], so the same game and budget give the same marks whatever the machine,
//! its load, the threads, the store or what was analysed before.
//!
//! The search itself is the caller's ([`review`] takes a closure that analyses one position), so
//! tests can pass a plain negamax; [`Reviewer::examine`] is the analysis every front end passes
//! it. Moves are numbered by ply, passes counted ([`plies`]), as the explorer's history numbers
//! them.

pub mod margins;
pub mod reasons;

use crate::solver::{
    ChildValue, Evaluator, Kind, Limits, Report, SearchMode, Selectivity, Solver, SolverOptions, StopReason, rank,
};
use crate::{
    board::position::{Color, Position, Scoring},
    board::size::Size,
    board::square::Square,
};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
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
        if loss >= Mark::Blunder.from() {
            Some(Mark::Blunder)
        } else if loss >= Mark::Mistake.from() {
            Some(Mark::Mistake)
        } else if loss >= Mark::Inaccuracy.from() {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// The smallest loss, in discs, that earns the mark: the thresholds, written once.
    pub const fn from(self) -> i32 {
        match self {
            Mark::Inaccuracy => 2,
            Mark::Mistake => 6,
            Mark::Blunder => 12,
        }
    }
}

/// One move judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judged {
    /// The ply of the move, from 1, passes counted ([`plies`]).
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
    /// Whether a deeper search could change the mark: the values are not proven and the move
    /// looks worse than the best (an estimated loss of 2 or more, or an estimate below a proven
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

/// The legend of the marks, one line, as `review` writes it, made from the thresholds
/// ([`Mark::from`]): `marks: ?! lost 2-5 discs, ? 6-11, ?? 12 or more (…)`.
pub fn legend() -> String {
    let (i, m, b) = (Mark::Inaccuracy, Mark::Mistake, Mark::Blunder);
    format!(
        "marks: {} lost {}-{} discs, {} {}-{}, {} {} or more (or a proven outcome thrown away); ~ before a mark: from estimates, the loss less their measured error",
        i.symbol(),
        i.from(),
        m.from() - 1,
        m.symbol(),
        m.from(),
        b.from() - 1,
        b.symbol(),
        b.from()
    )
}

/// Judges `played` among `children` (every legal move's value at `position`, from the mover's
/// side), `ply` being the move's number. `None` when the played move has no value.
pub fn judge(ply: usize, position: &Position, played: Square, children: &[ChildValue]) -> Option<Judged> {
    judge_for(Evaluator::Patterns, ply, position, played, children)
}

/// [`judge`] of values whose estimates read `evaluator`: with its margins
/// ([`margins::margin_for`]).
pub fn judge_for(
    evaluator: Evaluator,
    ply: usize,
    position: &Position,
    played: Square,
    children: &[ChildValue],
) -> Option<Judged> {
    judge_with(ply, position, played, children, &|size, empties, depth| {
        margins::margin_for(evaluator, size, empties, depth)
    })
}

/// [`judge`] with the margins from `margin(size, empties, depth)`.
pub(crate) fn judge_with(
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

/// One ply of a game: its number (from 1, a pass counting as a ply, as in the explorer's history
/// and in perft), who played it, and the move (`None`: a pass).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The ply's number, from 1; passes count.
    pub number: usize,
    /// Who played it (or passed).
    pub side: Color,
    /// The move, or `None` for a pass.
    pub square: Option<Square>,
}

/// The plies of the game from `start` with `moves` (passes implicit in `moves`, explicit here),
/// up to the first move that is not legal.
pub fn plies(start: &Position, moves: &[Square]) -> Vec<Ply> {
    let mut out = Vec::with_capacity(moves.len() + 4);
    let mut p = *start;
    for &m in moves {
        if p.must_pass() {
            out.push(Ply { number: out.len() + 1, side: p.to_move(), square: None });
            p = p.pass();
        }
        let Ok(next) = p.play(m) else { break };
        out.push(Ply { number: out.len() + 1, side: p.to_move(), square: Some(m) });
        p = next;
    }
    out
}

/// Reviews the game from `start` with `moves` (passes implicit): `analyse(position, played)`
/// gives every legal move's value at a position (the mover's side; [`Reviewer::examine`] is the
/// analysis the front ends pass), and `progress(done, total)` is called after each move. Each
/// move is numbered by its ply, passes counted ([`plies`]). Stops at the first move that is not
/// legal, or whose value `analyse` did not give.
pub fn review(
    start: &Position,
    moves: &[Square],
    evaluator: Evaluator,
    analyse: &mut dyn FnMut(&Position, Square) -> Vec<ChildValue>,
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<Judged> {
    let mut out = Vec::with_capacity(moves.len());
    let mut p = *start;
    let mut ply = 0;
    for (i, &m) in moves.iter().enumerate() {
        if p.must_pass() {
            p = p.pass();
            ply += 1;
        }
        if !p.legal_moves().contains(m) {
            break;
        }
        ply += 1;
        let children = analyse(&p, m);
        match judge_for(evaluator, ply, &p, m, &children) {
            Some(j) => out.push(j),
            None => break,
        }
        p = p.play(m).expect("a legal move");
        progress(i + 1, moves.len());
    }
    out
}

/// The depth of the estimates a review of `budget` a position judges a move in doubt on (where
/// no proof is within reach): 14 plies at 1 s, one more for each doubling, one fewer for each halving, 8 to 20. Fixed by
/// the budget alone, so the marks do not depend on the machine's speed or load.
pub fn verdict_depth(budget: Duration) -> u32 {
    let doublings = budget.as_secs_f64().max(1e-3).log2().round() as i64;
    (14 + doublings).clamp(8, 20) as u32
}

/// The depth every position beyond the proofs is first estimated to, for a review of `budget` a
/// position: [`verdict_depth`] less 4 (10 at 1 s), at least 4. Only a move this puts in doubt is
/// estimated to [`verdict_depth`] (a tenth of the cost on most positions).
pub fn gate_depth(budget: Duration) -> u32 {
    verdict_depth(budget).saturating_sub(4).max(4)
}

/// The nodes a review of `budget` a position gives the proof of a position within
/// [`proof_reach`]: 200 M a second of budget, at least 20 M. A count, not a time, so that
/// whether the proof ends does not depend on the machine's speed or load (the review's solver
/// has one thread, whose count is the same on every run).
pub fn proof_nodes(budget: Duration) -> u64 {
    ((budget.as_secs_f64() * 200e6) as u64).max(20_000_000)
}

/// The most empties at which a review proves every move's exact score (within [`proof_nodes`])
/// before falling back to estimates of [`verdict_depth`].
pub fn proof_reach(size: Size) -> u32 {
    match size {
        Size::Four => 16,
        Size::Six => 24,
        Size::Eight => 22,
    }
}

/// The table of a review's solver, in MiB: fixed, because what a search finds within a node count
/// depends on what its table can hold (the margins were measured with this size, one thread,
/// the shipped pattern weights, full width).
pub const VERDICT_HASH_MB: usize = 64;

/// The solver settings of every review, whatever the front end and its own settings: one thread
/// (two threads interleave their node counts and their table entries differently on each run),
/// a table of [`VERDICT_HASH_MB`], full-width estimates with `evaluator` (the pattern tables or
/// the network, each with the [`margins`] measured with it), the board's scoring rule.
pub fn verdict_options(scoring: Scoring, evaluator: Evaluator) -> SolverOptions {
    SolverOptions {
        hash_mb: VERDICT_HASH_MB,
        scoring,
        threads: 1,
        pv_extension: true,
        selectivity: Selectivity::FULL,
        selective_solve: true,
        evaluator,
    }
}

/// The one judge of positions every front end reviews with (`review`, the explorer's
/// `:review`): a solver of its own built with [`verdict_options`], whose every search starts
/// from a cleared table and stops at a depth or a node count fixed by the budget, never at a
/// time. So the values it gives a position, and the marks judged on them, depend on the
/// position, the budget and the scoring rule alone: not on the clock, the machine's load, the
/// number of threads the caller runs, what the caller's own solver or cache found before, or
/// what a store holds (it never reads one).
pub struct Reviewer {
    solver: Solver,
    /// The estimates' evaluation, whose margins judge the moves.
    evaluator: Evaluator,
}

impl Reviewer {
    /// The evaluation its estimates read (whose margins judge the moves: [`judge_for`]).
    pub fn evaluator(&self) -> Evaluator {
        self.evaluator
    }

    /// A reviewer for games scored by `scoring` whose estimates read `evaluator`; an error when
    /// its table cannot be had.
    pub fn new(scoring: Scoring, evaluator: Evaluator) -> Result<Reviewer, crate::solver::table::TableError> {
        Ok(Reviewer { solver: Solver::try_new(verdict_options(scoring, evaluator))?, evaluator })
    }

    /// Every legal move's value at `position`, where `played` was played, for a review of
    /// `budget` a position, each search from a cleared table:
    ///
    /// 1. when the position has at most [`proof_reach`] empties, every move's exact score if the
    ///    proof ends within [`proof_nodes`];
    /// 2. else (or when it does not end) every move estimated to [`gate_depth`]; when that puts
    ///    `played` in doubt ([`Judged::in_doubt`]: an estimated loss of 2 or more), estimated
    ///    again to [`verdict_depth`], and only those values stand.
    ///
    /// `stop` ends it early (the result is then not [`Examined::complete`] and must not be
    /// judged). Reports go to `on_report`.
    pub fn examine(
        &mut self,
        position: &Position,
        played: Option<Square>,
        budget: Duration,
        stop: Option<&Arc<AtomicBool>>,
        on_report: &mut dyn FnMut(Report),
    ) -> Examined {
        let legal = position.legal_moves().count() as usize;
        let mut out = Examined { children: Vec::new(), nodes: 0, proof: false, deepened: false, complete: true };
        if legal == 0 {
            return out;
        }
        let limits = Limits { stop: stop.cloned(), ..Limits::default() };
        if position.empty_count() <= proof_reach(position.size()) {
            self.solver.clear();
            let proof = Limits { max_nodes: Some(proof_nodes(budget)), ..limits.clone() };
            let a = self.solver.analyse_known(position, SearchMode::Exact, None, &proof, &[], on_report);
            out.nodes += a.nodes;
            if a.stopped.is_none() && a.children.len() == legal && a.children.iter().all(|c| c.kind == Kind::Exact) {
                out.children = a.children;
                out.proof = true;
                return out;
            }
            if a.stopped == Some(StopReason::Cancelled) {
                out.complete = false;
                return out;
            }
        }
        let mut depth = gate_depth(budget);
        loop {
            self.solver.clear();
            let a = self.solver.analyse_known(position, SearchMode::Estimate, Some(depth), &limits, &[], on_report);
            out.nodes += a.nodes;
            out.complete = a.stopped.is_none() && a.children.len() == legal;
            out.children = a.children;
            let doubt = || {
                played
                    .and_then(|m| judge_for(self.evaluator, 0, position, m, &out.children))
                    .is_some_and(|j| j.in_doubt)
            };
            if !out.complete || depth >= verdict_depth(budget) || !doubt() {
                return out;
            }
            out.deepened = true;
            depth = verdict_depth(budget);
        }
    }
}

impl Reviewer {
    /// Why the marked move `judged` (played at `position`) loses: its refutation (the opponent's
    /// best reply after it, by [`Reviewer::examine`] of the position after it, and the line the
    /// table then expects) beside the best move's line (examined the same way), and the
    /// [`reasons::reasons`] those lines show. `None` when `stop` ends it first.
    pub fn why(
        &mut self,
        position: &Position,
        judged: &Judged,
        budget: Duration,
        stop: Option<&Arc<AtomicBool>>,
    ) -> Option<reasons::Why> {
        let best = *judged.best.first()?;
        let refutation = self.line_after(position, judged.played, budget, stop)?;
        let mut best_line = vec![best];
        best_line.extend(self.line_after(position, best, budget, stop)?);
        let reasons = reasons::reasons(position, judged.played, &refutation, &best_line);
        Some(reasons::Why { refutation, best_line, reasons })
    }

    /// The line after `mv` at `position`: the best reply by [`Reviewer::examine`] (or the mover's
    /// best move again after a forced pass), then a principal variation when the values were a
    /// proof, else the line the table expects; [`WHY_LINE`] moves at most.
    fn line_after(
        &mut self,
        position: &Position,
        mv: Square,
        budget: Duration,
        stop: Option<&Arc<AtomicBool>>,
    ) -> Option<Vec<Square>> {
        let (after, _) = position.play(mv).ok()?.after_forced_pass();
        if after.is_game_over() {
            return Some(Vec::new());
        }
        let examined = self.examine(&after, None, budget, stop, &mut |_| {});
        if !examined.complete {
            return None;
        }
        let reply = examined.children.first()?.square;
        let mut line = vec![reply];
        let next = after.play(reply).ok()?;
        // A proof's line is a principal variation (solved again within the proof's nodes); an
        // estimate's, the line its table expects.
        let rest = if examined.proof {
            let limits = Limits { stop: stop.cloned(), max_nodes: Some(proof_nodes(budget)), ..Limits::default() };
            let mut pv = self.solver.principal_variation(&next, &limits).ok()?;
            pv.truncate(WHY_LINE - 1);
            pv
        } else {
            self.solver.expected_line(&next, WHY_LINE - 1)
        };
        line.extend(rest);
        Some(line)
    }
}

/// The most moves of a refutation or a best line that review shows.
pub const WHY_LINE: usize = 8;

/// What [`Reviewer::examine`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Examined {
    /// Every legal move's value (fewer if stopped), from the mover's side, best first.
    pub children: Vec<ChildValue>,
    /// Nodes searched.
    pub nodes: u64,
    /// Whether the values are the proof's (every move's exact score).
    pub proof: bool,
    /// Whether the played move was in doubt at [`gate_depth`] and the values are of
    /// [`verdict_depth`].
    pub deepened: bool,
    /// Whether the examination ran to its end (false when stopped): only a complete one judges.
    pub complete: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The legend says what `of_loss` does, at every loss around the thresholds.
    #[test]
    fn the_legend_is_made_from_the_thresholds() {
        assert_eq!(
            legend(),
            "marks: ?! lost 2-5 discs, ? 6-11, ?? 12 or more (or a proven outcome thrown away); ~ before a mark: from estimates, the loss less their measured error"
        );
        let marks: Vec<Option<Mark>> = (0..14).map(Mark::of_loss).collect();
        let (i, m, b) = (Some(Mark::Inaccuracy), Some(Mark::Mistake), Some(Mark::Blunder));
        assert_eq!(marks, [None, None, i, i, i, i, m, m, m, m, m, m, b, b]);
    }

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
