//! Weak proof-number search (Ueda, Hashimoto, Hashimoto and Iida, "Weak Proof-Number Search",
//! CG 2008), depth-first with thresholds as in df-pn, for one yes/no question at a time.
//!
//! Written in negamax form: every node holds `(pn, dn)` for the question its side to move
//! answers, `pn` the work left to prove "yes", `dn` to prove "no". The answer is yes when some
//! child's answer is no, so with `k` children not yet known to answer yes:
//!
//! - `pn = min(child dn)`: one child refuted suffices;
//! - `dn = max(child pn) + (k - 1)`: every child must be shown to answer yes. Proof-number search
//!   sums the children's numbers here, which counts a position reached along two paths twice;
//!   the weak number takes the hardest child and adds one for each other child instead. A child
//!   already known to answer yes (`pn = 0`) is left out of `k`, so a node whose children all
//!   answer yes gets `dn = 0`.
//!
//! A finished game is `(0, ∞)` when its answer is yes and `(∞, 0)` when it is no; a position of
//! [`LEAF_EMPTIES`] empty squares or fewer is decided at once by unsorted alpha-beta, as in the
//! article. A node not yet searched counts `(1, 1)`.
//!
//! The search ([`Wpns::mid`]) is df-pn's: a node is searched until its `pn` reaches the threshold
//! `th_pn` or its `dn` reaches `th_dn`. Each round fetches the children's numbers from the table,
//! computes the node's own, and searches the child with the smallest `dn` with the thresholds
//! `th_pn(child) = th_dn - (k - 1)` (the child's `pn` may grow until the node's `dn` would reach
//! its threshold) and `th_dn(child) = min(th_pn, second smallest dn + 1)`. The root is searched
//! with infinite thresholds, until it is proven or disproven.
//!
//! The [`Table`] has a fixed number of entries (2^10 to 2^21 by the root's empty squares, at most
//! 64 MiB), in buckets of two: a new entry replaces the one with less work under it (nodes
//! searched), so memory never grows. An entry lost only costs a search again; the numbers of the
//! children of the node being searched also live in its own frame, so a lost entry cannot make a
//! node forget what its last child search found.

use super::alpha_beta::{answer, expand};
use super::{Counter, LEAF_EMPTIES, Outcome, Question, by_questions, empties, final_sign};
use std::time::{Duration, Instant};

/// Infinity: the number of a node that can no longer be proven (or disproven).
pub const INF: u32 = u32::MAX;

/// The weak numbers of a node from its children's `(pn, dn)`, in negamax form: `(min dn, max pn
/// + k - 1)` with `k` the children whose `pn` is not 0.
///
/// ```
/// use othello_explorer::studies::lab::outcome::wpns::{INF, weak_numbers};
/// // Three children: the node is as easy to prove as its easiest child is to refute, and as
/// // hard to refute as its hardest child is to prove plus one for each other child.
/// assert_eq!(weak_numbers(&[(2, 3), (5, 1), (1, 4)]), (1, 5 + 2));
/// // A child refuted: proven. Every child proven: refuted.
/// assert_eq!(weak_numbers(&[(2, 3), (INF, 0)]), (0, INF));
/// assert_eq!(weak_numbers(&[(0, INF), (0, INF)]), (INF, 0));
/// // A proven child no longer counts among the children left to prove.
/// assert_eq!(weak_numbers(&[(0, INF), (3, 2), (4, 2)]), (2, 4 + 1));
/// ```
pub fn weak_numbers(children: &[(u32, u32)]) -> (u32, u32) {
    let pn = children.iter().map(|c| c.1).min().unwrap_or(INF);
    let open = children.iter().filter(|c| c.0 != 0);
    let (count, hardest) = open.fold((0u32, 0u32), |(k, m), c| (k + 1, m.max(c.0)));
    let dn = if count == 0 { 0 } else { hardest.saturating_add(count - 1) };
    (pn, dn)
}

/// One table entry: the position, the question, its numbers and the work under them.
#[derive(Clone, Copy, Default)]
struct Entry {
    player: u64,
    opponent: u64,
    pn: u32,
    dn: u32,
    work: u32,
    question: u8,
}

