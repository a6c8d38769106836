//! Frontier discs and potential mobility, from the neighbour shifts: the empty squares moved one
//! step in each of the eight directions (with the edge masks that keep a step from wrapping), ORed
//! into "next to an empty square"; the side to move's discs there are its frontier, the
//! opponent's its frontier; and the empty squares next to the opponent's discs (the same eight
//! shifts of the opponent's discs) are where the side to move may one day play, its potential
//! mobility.
//!
//! Players count frontier discs because a frontier disc is one the opponent may flip next: few
//! frontier discs and many "walls" for the opponent mean fewer moves for it later. The steps are
//! [`crate::board::geometry::neighbours`]'s; the tests compare the results with
//! [`crate::board::concepts::frontier`] and [`crate::board::concepts::potential_mobility`].

use super::{Step, Steps, Value, names};
use crate::board::concepts::{frontier, potential_mobility};
use crate::board::geometry::{DIRECTIONS, column_mask, neighbours};
use crate::{board::bitboard::Bitboard, board::position::Position};

/// The steps and the side to move's frontier discs.
pub fn trace(position: &Position) -> (Vec<Step>, Value) {
    let size = position.size();
    let n = size.n();
    let (player, opponent) = position.raw();
    let (me, you) = (position.to_move(), position.to_move().opponent());
    let mut s = Steps::new();
    let empty = !(player | opponent) & size.full();
    s.mask("player", "player", size, player, format!("the discs of {me}, the side to move"));
    s.mask("opponent", "opponent", size, opponent, format!("the discs of {you}"));
    s.mask("empty", format!("!(player | opponent) & full_mask({n})"), size, empty, "the empty squares");
    let mut near = 0u64;
    for d in DIRECTIONS.iter() {
        let (op, sh) = (d.operator(), d.shift(n));
        // A step toward column a must not start in it, nor one toward the last column.
        let (from, from_expr) = match d.dcol {
            -1 => (empty & !column_mask(n, 0), "(empty & !column_a)".to_string()),
            1 => (empty & !column_mask(n, n - 1), format!("(empty & !column_{})", (b'a' + n as u8 - 1) as char)),
            _ => (empty, "empty".to_string()),
        };
        let moved = d.step(n, from) & size.full();
        near |= moved;
        s.group(format!("{} ({op} {sh})", d.name));
        s.mask(
            "moved",
            format!("{from_expr} {op} {sh}"),
            size,
            moved,
            format!(
                "each empty square moved one step {}: the squares whose neighbour that way is empty{}",
                d.name,
                if d.dcol == 0 { "" } else { " (an edge column's squares are dropped first, so none wraps)" }
            ),
        );
    }
    debug_assert_eq!(near, neighbours(n, empty));
    s.group("");
    s.mask("near", "the OR of the eight", size, near, "every square next to an empty square");
    let mine = player & near;
    let yours = opponent & near;
    s.mask(
        "frontier",
        "player & near",
        size,
        mine,
        format!(
            "{me}'s frontier: {} ({}), discs the opponent may flip next",
            mine.count_ones(),
            names(Bitboard::new(size, mine))
        ),
    );
    s.mask(
        "their frontier",
        "opponent & near",
        size,
        yours,
        format!("{you}'s frontier: {} ({})", yours.count_ones(), names(Bitboard::new(size, yours))),
    );
    let pot_me = potential_mobility(size, player, opponent);
    let pot_you = potential_mobility(size, opponent, player);
    s.mask(
        "potential",
        "empty & neighbours(opponent)",
        size,
        pot_me,
        format!(
            "{me}'s potential mobility: {} empty squares next to {you}'s discs, where {me} may play one day \
             (the same eight shifts, of the opponent's discs)",
            pot_me.count_ones()
        ),
    );
    s.mask(
        "their potential",
        "empty & neighbours(player)",
        size,
        pot_you,
        format!("{you}'s potential mobility: {} empty squares next to {me}'s discs", pot_you.count_ones()),
    );
    (s.done(), Value::Mask(Bitboard::new(size, frontier(size, player, opponent))))
}
