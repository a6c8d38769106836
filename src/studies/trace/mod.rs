//! Traces of the bitboard techniques on a real position, step by step, as plain data: what the
//! teaching view of the explorer walks and what `othello-explorer explain` prints.
//!
//! A [`Trace`] is a list of [`Step`]s, each with a name, the expression in Rust syntax, its value
//! (a mask of squares, a machine word, a number, a position or a key) and a note saying why. The
//! steps are computed with the same operations the engine runs: the directions, shifts and edge
//! masks of [`crate::board::geometry`], the rays and the carry / leading-zero tricks of
//! [`crate::board::rules::flips_scalar`], the XOR update of [`Position::play_flips`], the symmetries of
//! [`crate::board::symmetry`]. The tests check every trace's final value against the engine's own result
//! ([`crate::board::rules::legal_moves`], [`Position::flips`], [`Position::play`], `count_ones`,
//! [`crate::board::symmetry::canonical`]) on random positions of every size.
//!
//! One file per topic: [`legal`], [`flips`], [`play`], [`popcount`], [`empties`], [`symmetry`], and
//! the concepts players reason with ([`crate::board::concepts`]): [`stable`], [`frontier`],
//! [`regions`], [`corners`].
//!
//! ```
//! use othello_explorer::studies::trace::{Topic, trace};
//! use othello_explorer::{Position, Size};
//!
//! let start = Position::start(Size::Four);
//! let legal = trace(Topic::Legal, &start, None).unwrap();
//! assert_eq!(legal.result.to_string(), "0x4812");
//! assert_eq!(legal.result.mask(), Some(start.legal_moves()));
//! ```

pub mod corners;
pub mod empties;
pub mod flips;
pub mod frontier;
pub mod legal;
pub mod play;
pub mod popcount;
pub mod regions;
pub mod stable;
pub mod symmetry;

use crate::board::symmetry::Symmetry;
use crate::{
    board::bitboard::Bitboard,
    board::position::{IllegalMove, Position},
    board::size::Size,
    board::square::Square,
};
use std::fmt;
use std::str::FromStr;

/// A technique the engine uses, traced on a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Topic {
    /// Legal moves, direction by direction: shift, edge mask, propagation.
    Legal,
    /// The discs a move flips, ray by ray.
    Flips,
    /// Making a move with XOR, and undoing it.
    Play,
    /// Counting discs: the divide-and-conquer population count.
    Popcount,
    /// Visiting each empty square by lowest-bit extraction.
    Empties,
    /// The eight images of the position and the canonical key.
    Symmetry,
    /// Stable discs: the fixed point along the four lines.
    Stable,
    /// Frontier discs and potential mobility, from the neighbour shifts.
    Frontier,
    /// The empty regions by flood fill, their sizes and parity.
    Regions,
    /// Corners, X- and C-squares, and who can take a corner.
    Corners,
}

impl Topic {
    /// Every topic, in the order of the tutorial.
    pub const ALL: [Topic; 10] = [
        Topic::Legal,
        Topic::Flips,
        Topic::Play,
        Topic::Popcount,
        Topic::Empties,
        Topic::Symmetry,
        Topic::Stable,
        Topic::Frontier,
        Topic::Regions,
        Topic::Corners,
    ];

    /// The name used on the command line: `legal`, `flips`, …
    pub const fn name(self) -> &'static str {
        match self {
            Topic::Legal => "legal",
            Topic::Flips => "flips",
            Topic::Play => "play",
            Topic::Popcount => "popcount",
            Topic::Empties => "empties",
            Topic::Symmetry => "symmetry",
            Topic::Stable => "stable",
            Topic::Frontier => "frontier",
            Topic::Regions => "regions",
            Topic::Corners => "corners",
        }
    }

    /// A title for headings.
    pub const fn title(self) -> &'static str {
        match self {
            Topic::Legal => "legal moves, direction by direction",
            Topic::Flips => "the flips of a move, ray by ray",
            Topic::Play => "making a move with XOR, and undoing it",
            Topic::Popcount => "counting discs: the divide-and-conquer population count",
            Topic::Empties => "visiting each empty square: lowest-bit extraction",
            Topic::Symmetry => "the eight symmetries and the canonical key",
            Topic::Stable => "stable discs: the fixed point along the four lines",
            Topic::Frontier => "frontier discs and potential mobility: the neighbour shifts",
            Topic::Regions => "regions and parity: a flood fill of shifts",
            Topic::Corners => "corners, X- and C-squares, and who can take a corner",
        }
    }

    /// Whether the topic is about one move (`flips`, `play`).
    pub const fn needs_move(self) -> bool {
        matches!(self, Topic::Flips | Topic::Play)
    }
}

