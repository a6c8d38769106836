//! Making a move with XOR, as [`Position::play_flips`] does: `player ^= flips | square`,
//! `opponent ^= flips`, then the sides swap; the same XOR again undoes it.

use super::{Step, Steps, Value, names};
use crate::{board::bitboard::Bitboard, board::position::Position, board::square::Square};

/// The steps and the position after the legal move `square`.
pub fn trace(position: &Position, square: Square) -> (Vec<Step>, Value) {
    let size = position.size();
    let (player, opponent) = position.raw();
    let sq = square.bit(size);
    let bit = square.mask(size);
    let flips = position.flips(square).bits();
    let mut s = Steps::new();
    s.mask("player", "player", size, player, format!("the discs of {}, the side to move", position.to_move()));
    s.mask("opponent", "opponent", size, opponent, format!("the discs of {}", position.to_move().opponent()));
    s.mask("square", format!("1 << {sq}"), size, bit, format!("the move {square} is bit {sq}"));
    s.mask(
        "flips",
        format!("flips::<{}>(player, opponent, {sq})", size.n()),
        size,
        flips,
        format!("the discs it flips: {} (see the flips topic)", names(Bitboard::new(size, flips))),
    );
    s.group("move");
    let new_player = player ^ (flips | bit);
    let new_opponent = opponent ^ flips;
    s.mask("player", "player ^ (flips | square)", size, new_player, "the flipped discs and the new disc become ours");
    s.mask("opponent", "opponent ^ flips", size, new_opponent, "the flipped discs stop being theirs");
    s.group("undo");
    let back_player = new_player ^ (flips | bit);
    let back_opponent = new_opponent ^ flips;
    s.mask(
        "player",
        "player ^ (flips | square)",
        size,
        back_player,
        "XOR is its own inverse: the same update gives the discs back, so a search takes a move back without \
         storing the board",
    );
    s.mask("opponent", "opponent ^ flips", size, back_opponent, "the opponent's discs as they were");
    debug_assert_eq!((back_player, back_opponent), (player, opponent));
    s.group("");
    let next = position.play_flips(bit, flips);
    s.push(
        "next position",
        "Position { player: opponent ^ flips, opponent: player ^ flips ^ square }",
        Value::Position(next),
        format!("the sides swap: {} moves next (Position::play_flips)", next.to_move()),
    );
    let result = position.play(square).expect("the trace is made for legal moves");
    (s.done(), Value::Position(result))
}
