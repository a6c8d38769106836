//! What is kept between runs: the analyst's link to the [`Store`] of proven results (see
//! `docs/store.md`).
//!
//! Before a position is searched, its children are looked up (by canonical key, so a symmetric
//! twin solved yesterday counts): an exact score is shown at once and not searched again, a
//! proven bound shows as a win or a loss until the search does better. After the search, whatever
//! it proved (every exact child, every win/loss/draw, and the position's own score once every
//! child is exact) is written back in one transaction, also when the user moved on before the
//! search finished. In the explorer all of it runs on the solver thread, never on the UI thread.

use crate::solver::{ChildValue, Kind};
use crate::store::{Source, Store, StoreError, Stored, book};
use crate::{
    board::position::{Position, Scoring},
    board::square::Square,
};
use std::path::Path;

/// Opens the store at `path` and merges the shipped 6x6 book into it (once per book version).
/// On failure, the message to show; the explorer goes on without a store.
pub fn open(path: &Path) -> Result<(Store, Option<String>), String> {
    let store = Store::open(path).map_err(|e| e.to_string())?;
    let note = match store.merge_shipped_book() {
        Ok(Some(summary)) if summary.added > 0 => Some(format!(
            "store {}: the 6x6 book added ({})",
            path.display(),
            crate::notation::printable::count(summary.added as i64, "position", "positions")
        )),
        Ok(_) => None,
        Err(e) => Some(e.to_string()),
    };
    Ok((store, note))
}

/// The values the store holds for the children of `position` (from its side to move): exact
/// scores, and wins or losses proven by bounds, each with the source of the entry it came from.
/// A child the store lacks is looked up in the shipped book ([`book::lookup`]), which needs no
/// file: the book answers even when its merge into the store could not be made.
pub fn known_children(
    store: &Store,
    position: &Position,
    scoring: Scoring,
) -> Result<Vec<(ChildValue, Source)>, StoreError> {
    let moves = position.legal_moves().reading_order();
    let queries: Vec<(Position, Scoring)> =
        moves.iter().map(|&sq| (position.play(sq).expect("a legal move"), scoring)).collect();
    let found = store.get_many(&queries)?;
    let mut known = Vec::new();
    for ((&square, stored), (child, _)) in moves.iter().zip(found).zip(&queries) {
        let Some(s) = stored.or_else(|| book::lookup(child, scoring)) else { continue };
        // The child's entry is from the child's side to move: the parent's value is its negation.
        let (lower, upper) = (-s.upper, -s.lower);
        let value = if lower == upper {
            Some((lower, Kind::Exact))
        } else if lower > 0 {
            Some((1, Kind::Wld))
        } else if upper < 0 {
            Some((-1, Kind::Wld))
        } else {
            None
        };
        if let Some((score, kind)) = value {
            known.push((ChildValue { square, score, kind }, s.source));
        }
    }
    Ok(known)
}

/// Writes what a search proved about `position`'s children, and the position's own exact score
/// and best move when every child is exact, with the source `source`. Estimates are not kept: they are not proofs.
///
/// A value is only as trustworthy as what it was derived from: when any child's value came from
/// an imported entry (`imported`), the position's own score is kept with the source
/// [`Source::Import`], never laundered into `source`.
pub fn keep(
    store: &Store,
    position: &Position,
    scoring: Scoring,
    children: &[ChildValue],
    source: Source,
    imported: &[Square],
) -> Result<(), StoreError> {
    let max = position.size().squares() as i32;
    let mut entries = Vec::new();
    for c in children {
        let Ok(child) = position.play(c.square) else { continue };
        // From the child's side to move: the negation of the parent's value.
        let (lower, upper) = match c.kind {
            Kind::Exact => (-c.score, -c.score),
            Kind::Wld if c.score > 0 => (-max, -1),
            Kind::Wld if c.score < 0 => (1, max),
            Kind::Wld => (0, 0),
            Kind::Estimate { .. } => continue,
        };
        entries.push((child, scoring, Stored { lower, upper, best: None, source }));
    }
    let moves = position.legal_moves().count() as usize;
    let exact: Vec<&ChildValue> = children.iter().filter(|c| c.kind == Kind::Exact).collect();
    if moves > 0 && exact.len() == moves {
        let best = exact.iter().max_by_key(|c| (c.score, std::cmp::Reverse(c.square))).expect("a move");
        let derived = if children.iter().any(|c| imported.contains(&c.square)) { Source::Import } else { source };
        let stored = Stored::exact(best.score, Some(best.square), derived);
        entries.push((*position, scoring, stored));
    }
    if entries.is_empty() {
        return Ok(());
    }
    store.put_many(&entries).map(|_| ())
}

/// The perfect line from `position` as far as the store knows it: at each step the stored best
/// move (checked legal; the shipped book's where the store has none), passes taken as they come;
/// stops at the first position neither has a best move for. Returns the moves and the position
/// where the line stops.
pub fn stored_line(store: &Store, position: &Position, scoring: Scoring) -> (Vec<Square>, Position) {
    let mut moves = Vec::new();
    let (mut pos, _) = position.after_forced_pass();
    while !pos.is_game_over() {
        let Some(stored) = store.get(&pos, scoring).ok().flatten().or_else(|| book::lookup(&pos, scoring)) else {
            break;
        };
        let Some(best) = stored.best.filter(|&sq| stored.is_exact() && pos.legal_moves().contains(sq)) else {
            break;
        };
        moves.push(best);
        pos = pos.play(best).expect("a legal move").after_forced_pass().0;
    }
    (moves, pos)
}
