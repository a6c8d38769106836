//! The exact search on raw bitboards, specialised per board size `N` and scoring rule.
//!
//! Small functions per regime, as the fastest solvers are shaped:
//! - [`Searcher::pvs`]: principal-variation nodes: full window, first move searched fully, the
//!   rest with a null window and re-searched when they beat it.
//! - [`Searcher::nws`]: null-window nodes (`beta = alpha + 1`), most of the tree: the
//!   transposition table, a stability cutoff, moves sorted fastest-first (fewest replies for the
//!   opponent, corners counted twice, then fewest empty squares next to our discs), the table's
//!   move before all. Higher up the sort leads with a shallow search: from 14 empties one ply of
//!   a rough mobility-and-corners evaluation, from 18 three plies of the fitted evaluation
//!   (four from 22), as Edax sorts by `search_eval_*` ([`Searcher::eval_search`]; the hand-written
//!   rough one if the weights cannot be read).
//! - [`Searcher::shallow`]: the last [`SHALLOW`] empties: no table, no allocation, no sort;
//!   empties tried by quadrant parity (odd regions first) and square class (corners first, the
//!   squares next to corners last), each move found by computing its flips directly.
//! - [`Searcher::last1`]: the last empty square.
//!
//! The searcher is generic over the instruction set ([`crate::isa`]): each recursive routine is a
//! thin entry (`nws`) that runs its `#[inline(always)]` body (`nws_body`) through
//! [`Isa::enter`], so the whole recursion is compiled for the CPU's level.
//!
//! Every function returns a fail-soft score: below `alpha` it is an upper bound, above `beta` a
//! lower bound, in between exact. After a stop every result is meaningless and nothing more is
//! stored: callers check [`Searcher::stopped`] before trusting a value.

use super::last_flips::count_last_flips;
use super::table::{EXACT, NO_MOVE, Table, hash};
use super::{Limits, StopReason};
use crate::eval::pattern::{Layout, Row};
use crate::eval::{Indexes, SCALE, Weights, evaluate_fine_indexed};
use crate::geometry::{bit, full_mask};
use crate::isa::Isa;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Empties at and below which the search leaves the table and sorting behind.
pub const SHALLOW: u32 = 7;

/// Empties from which null-window nodes look up their children in the table first.
const ETC_MIN: u32 = 11;

/// Nodes between two looks at the stop flag and the limits.
const CHECK_EVERY: u64 = 4096;

/// What the threads of one search share: the limits and the stop state.
pub struct Control {
    limits: Limits,
    start: Instant,
    /// Set when any thread must stop; every thread polls it.
    halt: AtomicBool,
    reason: Mutex<Option<StopReason>>,
    /// Nodes of every thread, added at each check.
    nodes: AtomicU64,
}

impl Control {
    pub fn new(limits: &Limits) -> Control {
        Control {
            limits: limits.clone(),
            start: Instant::now(),
            halt: AtomicBool::new(false),
            reason: Mutex::new(None),
            nodes: AtomicU64::new(0),
        }
    }

    /// Stops every thread of the search for `reason` (the first reason stays).
    pub fn halt(&self, reason: StopReason) {
        let mut r = self.reason.lock().unwrap_or_else(|e| e.into_inner());
        r.get_or_insert(reason);
        self.halt.store(true, Ordering::Relaxed);
    }

    /// Why the search stopped, if it did.
    pub fn reason(&self) -> Option<StopReason> {
        *self.reason.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether the search must stop now: looks at the stop flag and the limits, as the search
    /// threads do every few thousand nodes (for the moments between two searches).
    pub fn halted(&self) -> bool {
        self.poll(0)
    }

    /// Time since the search began.
    pub fn elapsed(&self) -> std::time::Duration {
        self.start.elapsed()
    }

    /// Nodes counted so far by every thread.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Whether the search must stop now, looking at the flag and the limits.
    fn poll(&self, new_nodes: u64) -> bool {
        let total = self.nodes.fetch_add(new_nodes, Ordering::Relaxed) + new_nodes;
        if let Some(progress) = &self.limits.progress {
            progress.store(total, Ordering::Relaxed);
        }
        if self.halt.load(Ordering::Relaxed) {
            return true;
        }
        if self.limits.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed)) {
            self.halt(StopReason::Cancelled);
        } else if self.limits.max_nodes.is_some_and(|m| total >= m) {
            self.halt(StopReason::NodeLimit);
        } else if self.limits.max_time.is_some_and(|t| self.start.elapsed() >= t) {
            self.halt(StopReason::TimeLimit);
        }
        self.halt.load(Ordering::Relaxed)
    }
}

/// Per-size masks the move ordering uses, built at compile time.
pub struct Masks<const N: usize>;

