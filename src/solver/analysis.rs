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
//! every child has a value at once, then the proofs if they are affordable (see [`Plan`]), else
//! deeper estimates until a limit or a stop.
//! After the quick estimates and after each deeper depth, a child whose estimate reached the
//! evaluation's cap is tried once for a win or loss by everything (`Solver::hunt`), which the
//! cost model cannot foresee (FFO #59).

use super::control::Control;
use super::root::{Job, Task};
use super::settings::{
    BUDGET_SHARE, END_ESTIMATE_MARGIN, END_PASS_SHARE, ITERATE_FROM, NODES_PER_SECOND, QUICK_DEPTH, TRY_END_SHARE,
    UNLIMITED_PROOF_NODES, WLD_MIN_EMPTIES, WLD_SPEEDUP,
};
use super::{Limits, Selectivity, Solver, StopReason};
use crate::{board::position::Position, board::size::Size, board::square::Square};
use std::cmp::Reverse;
use std::time::Duration;

/// What [`Solver::analyse`] computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SearchMode {
    /// Estimates first, then proofs when they fit the limits, else deeper estimates.
    Auto,
    /// The exact score of every child (a position beyond [`exact_empties`] gets the quick
    /// estimates first, so that a stop leaves every child a value).
    Exact,
    /// Whether each child wins, loses or draws (the quick estimates first, as for `Exact`).
    Wld,
    /// Estimates only, deepening until the depth limit, another limit or a stop.
    Estimate,
    /// The move to play: [`SearchMode::Auto`], except that beyond the quick estimates each depth
    /// values only what choosing needs, as a game engine searches its root: the best child so
    /// far first, then each other child tested against it by a null window, and only a child
    /// that beats it searched for its value (a principal-variation search over the children).
    /// A child refuted at a depth keeps no value, so the analysis lists the best child and those
    /// searched for their values; with a child already proven (the store, the proofs), every
    /// child is valued as in `Auto`.
    Play,
}

/// What a value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The exact score.
    Exact,
    /// A proven outcome: the score is +1 (a win), 0 (a draw) or -1 (a loss).
    Wld,
    /// The value of a search `depth` plies deep from the analysed position (the move itself is
    /// the first ply), with the evaluation at its leaves (its principal variation may end in an
    /// exact score instead, [`super::SolverOptions::pv_extension`]), at a `selectivity`
    /// ([`Selectivity::FULL`]: the plain search, else probable cutoffs of that confidence,
    /// [`super::probcut`]): never a proof.
    Estimate {
        /// Plies searched from the analysed position.
        depth: u32,
        /// How selective the search was.
        selectivity: Selectivity,
    },
}

impl Kind {
    /// A full-width estimate `depth` plies deep.
    pub const fn estimate(depth: u32) -> Kind {
        Kind::Estimate { depth, selectivity: Selectivity::FULL }
    }

    /// How strong a value of this kind is, as an ordering key: exact beats a proven outcome
    /// beats a deeper estimate beats a shallower one; of two estimates of one depth, the less
    /// selective.
    pub const fn strength(self) -> (u8, u32, u8) {
        match self {
            Kind::Exact => (3, 0, 0),
            Kind::Wld => (2, 0, 0),
            Kind::Estimate { depth, selectivity } => (1, depth, selectivity.level()),
        }
    }
}

impl Kind {
    /// The kind's name in JSON: `exact`, `wld` or `estimate`.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Exact => "exact",
            Kind::Wld => "wld",
            Kind::Estimate { .. } => "estimate",
        }
    }

    /// How an estimate searched, as every front end writes it: `@14` (full width), `@14 95%`
    /// (selective); `None` for a proof. The one place the label of an estimate is spelled.
    pub fn depth_label(self) -> Option<String> {
        match self {
            Kind::Estimate { depth, selectivity } if selectivity.is_full() => Some(format!("@{depth}")),
            Kind::Estimate { depth, selectivity } => Some(format!("@{depth} {selectivity}")),
            Kind::Exact | Kind::Wld => None,
        }
    }

    /// The selectivity of an estimate; `None` for a proof.
    pub const fn selectivity(self) -> Option<Selectivity> {
        match self {
            Kind::Estimate { selectivity, .. } => Some(selectivity),
            Kind::Exact | Kind::Wld => None,
        }
    }

    /// The kind in a word or two: `exact`, `wld`, `est @14` (a table's column, the line's label).
    pub fn label(self) -> String {
        match self.depth_label() {
            Some(d) => format!("est {d}"),
            None => self.name().to_string(),
        }
    }

    /// The kind in words: `exact`, `a proven outcome`, `estimated @14`.
    pub fn long_label(self) -> String {
        match self.depth_label() {
            Some(d) => format!("estimated {d}"),
            None if self == Kind::Wld => "a proven outcome".to_string(),
            None => self.name().to_string(),
        }
    }
}

