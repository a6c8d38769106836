//! Legal moves, direction by direction: for each of the eight directions the shift and its edge
//! mask, `t = (player << s) & (opponent & mask)`, the `N-3` propagation steps
//! `t |= (t << s) & m`, the candidates `(t << s) & empty`, and the union of the eight.
//!
//! The directions, shifts and edge masks are [`crate::board::geometry`]'s, the ones
//! [`crate::board::rules::legal_moves_scalar`] uses. The kernel lengthens a run by doubling once it is two
//! long (`pre = m & (m << s)`, then `t |= pre & (t << 2s)`), which reaches the same squares in
//! fewer steps on 6x6 and 8x8; the trace shows the plain one-square-at-a-time form and the tests
//! check its union against [`crate::board::rules::legal_moves`].

use super::{Step, Steps, Value, names};
use crate::board::geometry::{DIRECTIONS, Direction, full_mask};
use crate::{board::bitboard::Bitboard, board::position::Position, with_size};

/// Why a direction's opponent discs are masked as they are; `first` gives the full reason, later
/// directions of the same kind a short reminder.
pub(crate) fn edge_note(d: &Direction, n: usize, first: bool) -> String {
    let last = (b'a' + n as u8 - 1) as char;
    let before_last = (b'a' + n as u8 - 2) as char;
    match (d.dcol == 0, first) {
        (true, true) => format!(
            "the whole board: a vertical step cannot wrap; a disc shifted past row 1 or row {n} leaves the \
             board's bits, and the AND with the opponent's discs drops it"
        ),
        (true, false) => "the whole board: vertical steps cannot wrap".to_string(),
        (false, true) => format!(
            "columns b to {before_last} only: a shift by {} carries a disc off one edge column onto the other \
             edge of the next row (wrap-around); a run that flips never passes through column a or {last}, so \
             the opponent's discs there are dropped",
            d.shift(n)
        ),
        (false, false) => format!("columns b to {before_last} only, against wrap-around (see west)"),
    }
}

/// The steps and the legal-move mask of `position`.
pub fn trace(position: &Position) -> (Vec<Step>, Value) {
    let size = position.size();
    let n = size.n();
    let (player, opponent) = position.raw();
    let mut s = Steps::new();
    let empty = !(player | opponent) & full_mask(n);
    s.mask("player", "player", size, player, format!("the discs of {}, the side to move", position.to_move()));
    s.mask("opponent", "opponent", size, opponent, format!("the discs of {}", position.to_move().opponent()));
    s.mask(
        "empty",
        format!("!(player | opponent) & full_mask({n})"),
        size,
        empty,
        "the squares a move may go to: neither side's, within the board's bits",
    );
    let mut union = 0u64;
    for (i, d) in DIRECTIONS.iter().enumerate() {
        let sh = d.shift(n);
        let op = d.operator();
        let mask = d.edge_mask(n);
        s.group(format!("{} ({op} {sh})", d.name));
        let mask_expr = if d.dcol == 0 { format!("full_mask({n})") } else { format!("inner_columns({n})") };
        s.mask("edge mask", mask_expr.clone(), size, mask, edge_note(d, n, i == 0 || (i == 2 && d.dcol == 0)));
        let m = opponent & mask;
        let note = if i == 0 { "the opponent's discs a run may pass through" } else { "" };
        s.mask("m", format!("opponent & {mask_expr}"), size, m, note);
        let mut t = d.step(n, player) & m;
        s.mask(
            "t",
            format!("(player {op} {sh}) & m"),
            size,
            t,
            format!(
                "our discs moved one square {}, kept where they land on an opponent disc: the first square of \
                 each run ({})",
                d.name,
                names(Bitboard::new(size, t))
            ),
        );
        for k in 1..=n - 3 {
            let before = t;
            t |= d.step(n, t) & m;
            let grown = Bitboard::new(size, t & !before);
            let note = if grown.is_empty() {
                "no run grows".to_string()
            } else {
                format!("the runs grow by one square: {}", names(grown))
            };
            s.mask(format!("step {k}"), format!("t |= (t {op} {sh}) & m"), size, t, note);
        }
        let moves = d.step(n, t) & empty;
        union |= moves;
        let note = if moves == 0 {
            "no run ends on an empty square: no move this way".to_string()
        } else {
            format!("one square past a run, and empty: {}", names(Bitboard::new(size, moves)))
        };
        s.mask("moves", format!("(t {op} {sh}) & empty"), size, moves, note);
    }
    s.group("");
    let legal = with_size!(size, N => crate::board::rules::legal_moves::<N>(player, opponent));
    debug_assert_eq!(union, legal);
    s.mask(
        "legal",
        "moves.iter().fold(0, |legal, m| legal | m)",
        size,
        union,
        format!("the union of the eight directions: {}", names(Bitboard::new(size, union))),
    );
    (s.done(), Value::Mask(Bitboard::new(size, legal)))
}
