//! A node of the search and what passes between nodes (floor 0 of the search core, `mod.rs`):
//! the [`Node`] (a position with what its regime keeps, its plies left and empties), the
//! alpha-beta [`Window`], a [`Move`] of a node's list with the helpers that take the list best
//! first ([`best_first`], [`sort_by_key`]), and the fail-soft helpers every node routine shares:
//! [`raise`] (one child's value in the loop), [`table_cutoff`] (what a table entry's bounds
//! settle) and [`bounds`] (what a node's result proves). Small `Copy` values and `#[inline(always)]`
//! functions: nothing here searches.

/// One child's value `v` in a fail-soft alpha-beta loop: raises `best`, and `alpha` when `v`
/// passes it; true when `v` reaches `beta` (a cutoff: the loop stops).
#[inline(always)]
pub(crate) fn raise(v: i32, best: &mut i32, alpha: &mut i32, beta: i32) -> bool {
    if v > *best {
        *best = v;
        if v > *alpha {
            *alpha = v;
            return v >= beta;
        }
    }
    false
}

/// What a table entry's bounds (`lower`, `upper`) settle for a node with window `w`: a lower
/// bound at or above `beta` or an exact value is the result, an upper bound at or below `alpha`
/// too.
#[inline(always)]
pub(super) fn table_cutoff(lower: i32, upper: i32, w: Window) -> Option<i32> {
    if lower >= w.beta || lower == upper {
        Some(lower)
    } else if upper <= w.alpha {
        Some(upper)
    } else {
        None
    }
}

/// The bounds a node's fail-soft result `best` proves, with window `w` as the node was entered: a
/// lower bound when it reached `beta`, an upper bound when it stayed at or below `alpha`, else
/// the exact value. `max`: the largest score.
#[inline(always)]
pub(super) fn bounds(best: i32, w: Window, max: i8) -> (i8, i8) {
    if best >= w.beta {
        (best as i8, max)
    } else if best <= w.alpha {
        (-max, best as i8)
    } else {
        (best as i8, best as i8)
    }
}

/// A node of the search: the position (`p` to move against `o`), what the regime keeps with it
/// (`x`, `Regime::State`: the estimate's pattern indexes), the plies left (`depth`; the exact
/// regime passes the empties) and the empties (`n`). Small and `Copy`: the node routines pass it
/// by value.
pub(super) struct Node<'x, S> {
    pub p: u64,
    pub o: u64,
    pub x: &'x S,
    pub depth: u32,
    pub n: u32,
}

// By hand: derived, they would ask `S: Copy` of what is only borrowed.
impl<S> Clone for Node<'_, S> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for Node<'_, S> {}

impl<S> Node<'_, S> {
    /// The same node after a pass: the other side to move, `x` what travels with it then; a pass
    /// uses no ply.
    #[inline(always)]
    pub fn passed(self, x: &S) -> Node<'_, S> {
        Node { p: self.o, o: self.p, x, depth: self.depth, n: self.n }
    }

    /// The child that move `m` reaches, `x` what travels with it: one ply and one empty fewer.
    #[inline(always)]
    pub fn child<'y>(self, m: &Move, x: &'y S) -> Node<'y, S> {
        Node { p: self.o ^ m.flips, o: self.p ^ m.flips ^ (1 << m.sq), x, depth: self.depth - 1, n: self.n - 1 }
    }
}

/// An alpha-beta window: a value at or below `alpha` fails low, at or above `beta` high.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Window {
    pub alpha: i32,
    pub beta: i32,
}

impl Window {
    /// The null window above `alpha`: (`alpha`, `alpha + 1`).
    #[inline(always)]
    pub fn null(alpha: i32) -> Window {
        Window { alpha, beta: alpha + 1 }
    }

    /// The window from the other side: (`-beta`, `-alpha`).
    #[inline(always)]
    pub fn negated(self) -> Window {
        Window { alpha: -self.beta, beta: -self.alpha }
    }
}

/// A move with its flips and sort key.
#[derive(Clone, Copy, Default)]
pub(super) struct Move {
    pub(super) sq: u32,
    pub(super) flips: u64,
    pub(super) key: i32,
}

/// Sorts moves by key, highest first, ties in the order given: an insertion sort, as the lists
/// are short.
#[inline(always)]
pub(super) fn sort_by_key(list: &mut [Move]) {
    for i in 1..list.len() {
        let m = list[i];
        let mut j = i;
        while j > 0 && list[j - 1].key < m.key {
            list[j] = list[j - 1];
            j -= 1;
        }
        list[j] = m;
    }
}

/// Brings the move that [`sort_by_key`] would put first to the front of `list` (the first of
/// the highest keys), the others keeping their order: called before each move, it gives the
/// sorted order one move at a time, so a node that cuts at its first move (nearly every node
/// that cuts, `docs/solver.md`) pays one pass over its list instead of a whole sort.
#[inline(always)]
pub(super) fn best_first(list: &mut [Move]) {
    let mut b = 0;
    for j in 1..list.len() {
        if list[j].key > list[b].key {
            b = j;
        }
    }
    if b > 0 {
        let m = list[b];
        list.copy_within(0..b, 1);
        list[0] = m;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;

    /// [`best_first`] before each move gives the order of its plain twin, [`sort_by_key`]: the
    /// same moves, ties in the order given (which the node counts of every search depend on).
    #[test]
    fn best_first_move_by_move_is_the_stable_sort() {
        let mut rng = Rng(0x50a7);
        for len in 0..=34 {
            for _ in 0..40 {
                let mut list = [Move::default(); 64];
                for (i, m) in list[..len].iter_mut().enumerate() {
                    // Few distinct keys, so that ties are common; the square tells them apart.
                    *m = Move { sq: i as u32, flips: rng.next(), key: (rng.next() % 5) as i32 - 2 };
                }
                let mut sorted = list;
                sort_by_key(&mut sorted[..len]);
                let mut lazy = list;
                for i in 0..len {
                    best_first(&mut lazy[i..len]);
                }
                let order = |l: &[Move]| l.iter().map(|m| (m.sq, m.flips, m.key)).collect::<Vec<_>>();
                assert_eq!(order(&lazy[..len]), order(&sorted[..len]), "length {len}");
                let keys: Vec<i32> = sorted[..len].iter().map(|m| m.key).collect();
                assert!(keys.windows(2).all(|w| w[0] >= w[1]), "highest first");
            }
        }
    }
}