impl<const N: usize> Masks<N> {
    pub(super) const CORNERS: u64 =
        1 << bit(N, 0, 0) | 1 << bit(N, N - 1, 0) | 1 << bit(N, 0, N - 1) | 1 << bit(N, N - 1, N - 1);
    /// The squares touching a corner (the C and X squares): played last in the shallow search.
    const NEXT_TO_CORNER: u64 = neighbours(N, Self::CORNERS);
    /// The four quadrants (every size is even, so they are equal).
    pub const QUADRANTS: [u64; 4] = quadrants(N);
    /// The squares beside a corner along an edge (the C squares).
    pub const EDGE_NEIGHBOURS_OF_CORNERS_MASK: u64 = c_squares(N);
    /// For each square (by bit), its neighbours: a move there flips nothing unless one of them
    /// holds an opponent disc.
    pub const NEIGHBOURS: [u64; 64] = neighbour_table(N);
}

const fn neighbours(n: usize, m: u64) -> u64 {
    let mut out = 0;
    let mut row = 0;
    while row < n {
        let mut col = 0;
        while col < n {
            if m >> bit(n, col, row) & 1 == 1 {
                let mut dr = -1i32;
                while dr <= 1 {
                    let mut dc = -1i32;
                    while dc <= 1 {
                        let (c, r) = (col as i32 + dc, row as i32 + dr);
                        if c >= 0 && r >= 0 && c < n as i32 && r < n as i32 {
                            out |= 1 << bit(n, c as usize, r as usize);
                        }
                        dc += 1;
                    }
                    dr += 1;
                }
            }
            col += 1;
        }
        row += 1;
    }
    out & !m
}

const fn c_squares(n: usize) -> u64 {
    let last = n - 1;
    1 << bit(n, 1, 0)
        | 1 << bit(n, 0, 1)
        | 1 << bit(n, last - 1, 0)
        | 1 << bit(n, last, 1)
        | 1 << bit(n, 0, last - 1)
        | 1 << bit(n, 1, last)
        | 1 << bit(n, last, last - 1)
        | 1 << bit(n, last - 1, last)
}

/// The C squares whose corner holds a disc of `m`.
#[inline(always)]
fn edge_adjacent_to_corners<const N: usize>(m: u64) -> u64 {
    let c = m & Masks::<N>::CORNERS;
    let n = N as u32;
    // Each corner's edge neighbours, one column and one row inward; out-of-board bits are masked
    // by the C-square mask.
    ((c << 1) | (c >> 1) | (c << n) | (c >> n)) & Masks::<N>::EDGE_NEIGHBOURS_OF_CORNERS_MASK
}

const fn neighbour_table(n: usize) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut b = 0;
    while b < n * n {
        t[b] = neighbours(n, 1 << b);
        b += 1;
    }
    t
}

const fn quadrants(n: usize) -> [u64; 4] {
    let mut q = [0u64; 4];
    let half = n / 2;
    let mut row = 0;
    while row < n {
        let mut col = 0;
        while col < n {
            let k = (row / half) * 2 + col / half;
            q[k] |= 1 << bit(n, col, row);
            col += 1;
        }
        row += 1;
    }
    q
}

/// The squares of the quadrants holding an odd number of empties.
#[inline(always)]
fn odd_quadrants<const N: usize>(empty: u64) -> u64 {
    let mut m = 0;
    for q in Masks::<N>::QUADRANTS {
        if (empty & q).count_ones() & 1 == 1 {
            m |= q;
        }
    }
    m
}

/// Squares next to any square of `m` (eight directions), within the board.
#[inline(always)]
fn adjacent<const N: usize>(m: u64) -> u64 {
    let not_first_col = full_mask(N) & !crate::geometry::column_mask(N, 0);
    let not_last_col = full_mask(N) & !crate::geometry::column_mask(N, N - 1);
    let n = N as u32;
    // Shifting left moves toward column a: what lands in the last column wrapped.
    let l = m << 1 | m << (n + 1) | m >> (n - 1);
    let r = m >> 1 | m >> (n + 1) | m << (n - 1);
    ((l & not_last_col) | (r & not_first_col) | m << n | m >> n) & full_mask(N)
}

/// A rough evaluation for move ordering only (never a score): corner-weighted mobility,
/// corners and potential mobility, from `p`'s side.
#[inline(always)]
fn rough_eval<const N: usize, I: Isa>(isa: I, p: u64, o: u64) -> i32 {
    let corners = Masks::<N>::CORNERS;
    let empty = !(p | o) & full_mask(N);
    let pm = isa.legal_moves::<N>(p, o);
    let om = isa.legal_moves::<N>(o, p);
    let mobility =
        (pm.count_ones() + (pm & corners).count_ones()) as i32 - (om.count_ones() + (om & corners).count_ones()) as i32;
    let corner_discs = (p & corners).count_ones() as i32 - (o & corners).count_ones() as i32;
    let potential = (adjacent::<N>(o) & empty).count_ones() as i32 - (adjacent::<N>(p) & empty).count_ones() as i32;
    8 * mobility + 24 * corner_discs + 2 * potential
}

