//! The eight images of the position under the symmetries of the square
//! ([`crate::symmetry::Symmetry::apply`]) and the canonical key ([`crate::symmetry::canonical`]):
//! the smallest `(player, opponent)` pair among them, shared by all eight symmetric twins.
//!
//! A transposition table keyed by it would answer a position from any of its twins. The solver's
//! table ([`crate::solver::table::hash`]) hashes `(player, opponent)` as they stand: at the depth
//! of an exact endgame search the twins are rare, and eight images per node would cost more than
//! they save.

use super::{Step, Steps, Value};
use crate::symmetry::{Symmetry, canonical};
use crate::{Bitboard, Position};

fn variant(s: Symmetry) -> &'static str {
    match s {
        Symmetry::Identity => "Identity",
        Symmetry::MirrorColumns => "MirrorColumns",
        Symmetry::FlipRows => "FlipRows",
        Symmetry::Rotate180 => "Rotate180",
        Symmetry::Transpose => "Transpose",
        Symmetry::Rotate90 => "Rotate90",
        Symmetry::Rotate270 => "Rotate270",
        Symmetry::AntiTranspose => "AntiTranspose",
    }
}

fn size_name(n: usize) -> &'static str {
    match n {
        4 => "Size::Four",
        6 => "Size::Six",
        _ => "Size::Eight",
    }
}

/// The steps and the canonical key.
pub fn trace(position: &Position) -> (Vec<Step>, Value) {
    let size = position.size();
    let sz = size_name(size.n());
    let (player, opponent) = position.raw();
    let mut s = Steps::new();
    let mut best: Option<((u64, u64), Symmetry)> = None;
    for sym in Symmetry::ALL {
        s.group(sym.name());
        let (p, o) = (sym.apply(size, player), sym.apply(size, opponent));
        let how = match sym {
            Symmetry::Identity => "the position as it is".to_string(),
            _ => format!("{}: whole columns, rows or diagonals move with one masked shift each", sym.name()),
        };
        s.mask("player", format!("Symmetry::{}.apply({sz}, player)", variant(sym)), size, p, how);
        s.mask("opponent", format!("Symmetry::{}.apply({sz}, opponent)", variant(sym)), size, o, "");
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
