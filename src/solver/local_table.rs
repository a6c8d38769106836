//! The small table of each search thread: the bounds of the exact search's nodes with
//! [`SHALLOW`] to [`LOCAL_TABLE_MAX`] empties, kept where that thread's cache holds them
//! instead of in the shared table ([`super::table`]), as Egaroucid keeps its nodes of 7 to 12
//! empties: those of [`SHALLOW`]` + 1` and more for the exact search's nodes (`search.rs`),
//! those of [`SHALLOW`] for the top node of the endgame path (`endgame.rs`).
//!
//! A probe of the shared table almost always misses the cache, and near the leaves the nodes are
//! the most numerous and the cheapest to search again: there a table that fits in the core's
//! second-level cache (a few hundred KiB) answers in a few nanoseconds and, since the
//! transpositions near the end are close together in the tree, finds most of what the shared
//! table found. Each thread has its own, so no entry is shared or torn and none needs a lock.
//!
//! **Layout.** One direct-mapped array of [`LOCAL_TABLE_SLOTS`] slots per number of empties; a
//! slot holds the position itself (both bitboards, so a hit is never a collision), its lower and
//! upper bound on the exact score, its best move, and a tag naming the board size, the scoring
//! (a 6x6 and an 8x8 position can have the same bits, and the scores of one position differ
//! between the scorings) and the shared table whose searches found them ([`Table::id`]: so a
//! solver's searches see only their own bounds, as in the shared table, and what a thread kept
//! for one solver never changes what another finds or counts). A store for the same position
//! merges (the tighter bounds), any other replaces what the slot held. A node asks for its
//! children's slots before it reads any ([`prefetch`]), so that their misses overlap.
//!
//! **Facts only.** The bounds are proven facts about a position's exact score under a scoring,
//! true in every later search: no generation, no depth, no selectivity. That holds because no
//! search prunes below [`PROBCUT_END_MIN`](super::settings::PROBCUT_END_MIN) empties (a
//! selective pass is exact there), which a compile-time assertion ties to [`LOCAL_TABLE_MAX`]. A
//! search that was stopped stores nothing (`search.rs`), here as in the shared table.

use super::frontiers::prunes_exact;
use super::settings::{LOCAL_TABLE_MAX, LOCAL_TABLE_SLOTS, SHALLOW};
use super::table::{NO_MOVE, Table, prefetch_line};
use std::cell::UnsafeCell;

const _: () = assert!(!prunes_exact(LOCAL_TABLE_MAX), "the local table holds only bounds no search pruned");
const _: () = assert!(LOCAL_TABLE_SLOTS.is_power_of_two());

/// The numbers of empties the table keeps.
const LEVELS: usize = (LOCAL_TABLE_MAX - SHALLOW + 1) as usize;

/// One position's bounds: `data` packs the lower bound (bits 0-7), the upper bound (8-15), the
/// best move (16-23), the tag (24-55) and an occupied bit (56).
#[derive(Clone, Copy)]
struct Slot {
    p: u64,
    o: u64,
    data: u64,
}

const OCCUPIED: u64 = 1 << 56;

impl Slot {
    const EMPTY: Slot = Slot { p: 0, o: 0, data: 0 };

    #[inline(always)]
    fn holds(&self, tag: u32, p: u64, o: u64) -> bool {
        self.p == p && self.o == o && self.data & OCCUPIED != 0 && (self.data >> 24) as u32 == tag
    }

    #[inline(always)]
    fn bounds(&self) -> Bounds {
        Bounds {
            lower: self.data as u8 as i8 as i32,
            upper: (self.data >> 8) as u8 as i8 as i32,
            best: (self.data >> 16) as u8,
        }
    }
}

thread_local! {
    static TABLE: UnsafeCell<[[Slot; LOCAL_TABLE_SLOTS]; LEVELS]> =
        const { UnsafeCell::new([[Slot::EMPTY; LOCAL_TABLE_SLOTS]; LEVELS]) };
}

/// What the table knows of a position: its exact score is within `lower..=upper`; `best` is the
/// move that found the bound, or [`NO_MOVE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Bounds {
    pub lower: i32,
    pub upper: i32,
    pub best: u8,
}

/// The tag of the bounds a search of `table` finds on a board of side `n` under a scoring
/// (`discs`: `Scoring::Discs`). (The table's number is cut to 24 bits: a slot left by the table
/// 16,777,216 tables before could be read as this one's.)
pub(super) fn tag(table: &Table, n: usize, discs: bool) -> u32 {
    table.id() << 8 | (n as u32) << 1 | discs as u32
}

