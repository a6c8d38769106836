//! The boundary between the reference rules (`tests/reference`) and the library: a reference
//! board becomes a library position here, and nowhere else. Kept out of the reference itself so
//! that the reference shares nothing with the code it checks.

#![allow(dead_code)]

use crate::reference::{Board, Side};
use othello_explorer::{Color, Position, Size};
use proptest::prelude::*;

/// The library's size of an `n x n` reference board.
pub fn size_of(n: usize) -> Size {
    Size::from_n(n).unwrap_or_else(|| unreachable!("no {n}x{n} board"))
}

/// The library's position of a reference board.
pub fn to_position(b: &Board) -> Position {
    let to_move = if b.to_move == Side::Black { Color::Black } else { Color::White };
    Position::new(size_of(b.n), b.black_bits(), b.white_bits(), to_move).expect("a well-formed board")
}

/// One of the three board sides.
pub fn any_size() -> impl Strategy<Value = usize> {
    prop_oneof![Just(4usize), Just(6), Just(8)]
}

/// Any arrangement of discs on any size, either side to move (not necessarily reachable).
pub fn any_board() -> impl Strategy<Value = Board> {
    any_size().prop_flat_map(|n| {
        (prop::collection::vec(0u8..3, n * n), any::<bool>()).prop_map(move |(codes, black)| {
            let cells = codes
                .into_iter()
                .map(|c| match c {
                    1 => Some(Side::Black),
                    2 => Some(Side::White),
                    _ => None,
                })
                .collect();
            Board { n, cells, to_move: if black { Side::Black } else { Side::White } }
        })
    })
}
