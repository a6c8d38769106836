//! One entry point for the explorer and the command line: a value for every child move, each
//! labelled with what it is: an estimate of a given depth, a proven win, loss or draw, or the
//! exact score.
//!
//! [`Solver::analyse`] works in phases and reports as it goes (from the calling thread):
//!
//! - **Estimates** ([`Phase::Estimate`]): iterative deepening. At depth `d` every child is
//!   searched `d - 1` plies deep by the estimate search ([`super::midgame`]), with an aspiration
//!   window around its value at the depth before (its principal variation solved to the end
//!   from [`super::pv_solved`]`(d)` empties, unless the options turn it off); each child is
//!   reported when done, then [`Report::DepthDone`]. A child with at most
//!   [`super::EXACT_MARGIN`] more empties than the plies below it is solved instead (full width,
//!   whatever the estimates' selectivity: its value is a proof), with the
//!   same aspiration window around its last estimate: it gets its exact score, and is not
//!   searched again.
//!
//!   **Estimates to the end.** When the next depth would leave at most [`END_ESTIMATE_MARGIN`]
//!   (10) empties below its last ply on the deepest child (Edax's switch), the estimates are
//!   selective, the board has selective passes (from [`ITERATE_FROM`] empties: 20 on 6x6, 22 on
//!   8x8) and the first pass fits the limits left ([`end_pass_fits`]), the deepening stops and
//!   the children are searched to the end of the game by the exact search at 73%, then at each
//!   selectivity up to the options' (87%, 95% by default), each value an estimate labelled
//!   with the plies to the end and its selectivity (`+4 @24 73%`), then proven exact. A pass
//!   at 73% is within a disc or two of the exact score where an estimate 10 plies short of the
//!   end is off by several (docs/solver.md, "Estimates to the end"). Under a time or node limit
//!   too small for the first pass over every child, the pass is tried once on the best child
//!   alone, within [`TRY_END_SHARE`] of what is left (`Solver::try_end`): if it ends, the climb
//!   goes on from there; if not, the child keeps its estimate and the deepening goes on.
//! - **Win/loss/draw** ([`Phase::Wld`]): each child searched by the exact search with the window
//!   (-1, 1): fail-soft, so a value above the window proves a win, below it a loss, in it a draw.
//! - **Exact** ([`Phase::Exact`]): each child solved with the full window.
//!
//! [`SearchMode::Exact`] and [`SearchMode::Wld`] run their proof alone on a position the auto
//! policy would prove without a limit (up to [`exact_empties`]); beyond it the quick estimates
//! (to [`QUICK_DEPTH`], milliseconds) come first, so a proof stopped early still gives every
//! child a value, and the proofs take the children best estimate first.
//!
//! Scores are from the side to move at the analysed position, like every score of the solver. A
//! value is never labelled better than it is: [`Kind::Exact`] only for a search to the end of the
//! game, [`Kind::Wld`] only for a proof of the outcome. Children that are symmetric images of one
//! another are searched once, as [`Solver::score_children`] does (their true values are equal, so
//! one estimate serves the group even if an evaluation were not symmetric); the root's children
//! are shared between the threads, one child at a time.
//!
//! [`SearchMode::Play`], the engines' mode, is `Auto` with each depth past the quick estimates
//! a principal-variation search over the children ([`Job::Beats`]): the best child searched for
//! its value, the others tested against it by null windows, only those that beat it searched
//! for theirs; refuted children keep no value (docs/solver.md, "The move to play").
//!
//! [`SearchMode::Auto`], the explorer's mode: estimates to depth [`QUICK_DEPTH`] first, so that
//! every child has a value at once, then the proofs if they are affordable (see [`Plan`](super::prediction::Plan)), else
//! deeper estimates until a limit or a stop.
//! After the quick estimates and after each deeper depth, a child whose estimate reached the
//! evaluation's cap is tried once for a win or loss by everything (`Solver::hunt`), which the
//! cost model cannot foresee (FFO #59).

use super::control::Control;
use super::engine::Solver;
use super::limits::Limits;
use super::prediction::{end_pass_fits, exact_empties, plan};
use super::report::{Analysis, Phase, Report, SearchMode};
use super::root::{Job, Task, twin_groups};
use super::selectivity::Selectivity;
use super::settings::{END_ESTIMATE_MARGIN, ITERATE_FROM, QUICK_DEPTH, TRY_END_SHARE};
use super::values::{ChildValue, Kind, rank_key};
use crate::board::position::Position;
use crate::board::square::Square;
use std::cmp::Reverse;