/// A shallow alpha-beta over [`rough_eval`]: how good a position looks `depth` plies ahead.
fn rough_search<const N: usize, I: Isa>(isa: I, p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
    isa.enter(
        #[inline(always)]
        || rough_search_body::<N, I>(isa, p, o, depth, alpha, beta),
    )
}

#[inline(always)]
fn rough_search_body<const N: usize, I: Isa>(isa: I, p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    if depth == 0 {
        return rough_eval::<N, I>(isa, p, o);
    }
    let moves = isa.legal_moves::<N>(p, o);
    if moves == 0 {
        if isa.legal_moves::<N>(o, p) == 0 {
            return 1000 * (p.count_ones() as i32 - o.count_ones() as i32).signum();
        }
        return -rough_search::<N, I>(isa, o, p, depth, -beta, -alpha);
    }
    let mut best = -10_000;
    let mut rest = moves;
    while rest != 0 {
        let sq = rest.trailing_zeros();
        rest &= rest - 1;
        let f = isa.flips::<N>(p, o, sq);
        let v = -rough_search::<N, I>(isa, o ^ f, p ^ f ^ (1 << sq), depth - 1, -beta, -alpha);
        if raise(v, &mut best, &mut alpha, beta) {
            break;
        }
    }
    best
}

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

/// Empties from which moves are ordered by a shallow search of the rough evaluation.
const SORT_SEARCH_MIN: u32 = 14;

/// Empties from which moves are ordered by a search of the evaluation instead, [`EVAL_SORT_DEPTH`]
/// plies deep (when the weights can be read).
const EVAL_SORT_MIN: u32 = 18;

/// The plies of that search: 3, 4 from [`EVAL_SORT_DEEPER`] empties and 5 from
/// [`EVAL_SORT_DEEPEST`].
const EVAL_SORT_DEPTH: u32 = 3;

/// Empties from which the ordering search looks one ply deeper.
const EVAL_SORT_DEEPER: u32 = 22;

/// Empties from which it looks one ply deeper again.
const EVAL_SORT_DEEPEST: u32 = 25;

/// A move with its flips and sort key.
#[derive(Clone, Copy, Default)]
pub(crate) struct Move {
    pub(super) sq: u32,
    pub(super) flips: u64,
    pub(super) key: i32,
}

/// One thread's search: node count, the shared table and control, and the instruction set it is
/// compiled for.
pub struct Searcher<'a, const N: usize, const DISCS: bool, I: Isa> {
    pub isa: I,
    pub table: &'a Table,
    pub control: &'a Control,
    pub nodes: u64,
    pub(super) next_check: u64,
    pub stopped: bool,
    /// The estimate search's evaluation: the shipped weights (`None` if they cannot be read:
    /// then the hand-written [`crate::eval::baseline`]) and the pattern layout its kept indexes
    /// follow.
    pub(super) weights: Option<&'static Weights>,
    pub(super) layout: &'static Layout,
}

impl<'a, const N: usize, const DISCS: bool, I: Isa> Searcher<'a, N, DISCS, I> {
    /// The largest score magnitude: every square.
    pub const MAX: i32 = (N * N) as i32;

    pub fn new(isa: I, table: &'a Table, control: &'a Control) -> Self {
        Searcher {
            isa,
            table,
            control,
            nodes: 0,
            next_check: CHECK_EVERY,
            stopped: false,
            weights: crate::eval::weights::shipped(N).ok(),
            layout: Layout::of(N),
        }
    }

    /// Reports the nodes not yet counted in the shared total; true if the search must stop.
    #[inline(never)]
    pub(super) fn check(&mut self) -> bool {
        let new = self.nodes + CHECK_EVERY - self.next_check;
        self.next_check = self.nodes + CHECK_EVERY;
        if self.control.poll(new) {
            self.stopped = true;
        }
        self.stopped
    }

    /// Adds the nodes not yet reported to the shared total (at the end of a search).
    pub fn flush_nodes(&mut self) {
        let new = self.nodes + CHECK_EVERY - self.next_check;
        self.next_check = self.nodes + CHECK_EVERY;
        self.control.nodes.fetch_add(new, Ordering::Relaxed);
    }

    /// The score of a finished game, from `p`'s side.
    #[inline(always)]
    pub fn final_score(p: u64, o: u64) -> i32 {
        if DISCS { p.count_ones() as i32 - o.count_ones() as i32 } else { crate::rules::final_score::<N>(p, o) }
    }

