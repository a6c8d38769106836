//! Exact results worth keeping, and the file that keeps them between runs.
//!
//! An entry says what was proven about one position under one [`Scoring`]: bounds on its exact
//! score (`lower == upper` when exact), from the side to move, and a best move when one is known.
//! Entries are keyed by the **canonical form** of the position ([`crate::board::symmetry::canonical`]):
//! the board size, the scoring, and the smallest `(player, opponent)` pair among the eight images,
//! so a position and its seven symmetric twins share one entry. The side to move is not part of
//! the key: the score from the side to move depends only on whose discs are whose. A best move is
//! kept in the canonical orientation and mapped back to the orientation of each position that
//! looks it up.
//!
//! - [`text`]: the line format of `store export` / `store import` and of the shipped book.
//! - [`book`]: the shipped 6x6 opening book (its entries are compiled into the program), and with
//!   the `store` feature the builder that solves the first plies.
//! - [`Store`] (feature `store`, on by default): the crash-safe file (SQLite in WAL mode, which
//!   many programs read and add to at once), its merge rules and its checks; stores of the old
//!   format (redb) are converted on first use.

pub mod book;
#[cfg(feature = "store")]
mod db;
#[cfg(feature = "store")]
mod errors;
#[cfg(feature = "store")]
mod format;
#[cfg(feature = "store")]
mod migrate;
#[cfg(feature = "store")]
mod sqlite;
#[cfg(feature = "store")]
mod summary;
pub mod text;
mod verify;

#[cfg(feature = "store")]
pub use db::Store;
#[cfg(feature = "store")]
pub use errors::{ExportError, ImportError, StoreError};
#[cfg(feature = "store")]
pub use format::{BUSY_TIMEOUT, FORMAT_VERSION};
#[cfg(feature = "store")]
pub use migrate::kept_name as format1_kept_name;
#[cfg(feature = "store")]
pub use summary::{CheckedImport, ImportSummary, PutSummary, Refused, Stats, StatsRow};
pub use verify::{ImportCheck, Mismatch, Selection, VerifyReport, check_entries, check_entry, exact_score};

use crate::board::symmetry::{Symmetry, canonical};
use crate::{
    board::position::{Color, Position, Scoring},
    board::size::Size,
    board::square::Square,
};
use std::fmt;

/// Where an entry came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    /// The opening book (`book`, or the shipped book).
    Book,
    /// The explorer, while a user browsed.
    Explorer,
    /// `store import` of a text file.
    Import,
}

impl Source {
    /// Every source, in the order of their codes.
    pub const ALL: [Source; 3] = [Source::Book, Source::Explorer, Source::Import];

    /// `"book"`, `"explorer"` or `"import"`: the word of the text format.
    pub const fn name(self) -> &'static str {
        match self {
            Source::Book => "book",
            Source::Explorer => "explorer",
            Source::Import => "import",
        }
    }

    /// The source named `name`.
    pub fn from_name(name: &str) -> Option<Source> {
        Source::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The byte stored in the file.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The source of a stored byte.
    pub fn from_code(code: u8) -> Option<Source> {
        Source::ALL.get(code as usize).copied()
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What is known of one position: its exact score lies in `lower..=upper` (from the side to move),
/// and `best` reaches the exact score when it is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stored {
    /// The score is at least this.
    pub lower: i32,
    /// The score is at most this.
    pub upper: i32,
    /// A move that reaches the exact score, in the orientation of the position it belongs to.
    pub best: Option<Square>,
    /// Where the entry came from.
    pub source: Source,
}

impl Stored {
    /// An exact score.
    pub const fn exact(score: i32, best: Option<Square>, source: Source) -> Stored {
        Stored { lower: score, upper: score, best, source }
    }

    /// Whether the score is known exactly.
    pub const fn is_exact(&self) -> bool {
        self.lower == self.upper
    }

    /// The exact score, when known.
    pub const fn score(&self) -> Option<i32> {
        if self.is_exact() { Some(self.lower) } else { None }
    }

    /// The same entry with its best move moved by `symmetry` (on a board of `size`).
    pub fn mapped(self, size: Size, symmetry: Symmetry) -> Stored {
        Stored { best: self.best.map(|sq| symmetry.apply_square(size, sq)), ..self }
    }
}

/// The key of a position's entry: size, scoring and the canonical `(player, opponent)` pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    /// The board size.
    pub size: Size,
    /// How finished games are scored.
    pub scoring: Scoring,
    /// The side to move's discs, in the canonical orientation.
    pub player: u64,
    /// The other side's discs, in the canonical orientation.
    pub opponent: u64,
}

