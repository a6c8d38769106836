//! Squares and their names: columns `a..` left to right, rows `1..` top to bottom.

use crate::board::geometry;
use crate::board::size::Size;
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
    pub(crate) const fn from_index(size: Size, index: usize) -> Option<Square> {
        if index < size.squares() { Square::new(index % size.n(), index / size.n()) } else { None }
    }

    /// Its bit on a board of `size`: `a1` is bit `N*N-1`, the last square bit 0. The square must
    /// be on that board.
    pub const fn bit(self, size: Size) -> u32 {
        geometry::bit(size.n(), self.col(), self.row())
    }

    /// The square of bit `bit` on a board of `size`.
    pub(crate) const fn from_bit(size: Size, bit: u32) -> Option<Square> {
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
    /// The first character is no column letter at all (not `a`..`h`); `last` is the board's
    /// last column (`h` where the board is not known).
    BadColumn { found: char, last: char },
    /// The second character is no row digit at all (not `1`..`8`); `last` is the board's last
    /// row (`8` where the board is not known).
    BadRow { found: char, last: char },
    /// The row digit is missing.
    MissingRow,
    /// Something follows the two characters of a square.
    Trailing(String),
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseSquareError::Empty => write!(f, "empty square name"),
            ParseSquareError::BadColumn { found, last } => {
                write!(f, "bad column '{found}': expected a letter a to {last}")
            }
            ParseSquareError::BadRow { found, last } => write!(f, "bad row '{found}': expected a digit 1 to {last}"),
            ParseSquareError::MissingRow => write!(f, "missing row: a square is a letter and a digit, like f5"),
            ParseSquareError::Trailing(s) => write!(f, "unexpected '{s}' after the square"),
        }
    }
}

impl std::error::Error for ParseSquareError {}

impl Square {
    /// Parses `f5` or `F5` (surrounding spaces allowed) for a board of `size`: a character that is
    /// no column letter or row digit at all is an error naming that board's range (`i1` on 6x6:
    /// "bad column 'i': expected a letter a to f"). A square of the 8x8 grid past a smaller board's
    /// edge still parses, so that playing it can say which square is off the board (`g1 is off the
    /// 6x6 board`); [`Square::is_on`] tells.
    ///
    /// ```
    /// use othello_explorer::{ParseSquareError, Size, Square};
    /// assert_eq!(Square::parse_for(Size::Six, "F6").unwrap().to_string(), "f6");
    /// let e = Square::parse_for(Size::Six, "i1").unwrap_err();
    /// assert_eq!(e, ParseSquareError::BadColumn { found: 'i', last: 'f' });
    /// assert_eq!(e.to_string(), "bad column 'i': expected a letter a to f");
    /// assert!(!Square::parse_for(Size::Six, "g1").unwrap().is_on(Size::Six));
    /// ```
    pub fn parse_for(size: Size, s: &str) -> Result<Square, ParseSquareError> {
        let n = size.n() as u8;
        let (last_col, last_row) = ((b'a' + n - 1) as char, (b'0' + n) as char);
        let mut chars = s.trim().chars();
        let c = chars.next().ok_or(ParseSquareError::Empty)?;
        let col = match c.to_ascii_lowercase() {
            l @ 'a'..='h' => l as usize - 'a' as usize,
            _ => return Err(ParseSquareError::BadColumn { found: c, last: last_col }),
        };
        let r = chars.next().ok_or(ParseSquareError::MissingRow)?;
        let row = match r {
            '1'..='8' => r as usize - '1' as usize,
            _ => return Err(ParseSquareError::BadRow { found: r, last: last_row }),
        };
        let rest: String = chars.collect();
        if !rest.is_empty() {
            return Err(ParseSquareError::Trailing(rest));
        }
        Ok(Square { row: row as u8, col: col as u8 })
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses `f5` or `F5` (surrounding spaces are allowed): any square of the 8x8 grid; where the
    /// board is known, [`Square::parse_for`] names its range.
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::parse_for(Size::Eight, s)
    }
}