/// A transposition table of fixed size, in buckets of two entries.
struct Table {
    entries: Vec<Entry>,
    bits: u32,
}

impl Table {
    /// A table of `2^bits` entries (at least 2).
    fn new(bits: u32) -> Table {
        let bits = bits.max(1);
        Table { entries: vec![Entry::default(); 1 << bits], bits }
    }

    /// The first entry of the bucket of a key.
    #[inline]
    fn bucket(&self, p: u64, o: u64, q: u8) -> usize {
        let h = (p ^ o.rotate_left(29) ^ q as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let h = (h ^ (h >> 31)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        ((h >> (64 - self.bits)) as usize) & !1
    }

    #[inline]
    fn get(&self, p: u64, o: u64, q: Question) -> Option<(u32, u32)> {
        let q = q.bit();
        let i = self.bucket(p, o, q);
        self.entries[i..i + 2]
            .iter()
            .find(|e| e.player == p && e.opponent == o && e.question == q)
            .map(|e| (e.pn, e.dn))
    }

    #[inline]
    fn put(&mut self, p: u64, o: u64, q: Question, (pn, dn): (u32, u32), work: u64) {
        let q = q.bit();
        let i = self.bucket(p, o, q);
        let bucket = &mut self.entries[i..i + 2];
        let slot = match bucket.iter().position(|e| e.player == p && e.opponent == o && e.question == q) {
            Some(j) => j,
            None if bucket[0].work <= bucket[1].work => 0,
            None => 1,
        };
        let work = work.min(u32::MAX as u64) as u32;
        let e = &mut bucket[slot];
        let work = if e.player == p && e.opponent == o && e.question == q { work.max(e.work) } else { work };
        *e = Entry { player: p, opponent: o, pn, dn, work, question: q };
    }
}

/// The table's size for a root with `empties` empty squares: small positions need few entries,
/// and clearing 64 MiB would cost more than solving them.
fn table_bits(empties: u32) -> u32 {
    match empties {
        0..=12 => 10,
        13..=16 => 14,
        17..=20 => 18,
        _ => 21,
    }
}

/// The numbers of a question answered yes and no.
const YES: (u32, u32) = (0, INF);
const NO: (u32, u32) = (INF, 0);

/// A weak proof-number search of an `N x N` board.
pub(super) struct Wpns<'c, 'a, const N: usize> {
    counter: &'c mut Counter<'a>,
    table: Table,
    selecting: Duration,
}

impl<const N: usize> Wpns<'_, '_, N> {
    /// Searches `(p, o)` for `q` until `pn >= th_pn` or `dn >= th_dn`; returns its numbers
    /// (meaningless once the counter halts).
    fn mid(&mut self, p: u64, o: u64, q: Question, th_pn: u32, th_dn: u32) -> (u32, u32) {
        let before = self.counter.nodes;
        if self.counter.visit() {
            return (1, 1);
        }
        if empties::<N>(p, o) <= LEAF_EMPTIES {
            let numbers = if answer::<N>(self.counter, p, o, q) { YES } else { NO };
            self.table.put(p, o, q, numbers, self.counter.nodes - before);
            return numbers;
        }
        let mut list = [(0u64, 0u64); 64];
        let Some(count) = expand::<N>(p, o, &mut list) else {
            let numbers = if q.holds(final_sign::<N>(p, o)) { YES } else { NO };
            self.table.put(p, o, q, numbers, 1);
            return numbers;
        };
        let list = &list[..count];
        let child_q = q.child();
        let mut numbers = [(1u32, 1u32); 64];
        let numbers = &mut numbers[..count];
        loop {
            let started = Instant::now();
            for (n, &(cp, co)) in numbers.iter_mut().zip(list) {
                if let Some(found) = self.table.get(cp, co, child_q) {
                    *n = found;
                }
            }
            let (pn, dn) = weak_numbers(numbers);
            if pn >= th_pn || dn >= th_dn {
                self.selecting += started.elapsed();
                self.table.put(p, o, q, (pn, dn), self.counter.nodes - before);
                return (pn, dn);
            }
            // The child easiest to refute, and the second smallest dn.
            let (mut best, mut dn2) = (0, INF);
            for (i, n) in numbers.iter().enumerate().skip(1) {
                if n.1 < numbers[best].1 {
                    dn2 = numbers[best].1;
                    best = i;
                } else if n.1 < dn2 {
                    dn2 = n.1;
                }
            }
            let open = numbers.iter().filter(|n| n.0 != 0).count() as u32;
            let child_th_pn = if th_dn == INF { INF } else { th_dn - (open - 1) };
            let child_th_dn = th_pn.min(dn2.saturating_add(1));
            self.selecting += started.elapsed();
            let (cp, co) = list[best];
            numbers[best] = self.mid(cp, co, child_q, child_th_pn, child_th_dn);
            if self.counter.halted() {
                return (pn, dn);
            }
        }
    }

    /// The answer to `q` at the root (`None` once the counter halts).
    fn answer(&mut self, p: u64, o: u64, q: Question) -> Option<bool> {
        let (pn, _) = self.mid(p, o, q, INF, INF);
        (!self.counter.halted()).then_some(pn == 0)
    }
}

/// The outcome of `(p, o)` by WPNS, and the time spent selecting (`None` once the counter halts).
pub(super) fn prove<const N: usize>(counter: &mut Counter, p: u64, o: u64) -> Option<(Outcome, Duration)> {
    let table = Table::new(table_bits(empties::<N>(p, o)));
    let mut search = Wpns::<N> { counter, table, selecting: Duration::ZERO };
    let outcome = by_questions(|q| search.answer(p, o, q))?;
    Some((outcome, search.selecting))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-built tree: the weak numbers of a node, and why they differ from proof numbers.
    #[test]
    fn weak_numbers_of_a_hand_built_tree() {
        // Leaves not yet searched count (1, 1). A node over three of them: pn 1 (refute any
        // one), dn 1 + 2 (prove all three; proof-number search would say 3 too).
        let leaf = (1, 1);
        let a = weak_numbers(&[leaf, leaf, leaf]);
        assert_eq!(a, (1, 3));
        // Two such nodes and a third over two leaves: pn = min dn = 2, dn = max pn + 2 = 3.
        let b = weak_numbers(&[leaf, leaf]);
        assert_eq!(b, (1, 2));
        let root = weak_numbers(&[a, a, b]);
        assert_eq!(root, (2, 1 + 2));
        // The same position reached along two paths is counted once by the max; a sum would
        // count it twice.
        let shared = (4, 1);
        assert_eq!(weak_numbers(&[shared, shared]).1, 4 + 1);
        // Solved children: one refuted child proves the node; proven children drop out.
        assert_eq!(weak_numbers(&[a, NO]), YES);
        assert_eq!(weak_numbers(&[YES, YES, YES]), NO);
        assert_eq!(weak_numbers(&[YES, (2, 5)]), (5, 2));
        // The pass: one child, its numbers swapped.
        assert_eq!(weak_numbers(&[(3, 7)]), (7, 3));
    }

    #[test]
    fn the_table_keeps_what_it_can_and_replaces_the_lighter_entry() {
        let mut t = Table::new(1); // one bucket of two
        t.put(1, 2, Question::Win, (3, 4), 100);
        t.put(1, 2, Question::NotLoss, (5, 6), 10);
        assert_eq!(t.get(1, 2, Question::Win), Some((3, 4)));
        assert_eq!(t.get(1, 2, Question::NotLoss), Some((5, 6)));
        // A third key replaces the entry with less work under it.
        t.put(7, 8, Question::Win, (1, 2), 50);
        assert_eq!(t.get(1, 2, Question::Win), Some((3, 4)));
        assert_eq!(t.get(1, 2, Question::NotLoss), None);
        assert_eq!(t.get(7, 8, Question::Win), Some((1, 2)));
        // Updating a key keeps the larger work.
        t.put(7, 8, Question::Win, (0, INF), 1);
        assert_eq!(t.get(7, 8, Question::Win), Some((0, INF)));
        assert_eq!(t.entries.len(), 2);
    }
}