    /// The exact score with one empty square `sq` left (bit index): the flips are only counted.
    #[inline(always)]
    fn last1(&mut self, p: u64, o: u64, sq: u32) -> i32 {
        self.nodes += 1;
        let mine = p.count_ones() as i32;
        let f = count_last_flips::<N, I>(self.isa, p, sq) as i32;
        if f != 0 {
            // The board is then full: the difference is 2 * mine - all.
            return 2 * (mine + f + 1) - Self::MAX;
        }
        let f = count_last_flips::<N, I>(self.isa, o, sq) as i32;
        if f != 0 {
            return 2 * (mine - f) - Self::MAX;
        }
        Self::final_score(p, o)
    }

    /// The last 2 to 4 empties, given in the order to try them (odd quadrants first).
    #[inline(always)]
    fn small(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empties: &[u32]) -> i32 {
        let isa = self.isa;
        isa.enter(
            #[inline(always)]
            move || self.small_body(p, o, alpha, beta, empties),
        )
    }

    #[inline(always)]
    fn small_body(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, empties: &[u32]) -> i32 {
        self.nodes += 1;
        let k = empties.len();
        let mut best = -Self::MAX - 1;
        for i in 0..k {
            let sq = empties[i];
            if Masks::<N>::NEIGHBOURS[sq as usize] & o == 0 {
                continue;
            }
            let f = self.isa.flips::<N>(p, o, sq);
            if f == 0 {
                continue;
            }
            let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
            let v = if k == 2 {
                -self.last1(np, no, empties[1 - i])
            } else {
                let mut rest = [0u32; 4];
                let mut m = 0;
                for (j, &e) in empties.iter().enumerate() {
                    if j != i {
                        rest[m] = e;
                        m += 1;
                    }
                }
                -self.small(np, no, -beta, -alpha, &rest[..k - 1])
            };
            if v > best {
                best = v;
                if v > alpha {
                    if v >= beta {
                        return v;
                    }
                    alpha = v;
                }
            }
        }
        if best > -Self::MAX - 1 {
            return best;
        }
        // No move: the opponent plays if it can, else the game is over.
        let opponent_can = empties
            .iter()
            .any(|&sq| Masks::<N>::NEIGHBOURS[sq as usize] & p != 0 && self.isa.flips::<N>(o, p, sq) != 0);
        if !opponent_can {
            return Self::final_score(p, o);
        }
        -self.small(o, p, -beta, -alpha, empties)
    }

    /// The stability cutoff: the opponent's stable discs cap our score; when the cap is no
    /// better than `alpha`, it is the (upper-bound) result. Tried only when alpha is high enough
    /// for the opponent's discs to matter.
    #[inline(always)]
    fn stability_cutoff(&self, p: u64, o: u64, alpha: i32, n: u32) -> Option<i32> {
        // Edax's thresholds: with few empties the cap rarely reaches a low alpha.
        let threshold = if n < 10 { 2 * n as i32 - 2 } else { 2 * n as i32 };
        if alpha >= threshold && alpha >= Self::MAX - 2 * o.count_ones() as i32 {
            let upper = Self::MAX - 2 * super::stability::stable_discs::<N>(o, p).count_ones() as i32;
            if upper <= alpha {
                return Some(upper);
            }
        }
        None
    }

    /// The table-free search of the last few empties (`n` of them, at least 1).
    #[inline(always)]
    pub fn shallow(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        let isa = self.isa;
        isa.enter(
            #[inline(always)]
            move || self.shallow_body(p, o, alpha, beta, n),
        )
    }

    #[inline(always)]
    fn shallow_body(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, n: u32) -> i32 {
        let empty = !(p | o) & full_mask(N);
        if n == 1 {
            return self.last1(p, o, empty.trailing_zeros());
        }
        let odd = odd_quadrants::<N>(empty);
        if n <= 4 {
            let mut list = [0u32; 4];
            let mut k = 0;
            for class in [empty & odd, empty & !odd] {
                let mut rest = class;
                while rest != 0 {
                    list[k] = rest.trailing_zeros();
                    rest &= rest - 1;
                    k += 1;
                }
            }
            return self.small(p, o, alpha, beta, &list[..k]);
        }
        self.nodes += 1;
        if let Some(cut) = self.stability_cutoff(p, o, alpha, n) {
            return cut;
        }
        let corners = Masks::<N>::CORNERS;
        let late = Masks::<N>::NEXT_TO_CORNER;
        let mut best = -Self::MAX - 1;
        for class in [
            empty & odd & corners,
            empty & odd & !corners & !late,
            empty & odd & late,
            empty & !odd & corners,
            empty & !odd & !corners & !late,
            empty & !odd & late,
        ] {
            let mut rest = class;
            while rest != 0 {
                let sq = rest.trailing_zeros();
                rest &= rest - 1;
                if Masks::<N>::NEIGHBOURS[sq as usize] & o == 0 {
                    continue;
                }
                let f = self.isa.flips::<N>(p, o, sq);
                if f == 0 {
                    continue;
                }
                let v = -self.shallow(o ^ f, p ^ f ^ (1 << sq), -beta, -alpha, n - 1);
                if v > best {
                    best = v;
                    if v > alpha {
                        if v >= beta {
                            return v;
                        }
                        alpha = v;
                    }
                }
            }
        }
        if best > -Self::MAX - 1 {
            return best;
        }
        // No move: pass, or the game is over.
        if self.isa.legal_moves::<N>(o, p) == 0 {
            return Self::final_score(p, o);
        }
        -self.shallow(o, p, -beta, -alpha, n)
    }