/// The search under way: its control and the position analysed.
struct Run<'a> {
    control: &'a Control,
    position: &'a Position,
}

/// A child (one per group of symmetric twins) and what is known of it.
struct Child {
    squares: Vec<Square>,
    p: u64,
    o: u64,
    empties: u32,
    value: Option<(i32, Kind)>,
    /// Its estimates of consecutive depths, the deepest last.
    estimates: Vec<i32>,
    /// Whether its estimate reached the evaluation's cap and a won-by-everything proof was
    /// tried ([`Job::Extreme`]).
    hunted: bool,
}

impl Child {
    fn settled_for(&self, job: Job) -> bool {
        matches!(
            (self.value, job),
            (Some((_, Kind::Exact)), _)
                | (Some((_, Kind::Wld)), Job::Wld | Job::Estimate { .. } | Job::EndEstimate { .. })
        )
    }

    /// Whether its value is the pass to the end at `selectivity` ([`Job::EndEstimate`]).
    fn at_pass(&self, selectivity: Selectivity) -> bool {
        matches!(self.value, Some((_, Kind::Estimate { depth, selectivity: s })) if depth == self.empties + 1 && s == selectivity)
    }

    /// The ranking key of the module documentation ([`rank_key`]).
    fn rank(&self) -> (i32, Vec<i32>) {
        self.value.map_or((i32::MIN, Vec::new()), |(score, kind)| rank_key(score, kind, &self.estimates))
    }
}

impl Solver {
    /// A value for every legal move of `position` except those in `skip` (moves whose exact score
    /// the caller knows already): estimates, proven outcomes or exact scores as `mode` asks, each
    /// labelled with its [`Kind`] and reported to `on_report` as soon as it is known (from the
    /// calling thread).
    ///
    /// `max_depth` bounds the estimates (in plies from `position`); `limits` bound the whole
    /// analysis. A stopped analysis returns the best value known for each child, each with its
    /// true kind. A position whose side to move must pass, or a finished game, has no children.
    ///
    /// ```
    /// use othello_explorer::solver::{Kind, Limits, Report, SearchMode, Solver, SolverOptions};
    /// use othello_explorer::{Position, Size};
    ///
    /// let mut solver = Solver::new(SolverOptions { hash_mb: 1, ..SolverOptions::default() });
    /// let start = Position::start(Size::Eight);
    /// let mut depths = Vec::new();
    /// let analysis = solver.analyse(&start, SearchMode::Estimate, Some(4), &Limits::default(), &[], &mut |r| {
    ///     if let Report::DepthDone { depth } = r {
    ///         depths.push(depth);
    ///     }
    /// });
    /// assert_eq!(depths, [1, 2, 3, 4]);
    /// assert_eq!(analysis.children.len(), 4);
    /// assert!(analysis.children.iter().all(|c| c.kind == Kind::estimate(4)));
    /// ```
    pub fn analyse(
        &mut self,
        position: &Position,
        mode: SearchMode,
        max_depth: Option<u32>,
        limits: &Limits,
        skip: &[Square],
        on_report: &mut dyn FnMut(Report),
    ) -> Analysis {
        self.analyse_from(position, mode, max_depth, limits, (skip, &[]), on_report)
    }

    /// [`Solver::analyse`] with values already `known` (from the store): each is reported first,
    /// kept without a search for the jobs it settles (an exact score for all of them, a proven
    /// outcome for the outcomes and the estimates), and ranked with the others by the one rule
    /// ([`rank_key`]), so the result needs no merging.
    pub fn analyse_known(
        &mut self,
        position: &Position,
        mode: SearchMode,
        max_depth: Option<u32>,
        limits: &Limits,
        known: &[ChildValue],
        on_report: &mut dyn FnMut(Report),
    ) -> Analysis {
        self.analyse_from(position, mode, max_depth, limits, (&[], known), on_report)
    }