/// A value as every front end writes it: `{}` is the short form (`+12` exact, `W`/`D`/`L` a
/// proven outcome, `+12 @14` an estimate; a width pads the number of an exact score or an
/// estimate, so `{:3}` gives ` +5 @14`);
/// `{:#}` the long form (`exact +12`, `a proven win`, `+12 estimated @14`).
///
/// ```
/// use othello_explorer::solver::{Kind, Selectivity, ValueText};
/// let est = ValueText { score: 5, kind: Kind::estimate(14) };
/// assert_eq!((format!("{est}"), format!("{est:3}"), format!("{est:#}")), ("+5 @14".into(), " +5 @14".into(), "+5 estimated @14".into()));
/// let selective = Kind::Estimate { depth: 22, selectivity: Selectivity::parse("95").unwrap() };
/// assert_eq!(format!("{}", ValueText { score: 4, kind: selective }), "+4 @22 95%");
/// assert_eq!(format!("{}", ValueText { score: -1, kind: Kind::Wld }), "L");
/// assert_eq!(format!("{:#}", ValueText { score: 0, kind: Kind::Exact }), "exact +0");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueText {
    /// The score (for [`Kind::Wld`], its sign).
    pub score: i32,
    /// What it is.
    pub kind: Kind,
}

impl std::fmt::Display for ValueText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let w = f.width().unwrap_or(0);
        match (self.kind, f.alternate()) {
            (Kind::Wld, false) => write!(f, "{}", outcome_letter(self.score)),
            (Kind::Wld, true) => write!(f, "a proven {}", outcome_word(self.score)),
            (Kind::Exact, false) => write!(f, "{:+w$}", self.score),
            (Kind::Exact, true) => write!(f, "exact {:+w$}", self.score),
            (kind, alternate) => {
                let label = if alternate { kind.long_label() } else { kind.depth_label().unwrap_or_default() };
                write!(f, "{:+w$} {label}", self.score)
            }
        }
    }
}

impl ChildValue {
    /// The value's text ([`ValueText`]).
    pub const fn text(&self) -> ValueText {
        ValueText { score: self.score, kind: self.kind }
    }
}

/// The value of one child move, from the side to move at the analysed position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChildValue {
    /// The move.
    pub square: Square,
    /// The score: exact, estimated, or -1/0/+1 for [`Kind::Wld`].
    pub score: i32,
    /// What the score is.
    pub kind: Kind,
}

/// The key children are ranked by, best highest: an exact score or an estimate by its score; a
/// proven win, loss or draw by its last `estimate`, clamped so a win ranks above every draw and a
/// draw above every loss (a win with no estimate counts as +1).
pub fn rank(score: i32, kind: Kind, estimate: Option<i32>) -> i32 {
    match (score, kind) {
        (s, Kind::Exact | Kind::Estimate { .. }) => s,
        (1, Kind::Wld) => estimate.unwrap_or(1).max(1),
        (-1, Kind::Wld) => estimate.unwrap_or(-1).min(-1),
        (_, Kind::Wld) => 0,
    }
}

/// The full ranking key, best highest: [`rank`] first, then an exact score before anything else
/// of the same rank (a proven +64 before a +64 estimated), then the deepest of their earlier
/// estimates that tells them apart. `estimates` are the child's
/// estimates of consecutive depths, the deepest last; the tie key is them from the deepest down,
/// leaving out the one the rank reads (the last, for an estimate or a proven outcome; an exact
/// score keeps them all). A child with fewer comes after one with more that agrees with it so far;
/// what is still equal goes in reading order (the callers' last key).
///
/// Whole-disc estimates tie often, and where the deeper search cannot tell two moves apart the
/// shallower ones' preference picks the exact best move more often than the reading order does
/// (`docs/eval.md`, "Ties").
///
/// ```
/// use othello_explorer::solver::{Kind, rank_key};
/// let d3 = Kind::estimate(3);
/// // Equal at depth 3: the one that was better at depth 2 ranks first.
/// assert!(rank_key(4, d3, &[0, 6, 4]) > rank_key(4, d3, &[9, 2, 4]));
/// // Equal at depths 3 and 2: depth 1 decides.
/// assert!(rank_key(4, d3, &[1, 2, 4]) > rank_key(4, d3, &[0, 2, 4]));
/// // The value itself still comes first.
/// assert!(rank_key(6, d3, &[0, -20, 6]) > rank_key(4, d3, &[0, 20, 4]));
/// // Of equal values, the exact one.
/// assert!(rank_key(64, Kind::Exact, &[60]) > rank_key(64, Kind::estimate(19), &[63, 64]));
/// ```
pub fn rank_key(score: i32, kind: Kind, estimates: &[i32]) -> (i32, Vec<i32>) {
    let earlier = match kind {
        Kind::Exact => estimates,
        Kind::Estimate { .. } | Kind::Wld => &estimates[..estimates.len().saturating_sub(1)],
    };
    let proven = i32::from(kind == Kind::Exact);
    (
        rank(score, kind, estimates.last().copied()),
        std::iter::once(proven).chain(earlier.iter().rev().copied()).collect(),
    )
}