impl fmt::Display for Topic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A topic name that is not one of [`Topic::ALL`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTopic(pub String);

impl fmt::Display for UnknownTopic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Topic::ALL.iter().map(|t| t.name()).collect();
        write!(f, "unknown topic '{}': expected one of {}", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownTopic {}

impl FromStr for Topic {
    type Err = UnknownTopic;

    fn from_str(s: &str) -> Result<Topic, UnknownTopic> {
        let t = s.trim().to_ascii_lowercase();
        Topic::ALL.iter().copied().find(|topic| topic.name() == t).ok_or_else(|| UnknownTopic(s.to_string()))
    }
}

/// The value of a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// A set of squares.
    Mask(Bitboard),
    /// A machine word that is not a set of squares (the partial sums of the population count),
    /// shown in binary in fields of `field` bits, the board's width in all.
    Word {
        /// The bits.
        bits: u64,
        /// The width of one field, for display.
        field: u32,
        /// The board, for the display width.
        size: Size,
    },
    /// A number.
    Number(i64),
    /// A whole position (after a move).
    Position(Position),
    /// A canonical key: the smallest `(player, opponent)` image and the symmetry giving it.
    Key {
        /// The side to move's discs in the image.
        player: Bitboard,
        /// The opponent's discs in the image.
        opponent: Bitboard,
        /// The symmetry that gives the image.
        symmetry: Symmetry,
    },
}

impl Value {
    /// The squares to draw on the board: the mask, the black discs of a position, the player's
    /// discs of a key; none for words and numbers.
    pub fn mask(&self) -> Option<Bitboard> {
        match *self {
            Value::Mask(m) => Some(m),
            Value::Position(p) => Some(p.black()),
            Value::Key { player, .. } => Some(player),
            Value::Word { .. } | Value::Number(_) => None,
        }
    }

    /// The value in binary, `a1` first: the N x N grid of a mask (also of a position's black
    /// discs and a key's player discs), one line of fields for a word, nothing for a number.
    pub fn binary_rows(&self) -> Vec<String> {
        match *self {
            Value::Word { bits, field, size } => vec![word_binary(bits, field, size)],
            Value::Number(_) => Vec::new(),
            _ => self.mask().map(|m| m.binary_rows()).unwrap_or_default(),
        }
    }
}

/// How the notes of a trace are laid out for paper and screen: at spaces, lines of at most
/// `width` characters ([`crate::notation::printable::wrap`]).
///
/// ```
/// assert_eq!(othello_explorer::studies::trace::wrap("a bb ccc", 4), ["a bb", "ccc"]);
/// ```
pub use crate::notation::printable::wrap;

/// The low `N*N` bits of `bits` in binary, most significant first, a space between fields of
/// `field` bits counted from bit 0.
pub(crate) fn word_binary(bits: u64, field: u32, size: Size) -> String {
    let width = size.squares() as u32;
    let mut s = String::new();
    for b in (0..width).rev() {
        s.push(if bits >> b & 1 == 1 { '1' } else { '0' });
        if b > 0 && b % field == 0 {
            s.push(' ');
        }
    }
    s
}

impl fmt::Display for Value {
    /// Masks and words in hex of the board's width, numbers in decimal, a position as its board
    /// string, a key as its two masks and the symmetry.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Mask(m) => write!(f, "{m}"),
            Value::Word { bits, size, .. } => write!(f, "{}", Bitboard::new(*size, *bits)),
            Value::Number(n) => write!(f, "{n}"),
            Value::Position(p) => write!(f, "{p}"),
            Value::Key { player, opponent, symmetry } => write!(f, "({player}, {opponent}) by {}", symmetry.name()),
        }
    }
}

/// One step of a trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The part of the trace it belongs to (`"west (s = 1)"`), empty for the steps before and
    /// after the parts.
    pub group: String,
    /// Its short name within the group: `"t"`, `"edge mask"`, …
    pub name: String,
    /// What the engine computes, in Rust syntax.
    pub expression: String,
    /// The result.
    pub value: Value,
    /// Why, in a sentence or two; may be empty.
    pub note: String,
}