/// Whether the exact search keeps a node with `empties` empties here (and not in the shared
/// table).
#[inline(always)]
pub(super) fn keeps(empties: u32) -> bool {
    empties <= LOCAL_TABLE_MAX
}

/// Runs `f` on this thread's slot for a position with `empties` empties (at least
/// [`SHALLOW`], at most [`LOCAL_TABLE_MAX`]) and shared-table hash `h`.
#[inline(always)]
fn with_slot<T>(empties: u32, h: u64, f: impl FnOnce(&mut Slot) -> T) -> T {
    debug_assert!(empties >= SHALLOW && keeps(empties));
    // The shared table picks its bucket from bits 20 and up; these are other bits of the hash.
    let i = (h >> 40) as usize & (LOCAL_TABLE_SLOTS - 1);
    TABLE.with(|t| {
        // SAFETY: the table is this thread's own, and the reference lives only for this call,
        // which makes no other call into the table.
        let t = unsafe { &mut *t.get() };
        f(&mut t[(empties - SHALLOW) as usize][i])
    })
}

/// Asks for the cache line of this thread's slot for a position with `empties` empties (at
/// least [`SHALLOW`], at most [`LOCAL_TABLE_MAX`]) and shared-table hash `h`, ahead of its
/// [`probe`]: a node asks for every child's before it reads any (`Searcher::sorted_moves`).
#[inline(always)]
pub(super) fn prefetch(empties: u32, h: u64) {
    with_slot(empties, h, |s| prefetch_line::<Slot>(s));
}

/// The bounds this thread holds for position `p` (to move) against `o`, with `empties` empties
/// and shared-table hash `h`, tagged `tag`.
#[inline(always)]
pub(super) fn probe(tag: u32, empties: u32, h: u64, p: u64, o: u64) -> Option<Bounds> {
    with_slot(empties, h, |s| s.holds(tag, p, o).then(|| s.bounds()))
}

/// Keeps bounds `lower..=upper` and best move `best` ([`NO_MOVE`]: none) for the position; for
/// one already there, the tighter bounds of both (the best move kept if the new search found
/// none).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn store(tag: u32, empties: u32, h: u64, p: u64, o: u64, lower: i8, upper: i8, best: u8) {
    with_slot(empties, h, |s| {
        let (mut lower, mut upper, mut best) = (lower, upper, best);
        if s.holds(tag, p, o) {
            let old = s.bounds();
            lower = lower.max(old.lower as i8);
            upper = upper.min(old.upper as i8);
            if best == NO_MOVE {
                best = old.best;
            }
        }
        *s = Slot {
            p,
            o,
            data: (lower as u8 as u64)
                | (upper as u8 as u64) << 8
                | (best as u64) << 16
                | (tag as u64) << 24
                | OCCUPIED,
        };
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_bounds_and_tells_sizes_scorings_and_tables_apart() {
        let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        let h = super::super::table::hash(8, p, o);
        let mut table = Table::new(1);
        let standard = tag(&table, 8, false);
        assert_eq!(probe(standard, 9, h, p, o), None);
        store(standard, 9, h, p, o, -4, 64, 12);
        store(standard, 9, h, p, o, -64, 2, NO_MOVE);
        assert_eq!(probe(standard, 9, h, p, o), Some(Bounds { lower: -4, upper: 2, best: 12 }));
        // The same bits under the other scoring, read as a 6x6 position, or searched with another
        // table (or this one cleared) are other entries.
        assert_eq!(probe(tag(&table, 8, true), 9, h, p, o), None);
        assert_eq!(probe(tag(&table, 6, false), 9, h, p, o), None);
        assert_eq!(probe(tag(&Table::new(1), 8, false), 9, h, p, o), None);
        table.clear();
        assert_eq!(probe(tag(&table, 8, false), 9, h, p, o), None);
        // Another position in the same slot replaces it.
        let q = p ^ 1;
        store(standard, 9, h, q, o, 0, 0, 3);
        assert_eq!(probe(standard, 9, h, p, o), None);
        assert_eq!(probe(standard, 9, h, q, o), Some(Bounds { lower: 0, upper: 0, best: 3 }));
        // Each thread has its own table.
        std::thread::spawn(move || assert_eq!(probe(standard, 9, h, q, o), None)).join().unwrap();
    }
}
