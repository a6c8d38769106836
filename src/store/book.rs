//! The opening book: every position of the first plies solved, each child of each scored.
//!
//! [`SHIPPED_6X6`] is the 6x6 book that comes with the program (`data/book-6x6.txt`, in the
//! [`super::text`] form, built by `othello-explorer book --size 6`); [`shipped`] yields its
//! entries. With the `store` feature, [`build`] makes a book into a [`Store`]: the positions of the
//! first plies, and optionally every position along the perfect lines with each of its children
//! expanded one ply further, so the perfect lines and their near neighbours are known at once.
//! See `docs/store.md` for what each ply costs and why the shipped book stops where it does.

use super::text;
use super::{Entry, Key, Stored};
use crate::board::symmetry::canonical;
use crate::{
    board::position::{Position, Scoring},
    board::size::Size,
};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::OnceLock;

/// The shipped 6x6 book, in the text form of `store export`.
pub const SHIPPED_6X6: &str = include_str!("../../data/book-6x6.txt");

/// The entries of the shipped 6x6 book.
///
/// ```
/// use othello_explorer::store::book;
/// use othello_explorer::{Position, Size};
/// let start = Position::start(Size::Six);
/// let entry = book::shipped().find(|e| e.position == start).unwrap();
/// assert_eq!(entry.stored.score(), Some(-4)); // white wins 20-16
/// ```
pub fn shipped() -> impl Iterator<Item = Entry> {
    SHIPPED_6X6
        .lines()
        .filter_map(|line| text::parse_entry(line).expect("the shipped book parses (tests/store.rs checks)"))
}

/// What the shipped book knows of `position` under `scoring`, its best move in `position`'s
/// orientation (symmetric twins found too). Read from the text compiled into the program, so it
/// needs no file and waits for no other program: the analysis falls back on it when the store
/// lacks an entry (a store that could not take the book's merge, or none at all).
///
/// ```
/// use othello_explorer::store::book;
/// use othello_explorer::{Position, Scoring, Size};
/// let start = Position::start(Size::Six);
/// assert_eq!(book::lookup(&start, Scoring::Standard).unwrap().score(), Some(-4));
/// assert_eq!(book::lookup(&Position::start(Size::Four), Scoring::Standard), None);
/// ```
pub fn lookup(position: &Position, scoring: Scoring) -> Option<Stored> {
    static BOOK: OnceLock<FxHashMap<Key, Stored>> = OnceLock::new();
    if position.size() != Size::Six {
        return None;
    }
    let book = BOOK.get_or_init(|| shipped().map(|e| e.canonical()).collect());
    let (key, symmetry) = Key::of(position, scoring);
    book.get(&key).map(|s| s.mapped(position.size(), symmetry.inverse()))
}

/// The distinct positions (symmetric twins counted once) at each ply from the start of `size`,
/// ply 0 (the start) to `plies`. A pass counts as a ply; finished games have no successors.
///
/// ```
/// use othello_explorer::{Size, store::book::positions_by_ply};
/// let counts: Vec<usize> = positions_by_ply(Size::Six, 3).iter().map(Vec::len).collect();
/// assert_eq!(counts, [1, 1, 3, 14]);
/// ```
pub fn positions_by_ply(size: Size, plies: u32) -> Vec<Vec<Position>> {
    let mut levels = vec![vec![Position::start(size)]];
    for _ in 0..plies {
        let mut seen = FxHashSet::default();
        let mut next = Vec::new();
        for position in levels.last().expect("ply 0 is there") {
            let successors: Vec<Position> = if position.is_game_over() {
                vec![]
            } else if position.must_pass() {
                vec![position.pass()]
            } else {
                position.legal_moves().reading_order().into_iter().map(|sq| position.play(sq).expect("legal")).collect()
            };
            for child in successors {
                if seen.insert(canonical(&child).0) {
                    next.push(child);
                }
            }
        }
        levels.push(next);
    }
    levels
}

// Building a book is an analysis: `analyst::book` (the store's floor only holds its positions and
// the shipped book).