    /// The value of a leaf of [`Self::eval_search`] in 1/[`SCALE`] of a disc, from `p`'s side:
    /// the evaluation (`own`: the pattern indexes of `p`'s side, `pm`: `p`'s legal moves), or
    /// the score of a finished game.
    #[inline(always)]
    fn eval_leaf(&self, w: &Weights, p: u64, o: u64, own: &Row, pm: u64) -> i32 {
        let om = self.isa.legal_moves::<N>(o, p);
        if pm | om == 0 { Self::final_score(p, o) * SCALE } else { evaluate_fine_indexed::<N>(w, own, p, o, pm, om) }
    }

    /// The ordering search (Edax's `search_eval_1`, `search_eval_2` and shallow search): the
    /// value of (`p`, `o`) after `depth` plies of alpha-beta over the evaluation `w`, in
    /// 1/[`SCALE`] of a disc, fail-soft. `ix`: the position's pattern indexes, `pm`: `p`'s legal
    /// moves. No table, no move order, and its positions are not counted as nodes: it only sorts
    /// the exact search's moves, never gives a score.
    #[allow(clippy::too_many_arguments)]
    fn eval_search(
        &self,
        w: &Weights,
        p: u64,
        o: u64,
        ix: &Indexes,
        pm: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let isa = self.isa;
        isa.enter(
            #[inline(always)]
            move || self.eval_search_body(w, p, o, ix, pm, depth, alpha, beta),
        )
    }

    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn eval_search_body(
        &self,
        w: &Weights,
        p: u64,
        o: u64,
        ix: &Indexes,
        pm: u64,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if depth == 0 {
            return self.eval_leaf(w, p, o, &ix.own, pm);
        }
        if pm == 0 {
            let om = self.isa.legal_moves::<N>(o, p);
            if om == 0 {
                return Self::final_score(p, o) * SCALE;
            }
            return -self.eval_search(w, o, p, &ix.pass(), om, depth, -beta, -alpha);
        }
        let mut best = -i32::MAX;
        let mut rest = pm;
        while rest != 0 {
            let sq = rest.trailing_zeros();
            rest &= rest - 1;
            let f = self.isa.flips::<N>(p, o, sq);
            let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
            let replies = self.isa.legal_moves::<N>(np, no);
            let v = if depth == 1 {
                // The children are leaves: only their own indexes are needed.
                -self.eval_leaf(w, np, no, &ix.play_own(self.layout, sq, f), replies)
            } else {
                -self.eval_search(w, np, no, &ix.play(self.layout, sq, f), replies, depth - 1, -beta, -alpha)
            };
            if raise(v, &mut best, &mut alpha, beta) {
                break;
            }
        }
        best
    }

