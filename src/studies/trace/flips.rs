//! The flips of one move, ray by ray, exactly as [`crate::board::rules::flips_scalar`] computes them:
//! toward the high bits (west, north-east, north, north-west) one addition carries through the
//! opponent's discs and stops at the first other square; toward the low bits one leading-zero
//! count finds it. Each direction says where its run of opponent discs ends and why it flips or
//! not.

use super::{Step, Steps, Value, names};
use crate::board::geometry::{DIRECTIONS, rays_of};
use crate::{board::bitboard::Bitboard, board::position::Position, board::square::Square};

/// Where the run from `square` along `ray` ends, in words: the squares of the ray are walked
/// from the move outward.
fn ending(position: &Position, square: Square, dir: usize, ray: u64) -> String {
    let size = position.size();
    let (player, opponent) = position.raw();
    let d = DIRECTIONS[dir];
    if ray == 0 {
        return format!("{square} is on the edge: no square to the {}", d.name);
    }
    let mut run = Vec::new();
    let (mut c, mut r) = (square.col() as i32 + d.dcol, square.row() as i32 + d.drow);
    let n = size.n() as i32;
    while c >= 0 && r >= 0 && c < n && r < n {
        let sq = Square::new(c as usize, r as usize).expect("on the board");
        let bit = sq.mask(size);
        if opponent & bit != 0 {
            run.push(sq.to_string());
        } else if player & bit != 0 {
            return if run.is_empty() {
                format!("the next square {sq} is ours: no opponent disc between, nothing flips")
            } else {
                format!("the run {} ends at our disc on {sq}: outflanked, it flips", run.join(" "))
            };
        } else {
            return if run.is_empty() {
                format!("the next square {sq} is empty: nothing flips")
            } else {
                format!("the run {} ends at the empty square {sq}: not outflanked, nothing flips", run.join(" "))
            };
        }
        c += d.dcol;
        r += d.drow;
    }
    format!("the run {} reaches the edge: not outflanked, nothing flips", run.join(" "))
}

/// The steps and the flip mask of a move on the empty square `square`.
pub fn trace(position: &Position, square: Square) -> (Vec<Step>, Value) {
    let size = position.size();
    let n = size.n();
    let (player, opponent) = position.raw();
    let sq = square.bit(size);
    let rays = &rays_of(n)[sq as usize];
    let mut s = Steps::new();
    s.mask("player", "player", size, player, format!("the discs of {}, the side to move", position.to_move()));
    s.mask("opponent", "opponent", size, opponent, format!("the discs of {}", position.to_move().opponent()));
    s.mask("square", format!("1 << {sq}"), size, 1u64 << sq, format!("the move {square} is bit {sq}"));
    let mut f = 0u64;
    let above = 2u64 << sq;
    for (i, &ray) in rays.iter().enumerate() {
        let d = DIRECTIONS[i];
        s.group(format!("{} ({} {})", d.name, d.operator(), d.shift(n)));
        s.mask(
            "ray",
            format!("RAYS_{n}[{sq}][{i}]"),
            size,
            ray,
            format!("the squares from {square} to the {} edge: {}", d.name, names(Bitboard::new(size, ray))),
        );
        let flips = if i < 4 {
            // Toward the high bits: the carry runs through the opponent discs and the off-ray bits.
            let outflank = ((opponent | !ray).wrapping_add(above)) & player & ray;
            s.mask(
                "outflank",
                format!("((opponent | !ray).wrapping_add(2 << {sq})) & player & ray"),
                size,
                outflank,
                if i == 0 {
                    "adding the bit above the move carries through every opponent disc (and every bit off the \
                     ray, set by !ray) and stops at the first other square; kept if it is ours"
                } else {
                    ""
                },
            );
            let fl = outflank.wrapping_sub((outflank != 0) as u64) & ray;
            s.mask(
                "flips",
                "outflank.wrapping_sub((outflank != 0) as u64) & ray",
                size,
                fl,
                ending(position, square, i, ray),
            );
            fl
        } else {
            // Toward the low bits: the first non-opponent square is the highest bit of ray & !o.
            let first = (1u64 << 63) >> ((ray & !opponent) | 1).leading_zeros();
            s.mask(
                "first",
                "(1 << 63) >> ((ray & !opponent) | 1).leading_zeros()",
                size,
                first,
                if i == 4 {
                    "the highest ray square that is not the opponent's: the first one after the run (| 1 keeps \
                     the count defined when there is none)"
                } else {
                    ""
                },
            );
            let outflank = first & player & ray;
            let note = if i == 4 { "kept if that square is ours" } else { "" };
            s.mask("outflank", "first & player & ray", size, outflank, note);
            let fl = (outflank << 1).wrapping_neg() & ray;
            s.mask("flips", "(outflank << 1).wrapping_neg() & ray", size, fl, ending(position, square, i, ray));
            fl
        };
        f |= flips;
    }
    s.group("");
    s.mask(
        "flips",
        "flips.iter().fold(0, |all, f| all | f)",
        size,
        f,
        if f == 0 {
            format!("{square} flips nothing: it is not a legal move")
        } else {
            format!("{square} flips {}", names(Bitboard::new(size, f)))
        },
    );
    (s.done(), Value::Mask(position.flips(square)))
}
