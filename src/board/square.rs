//! Squares and their names: columns `a..` left to right, rows `1..` top to bottom.

use crate::Size;
use crate::geometry;
use std::fmt;
use std::str::FromStr;

/// A square named by column and row, independent of the board size (`d3` exists on every board,
/// `f5` only on 6x6 and 8x8: see [`Square::is_on`]).
///
/// Squares order in reading order: `a1`, `b1`, …, then row 2.
///
/// ```
/// use othello_explorer::{Size, Square};
/// let sq: Square = "F5".parse().unwrap();
/// assert_eq!(sq.to_string(), "f5");
/// assert_eq!((sq.col(), sq.row()), (5, 4));
/// assert_eq!(sq.bit(Size::Eight), 26);
/// assert!(!sq.is_on(Size::Four));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    row: u8,
    col: u8,
}

impl Square {
    /// The square at `col` and `row`, both from 0; `None` beyond the 8x8 board.
    pub const fn new(col: usize, row: usize) -> Option<Square> {
        if col < 8 && row < 8 { Some(Square { row: row as u8, col: col as u8 }) } else { None }
    }

    /// Column from 0 (`a`).
    pub const fn col(self) -> usize {
        self.col as usize
    }

    /// Row from 0 (row 1).
    pub const fn row(self) -> usize {
        self.row as usize
    }

    /// Whether the square lies on a board of `size`.
    pub const fn is_on(self, size: Size) -> bool {
        self.col() < size.n() && self.row() < size.n()
    }

    /// Index in reading order on a board of `size`: `a1` is 0.
    pub const fn index(self, size: Size) -> usize {
        self.row() * size.n() + self.col()
    }

    /// The square with reading-order index `index` on a board of `size`.
    pub const fn from_index(size: Size, index: usize) -> Option<Square> {
        if index < size.squares() { Square::new(index % size.n(), index / size.n()) } else { None }
    }

    /// Its bit on a board of `size`: `a1` is bit `N*N-1`, the last square bit 0. The square must
    /// be on that board.
    pub const fn bit(self, size: Size) -> u32 {
        geometry::bit(size.n(), self.col(), self.row())
    }

    /// The square of bit `bit` on a board of `size`.
    pub const fn from_bit(size: Size, bit: u32) -> Option<Square> {
        let b = bit as usize;
        if b < size.squares() { Square::from_index(size, size.squares() - 1 - b) } else { None }
    }

    /// Its one-bit mask on a board of `size`.
    pub const fn mask(self, size: Size) -> u64 {
        1u64 << self.bit(size)
    }

    /// Every square of a board of `size` in reading order.
    pub fn all(size: Size) -> impl Iterator<Item = Square> {
        (0..size.squares()).filter_map(move |i| Square::from_index(size, i))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col) as char, self.row + 1)
    }
}

/// Why a square name did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseSquareError {
    /// Nothing was given.
    Empty,
    /// The first character is not a column letter `a`..`h`.
    BadColumn(char),
    /// The second character is not a row digit `1`..`8`.
    BadRow(char),
    /// The row digit is missing.
    MissingRow,
    /// Something follows the two characters of a square.
    Trailing(String),
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseSquareError::Empty => write!(f, "empty square name"),
            ParseSquareError::BadColumn(c) => write!(f, "bad column '{c}': expected a letter a to h"),
            ParseSquareError::BadRow(c) => write!(f, "bad row '{c}': expected a digit 1 to 8"),
            ParseSquareError::MissingRow => write!(f, "missing row: a square is a letter and a digit, like f5"),
            ParseSquareError::Trailing(s) => write!(f, "unexpected '{s}' after the square"),
        }
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses `f5` or `F5` (surrounding spaces are allowed).
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.trim().chars();
        let c = chars.next().ok_or(ParseSquareError::Empty)?;
        let col = match c.to_ascii_lowercase() {
            l @ 'a'..='h' => l as usize - 'a' as usize,
            _ => return Err(ParseSquareError::BadColumn(c)),
        };
        let r = chars.next().ok_or(ParseSquareError::MissingRow)?;
        let row = match r {
            '1'..='8' => r as usize - '1' as usize,
            _ => return Err(ParseSquareError::BadRow(r)),
        };
        let rest: String = chars.collect();
        if !rest.is_empty() {
            return Err(ParseSquareError::Trailing(rest));
        }
        Ok(Square { row: row as u8, col: col as u8 })
    }
}