    /// The legal moves of `p` with their flips, sorted best first: the table's move, a wipe-out,
    /// then fastest-first, led from [`SORT_SEARCH_MIN`] empties by a one-ply search of
    /// [`rough_eval`] and from [`EVAL_SORT_MIN`] by a search of the evaluation
    /// ([`Self::eval_search`]).
    #[inline(always)]
    ///
    /// With `etc` set to alpha and a best score (deep nodes), each child is looked up in the table
    /// first: a child bounded low enough for the opponent settles the node at once (`Err(score)`,
    /// enhanced transposition cutoff), and a child already proven no better than alpha is left
    /// out, its bound raising the best score for the fail-soft result.
    pub(crate) fn sorted_moves(
        &self,
        p: u64,
        o: u64,
        moves: u64,
        tt_move: u8,
        list: &mut [Move; 64],
        mut etc: Option<(i32, &mut i32)>,
    ) -> Result<usize, i32> {
        let corners = Masks::<N>::CORNERS;
        let mut count = 0;
        let mut rest = moves;
        let empty = !(p | o) & full_mask(N);
        let n = empty.count_ones();
        let odd = odd_quadrants::<N>(empty);
        while rest != 0 {
            let sq = rest.trailing_zeros();
            let x = 1u64 << sq;
            rest &= rest - 1;
            let f = self.isa.flips::<N>(p, o, sq);
            if let Some((alpha, skipped)) = etc.as_mut()
                && let Some(e) = self.table.probe(hash(N, o ^ f, p ^ f ^ x))
                && e.is_exact()
            {
                if -(e.upper as i32) > *alpha {
                    return Err(-(e.upper as i32));
                }
                if -(e.lower as i32) <= *alpha {
                    **skipped = (**skipped).max(-(e.lower as i32));
                    continue;
                }
            }
            list[count] = Move { sq, flips: f, key: 0 };
            count += 1;
        }
        // High up, the evaluation orders the moves (if there are two to order): the pattern
        // indexes of this node, once.
        let by_eval = match self.weights {
            Some(w) if n >= EVAL_SORT_MIN && count > 1 => Some((w, Indexes::new(self.layout, p, o))),
            _ => None,
        };
        let eval_depth = EVAL_SORT_DEPTH + (n >= EVAL_SORT_DEEPER) as u32 + (n >= EVAL_SORT_DEEPEST) as u32;
        // The opponent's replies after each move, four children at a time.
        let mut i = 0;
        while i < count {
            let mut ps = [0u64; 4];
            let mut os = [0u64; 4];
            for k in 0..4 {
                let m = list[(i + k).min(count - 1)];
                ps[k] = o ^ m.flips;
                os[k] = p ^ m.flips ^ (1 << m.sq);
            }
            let replies = self.isa.legal_moves_x4::<N>(ps, os);
            for k in 0..4.min(count - i) {
                let m = &mut list[i + k];
                let x = 1u64 << m.sq;
                let (np, no) = (ps[k], os[k]);
                m.key = if m.sq == tt_move as u32 {
                    i32::MAX
                } else if np == 0 {
                    // A wipe-out: nothing can beat it.
                    i32::MAX - 1
                } else {
                    let r = replies[k];
                    let mobility = (r.count_ones() + (r & corners).count_ones()) as i32;
                    let potential = (adjacent::<N>(no) & empty & !x).count_ones() as i32;
                    let anchored = (((Masks::<N>::EDGE_NEIGHBOURS_OF_CORNERS_MASK & edge_adjacent_to_corners::<N>(no))
                        | corners)
                        & no)
                        .count_ones() as i32;
                    let parity = (x & odd != 0) as i32;
                    let fastest = -(mobility << 15) + (anchored << 11) - (potential << 5) + (parity << 3);
                    if let Some((w, ix)) = &by_eval {
                        // How the position looks `eval_depth` plies on, in discs, by the
                        // evaluation; fastest-first breaks ties. (One ply cost a third more
                        // nodes than the rough search on FFO #40-#49; see docs/solver.md.)
                        let child = ix.play(self.layout, m.sq, m.flips);
                        let v = self.eval_search(w, np, no, &child, r, eval_depth, -i32::MAX, i32::MAX);
                        ((-v + SCALE / 2).div_euclid(SCALE) << 16) + (fastest >> 4)
                    } else if n >= SORT_SEARCH_MIN {
                        // How the position looks after the opponent's best reply, by the rough
                        // evaluation; fastest-first breaks ties. (Searching two plies instead of
                        // one, or from 16 or 12 empties, cost more nodes on FFO #41-#46.)
                        let v = rough_search::<N, I>(self.isa, np, no, 1, -10_000, 10_000);
                        (-v << 16) + (fastest >> 4)
                    } else {
                        fastest
                    }
                };
            }
            i += 4;
        }
        // Insertion sort: the lists are short.
        for i in 1..count {
            let m = list[i];
            let mut j = i;
            while j > 0 && list[j - 1].key < m.key {
                list[j] = list[j - 1];
                j -= 1;
            }
            list[j] = m;
        }
        Ok(count)
    }

    /// The null-window search: is the score above `alpha`? (`beta = alpha + 1`.) `n` empties.
    #[inline(always)]
    pub fn nws(&mut self, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
        let isa = self.isa;
        isa.enter(
            #[inline(always)]
            move || self.nws_body(p, o, alpha, n),
        )
    }

