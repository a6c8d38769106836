//! The concepts Othello players reason with, as masks made of shifts and ands: stable discs,
//! frontier discs and potential mobility, the empty regions and their parity, the corners with
//! their X- and C-squares, and mobility. The explorer's bitboard panel shows them, `explain`
//! teaches them step by step ([`crate::studies::trace`]), and review states its reasons with them
//! ([`crate::studies::review`]).
//!
//! # Conventions
//!
//! Every function takes raw bitboards of a board of [`Size`] in the project's layout (`a1` the most
//! significant used bit) and works for 4x4, 6x6 and 8x8. `own` and `other` are two sides' discs;
//! which side is which is the caller's (the side to move and its opponent, or black and white).
//!
//! - **Stable discs** ([`stable`]): the solver's own set ([`crate::board::stability::stable_discs`]): a disc
//!   is stable when along each of the four lines through it the line is full, or a neighbour on
//!   it is the board's edge or a stable disc of its colour; grown from none to the fixed point.
//!   It is a *subset* of the discs that can never be flipped: a disc can be safe for reasons these
//!   lines do not see (`docs/bitboards.md`, "Stable discs", shows a position).
//! - **Frontier discs** ([`frontier`]): a side's discs next to an empty square (any of the eight
//!   directions). **Potential mobility** ([`potential_mobility`]): the empty squares next to the
//!   other side's discs, the squares a side may one day play.
//! - **Regions** ([`regions`]): the empty squares split into groups joined through empty
//!   neighbours (eight directions), by a flood fill of shifts; each with its size, its parity and
//!   who can move into it ([`Region`]).
//! - **Corners, X- and C-squares** ([`corners`], [`x_squares`], [`c_squares`]): the four corners;
//!   the squares diagonally next to them; the edge squares next to them.
//! - **Mobility**: the legal-move masks ([`crate::board::rules::legal_moves`]).
//!
//! ```
//! use othello_explorer::board::concepts::{corners, frontier, potential_mobility, regions};
//! use othello_explorer::{Position, Size};
//!
//! let start = Position::start(Size::Eight);
//! let (black, white) = (start.black().bits(), start.white().bits());
//! assert_eq!(frontier(Size::Eight, black, white), black); // every disc of the start touches an empty square
//! assert_eq!(potential_mobility(Size::Eight, black, white).count_ones(), 10);
//! assert_eq!(regions(Size::Eight, black | white).len(), 1);
//! assert_eq!(corners(Size::Eight), 0x8100_0000_0000_0081);
//! ```

use crate::board::geometry::{bit, neighbours, spread};
use crate::board::rules::legal_moves;
use crate::board::size::Size;
use crate::board::stability::stable_discs;
use crate::with_size;

/// The four corners of an `n x n` board.
pub const fn corners(size: Size) -> u64 {
    let n = size.n();
    let m = n - 1;
    (1 << bit(n, 0, 0)) | (1 << bit(n, m, 0)) | (1 << bit(n, 0, m)) | (1 << bit(n, m, m))
}

/// The X-squares: the squares diagonally next to a corner (`b2`, `g2`, `b7`, `g7` on 8x8).
pub const fn x_squares(size: Size) -> u64 {
    let n = size.n();
    let m = n - 2;
    (1 << bit(n, 1, 1)) | (1 << bit(n, m, 1)) | (1 << bit(n, 1, m)) | (1 << bit(n, m, m))
}

/// The C-squares: the edge squares next to a corner (`b1`, `a2`, `g1`, `h2`, … on 8x8).
pub const fn c_squares(size: Size) -> u64 {
    neighbours(size.n(), corners(size)) & !x_squares(size)
}

/// The corner next to each X- or C-square `square` (a bit mask of one square): the corner it
/// touches (one; on 4x4 a C-square touches one corner too).
pub const fn corner_of(size: Size, square: u64) -> u64 {
    neighbours(size.n(), square) & corners(size)
}

/// The X-squares whose corner is empty on a board whose discs are `filled` (whatever stands on
/// them): a disc there is a way into that corner for the other side.
pub const fn x_beside_empty_corner(size: Size, filled: u64) -> u64 {
    let empty_corners = corners(size) & !filled;
    let mut risky = 0;
    let mut xs = x_squares(size);
    while xs != 0 {
        let x = xs & xs.wrapping_neg();
        xs ^= x;
        if corner_of(size, x) & empty_corners != 0 {
            risky |= x;
        }
    }
    risky
}

/// The discs of `own` next to an empty square.
pub const fn frontier(size: Size, own: u64, other: u64) -> u64 {
    let empty = size.full() & !(own | other);
    own & neighbours(size.n(), empty)
}