/// A phase of the analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Deepening estimates.
    Estimate,
    /// Proving wins, losses and draws.
    Wld,
    /// Proving exact scores.
    Exact,
}

/// What [`Solver::analyse`] reports while it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// A phase begins.
    Phase(Phase),
    /// A child has a new value (better than or as good as its last one).
    Child(ChildValue),
    /// Every child still estimated has been searched to this depth (each reported just before;
    /// in [`SearchMode::Play`] those valued at it: a child refuted at a depth is not reported
    /// and has no value in the result).
    DepthDone {
        /// The depth completed.
        depth: u32,
    },
    /// The line the deepest completed estimate expects, sent just before its
    /// [`Report::DepthDone`]: the best child's move, then the best moves the table holds after
    /// it (passes not written), at most `depth` moves. An estimate, never a proof.
    Line {
        /// The depth of the estimate the line comes from.
        depth: u32,
        /// The moves, the best child first.
        moves: Vec<Square>,
    },
}

/// The result of [`Solver::analyse`]: the best value known for each child, even after a stop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Every child searched that has a value, best first: by score for exact values and
    /// estimates; a proven outcome ranks by the child's last estimate held within what the proof
    /// allows (at least +1 for a win, 0 for a draw, at most -1 for a loss); equal ones by the
    /// deepest earlier estimate that tells them apart ([`rank_key`]), then in reading order.
    pub children: Vec<ChildValue>,
    /// The deepest completed estimate depth, if any.
    pub depth: Option<u32>,
    /// Nodes searched.
    pub nodes: u64,
    /// Why the analysis stopped early, if it did.
    pub stopped: Option<StopReason>,
}

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

/// Empties at or below which [`SearchMode::Auto`] proves the children with no time or node limit
/// (the most whose predicted cost is within [`UNLIMITED_PROOF_NODES`]): 22 on 8x8, 26 on 6x6,
/// every 4x4 position.
pub fn exact_empties(size: Size) -> u32 {
    (0..=size.squares() as u32).rev().find(|&n| predicted_exact_nodes(size, n) <= UNLIMITED_PROOF_NODES).unwrap_or(0)
}

/// Seconds to solve every child of a position of `size` with `empties` empty squares exactly on
/// `threads` threads, as the auto policy weighs a time limit: [`predicted_exact_nodes`] at the
/// rate it assumes per thread (a median: hard positions take several times longer).
///
/// ```
/// use othello_explorer::Size;
/// use othello_explorer::solver::predicted_exact_seconds;
/// assert!(predicted_exact_seconds(Size::Eight, 20, 1) < 2.0);
/// assert!(predicted_exact_seconds(Size::Eight, 60, 2) > 1e9); // the 8x8 start: out of reach
/// ```
pub fn predicted_exact_seconds(size: Size, empties: u32, threads: usize) -> f64 {
    predicted_exact_nodes(size, empties) / (NODES_PER_SECOND * threads.max(1) as f64)
}

/// How [`SearchMode::Auto`] continues after the quick estimates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Prove wins, losses and draws first.
    pub wld: bool,
    /// Prove exact scores.
    pub exact: bool,
}

/// Predicted nodes to solve every child of a position with `empties` empty squares exactly, one
/// thread (a median: hard positions take several times more). Fitted on the estimate set, FFO
/// #40-#44 and random positions for 8x8, on random positions for 6x6, on the start for 4x4, with
/// the moves ordered by the version 4 weights; above 24 empties on 8x8 and 28 on 6x6, where the
/// selective passes before each proof cut the most, the growth per empty is lower (refitted on
/// FFO #50 and #53 and on 6x6 positions one to four plies in: `docs/solver.md`, "The auto
/// policy").
pub fn predicted_exact_nodes(size: Size, empties: u32) -> f64 {
    // (nodes at `at` empties, `at`, the growth per empty up to `knee` empties, the growth above)
    let (nodes, at, growth, knee, above) = match size {
        Size::Four => (2.0e3, 12.0, 2.0, f64::INFINITY, 2.0),
        Size::Six => (2.7e7, 22.0, 1.7, 28.0, 1.0),
        Size::Eight => (3.0e7, 20.0, 2.55, 24.0, 1.63),
    };
    let n = empties as f64;
    nodes * f64::powf(growth, n.min(knee) - at) * f64::powf(above, (n - knee).max(0.0))
}