    #[inline(always)]
    fn nws_body(&mut self, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
        if n <= SHALLOW {
            return self.shallow(p, o, alpha, alpha + 1, n);
        }
        self.nodes += 1;
        if self.nodes >= self.next_check && self.check() {
            return 0;
        }
        let moves = self.isa.legal_moves::<N>(p, o);
        if moves == 0 {
            if self.isa.legal_moves::<N>(o, p) == 0 {
                return Self::final_score(p, o);
            }
            return -self.nws(o, p, -alpha - 1, n);
        }
        if let Some(cut) = self.stability_cutoff(p, o, alpha, n) {
            return cut;
        }
        let h = hash(N, p, o);
        let mut tt_move = NO_MOVE;
        if let Some(e) = self.table.probe(h) {
            // Only exact bounds settle an exact search; an estimate's best move still leads.
            if e.is_exact() {
                if e.lower as i32 > alpha {
                    return e.lower as i32;
                }
                if (e.upper as i32) <= alpha {
                    return e.upper as i32;
                }
            }
            tt_move = e.best;
        }
        let mut list = [Move::default(); 64];
        let mut best = -Self::MAX - 1;
        let etc = if n >= ETC_MIN { Some((alpha, &mut best)) } else { None };
        let count = match self.sorted_moves(p, o, moves, tt_move, &mut list, etc) {
            Ok(count) => count,
            Err(cut) => return cut,
        };
        let mut best_move = NO_MOVE;
        for m in &list[..count] {
            let v = -self.nws(o ^ m.flips, p ^ m.flips ^ (1 << m.sq), -alpha - 1, n - 1);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = m.sq as u8;
                if v > alpha {
                    break;
                }
            }
        }
        let max = Self::MAX as i8;
        if best > alpha {
            self.table.store(h, best as i8, max, best_move, n as u8, EXACT);
        } else {
            self.table.store(h, -max, best as i8, best_move, n as u8, EXACT);
        }
        best
    }

    /// The principal-variation search with window (`alpha`, `beta`). `n` empties.
    #[inline(always)]
    pub fn pvs(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        let isa = self.isa;
        isa.enter(
            #[inline(always)]
            move || self.pvs_body(p, o, alpha, beta, n),
        )
    }

    #[inline(always)]
    fn pvs_body(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, n: u32) -> i32 {
        if n <= SHALLOW {
            return self.shallow(p, o, alpha, beta, n);
        }
        self.nodes += 1;
        if self.nodes >= self.next_check && self.check() {
            return 0;
        }
        let moves = self.isa.legal_moves::<N>(p, o);
        if moves == 0 {
            if self.isa.legal_moves::<N>(o, p) == 0 {
                return Self::final_score(p, o);
            }
            return -self.pvs(o, p, -beta, -alpha, n);
        }
        let h = hash(N, p, o);
        let mut tt_move = NO_MOVE;
        if let Some(e) = self.table.probe(h) {
            let (lower, upper) = (e.lower as i32, e.upper as i32);
            if e.is_exact() {
                if lower >= beta || lower == upper {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
            }
            tt_move = e.best;
        }
        let alpha0 = alpha;
        let mut list = [Move::default(); 64];
        let mut best = -Self::MAX - 1;
        let count = self.sorted_moves(p, o, moves, tt_move, &mut list, None).unwrap_or_default();
        let mut best_move = NO_MOVE;
        for (i, m) in list[..count].iter().enumerate() {
            let (np, no) = (o ^ m.flips, p ^ m.flips ^ (1 << m.sq));
            let v = if i == 0 {
                -self.pvs(np, no, -beta, -alpha, n - 1)
            } else {
                let v = -self.nws(np, no, -alpha - 1, n - 1);
                if v > alpha && v < beta && !self.stopped { -self.pvs(np, no, -beta, -alpha, n - 1) } else { v }
            };
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = m.sq as u8;
                if v > alpha {
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        let max = Self::MAX as i8;
        let (lower, upper) = if best >= beta {
            (best as i8, max)
        } else if best <= alpha0 {
            (-max, best as i8)
        } else {
            (best as i8, best as i8)
        };
        self.table.store(h, lower, upper, best_move, n as u8, EXACT);
        best
    }

    /// The exact score of a position (full window).
    pub fn exact(&mut self, p: u64, o: u64) -> i32 {
        let n = (!(p | o) & full_mask(N)).count_ones();
        if n == 0 {
            return Self::final_score(p, o);
        }
        self.pvs(p, o, -Self::MAX, Self::MAX, n)
    }

    /// Whether the score of a position is above `alpha` (a null-window test); fail-soft value.
    pub fn above(&mut self, p: u64, o: u64, alpha: i32) -> i32 {
        let n = (!(p | o) & full_mask(N)).count_ones();
        if n == 0 {
            return Self::final_score(p, o);
        }
        self.nws(p, o, alpha, n)
    }
}

/// Empties above which principal-variation nodes are split between threads.
const SPLIT_MIN: u32 = 12;

/// The exact score of (`p`, `o`) searched by `threads` threads sharing the table.
pub fn parallel_exact<const N: usize, const D: bool, I: Isa>(
    isa: I,
    table: &Table,
    control: &Control,
    p: u64,
    o: u64,
    threads: usize,
) -> i32 {
    let max = Searcher::<N, D, I>::MAX;
    parallel_window::<N, D, I>(isa, table, control, p, o, -max, max, threads)
}

/// The exact search of (`p`, `o`) with window (`alpha`, `beta`), fail-soft, searched by `threads`
/// threads sharing the table.
#[allow(clippy::too_many_arguments)]
pub fn parallel_window<const N: usize, const D: bool, I: Isa>(
    isa: I,
    table: &Table,
    control: &Control,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    threads: usize,
) -> i32 {
    let n = (!(p | o) & full_mask(N)).count_ones();
    if n == 0 {
        return Searcher::<N, D, I>::final_score(p, o);
    }
    if threads <= 1 || n <= SPLIT_MIN {
        let mut searcher = Searcher::<N, D, I>::new(isa, table, control);
        let v = searcher.pvs(p, o, alpha, beta, n);
        searcher.flush_nodes();
        return v;
    }
    parallel_pvs::<N, D, I>(isa, table, control, p, o, alpha, beta, n, threads)
}

/// The principal-variation search with the siblings of the first move shared among `threads`
/// threads (young brothers wait: the first child is searched, in parallel itself, before the
/// others start). Same contract as [`Searcher::pvs`].
#[allow(clippy::too_many_arguments)]
fn parallel_pvs<const N: usize, const D: bool, I: Isa>(
    isa: I,
    table: &Table,
    control: &Control,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    n: u32,
    threads: usize,
) -> i32 {
    let mut searcher = Searcher::<N, D, I>::new(isa, table, control);
    if n <= SPLIT_MIN {
        let v = searcher.pvs(p, o, alpha, beta, n);
        searcher.flush_nodes();
        return v;
    }
    searcher.nodes += 1;
    let moves = isa.legal_moves::<N>(p, o);
    if moves == 0 {
        searcher.flush_nodes();
        if isa.legal_moves::<N>(o, p) == 0 {
            return Searcher::<N, D, I>::final_score(p, o);
        }
        return -parallel_pvs::<N, D, I>(isa, table, control, o, p, -beta, -alpha, n, threads);
    }
    let h = hash(N, p, o);
    let mut tt_move = NO_MOVE;
    if let Some(e) = table.probe(h) {
        let (lower, upper) = (e.lower as i32, e.upper as i32);
        if e.is_exact() && (lower >= beta || lower == upper || upper <= alpha) {
            searcher.flush_nodes();
            return if lower >= beta || lower == upper { lower } else { upper };
        }
        tt_move = e.best;
    }
    let mut list = [Move::default(); 64];
    let count = searcher.sorted_moves(p, o, moves, tt_move, &mut list, None).unwrap_or_default();
    searcher.flush_nodes();
    let list = &list[..count];
    let first = list[0];
    let v = -parallel_pvs::<N, D, I>(
        isa,
        table,
        control,
        o ^ first.flips,
        p ^ first.flips ^ (1 << first.sq),
        -beta,
        -alpha,
        n - 1,
        threads,
    );
    if control.halt.load(Ordering::Relaxed) {
        return 0;
    }
    // (alpha, best, best move), shared by the threads searching the siblings.
    let state = Mutex::new((alpha.max(v), v, first.sq as u8));
    if v < beta && count > 1 {
        let next = AtomicU64::new(1);
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    let mut s = Searcher::<N, D, I>::new(isa, table, control);
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed) as usize;
                        let a = state.lock().unwrap_or_else(|e| e.into_inner()).0;
                        if i >= count || a >= beta || s.stopped {
                            break;
                        }
                        let m = list[i];
                        let (np, no) = (o ^ m.flips, p ^ m.flips ^ (1 << m.sq));
                        let mut a = a;
                        let mut v = -s.nws(np, no, -a - 1, n - 1);
                        // Above the alpha it was tested against: settle it against the alpha of
                        // now, which other threads may have raised meanwhile.
                        while v > a && !s.stopped {
                            let a_now = state.lock().unwrap_or_else(|e| e.into_inner()).0;
                            if a_now >= beta {
                                break;
                            }
                            if v > a_now {
                                v = -s.pvs(np, no, -beta, -a_now, n - 1);
                                break;
                            }
                            a = a_now;
                            v = -s.nws(np, no, -a - 1, n - 1);
                        }
                        if s.stopped {
                            break;
                        }
                        let mut st = state.lock().unwrap_or_else(|e| e.into_inner());
                        if v > st.1 {
                            st.1 = v;
                            st.2 = m.sq as u8;
                        }
                        if v > st.0 {
                            st.0 = v;
                        }
                    }
                    s.flush_nodes();
                });
            }
        });
    }
    if control.halt.load(Ordering::Relaxed) {
        return 0;
    }
    let (_, best, best_move) = state.into_inner().unwrap_or_else(|e| e.into_inner());
    let max = Searcher::<N, D, I>::MAX as i8;
    let (lower, upper) = if best >= beta {
        (best as i8, max)
    } else if best <= alpha {
        (-max, best as i8)
    } else {
        (best as i8, best as i8)
    };
    table.store(h, lower, upper, best_move, n as u8, EXACT);
    best
}
