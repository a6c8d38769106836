//! The eight images of the position under the symmetries of the square
//! ([`crate::board::symmetry::Symmetry::apply`]) and the canonical key ([`crate::board::symmetry::canonical`]):
//! the smallest `(player, opponent)` pair among them, shared by all eight symmetric twins.
//!
//! First the three moves every symmetry is made of, with their masked shifts (the mirror of the
//! columns, the flip of the rows, the transpose along the diagonals, as `symmetry.rs` does them),
//! then each image as a composition of them, and where it takes `a1` and `b1`.
//!
//! A transposition table keyed by it would answer a position from any of its twins. The solver's
//! table ([`crate::solver::table::hash`]) hashes `(player, opponent)` as they stand: at the depth
//! of an exact endgame search the twins are rare, and eight images per node would cost more than
//! they save.

use super::{Step, Steps, Value};
use crate::board::geometry::{column_mask, row_mask};
use crate::board::symmetry::{Symmetry, canonical};
use crate::{board::bitboard::Bitboard, board::position::Position, board::size::Size, board::square::Square};

/// `x >> s` or `x << -s` as Rust writes it.
fn shifted(x: &str, s: i32) -> String {
    match s.signum() {
        1 => format!("({x}) >> {s}"),
        -1 => format!("({x}) << {}", -s),
        _ => x.to_string(),
    }
}

/// The expression of the mirror: one masked shift per column.
fn mirror_expression(n: usize) -> String {
    (0..n)
        .map(|c| {
            let col = (b'a' + c as u8) as char;
            shifted(&format!("player & col_{col}"), n as i32 - 1 - 2 * c as i32)
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

/// The expression of the flip: one masked shift per row.
fn flip_expression(n: usize) -> String {
    (0..n)
        .map(|r| shifted(&format!("player & row_{}", r + 1), (n as i32 - 1 - 2 * r as i32) * n as i32))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// The expression of the transpose: the diagonal `row - col = k` shifts by `k(N-1)`.
fn transpose_expression(n: usize) -> String {
    let mut parts = vec!["player & diag_0".to_string()];
    for k in 1..n as i32 {
        let s = k * (n as i32 - 1);
        parts.push(shifted(&format!("player & diag_+{k}"), -s));
        parts.push(shifted(&format!("player & diag_-{k}"), s));
    }
    parts.join(" | ")
}

/// What a symmetry is made of, as an expression of the three moves applied to `x`.
fn composition(sym: Symmetry, x: &str) -> String {
    match sym {
        Symmetry::Identity => x.to_string(),
        Symmetry::MirrorColumns => format!("mirror({x})"),
        Symmetry::FlipRows => format!("flip({x})"),
        Symmetry::Rotate180 => format!("flip(mirror({x}))"),
        Symmetry::Transpose => format!("transpose({x})"),
        Symmetry::Rotate90 => format!("mirror(transpose({x}))"),
        Symmetry::Rotate270 => format!("flip(transpose({x}))"),
        Symmetry::AntiTranspose => format!("flip(mirror(transpose({x})))"),
    }
}

/// Where a symmetry takes the corner `a1` and the square `b1`: what sets the eight apart.
fn where_it_goes(sym: Symmetry, size: Size) -> String {
    let a1 = Square::new(0, 0).expect("a1");
    let b1 = Square::new(1, 0).expect("b1");
    format!("a1 goes to {}, b1 to {}", sym.apply_square(size, a1), sym.apply_square(size, b1))
}

/// The steps and the canonical key.
pub fn trace(position: &Position) -> (Vec<Step>, Value) {
    let size = position.size();
    let n = size.n();
    let (player, opponent) = position.raw();
    let mut s = Steps::new();
    s.group("three moves");
    let last = (b'a' + n as u8 - 1) as char;
    s.mask(
        "mirror",
        mirror_expression(n),
        size,
        Symmetry::MirrorColumns.apply(size, player),
        format!(
            "column a swaps with {last}, b with {}, and so on: each column's mask (col_a = {}, a1 the top \
             bit) shifted right by an odd number of bits on the left half, left on the right half; {n} masked \
             shifts, whatever the discs",
            (b'a' + n as u8 - 2) as char,
            Bitboard::new(size, column_mask(n, 0)),
        ),
    );
    s.mask(
        "flip",
        flip_expression(n),
        size,
        Symmetry::FlipRows.apply(size, player),
        format!(
            "row r moves to row {}-r: the shift is a whole number of rows, {n} bits each (row_1 = {}); \
             no mask against wrapping is needed, a row moves whole",
            n + 1,
            Bitboard::new(size, row_mask(n, 0))
        ),
    );
    s.mask(
        "transpose",
        transpose_expression(n),
        size,
        Symmetry::Transpose.apply(size, player),
        format!(
            "the square (col, row) moves to (row, col): the diagonal row - col = k shifts by k·{} bits, the \
             main diagonal a1-{last}{n} stays",
            n - 1
        ),
    );
    let mut best: Option<((u64, u64), Symmetry)> = None;
    for sym in Symmetry::ALL {
        s.group(sym.name());
        let (p, o) = (sym.apply(size, player), sym.apply(size, opponent));
        let how = match sym {
            Symmetry::Identity => "the position as it is".to_string(),
            _ => format!("{} with the moves above: {}", composition(sym, "x"), where_it_goes(sym, size)),
        };
        s.mask("player", composition(sym, "player"), size, p, how);
        s.mask("opponent", composition(sym, "opponent"), size, o, "");
        if best.is_none_or(|(k, _)| (p, o) < k) {
            best = Some(((p, o), sym));
        }
    }
    s.group("");
    let ((p, o), sym) = best.expect("eight images");
    s.push(
        "canonical key",
        "the smallest (player, opponent) pair",
        Value::Key { player: Bitboard::new(size, p), opponent: Bitboard::new(size, o), symmetry: sym },
        format!(
            "compared as numbers, player first: the {} image is the smallest, and every symmetric twin of this \
             position has the same key",
            sym.name()
        ),
    );
    let ((cp, co), csym) = canonical(position);
    let key = Value::Key { player: Bitboard::new(size, cp), opponent: Bitboard::new(size, co), symmetry: csym };
    (s.done(), key)
}
