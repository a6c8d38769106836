//! Corners, X- and C-squares as masks: the four corners from their bits; the X-squares, diagonally
//! next to a corner, and the C-squares, the edge squares next to one (the corners' neighbours,
//! [`crate::board::geometry::neighbours`], less the X-squares); then their status on the board: the
//! corners each side can take now (its legal moves ANDed with the corners), and the X-squares
//! with a disc beside an empty corner (a way into that corner for the other side later: a disc
//! there can be outflanked along the diagonal).
//!
//! A corner disc can never be flipped, and it anchors the edges and diagonals through it, so
//! players fight for corners and avoid giving them away. The tests compare the masks with
//! [`crate::board::concepts`].

use super::{Step, Steps, Value, names};
use crate::board::concepts::{c_squares, corners, x_beside_empty_corner, x_squares};
use crate::board::geometry::neighbours;
use crate::{board::bitboard::Bitboard, board::position::Position, with_size};

/// The steps and the corners the side to move can take now.
pub fn trace(position: &Position) -> (Vec<Step>, Value) {
    let size = position.size();
    let n = size.n();
    let m = n - 1;
    let (player, opponent) = position.raw();
    let (me, you) = (position.to_move(), position.to_move().opponent());
    let mut s = Steps::new();
    let c = corners(size);
    s.mask(
        "corners",
        format!("bit(0, 0) | bit({m}, 0) | bit(0, {m}) | bit({m}, {m})"),
        size,
        c,
        "the four corners: a disc there can never be flipped",
    );
    let x = x_squares(size);
    s.mask(
        "x-squares",
        format!("bit(1, 1) | bit({}, 1) | bit(1, {}) | bit({}, {})", m - 1, m - 1, m - 1, m - 1),
        size,
        x,
        format!("diagonally next to a corner: {}", names(Bitboard::new(size, x))),
    );
    let around = neighbours(n, c);
    s.mask("around", "neighbours(corners)", size, around, "every square next to a corner");
    let cs = c_squares(size);
    s.mask(
        "c-squares",
        "around & !x_squares",
        size,
        cs,
        format!("the edge squares next to a corner: {}", names(Bitboard::new(size, cs))),
    );
    let empty = !(player | opponent) & size.full();
    let open = c & empty;
    s.mask("empty corners", "corners & empty", size, open, format!("{} of 4 still empty", open.count_ones()));
    let (mine, yours) = with_size!(size, N => (
        crate::board::rules::legal_moves::<N>(player, opponent),
        crate::board::rules::legal_moves::<N>(opponent, player),
    ));
    s.group("status");
    s.mask(
        "mine",
        "legal_moves(player, opponent) & corners",
        size,
        mine & c,
        if mine & c == 0 {
            format!("{me} can take no corner now")
        } else {
            format!("{me} can take {} now", names(Bitboard::new(size, mine & c)))
        },
    );
    s.mask(
        "theirs",
        "legal_moves(opponent, player) & corners",
        size,
        yours & c,
        if yours & c == 0 {
            format!("{you} could take no corner now")
        } else {
            format!("{you} could take {} were it to move", names(Bitboard::new(size, yours & c)))
        },
    );
    let risky = x_beside_empty_corner(size, player | opponent);
    s.mask(
        "x beside empty",
        "x_beside_empty_corner(player | opponent)",
        size,
        risky,
        "X-squares whose corner is empty",
    );
    for (who, discs, label) in [(me, player, "my risky x"), (you, opponent, "their risky x")] {
        let taken = discs & risky;
        s.mask(
            label,
            if label.starts_with("my") { "player & x beside empty" } else { "opponent & x beside empty" },
            size,
            taken,
            if taken == 0 {
                format!("{who} has no disc on an X-square beside an empty corner")
            } else {
                format!(
                    "{who}'s {} beside an empty corner: the diagonal through it may let the other side into the \
                     corner",
                    names(Bitboard::new(size, taken))
                )
            },
        );
    }
    (s.done(), Value::Mask(Bitboard::new(size, mine & c)))
}