/// The empty squares next to a disc of `other`: where `own` may play one day.
pub const fn potential_mobility(size: Size, own: u64, other: u64) -> u64 {
    let empty = size.full() & !(own | other);
    empty & neighbours(size.n(), other)
}

/// The stable discs of `own` against `other` (the solver's set; see the module docs).
pub fn stable(size: Size, own: u64, other: u64) -> u64 {
    with_size!(size, N => stable_discs::<N>(own, other))
}

/// The empty squares of the board whose discs are `filled`, split into regions joined through
/// empty neighbours: one mask each, in reading order of their first square. At most 32 (a
/// region has at least one square and no two touch).
pub fn regions(size: Size, filled: u64) -> Vec<u64> {
    let mut rest = size.full() & !filled;
    let mut out = Vec::new();
    while rest != 0 {
        // The first square in reading order: the highest bit.
        let seed = 1u64 << (63 - rest.leading_zeros());
        let region = spread(size.n(), rest, seed);
        out.push(region);
        rest &= !region;
    }
    out
}

/// An empty region and who can move into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// Its squares.
    pub squares: u64,
    /// The squares of it where the side to move can play now.
    pub mover: u64,
    /// The squares of it where the opponent could play now (were it to move).
    pub opponent: u64,
}

impl Region {
    /// Its number of squares.
    pub const fn size(&self) -> u32 {
        self.squares.count_ones()
    }

    /// Whether it has an odd number of squares: the side that moves last in it gets the region's
    /// last disc (the parity of Othello's endgames).
    pub const fn is_odd(&self) -> bool {
        self.size() % 2 == 1
    }
}

/// The regions of the position `(p, o)` (`p` to move), with each side's legal moves in them.
pub fn regions_of(size: Size, p: u64, o: u64) -> Vec<Region> {
    let (mine, theirs) = with_size!(size, N => (legal_moves::<N>(p, o), legal_moves::<N>(o, p)));
    regions(size, p | o)
        .into_iter()
        .map(|squares| Region { squares, mover: mine & squares, opponent: theirs & squares })
        .collect()
}

/// Every concept of one position at once, from black's and white's points of view: what the
/// explorer's panel shows and what review compares before and after a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Concepts {
    /// The board's side.
    pub size: Size,
    /// Black's and white's stable discs.
    pub stable: [u64; 2],
    /// Black's and white's frontier discs.
    pub frontier: [u64; 2],
    /// Black's and white's potential mobility.
    pub potential: [u64; 2],
    /// Black's and white's legal moves (whoever is to move).
    pub mobility: [u64; 2],
    /// The empty regions, with the legal moves of the side to move and of its opponent.
    pub regions: Vec<Region>,
    /// The empty corners black and white can take now.
    pub corners_open: [u64; 2],
    /// The X-squares with a disc beside an empty corner (a way into that corner for the other
    /// side), black's and white's.
    pub x_risk: [u64; 2],
}

impl Concepts {
    /// The concepts of black's discs `black` and white's `white`, `p` being the side to move's
    /// (to tell the regions' mover).
    pub fn of(size: Size, black: u64, white: u64, black_to_move: bool) -> Concepts {
        let (p, o) = if black_to_move { (black, white) } else { (white, black) };
        let mobility = with_size!(size, N => [legal_moves::<N>(black, white), legal_moves::<N>(white, black)]);
        let risky = x_beside_empty_corner(size, black | white);
        Concepts {
            size,
            stable: [stable(size, black, white), stable(size, white, black)],
            frontier: [frontier(size, black, white), frontier(size, white, black)],
            potential: [potential_mobility(size, black, white), potential_mobility(size, white, black)],
            mobility,
            regions: regions_of(size, p, o),
            corners_open: [mobility[0] & corners(size), mobility[1] & corners(size)],
            x_risk: [black & risky, white & risky],
        }
    }

    /// Black's mobility less white's.
    pub fn mobility_difference(&self) -> i32 {
        self.mobility[0].count_ones() as i32 - self.mobility[1].count_ones() as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_square_masks_of_every_size() {
        use Size::*;
        assert_eq!(corners(Four), 0x9009);
        assert_eq!(x_squares(Four), 0x0660);
        assert_eq!(c_squares(Four), 0x6996);
        assert_eq!(x_squares(Eight), 0x0042_0000_0000_4200);
        assert_eq!(c_squares(Eight), 0x4281_0000_0000_8142);
        assert_eq!(c_squares(Six).count_ones(), 8);
        assert_eq!(corner_of(Eight, 1 << 54), 1 << 63);
    }

    #[test]
    fn regions_split_the_empties_and_cover_them() {
        // 4x4: the middle column b full, so a and c..d are apart.
        let filled = 0x4444;
        let r = regions(Size::Four, filled);
        assert_eq!(r, vec![0x8888, 0x3333]);
    }
}
