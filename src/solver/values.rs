//! What a value is and how values rank (floor 0 of the search core, `mod.rs`): the [`Kind`] of a
//! value (exact, a proven outcome, an estimate of a depth and selectivity), its text as every
//! front end writes it ([`ValueText`], [`outcome_word`], [`outcome_letter`]), the
//! [`ChildValue`] of one move, and the ranking of the children ([`rank`], [`rank_key`]).

use super::limits::ChildScore;
use super::selectivity::Selectivity;
use crate::board::square::Square;

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
    pub(crate) fn depth_label(self) -> Option<String> {
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
    pub(crate) fn long_label(self) -> String {
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

impl From<ChildScore> for ChildValue {
    /// An exact child score (of [`Solver::score_children`](super::Solver::score_children)) as a value of kind [`Kind::Exact`].
    fn from(c: ChildScore) -> ChildValue {
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
