//! Visiting each empty square by lowest-bit extraction: `x & x.wrapping_neg()` (that is `x & -x`
//! in two's complement) isolates the lowest set bit, `x ^= lowest` clears it. The engine's
//! [`crate::board::bitboard::Squares`] iterator and the solver's move loops walk masks this way, so the
//! squares come from the last square back toward `a1`.

use super::{Step, Steps, Value};
use crate::{board::bitboard::Bitboard, board::position::Position, board::square::Square};

/// The steps and the set of squares visited (the empty squares).
pub fn trace(position: &Position) -> (Vec<Step>, Value) {
    let size = position.size();
    let n = size.n();
    let (player, opponent) = position.raw();
    let mut s = Steps::new();
    let mut x = !(player | opponent) & size.full();
    s.mask(
        "x",
        format!("!(player | opponent) & full_mask({n})"),
        size,
        x,
        crate::notation::printable::count(i64::from(x.count_ones()), "empty square", "empty squares"),
    );
    let mut visited = 0u64;
    let mut i = 0;
    while x != 0 {
        i += 1;
        s.group(format!("{i}"));
        let lowest = x & x.wrapping_neg();
        let bit = lowest.trailing_zeros();
        let square = Square::from_bit(size, bit).expect("a bit of the board");
        s.mask(
            "lowest",
            "x & x.wrapping_neg()",
            size,
            lowest,
            format!("-x flips every bit above the lowest set one, so the AND keeps only it: bit {bit}, {square}"),
        );
        x ^= lowest;
        visited |= lowest;
        let note =
            if x == 0 { "nothing left: every empty square visited".to_string() } else { format!("{square} done") };
        s.mask("x", "x ^= lowest", size, x, note);
    }
    s.group("");
    s.mask(
        "visited",
        "the OR of every lowest",
        size,
        visited,
        "every empty square once, from the last square toward a1 (the order of Bitboard::iter)",
    );
    (s.done(), Value::Mask(Bitboard::new(size, position.empty().bits())))
}