/// What [`SearchMode::Auto`] does after the quick estimates on a position of `size` with `empties`
/// empty squares, given what is left of the limits: with no time or node limit, proofs at and
/// below [`exact_empties`]; with limits, a proof whose predicted cost fits a quarter of what is
/// left; the win/loss/draw proof first from [`WLD_MIN_EMPTIES`] empties.
///
/// ```
/// use othello_explorer::Size;
/// use othello_explorer::solver::{Plan, plan};
/// use std::time::Duration;
///
/// // 20 empties on 8x8, no limit: the outcomes, then the exact scores.
/// assert_eq!(plan(Size::Eight, 20, None, None, 1), Plan { wld: true, exact: true });
/// // The 8x8 start: estimates only.
/// assert_eq!(plan(Size::Eight, 60, None, None, 2), Plan { wld: false, exact: false });
/// // Every 4x4 position, even within a tenth of a second.
/// assert_eq!(plan(Size::Four, 12, Some(Duration::from_millis(100)), None, 1), Plan { wld: false, exact: true });
/// ```
pub fn plan(size: Size, empties: u32, time_left: Option<Duration>, nodes_left: Option<u64>, threads: usize) -> Plan {
    let exact = predicted_exact_nodes(size, empties);
    let wld = exact / WLD_SPEEDUP;
    let fits = |nodes: f64| {
        let by_time = time_left.map(|t| nodes <= BUDGET_SHARE * t.as_secs_f64() * NODES_PER_SECOND * threads as f64);
        let by_nodes = nodes_left.map(|m| nodes <= BUDGET_SHARE * m as f64);
        match (by_time, by_nodes) {
            (None, None) => nodes <= UNLIMITED_PROOF_NODES,
            (a, b) => a.unwrap_or(true) && b.unwrap_or(true),
        }
    };
    let exact = fits(exact);
    let wld_fits = fits(wld);
    Plan { wld: wld_fits && empties >= WLD_MIN_EMPTIES, exact }
}

/// Whether the first pass of the estimates to the end (every child of a position with `empties`
/// empties searched to the end at 73%, [`Solver::analyse`]) is predicted to fit what is left of
/// a time or node limit: [`END_PASS_SHARE`] of [`predicted_exact_nodes`], at
/// [`NODES_PER_SECOND`] a thread. Without a limit it always fits (the explorer: a stop ends it).
///
/// ```
/// use othello_explorer::Size;
/// use othello_explorer::solver::end_pass_fits;
/// use std::time::Duration;
/// // The explorer, unlimited: always.
/// assert!(end_pass_fits(Size::Eight, 26, None, None, 2));
/// // One second a position: not at 24 empties (a pass there takes seconds).
/// assert!(!end_pass_fits(Size::Eight, 24, Some(Duration::from_secs(1)), None, 1));
/// // A minute on two threads: at 24 empties, yes.
/// assert!(end_pass_fits(Size::Eight, 24, Some(Duration::from_secs(60)), None, 2));
/// ```
pub fn end_pass_fits(
    size: Size,
    empties: u32,
    time_left: Option<Duration>,
    nodes_left: Option<u64>,
    threads: usize,
) -> bool {
    let nodes = END_PASS_SHARE * predicted_exact_nodes(size, empties);
    let by_time = time_left.is_none_or(|t| nodes <= t.as_secs_f64() * NODES_PER_SECOND * threads as f64);
    let by_nodes = nodes_left.is_none_or(|m| nodes <= m as f64);
    by_time && by_nodes
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
        let groups = super::twin_groups(position, &moves);
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

impl From<super::ChildScore> for ChildValue {
    /// An exact child score (of [`Solver::score_children`]) as a value of kind [`Kind::Exact`].
    fn from(c: super::ChildScore) -> ChildValue {
        ChildValue { square: c.square, score: c.score, kind: Kind::Exact }
    }
}

/// `"win"`, `"draw"` or `"loss"` for a proven outcome's sign (a [`Kind::Wld`] score).
pub fn outcome_word(sign: i32) -> &'static str {
    ["loss", "draw", "win"][(sign.signum() + 1) as usize]
}

/// `'W'`, `'D'` or `'L'` for a proven outcome's sign, as the explorer and the CLI write it.
///
/// ```
/// use othello_explorer::solver::{outcome_letter, outcome_word};
/// assert_eq!((outcome_letter(3), outcome_word(3)), ('W', "win"));
/// assert_eq!((outcome_letter(0), outcome_letter(-1)), ('D', 'L'));
/// ```
pub fn outcome_letter(sign: i32) -> char {
    ['L', 'D', 'W'][(sign.signum() + 1) as usize]
}
