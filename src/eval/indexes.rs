//! Pattern indexes kept up to date move by move, so that the search's evaluation reads its
//! tables without computing a single index (the incremental evaluation of Edax and Egaroucid).
//!
//! # Conventions
//!
//! Lane `k` of an [`Indexes`] is placement `k` of the size's [`Layout`] (lanes past the last
//! placement stay 0). `own[k]` is the placement's index exactly as
//! [`super::pattern::ternary_index`] reads it from its board image: base 3, digit 1 the side to
//! move's disc, 2 the opponent's, 0 empty. `theirs[k]` is the same index with the roles swapped
//! (digit 1 the opponent's disc), which is what `own` becomes when the opponent is to move.
//!
//! A square's digit in a placement is worth `3^j` ([`Layout::deltas`], one [`super::pattern::Row`]
//! per square). When the side to move plays square `s` and flips the set `F`:
//!
//! - in the parent's `own` (1 = mover): `s` goes 0 -> 1 (`+row[s]`), each flipped square 2 -> 1
//!   (`-row[f]`);
//! - in the parent's `theirs` (1 = opponent): `s` goes 0 -> 2 (`+2 row[s]`), each flipped square
//!   1 -> 2 (`+row[f]`);
//! - then the opponent is to move: the child's `own` is the updated `theirs`, its `theirs` the
//!   updated `own`. A pass only swaps the two.
//!
//! Each update adds whole rows of [`LANES`] `u16`, which the compiler turns into a few vector
//! additions for the search's instruction set. `u16` never overflows: the largest index is
//! `3^10 - 1`.

use super::pattern::{LANES, Layout, Row};

/// The pattern indexes of a position from both sides' points of view (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Indexes {
    /// Digit 1 = the side to move.
    pub own: Row,
    /// Digit 1 = the opponent.
    pub theirs: Row,
}

#[inline(always)]
fn add(a: &mut Row, b: &Row) {
    for (x, y) in a.0.iter_mut().zip(&b.0) {
        *x = x.wrapping_add(*y);
    }
}

/// The sum of the rows of `deltas` at the bits of `bits`, in a local accumulator the compiler
/// keeps in vector registers.
#[inline(always)]
fn sum_rows(deltas: &[Row], mut bits: u64) -> Row {
    let mut acc = Row([0; LANES]);
    while bits != 0 {
        add(&mut acc, &deltas[bits.trailing_zeros() as usize]);
        bits &= bits - 1;
    }
    acc
}

/// The indexes whose digit 1 is the discs summed in `ones` and digit 2 those in `twos`.
#[inline(always)]
fn digits(ones: &Row, twos: &Row) -> Row {
    let mut row = *ones;
    add(&mut row, twos);
    add(&mut row, twos);
    row
}

#[inline(always)]
fn sub(a: &mut Row, b: &Row) {
    for (x, y) in a.0.iter_mut().zip(&b.0) {
        *x = x.wrapping_sub(*y);
    }
}

impl Indexes {
    /// The indexes of `p` (to move) against `o`, from scratch: each disc adds its row, once to
    /// its own side's digits and twice to the other side's.
    pub fn new(layout: &Layout, p: u64, o: u64) -> Indexes {
        let deltas = &layout.deltas[..];
        let (mine, yours) = (sum_rows(deltas, p), sum_rows(deltas, o));
        Indexes { own: digits(&mine, &yours), theirs: digits(&yours, &mine) }
    }

    /// The `own` row alone of [`Indexes::new`]: what [`super::pattern::pattern_entries`] and the
    /// evaluation from the board read where the CPU has no fast `pext`.
    #[inline(always)]
    pub(crate) fn own_of(layout: &Layout, p: u64, o: u64) -> Row {
        let deltas = &layout.deltas[..];
        digits(&sum_rows(deltas, p), &sum_rows(deltas, o))
    }

    /// The indexes after the side to move plays `sq` (a bit) flipping `flips`: the child's,
    /// from the opponent's point of view.
    #[inline(always)]
    pub fn play(&self, layout: &Layout, sq: u32, flips: u64) -> Indexes {
        let deltas = &layout.deltas[..];
        let mut flipped = Row([0; LANES]);
        let mut rest = flips;
        while rest != 0 {
            add(&mut flipped, &deltas[rest.trailing_zeros() as usize]);
            rest &= rest - 1;
        }
        let placed = &deltas[sq as usize];
        // The child's own: the parent's `theirs`, where the mover's discs are digit 2.
        let mut own = self.theirs;
        add(&mut own, placed);
        add(&mut own, placed);
        add(&mut own, &flipped);
        let mut theirs = self.own;
        add(&mut theirs, placed);
        sub(&mut theirs, &flipped);
        Indexes { own, theirs }
    }

    /// [`Self::play`]'s `own` alone: all the evaluation of the child reads (half the work, for
    /// children that are only evaluated).
    #[inline(always)]
    pub(crate) fn play_own(&self, layout: &Layout, sq: u32, flips: u64) -> Row {
        let deltas = &layout.deltas[..];
        let mut own = self.theirs;
        let placed = &deltas[sq as usize];
        add(&mut own, placed);
        add(&mut own, placed);
        let mut rest = flips;
        while rest != 0 {
            add(&mut own, &deltas[rest.trailing_zeros() as usize]);
            rest &= rest - 1;
        }
        own
    }

    /// The indexes after a pass.
    #[inline(always)]
    pub fn pass(&self) -> Indexes {
        Indexes { own: self.theirs, theirs: self.own }
    }
}
