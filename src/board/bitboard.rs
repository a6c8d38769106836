//! [`Bitboard`]: a set of squares of one board, whose formatting is the teaching display.

use crate::{board::size::Size, board::square::Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub, SubAssign};

/// A set of squares on a board of a given size, stored as the bits of a `u64` (`a1` is bit
/// `N*N-1`, the last square bit 0).
///
/// Set operations: `|` union, `&` intersection, `^` symmetric difference, `-` difference, `!`
/// complement within the board. Iteration visits squares by lowest-bit extraction
/// (`x & x.wrapping_neg()`), so from the last square back toward `a1`.
///
/// Formatting is the teaching display: `{}` and `{:#x}` give zero-padded hex of the board's width
/// (4, 9 or 16 digits), `{:b}` the binary grid of N rows of N bits in `a1..` order, and `{:?}` a
/// picture with `X` for members and `.` for the rest.
///
/// ```
/// use othello_explorer::{Bitboard, Size};
/// let black = Bitboard::new(Size::Four, 0x0240);
/// assert_eq!(black.to_string(), "0x0240");
/// assert_eq!(format!("{black:b}"), "0000\n0010\n0100\n0000");
/// assert_eq!(black.count(), 2);
/// let names: Vec<String> = black.iter().map(|s| s.to_string()).collect();
/// assert_eq!(names, ["b3", "c2"]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bitboard {
    bits: u64,
    size: Size,
}

impl Bitboard {
    /// The set with the given bits; bits beyond the board are dropped.
    pub const fn new(size: Size, bits: u64) -> Bitboard {
        Bitboard { bits: bits & size.full(), size }
    }

    /// No square.
    pub const fn empty(size: Size) -> Bitboard {
        Bitboard { bits: 0, size }
    }

    /// Every square of the board.
    pub const fn full(size: Size) -> Bitboard {
        Bitboard { bits: size.full(), size }
    }

    /// The set of one square (empty if the square is not on the board).
    pub const fn from_square(size: Size, square: Square) -> Bitboard {
        if square.is_on(size) { Bitboard { bits: square.mask(size), size } } else { Bitboard::empty(size) }
    }

    /// The bits.
    pub const fn bits(self) -> u64 {
        self.bits
    }

    /// The board size.
    pub const fn size(self) -> Size {
        self.size
    }

    /// How many squares: the population count.
    pub const fn count(self) -> u32 {
        self.bits.count_ones()
    }

    /// Whether no square is in the set.
    pub const fn is_empty(self) -> bool {
        self.bits == 0
    }

    /// Whether `square` is in the set.
    pub const fn contains(self, square: Square) -> bool {
        square.is_on(self.size) && self.bits & square.mask(self.size) != 0
    }

    /// The square of the lowest set bit (the member nearest the last square), if any.
    pub const fn lowest(self) -> Option<Square> {
        if self.bits == 0 { None } else { Square::from_bit(self.size, self.bits.trailing_zeros()) }
    }

    /// The members.
    pub const fn iter(self) -> Squares {
        Squares { bits: self.bits, size: self.size }
    }

    /// The members in reading order, `a1` first.
    pub fn reading_order(self) -> Vec<Square> {
        let mut v: Vec<Square> = self.iter().collect();
        v.sort();
        v
    }

    /// The hex text of the board's width, with `0x`: `0x0240`.
    pub fn hex(self) -> String {
        format!("{self:#x}")
    }

    /// The N rows of N bits, `a1` first, as `0` and `1` characters.
    pub fn binary_rows(self) -> Vec<String> {
        let n = self.size.n();
        (0..n)
            .map(|row| {
                (0..n)
                    .map(|col| if self.bits >> crate::board::geometry::bit(n, col, row) & 1 == 1 { '1' } else { '0' })
                    .collect()
            })
            .collect()
    }
}

/// The squares of a [`Bitboard`], lowest bit first.
#[derive(Clone, Debug)]
pub struct Squares {
    bits: u64,
    size: Size,
}

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.bits == 0 {
            return None;
        }
        let lowest = self.bits & self.bits.wrapping_neg();
        self.bits ^= lowest;
        Square::from_bit(self.size, lowest.trailing_zeros())
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.bits.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;
    fn into_iter(self) -> Squares {
        self.iter()
    }
}

macro_rules! set_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, |$a:ident, $b:ident| $e:expr) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                debug_assert_eq!(self.size, rhs.size, "bitboards of different sizes");
                let ($a, $b) = (self.bits, rhs.bits);
                Bitboard { bits: $e, size: self.size }
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_method(&mut self, rhs: Bitboard) {
                *self = $trait::$method(*self, rhs);
            }
        }
    };
}

set_op!(BitOr, bitor, BitOrAssign, bitor_assign, |a, b| a | b);
set_op!(BitAnd, bitand, BitAndAssign, bitand_assign, |a, b| a & b);
set_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, |a, b| a ^ b);
set_op!(Sub, sub, SubAssign, sub_assign, |a, b| a & !b);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard { bits: !self.bits & self.size.full(), size: self.size }
    }
}

impl fmt::LowerHex for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let prefix = if f.alternate() { "0x" } else { "" };
        write!(f, "{prefix}{:0width$x}", self.bits, width = self.size.hex_digits())
    }
}

impl fmt::UpperHex for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let prefix = if f.alternate() { "0x" } else { "" };
        write!(f, "{prefix}{:0width$X}", self.bits, width = self.size.hex_digits())
    }
}

impl fmt::Binary for Bitboard {
    /// The grid of N rows of N bits; `{:#b}` puts the rows on one line, separated by `_`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if f.alternate() { "_" } else { "\n" };
        f.write_str(&self.binary_rows().join(sep))
    }
}

impl fmt::Display for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:#x}")
    }
}

impl fmt::Debug for Bitboard {
    /// `Bitboard(0x0240)` and, with `{:#?}`, the picture: one row per line, `X` in, `.` out.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            for (i, row) in self.binary_rows().iter().enumerate() {
                if i > 0 {
                    writeln!(f)?;
                }
                let cells: Vec<&str> = row.chars().map(|c| if c == '1' { "X" } else { "." }).collect();
                write!(f, "{}", cells.join(" "))?;
            }
            Ok(())
        } else {
            write!(f, "Bitboard({self:#x})")
        }
    }
}

/// A [`Bitboard`] drawn as a picture: rows of `X` (member) and `.` (not), whitespace ignored. The
/// number of cells decides the size (16, 36 or 64).
///
/// ```
/// use othello_explorer::bitboard;
/// let b = bitboard! {
///     . . . .
///     . . X .
///     . X . .
///     . . . .
/// };
/// assert_eq!(b.bits(), 0x0240);
/// ```
#[macro_export]
macro_rules! bitboard {
    ($($t:tt)*) => {
        $crate::board::bitboard::Bitboard::from_picture(stringify!($($t)*))
            .expect("a bitboard picture has 16, 36 or 64 cells of X and .")
    };
}

impl Bitboard {
    /// Reads a picture of `X` and `.` cells (whitespace ignored), as [`bitboard!`] writes it.
    pub fn from_picture(picture: &str) -> Option<Bitboard> {
        let cells: Vec<char> = picture.chars().filter(|c| !c.is_whitespace()).collect();
        let size = Size::from_squares(cells.len())?;
        let mut bits = 0u64;
        for (i, c) in cells.iter().enumerate() {
            match c {
                'X' | 'x' | '1' => bits |= 1u64 << (size.squares() - 1 - i),
                '.' | '0' => {}
                _ => return None,
            }
        }
        Some(Bitboard::new(size, bits))
    }
}