impl Step {
    /// The name with its group: `"west: t"`.
    pub fn full_name(&self) -> String {
        if self.group.is_empty() { self.name.clone() } else { format!("{}: {}", self.group, self.name) }
    }
}

/// A technique traced on a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// The topic.
    pub topic: Topic,
    /// The position traced.
    pub position: Position,
    /// The move traced (`flips`, `play`).
    pub square: Option<Square>,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// The final value: the engine's own result, which the tests compare the last step with.
    pub result: Value,
}

/// Why a trace cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceError {
    /// The topic needs a move and the side to move has none.
    NoMove,
    /// The square named is not on the board or is occupied.
    NotEmpty(Square),
    /// The move cannot be played.
    Illegal(IllegalMove),
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceError::NoMove => write!(f, "the side to move has no legal move: nothing to trace"),
            TraceError::NotEmpty(sq) => write!(f, "{sq} is not an empty square of this board"),
            TraceError::Illegal(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for TraceError {}

/// The move a topic traces: `square` if given, else the first legal move in reading order.
pub(crate) fn default_move(position: &Position, square: Option<Square>) -> Result<Square, TraceError> {
    match square {
        Some(sq) => Ok(sq),
        None => position.legal_moves().reading_order().first().copied().ok_or(TraceError::NoMove),
    }
}

/// Traces `topic` on `position`. `square` names the move for `flips` and `play` (default: the
/// first legal move in reading order); `flips` also traces an empty square that flips nothing.
pub fn trace(topic: Topic, position: &Position, square: Option<Square>) -> Result<Trace, TraceError> {
    let (steps, result, square) = match topic {
        Topic::Legal => {
            let (s, r) = legal::trace(position);
            (s, r, None)
        }
        Topic::Flips => {
            let sq = default_move(position, square)?;
            if !sq.is_on(position.size()) || !position.empty().contains(sq) {
                return Err(TraceError::NotEmpty(sq));
            }
            let (s, r) = flips::trace(position, sq);
            (s, r, Some(sq))
        }
        Topic::Play => {
            let sq = default_move(position, square)?;
            position.play(sq).map_err(TraceError::Illegal)?;
            let (s, r) = play::trace(position, sq);
            (s, r, Some(sq))
        }
        Topic::Popcount => {
            let (s, r) = popcount::trace(position);
            (s, r, None)
        }
        Topic::Empties => {
            let (s, r) = empties::trace(position);
            (s, r, None)
        }
        Topic::Symmetry => {
            let (s, r) = symmetry::trace(position);
            (s, r, None)
        }
        Topic::Stable => {
            let (s, r) = stable::trace(position);
            (s, r, None)
        }
        Topic::Frontier => {
            let (s, r) = frontier::trace(position);
            (s, r, None)
        }
        Topic::Regions => {
            let (s, r) = regions::trace(position);
            (s, r, None)
        }
        Topic::Corners => {
            let (s, r) = corners::trace(position);
            (s, r, None)
        }
    };
    Ok(Trace { topic, position: *position, square, steps, result })
}

/// A small builder the topic files share.
pub(crate) struct Steps {
    group: String,
    steps: Vec<Step>,
}

impl Steps {
    pub(crate) fn new() -> Steps {
        Steps { group: String::new(), steps: Vec::new() }
    }

    pub(crate) fn group(&mut self, group: impl Into<String>) {
        self.group = group.into();
    }

    pub(crate) fn push(
        &mut self,
        name: impl Into<String>,
        expression: impl Into<String>,
        value: Value,
        note: impl Into<String>,
    ) {
        self.steps.push(Step {
            group: self.group.clone(),
            name: name.into(),
            expression: expression.into(),
            value,
            note: note.into(),
        });
    }

    pub(crate) fn mask(
        &mut self,
        name: impl Into<String>,
        expression: impl Into<String>,
        size: Size,
        bits: u64,
        note: impl Into<String>,
    ) {
        self.push(name, expression, Value::Mask(Bitboard::new(size, bits)), note);
    }

    pub(crate) fn done(self) -> Vec<Step> {
        self.steps
    }
}

/// The names of the squares of a mask in reading order, joined by spaces (`"-"` if none).
pub(crate) fn names(mask: Bitboard) -> String {
    let v: Vec<String> = mask.reading_order().iter().map(|s| s.to_string()).collect();
    if v.is_empty() { "-".to_string() } else { v.join(" ") }
}
