//! Regions and parity: the empty squares split into regions by a flood fill of shifts. Take the
//! first empty square left (the highest bit), then grow it by its neighbours among the empty
//! squares (the eight shifts of [`crate::board::geometry::neighbours`], ANDed with the empty
//! squares) until a step adds nothing: that is one region; remove it and start again.
//!
//! In an endgame the regions are played out almost separately. A region with an odd number of
//! squares is one where the side that moves first there may also move last, taking its last disc,
//! which the opponent cannot flip back: *parity*. Who can move into a region (the legal moves of
//! each side within it) says who may start it. The tests compare the regions with
//! [`crate::board::concepts::regions`].

use super::{Step, Steps, Value, names};
use crate::board::concepts::regions_of;
use crate::board::geometry::neighbours;
use crate::{board::bitboard::Bitboard, board::position::Position};

/// The steps and the squares of the odd regions.
pub fn trace(position: &Position) -> (Vec<Step>, Value) {
    let size = position.size();
    let n = size.n();
    let (player, opponent) = position.raw();
    let (me, you) = (position.to_move(), position.to_move().opponent());
    let mut s = Steps::new();
    let empty = !(player | opponent) & size.full();
    s.mask("empty", format!("!(player | opponent) & full_mask({n})"), size, empty, "the squares to split");
    let mut rest = empty;
    let mut odd = 0u64;
    let mut k = 0;
    let regions = regions_of(size, player, opponent);
    while rest != 0 {
        k += 1;
        s.group(format!("region {k}"));
        let seed = 1u64 << (63 - rest.leading_zeros());
        s.mask(
            "seed",
            "1 << (63 - rest.leading_zeros())",
            size,
            seed,
            format!("the first empty square left in reading order: {}", names(Bitboard::new(size, seed))),
        );
        let mut reached = seed;
        loop {
            let next = reached | (neighbours(n, reached) & rest);
            if next == reached {
                break;
            }
            s.mask(
                "grown",
                "reached | (neighbours(reached) & rest)",
                size,
                next,
                format!("added {}", names(Bitboard::new(size, next & !reached))),
            );
            reached = next;
        }
        let region = regions.iter().find(|r| r.squares == reached).copied();
        let (mine, yours) = region.map_or((0, 0), |r| (r.mover, r.opponent));
        let count = reached.count_ones();
        if count % 2 == 1 {
            odd |= reached;
        }
        let who = match (mine != 0, yours != 0) {
            (true, true) => format!("both can move into it ({me} at {}, {you} at {})", sq(size, mine), sq(size, yours)),
            (true, false) => format!("only {me} can move into it ({})", sq(size, mine)),
            (false, true) => format!("only {you} can move into it ({})", sq(size, yours)),
            (false, false) => "neither side can move into it now".to_string(),
        };
        s.mask(
            "region",
            "reached (a step added nothing)",
            size,
            reached,
            format!(
                "{count} square{}, {}; {who}",
                if count == 1 { "" } else { "s" },
                if count % 2 == 1 { "odd" } else { "even" }
            ),
        );
        rest &= !reached;
        s.mask("rest", "rest & !region", size, rest, if rest == 0 { "every empty square placed" } else { "" });
    }
    s.group("");
    let total = empty.count_ones();
    s.mask(
        "odd regions",
        "the regions of odd size",
        size,
        odd,
        format!(
            "{k} region{} in all, {total} empty squares ({}): {}",
            if k == 1 { "" } else { "s" },
            if total % 2 == 1 { "odd: with no pass, the side to move plays the last square" } else { "even" },
            if odd == 0 { "no odd region".to_string() } else { names(Bitboard::new(size, odd)) }
        ),
    );
    let result = regions.iter().filter(|r| r.is_odd()).fold(0, |m, r| m | r.squares);
    (s.done(), Value::Mask(Bitboard::new(size, result)))
}

fn sq(size: crate::board::size::Size, mask: u64) -> String {
    names(Bitboard::new(size, mask))
}