    fn analyse_from(
        &mut self,
        position: &Position,
        mode: SearchMode,
        max_depth: Option<u32>,
        limits: &Limits,
        (skip, known): (&[Square], &[ChildValue]),
        on_report: &mut dyn FnMut(Report),
    ) -> Analysis {
        let moves: Vec<Square> =
            position.legal_moves().reading_order().into_iter().filter(|sq| !skip.contains(sq)).collect();
        // One child of each group of symmetric twins is searched, even with fewer groups than
        // threads (as in `score_children`).
        let groups = twin_groups(position, &moves);
        let threads = self.threads();
        let mut children: Vec<Child> = groups
            .into_iter()
            .map(|squares| {
                let child = position.play(squares[0]).expect("a legal move");
                let (p, o) = child.raw();
                let value = child
                    .is_game_over()
                    .then(|| (-child.score(self.options.scoring), Kind::Exact))
                    .or_else(|| known.iter().find(|k| squares.contains(&k.square)).map(|k| (k.score, k.kind)));
                Child { squares, p, o, empties: child.empty_count(), value, estimates: Vec::new(), hunted: false }
            })
            .collect();
        for c in &children {
            if let Some((score, kind)) = c.value {
                for &square in &c.squares {
                    on_report(Report::Child(ChildValue { square, score, kind }));
                }
            }
        }
        let (depth_done, nodes, stopped) = self.searched(limits, true, |solver, control| {
            let mut depth_done = None;
            let most = children.iter().map(|c| c.empties).max().unwrap_or(0);
            let size = position.size();
            let run = Run { control, position };
            match mode {
                SearchMode::Exact | SearchMode::Wld => {
                    // A proof the auto policy would not run without a limit may be stopped long
                    // before it ends (Ctrl-C on `solve`): the quick estimates first, a few
                    // milliseconds, so that every child has a value at a stop.
                    if most + 1 > exact_empties(size) {
                        solver.deepen(&run, &mut children, Some(QUICK_DEPTH), &mut depth_done, false, on_report);
                    }
                    let job = if mode == SearchMode::Exact { Job::Exact } else { Job::Wld };
                    solver.prove(&run, &mut children, job, on_report);
                }
                SearchMode::Estimate => {
                    solver.deepen(&run, &mut children, max_depth, &mut depth_done, false, on_report);
                }
                SearchMode::Auto | SearchMode::Play => {
                    let quick = max_depth.map_or(QUICK_DEPTH, |d| d.min(QUICK_DEPTH));
                    solver.deepen(&run, &mut children, Some(quick), &mut depth_done, false, on_report);
                    solver.hunt(&run, &mut children, on_report);
                    let (time_left, nodes_left) = control.left();
                    let plan = plan(size, most + 1, time_left, nodes_left, threads);
                    if plan.wld && plan.exact {
                        solver.prove(&run, &mut children, Job::Wld, on_report);
                    }
                    if plan.exact {
                        solver.prove(&run, &mut children, Job::Exact, on_report);
                    } else if plan.wld {
                        solver.prove(&run, &mut children, Job::Wld, on_report);
                    }
                    if mode == SearchMode::Play {
                        solver.deepen_best(&run, &mut children, max_depth, &mut depth_done, on_report);
                    } else {
                        solver.deepen(&run, &mut children, max_depth, &mut depth_done, true, on_report);
                    }
                    // (The move to play is chosen once the deepening ends: the children it
                    // refuted need no proof.)
                    if plan.wld && !plan.exact && mode != SearchMode::Play {
                        solver.prove(&run, &mut children, Job::Exact, on_report);
                    }
                }
            }
            depth_done
        });
        let mut ranked: Vec<((i32, Vec<i32>), ChildValue)> = children
            .iter()
            .filter_map(|c| c.value.map(|(score, kind)| (c, score, kind)))
            .flat_map(|(c, score, kind)| {
                c.squares.iter().map(move |&square| (c.rank(), ChildValue { square, score, kind }))
            })
            .collect();
        ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.square.cmp(&b.1.square)));
        Analysis { children: ranked.into_iter().map(|(_, c)| c).collect(), depth: depth_done, nodes, stopped }
    }

    /// Iterative deepening from the depth after `depth_done` (the deepest completed so far, which
    /// it raises) to `to` (or until every child is exact or the search stops), over the children
    /// not settled yet; with `hunt`, each depth followed by [`Self::hunt`].
    fn deepen(
        &self,
        run: &Run,
        children: &mut [Child],
        to: Option<u32>,
        depth_done: &mut Option<u32>,
        hunt: bool,
        on_report: &mut dyn FnMut(Report),
    ) {
        let mut depth = depth_done.map_or(1, |d| d + 1);
        let mut announced = false;
        let mut tried = false;
        while to.is_none_or(|to| depth <= to) && !run.control.halted() {
            let job = Job::Estimate { depth };
            if children.iter().all(|c| c.settled_for(job)) {
                return;
            }
            if !announced {
                on_report(Report::Phase(Phase::Estimate));
                announced = true;
            }
            if self.ends_here(run, children, depth, to) {
                self.climb(run, children, on_report);
                return;
            }
            if !tried && self.may_try_end(run, children, depth, to) {
                tried = true;
                if self.try_end(run, children, on_report) {
                    self.climb(run, children, on_report);
                    return;
                }
            }
            self.run(run, children, job, on_report);
            if run.control.halted() {
                return;
            }
            *depth_done = Some(depth);
            self.depth_done(run, children, depth, on_report);
            if hunt {
                self.hunt(run, children, on_report);
            }
            depth += 1;
        }
    }

    /// Reports `depth` done: the line of the best child, then [`Report::DepthDone`].
    fn depth_done(&self, run: &Run, children: &[Child], depth: u32, on_report: &mut dyn FnMut(Report)) {
        if let Some(best) =
            children.iter().filter(|c| c.value.is_some()).max_by_key(|c| (c.rank(), Reverse(c.squares[0])))
        {
            let first = best.squares[0];
            let child = run.position.play(first).expect("a legal move");
            let mut moves = vec![first];
            moves.extend(self.expected_line(&child, depth as usize - 1));
            on_report(Report::Line { depth, moves });
        }
        on_report(Report::DepthDone { depth });
    }

    /// [`SearchMode::Play`]'s deepening, from the depth after `depth_done` to `to`: at each
    /// depth the best child so far searched for its value (with the aspiration window of
    /// [`Self::deepen`]), every other child tested against it ([`Job::Beats`], shared between
    /// the threads), and those that beat it searched for theirs. A depth counts only once
    /// complete: a stop within it leaves the depth before. Children refuted at a depth lose the
    /// value they had; the next depth takes the best child first, the others in their order
    /// before. Ends when a depth was searched to the end at full width (the choice is proven).
    /// With a child settled already (proven, or known from the store), or only one child, it is
    /// [`Self::deepen`].
    fn deepen_best(
        &self,
        run: &Run,
        children: &mut [Child],
        to: Option<u32>,
        depth_done: &mut Option<u32>,
        on_report: &mut dyn FnMut(Report),
    ) {
        let settled = |c: &Child| c.settled_for(Job::Estimate { depth: 1 });
        if children.len() < 2 || children.iter().any(settled) {
            return self.deepen(run, children, to, depth_done, true, on_report);
        }
        let size = run.position.size();
        let task =
            |c: &Child, index: usize, guess: Option<i32>| Task { index, p: c.p, o: c.o, empties: c.empties, guess };
        let mut order: Vec<usize> = (0..children.len()).collect();
        order.sort_by(|&a, &b| {
            children[b].rank().cmp(&children[a].rank()).then(children[a].squares[0].cmp(&children[b].squares[0]))
        });
        let mut depth = depth_done.map_or(1, |d| d + 1);
        let mut announced = false;
        while to.is_none_or(|to| depth <= to) && !run.control.halted() {
            if !announced {
                on_report(Report::Phase(Phase::Estimate));
                announced = true;
            }
            // The best child so far, for its value at this depth.
            let lead = order[0];
            let mut values: Vec<(usize, i32, Kind)> = Vec::new();
            let first = [task(&children[lead], lead, children[lead].estimates.last().copied())];
            self.schedule(run.control, size, &first, Job::Estimate { depth }, &mut |t, score, kind| {
                values.push((t.index, score, kind))
            });
            let Some(&(_, alpha, lead_kind)) = values.first() else { return };
            // The others against it; those that beat it, for their values.
            let rest: Vec<Task> = order[1..].iter().map(|&i| task(&children[i], i, None)).collect();
            let mut proven = lead_kind == Kind::Exact;
            let mut beat: Vec<(i32, Task)> = Vec::new();
            let mut tested = 0;
            self.schedule(run.control, size, &rest, Job::Beats { depth, alpha }, &mut |t, bound, kind| {
                tested += 1;
                proven &= kind == Kind::Exact;
                if bound > alpha {
                    beat.push((bound, Task { guess: Some(bound), ..*t }));
                }
            });
            if run.control.halted() || tested < rest.len() {
                return;
            }
            beat.sort_by_key(|b| Reverse(b.0));
            let again: Vec<Task> = beat.into_iter().map(|b| b.1).collect();
            let mut searched = 0;
            self.schedule(run.control, size, &again, Job::Estimate { depth }, &mut |t, score, kind| {
                searched += 1;
                values.push((t.index, score, kind));
            });
            if run.control.halted() || searched < again.len() {
                return;
            }
            // The depth is complete: each child's value at it, or none (and no history, which
            // would skip this depth: ties go to the children valued at every depth).
            for (index, c) in children.iter_mut().enumerate() {
                if !values.iter().any(|v| v.0 == index) {
                    c.value = None;
                    c.estimates.clear();
                }
            }
            for &(index, score, kind) in &values {
                let c = &mut children[index];
                if let Kind::Estimate { .. } = kind {
                    c.estimates.push(score);
                }
                c.value = Some((score, kind));
                for &square in &c.squares {
                    on_report(Report::Child(ChildValue { square, score, kind }));
                }
            }
            // The best first (the one before it on equal values), the others in their order.
            let most = values.iter().map(|v| v.1).max();
            let top = order.iter().position(|&i| values.iter().any(|v| v.0 == i && Some(v.1) == most)).unwrap_or(0);
            let best = order.remove(top);
            order.insert(0, best);
            *depth_done = Some(depth);
            self.depth_done(run, children, depth, on_report);
            if proven {
                return;
            }
            self.hunt(run, children, on_report);
            depth += 1;
            if children.iter().any(settled) {
                // A wipe-out proven: each child valued from here.
                return self.deepen(run, children, to, depth_done, true, on_report);
            }
        }
    }

    /// The empties of the deepest child still estimated when the estimates of `depth` would
    /// search so near the end of the game that the children are better searched to the end,
    /// selectively ([`Self::climb`]): the estimates are selective, the board has selective
    /// passes, no depth limit stops short of the end, and that child has at most
    /// [`END_ESTIMATE_MARGIN`] empties more than the plies below it. `None` otherwise.
    fn near_the_end(&self, run: &Run, children: &[Child], depth: u32, to: Option<u32>) -> Option<u32> {
        let size = run.position.size();
        let most = children.iter().filter(|c| !c.settled_for(Job::Exact)).map(|c| c.empties).max().unwrap_or(0);
        (!self.options.selectivity.is_full()
            && most >= ITERATE_FROM[size.n() / 2 - 2]
            && to.is_none_or(|to| to > most)
            && depth - 1 + END_ESTIMATE_MARGIN >= most)
            .then_some(most)
    }

    /// Whether the climb starts before the estimates of `depth`: [`Self::near_the_end`], and the
    /// first pass is predicted to fit the limits left ([`end_pass_fits`]).
    fn ends_here(&self, run: &Run, children: &[Child], depth: u32, to: Option<u32>) -> bool {
        let (time_left, nodes_left) = run.control.left();
        self.near_the_end(run, children, depth, to)
            .is_some_and(|most| end_pass_fits(run.position.size(), most + 1, time_left, nodes_left, self.threads()))
    }

    /// Whether a limited analysis whose first pass to the end is not predicted to fit
    /// ([`Self::ends_here`]) should try it on its best child alone ([`Self::try_end`]):
    /// [`Self::near_the_end`], under a time or node limit.
    fn may_try_end(&self, run: &Run, children: &[Child], depth: u32, to: Option<u32>) -> bool {
        let (time_left, nodes_left) = run.control.left();
        (time_left.is_some() || nodes_left.is_some()) && self.near_the_end(run, children, depth, to).is_some()
    }

    /// The first pass to the end (73%, [`Self::climb`]) on the best child still estimated alone,
    /// within [`TRY_END_SHARE`] of what is left of the limits ([`Control::trial`]): true when it
    /// ended (the climb goes on from there), false when the share ran out (the child keeps its
    /// estimate and the deepening goes on, the table holding what the try found).
    fn try_end(&self, run: &Run, children: &mut [Child], on_report: &mut dyn FnMut(Report)) -> bool {
        let first = Selectivity::ALL[0];
        // The best as `depth_done` picks it: the ranking, then the first square.
        let Some(best) = children
            .iter()
            .enumerate()
            .filter(|(_, c)| !c.settled_for(Job::Exact))
            .max_by_key(|(_, c)| (c.rank(), Reverse(c.squares[0])))
            .map(|(i, _)| i)
        else {
            return false;
        };
        let trial = run.control.trial(TRY_END_SHARE);
        let trial_run = Run { control: &trial, position: run.position };
        let target = (children[best].p, children[best].o);
        self.run_where(
            &trial_run,
            children,
            Job::EndEstimate { selectivity: first },
            &|c| (c.p, c.o) == target,
            on_report,
        );
        run.control.absorb(&trial);
        trial.reason().is_none() && children[best].at_pass(first)
    }

    /// Estimates to the end of the game, then the proof, as Edax climbs its endgame passes:
    /// every child still estimated searched by the exact search at each selectivity from the
    /// most selective (73%) up to the options' (a child of `e` empties reported as an estimate
    /// `e + 1` plies deep at that selectivity: `@23 73%` for the children of a position of 23
    /// empties), then proven exact. Each pass starts from the table the one before filled and
    /// with a window around the child's last value.
    fn climb(&self, run: &Run, children: &mut [Child], on_report: &mut dyn FnMut(Report)) {
        let top = self.options.selectivity;
        for selectivity in Selectivity::ALL.into_iter().filter(|s| *s <= top && !s.is_full()) {
            if run.control.halted() {
                return;
            }
            let due = |c: &Child| !c.settled_for(Job::Exact) && !c.at_pass(selectivity);
            self.run_where(run, children, Job::EndEstimate { selectivity }, &due, on_report);
        }
        self.prove(run, children, Job::Exact, on_report);
    }

    /// Tries to prove won (or lost) by everything each child whose newest estimate reached the
    /// evaluation's cap, which no estimate reaches without a proof ([`crate::eval`]): once per
    /// child, by full-width estimates that refute any other line at their depth
    /// ([`Job::Extreme`]). A wipe-out such as FFO #59 is then exact within a second where the
    /// cost model would leave it estimated; a child not proven keeps its estimate.
    fn hunt(&self, run: &Run, children: &mut [Child], on_report: &mut dyn FnMut(Report)) {
        let cap = run.position.size().squares() as i32 - 1;
        let capped = |c: &Child| matches!(c.value, Some((v, Kind::Estimate { .. })) if v.abs() >= cap);
        let due = |c: &Child| capped(c) && !c.hunted;
        if !run.control.halted() && children.iter().any(due) {
            self.run_where(run, children, Job::Extreme, &due, on_report);
        }
        children.iter_mut().filter(|c| capped(c)).for_each(|c| c.hunted = true);
    }

    /// Proves every child not settled yet for `job` (win/loss/draw or exact).
    fn prove(&self, run: &Run, children: &mut [Child], job: Job, on_report: &mut dyn FnMut(Report)) {
        if run.control.halted() || children.iter().all(|c| c.settled_for(job)) {
            return;
        }
        on_report(Report::Phase(if matches!(job, Job::Wld) { Phase::Wld } else { Phase::Exact }));
        self.run(run, children, job, on_report);
    }

    /// Runs `job` on every child not settled for it, best estimate first, the children shared
    /// between the threads; records and reports each value as it comes.
    fn run(&self, run: &Run, children: &mut [Child], job: Job, on_report: &mut dyn FnMut(Report)) {
        self.run_where(run, children, job, &|c| !c.settled_for(job), on_report);
    }

    /// [`Self::run`] on the children `wanted` picks.
    fn run_where(
        &self,
        run: &Run,
        children: &mut [Child],
        job: Job,
        wanted: &dyn Fn(&Child) -> bool,
        on_report: &mut dyn FnMut(Report),
    ) {
        let mut tasks: Vec<((i32, Vec<i32>), Task)> = children
            .iter()
            .enumerate()
            .filter(|(_, c)| wanted(c))
            .map(|(index, c)| {
                (c.rank(), Task { index, p: c.p, o: c.o, empties: c.empties, guess: c.estimates.last().copied() })
            })
            .collect();
        tasks.sort_by(|a, b| b.0.cmp(&a.0));
        let tasks: Vec<Task> = tasks.into_iter().map(|t| t.1).collect();
        self.schedule(run.control, run.position.size(), &tasks, job, &mut |task, score, kind| {
            let c = &mut children[task.index];
            if let Kind::Estimate { .. } = kind {
                c.estimates.push(score);
            }
            c.value = Some((score, kind));
            for &square in &c.squares {
                on_report(Report::Child(ChildValue { square, score, kind }));
            }
        });
    }
}
