//! The three board sizes and the masks every size needs.
//!
//! A board of `N x N` squares uses the low `N*N` bits of a `u64`; `a1` is bit `N*N-1`.

use std::fmt;

/// The side of the board: 4x4, 6x6 or 8x8.
///
/// ```
/// use othello_explorer::Size;
/// assert_eq!(Size::Six.n(), 6);
/// assert_eq!(Size::Four.full(), 0xffff);
/// assert_eq!(Size::from_squares(36), Some(Size::Six));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Size {
    Four = 4,
    Six = 6,
    Eight = 8,
}

impl Size {
    /// Every size, smallest first.
    pub const ALL: [Size; 3] = [Size::Four, Size::Six, Size::Eight];

    /// Squares on a side.
    pub const fn n(self) -> usize {
        self as usize
    }

    /// Squares on the board, `N*N`.
    pub const fn squares(self) -> usize {
        self.n() * self.n()
    }

    /// The mask of every square of the board: the low `N*N` bits.
    pub const fn full(self) -> u64 {
        crate::board::geometry::full_mask(self.n())
    }

    /// Hex digits needed to show a mask of this size: 4, 9 or 16.
    pub const fn hex_digits(self) -> usize {
        self.squares().div_ceil(4)
    }

    /// The size with `n` squares on a side.
    pub const fn from_n(n: usize) -> Option<Size> {
        match n {
            4 => Some(Size::Four),
            6 => Some(Size::Six),
            8 => Some(Size::Eight),
            _ => None,
        }
    }

    /// The size with `squares` squares in all (16, 36 or 64), as a board string's length gives.
    pub const fn from_squares(squares: usize) -> Option<Size> {
        match squares {
            16 => Some(Size::Four),
            36 => Some(Size::Six),
            64 => Some(Size::Eight),
            _ => None,
        }
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.n(), self.n())
    }
}
