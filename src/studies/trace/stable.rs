//! Stable discs, the fixed point along the four lines: a disc is stable when, along each of the
//! four lines through it (west-east, north-east-south-west, north-south, north-west-south-east),
//! the line is full, or a neighbour on it is the board's edge or a stable disc of its colour.
//!
//! 1. For each line, the squares whose line is full, by doubling (a square is kept when the run
//!    of 2, 4, 8 squares from it toward each end is filled as far as the board goes, Edax's
//!    `get_full_lines`), and the squares on the two edges the line ends at: together, the squares
//!    *held* on that line whatever happens elsewhere.
//! 2. The first stable discs: the side's discs held on all four lines (corners, full edges).
//! 3. Rounds: a disc joins when on each line it is held, or its neighbour one way or the other is
//!    already stable (the neighbour masks are the stable set moved one step with the edge masks);
//!    until a round adds nothing.
//!
//! This is the solver's own set ([`crate::board::stability::stable_discs`], used to cut
//! searches), and a subset of the discs that can never be flipped: a disc may be safe for reasons
//! these lines do not see. The tests compare the result with the solver's on random positions.

use super::{Step, Steps, Value, names};
use crate::board::geometry::DIRECTIONS;
use crate::board::stability::{edge_toward_of, from_neighbour_of, full_lines_of, stable_discs};
use crate::{board::bitboard::Bitboard, board::position::Position, with_size};

/// The steps and the side to move's stable discs.
pub fn trace(position: &Position) -> (Vec<Step>, Value) {
    let size = position.size();
    let n = size.n();
    let (player, opponent) = position.raw();
    let (me, you) = (position.to_move(), position.to_move().opponent());
    let mut s = Steps::new();
    s.mask("player", "player", size, player, format!("the discs of {me}, the side to move"));
    let filled = player | opponent;
    s.mask("filled", "player | opponent", size, filled, "every disc: a full line cannot change");
    let mut held = [0u64; 4];
    for (a, slot) in held.iter_mut().enumerate() {
        let (d, e) = (&DIRECTIONS[a], &DIRECTIONS[a + 4]);
        s.group(format!("{}-{}", d.name, e.name));
        let full = full_lines_of(size, filled, a);
        s.mask(
            "full",
            format!("full_lines(filled, {a})"),
            size,
            full,
            if a == 0 {
                format!(
                    "squares whose whole {}-{} line is filled, by doubling: kept while the run of 1, 2, 4 … squares \
                     toward each end is filled as far as the board goes ({} rounds on {n}x{n})",
                    d.name,
                    e.name,
                    if n <= 4 { 2 } else { 3 }
                )
            } else {
                "the same doubling along this line".to_string()
            },
        );
        let edges = edge_toward_of(size, a) | edge_toward_of(size, a + 4);
        s.mask(
            "edges",
            format!("edge_toward({a}) | edge_toward({})", a + 4),
            size,
            edges,
            "squares whose neighbour on this line is off the board: nothing can outflank them along it",
        );
        *slot = full | edges;
        s.mask("held", "full | edges", size, *slot, "held on this line whatever the other discs do");
    }
    s.group("");
    let mut stable = player & held[0] & held[1] & held[2] & held[3];
    s.mask(
        "stable",
        "player & held[0] & held[1] & held[2] & held[3]",
        size,
        stable,
        format!("the first stable discs, held on all four lines: {}", names(Bitboard::new(size, stable))),
    );
    let mut round = 0;
    while stable != 0 {
        round += 1;
        let mut next = player;
        for (a, base) in held.iter().enumerate() {
            next &= base | from_neighbour_of(size, stable, a) | from_neighbour_of(size, stable, a + 4);
        }
        next |= stable;
        s.group(format!("round {round}"));
        let added = next & !stable;
        let note = if added == 0 {
            "nothing added: the fixed point".to_string()
        } else {
            format!(
                "added {}: on every line held, or beside a stable disc (beside[a]: the stable discs moved one step \
                 either way along line a)",
                names(Bitboard::new(size, added))
            )
        };
        s.mask("stable", "stable | player & ∏ (held[a] | beside[a])", size, next, note);
        if next == stable {
            break;
        }
        stable = next;
    }
    s.group("");
    let theirs = with_size!(size, N => stable_discs::<N>(opponent, player));
    s.mask(
        "their stable",
        "the same for opponent",
        size,
        theirs,
        format!("{you}'s stable discs: {} ({})", theirs.count_ones(), names(Bitboard::new(size, theirs))),
    );
    let result = with_size!(size, N => stable_discs::<N>(player, opponent));
    debug_assert_eq!(result, stable);
    (s.done(), Value::Mask(Bitboard::new(size, result)))
}