impl Key {
    /// The key of `position` under `scoring`, and the symmetry that carries `position` to it.
    ///
    /// ```
    /// use othello_explorer::store::Key;
    /// use othello_explorer::{Position, Scoring, Size};
    /// let start = Position::start(Size::Six);
    /// // Black's four first moves are symmetric twins: one key.
    /// let a = Key::of(&start.play("c2".parse().unwrap()).unwrap(), Scoring::Standard).0;
    /// let b = Key::of(&start.play("d5".parse().unwrap()).unwrap(), Scoring::Standard).0;
    /// assert_eq!(a, b);
    /// ```
    pub fn of(position: &Position, scoring: Scoring) -> (Key, Symmetry) {
        let ((player, opponent), symmetry) = canonical(position);
        (Key { size: position.size(), scoring, player, opponent }, symmetry)
    }

    /// The canonical position, with the side to move a game without passes would have (black
    /// when the number of discs is even).
    pub fn position(&self) -> Position {
        let discs = (self.player | self.opponent).count_ones();
        let to_move = if discs.is_multiple_of(2) { Color::Black } else { Color::White };
        Position::from_player(self.size, self.player, self.opponent, to_move).expect("a key's discs make a position")
    }

    /// The number of empty squares.
    pub fn empties(&self) -> u32 {
        self.size.squares() as u32 - (self.player | self.opponent).count_ones()
    }
}

/// One entry of the text format or of a store: a position, a scoring rule and what is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position (any orientation; `stored.best` is in this orientation).
    pub position: Position,
    /// How finished games are scored.
    pub scoring: Scoring,
    /// What is known.
    pub stored: Stored,
}

impl Entry {
    /// The key and the entry as kept under it (best move in the canonical orientation).
    pub fn canonical(&self) -> (Key, Stored) {
        let (key, symmetry) = Key::of(&self.position, self.scoring);
        (key, self.stored.mapped(self.position.size(), symmetry))
    }
}

/// What [`merge`] makes of an entry already kept and a new one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Merged {
    /// The new entry adds nothing.
    Unchanged,
    /// The kept entry becomes this one.
    Changed(Stored),
    /// The two disagree (their ranges do not meet): the kept entry stays.
    Conflict,
}

/// Merges a new entry into a kept one: the tighter bound wins on each side, bounds never cross
/// (ranges that do not meet are a conflict, and the kept entry stays). A best move is taken from
/// an exact entry first; the source is that of the entry that tightened a bound.
///
/// ```
/// use othello_explorer::store::{Merged, Source, Stored, merge};
/// let old = Stored { lower: -4, upper: 10, best: None, source: Source::Explorer };
/// let new = Stored { lower: 2, upper: 20, best: None, source: Source::Import };
/// assert_eq!(merge(&old, &new), Merged::Changed(Stored { lower: 2, upper: 10, best: None, source: Source::Import }));
/// assert_eq!(merge(&old, &Stored::exact(12, None, Source::Book)), Merged::Conflict);
/// ```
pub fn merge(old: &Stored, new: &Stored) -> Merged {
    let lower = old.lower.max(new.lower);
    let upper = old.upper.min(new.upper);
    if lower > upper {
        return Merged::Conflict;
    }
    let tightened = lower > old.lower || upper < old.upper;
    let exact_best = |s: &Stored| if s.is_exact() { s.best } else { None };
    let best = exact_best(old).or(exact_best(new)).or(old.best).or(new.best);
    let merged = Stored { lower, upper, best, source: if tightened { new.source } else { old.source } };
    if merged == *old { Merged::Unchanged } else { Merged::Changed(merged) }
}
