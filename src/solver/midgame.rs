//! The depth-limited search behind estimates: principal-variation alpha-beta to a fixed number of
//! plies, [`crate::eval::evaluate`] at the leaves, on the same transposition table as the exact
//! search.
//!
//! Conventions, as in the exact search: values are disc differences from the side to move, every
//! function is fail-soft (below `alpha` an upper bound, above `beta` a lower bound, in between the
//! value), and after a stop every result is meaningless and nothing more is stored.
//!
//! - A *depth* counts moves: a pass does not use one, so the empties and the depth fall together
//!   and a node with no more empties than plies left is searched to the end of the game by the
//!   exact search ([`Searcher::pvs`], [`Searcher::nws`]): its value is then the exact score.
//! - A finished game is scored exactly wherever it is met, also at a leaf.
//! - The table: an entry of depth `d` settles a node that needs `d` plies or fewer, an exact
//!   entry any node; every search stores its bounds with its depth (see [`super::table`]).
//! - Move order: the table's move (from the previous iteration of the iterative deepening), then
//!   a wipe-out, then (from [`SORT_BY_EVAL_DEPTH`] plies left) by the evaluation of each child,
//!   the opponent's mobility breaking ties; closer to the leaves by the opponent's mobility alone.
//!   One ply above the leaves nothing is sorted and the table is not used: the children are
//!   leaves, as cheap to search as to sort.
//! - The evaluation's pattern indexes travel with the position ([`Indexes`]): each move updates
//!   them from the squares it changes ([`Indexes::play`]), so no node computes an index from the
//!   board. [`Searcher::estimate`] computes the root's.

use super::search::{Masks, Move, Searcher, raise};
use super::table::{NO_MOVE, hash};
use crate::eval::pattern::Row;
use crate::eval::{Indexes, baseline, evaluate_indexed};
use crate::geometry::full_mask;
use crate::isa::Isa;

/// Plies left from which a node sorts its moves by the evaluation of each child. Below it the
/// fewest replies alone order them: evaluating every child of a node two, three or four plies
/// above the leaves cost more time than the nodes it saved (docs/eval.md, "Speed").
const SORT_BY_EVAL_DEPTH: u32 = 5;

impl<'a, const N: usize, const DISCS: bool, I: Isa> Searcher<'a, N, DISCS, I> {
    /// The exact search with window (`alpha`, `beta`) on a position with `n` empties (any `n`).
    #[inline(always)]
    fn exact_window(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        if n == 0 {
            self.nodes += 1;
            Self::final_score(p, o)
        } else if beta == alpha + 1 {
            self.nws(p, o, alpha, n)
        } else {
            self.pvs(p, o, alpha, beta, n)
        }
    }

    /// The evaluation of `p` against `o` (`own`: the indexes of `p`'s side, [`Indexes::own`]), or
    /// the score of a finished game.
    #[inline(always)]
    fn evaluate(&self, p: u64, o: u64, own: &Row) -> i32 {
        let pm = self.isa.legal_moves::<N>(p, o);
        self.evaluate_with_moves(p, o, own, pm)
    }

    /// [`Self::evaluate`] given `p`'s legal moves `pm`.
    #[inline(always)]
    fn evaluate_with_moves(&self, p: u64, o: u64, own: &Row, pm: u64) -> i32 {
        let om = self.isa.legal_moves::<N>(o, p);
        if pm | om == 0 {
            Self::final_score(p, o)
        } else if let Some(w) = self.weights {
            evaluate_indexed::<N>(w, own, p, o, pm, om)
        } else {
            baseline::<N>(p, o)
        }
    }

    /// The value of a leaf: the evaluation, or the score of a finished game.
    #[inline(always)]
    fn leaf(&mut self, p: u64, o: u64, own: &Row) -> i32 {
        self.nodes += 1;
        self.evaluate(p, o, own)
    }

    /// A node one ply above the leaves, fail-soft, no table: every child is a leaf, so sorting
    /// them would cost as much as searching them.
    #[inline(always)]
    fn mid_last_ply(&mut self, p: u64, o: u64, ix: &Indexes, mut alpha: i32, beta: i32, moves: u64) -> i32 {
        let mut best = -Self::MAX - 1;
        let mut rest = moves;
        while rest != 0 {
            let sq = rest.trailing_zeros();
            rest &= rest - 1;
            let f = self.isa.flips::<N>(p, o, sq);
            let v = -self.leaf(o ^ f, p ^ f ^ (1 << sq), &ix.play_own(self.layout, sq, f));
            if raise(v, &mut best, &mut alpha, beta) {
                break;
            }
        }
        best
    }

    /// The legal moves of `p` with their flips, best first: the table's move, a wipe-out, then
    /// (from [`SORT_BY_EVAL_DEPTH`] plies left) by the evaluation of each child, fewest replies
    /// breaking ties. `depth`: the node's plies left; from 3 the children will probe the table,
    /// so their buckets are prefetched.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn mid_sorted_moves(
        &self,
        p: u64,
        o: u64,
        ix: &Indexes,
        moves: u64,
        tt_move: u8,
        depth: u32,
        list: &mut [Move; 64],
    ) -> usize {
        let corners = Masks::<N>::CORNERS;
        let probes = depth > 2;
        let mut count = 0;
        let mut rest = moves;
        while rest != 0 {
            let sq = rest.trailing_zeros();
            rest &= rest - 1;
            let f = self.isa.flips::<N>(p, o, sq);
            let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
            if probes {
                // The child will probe the table first thing: start fetching its bucket now.
                self.table.prefetch(hash(N, np, no));
            }
            let key = if sq == tt_move as u32 {
                i32::MAX
            } else if np == 0 {
                i32::MAX - 1
            } else {
                // From the mover's side: how the child looks, then fewest replies. (Sorting by a
                // one- or two-ply search of the evaluation from 5 or 9 plies left cost time with
                // the hand-written evaluation.) Near the leaves the fewest replies alone.
                let replies = self.isa.legal_moves::<N>(np, no);
                let look = if depth >= SORT_BY_EVAL_DEPTH {
                    -self.evaluate_with_moves(np, no, &ix.play_own(self.layout, sq, f), replies)
                } else {
                    0
                };
                let mobility = (replies.count_ones() + (replies & corners).count_ones()) as i32;
                (look << 8) - mobility
            };
            list[count] = Move { sq, flips: f, key };
            count += 1;
        }
        for i in 1..count {
            let m = list[i];
            let mut j = i;
            while j > 0 && list[j - 1].key < m.key {
                list[j] = list[j - 1];
                j -= 1;
            }
            list[j] = m;
        }
        count
    }

    /// The null-window estimate search: is the `depth`-ply value above `alpha`? `n` empties.
    #[inline(always)]
    pub fn mid_nws(&mut self, p: u64, o: u64, ix: &Indexes, alpha: i32, depth: u32, n: u32) -> i32 {
        let isa = self.isa;
        isa.enter(
            #[inline(always)]
            move || self.mid_nws_body(p, o, ix, alpha, depth, n),
        )
    }

    #[inline(always)]
    fn mid_nws_body(&mut self, p: u64, o: u64, ix: &Indexes, alpha: i32, depth: u32, n: u32) -> i32 {
        if n <= depth {
            return self.exact_window(p, o, alpha, alpha + 1, n);
        }
        if depth == 0 {
            return self.leaf(p, o, &ix.own);
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
            return -self.mid_nws(o, p, &ix.pass(), -alpha - 1, depth, n);
        }
        if depth == 1 {
            return self.mid_last_ply(p, o, ix, alpha, alpha + 1, moves);
        }
        let h = hash(N, p, o);
        let mut tt_move = NO_MOVE;
        if let Some(e) = self.table.probe(h) {
            if e.depth as u32 >= depth {
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
        let count = self.mid_sorted_moves(p, o, ix, moves, tt_move, depth, &mut list);
        let mut best = -Self::MAX - 1;
        let mut best_move = NO_MOVE;
        for m in &list[..count] {
            let child = ix.play(self.layout, m.sq, m.flips);
            let v = -self.mid_nws(o ^ m.flips, p ^ m.flips ^ (1 << m.sq), &child, -alpha - 1, depth - 1, n - 1);
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
        let (lower, upper) = if best > alpha { (best as i8, max) } else { (-max, best as i8) };
        self.table.store(h, lower, upper, best_move, n as u8, depth as u8);
        best
    }

    /// The principal-variation estimate search with window (`alpha`, `beta`): the value of a
    /// `depth`-ply search of the evaluation (exact where the game ends within it). `n` empties.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn mid_pvs(&mut self, p: u64, o: u64, ix: &Indexes, alpha: i32, beta: i32, depth: u32, n: u32) -> i32 {
        let isa = self.isa;
        isa.enter(
            #[inline(always)]
            move || self.mid_pvs_body(p, o, ix, alpha, beta, depth, n),
        )
    }

    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn mid_pvs_body(&mut self, p: u64, o: u64, ix: &Indexes, mut alpha: i32, beta: i32, depth: u32, n: u32) -> i32 {
        if n <= depth {
            return self.exact_window(p, o, alpha, beta, n);
        }
        if depth == 0 {
            return self.leaf(p, o, &ix.own);
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
            return -self.mid_pvs(o, p, &ix.pass(), -beta, -alpha, depth, n);
        }
        if depth == 1 {
            return self.mid_last_ply(p, o, ix, alpha, beta, moves);
        }
        let h = hash(N, p, o);
        let mut tt_move = NO_MOVE;
        if let Some(e) = self.table.probe(h) {
            let (lower, upper) = (e.lower as i32, e.upper as i32);
            if e.depth as u32 >= depth {
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
        let count = self.mid_sorted_moves(p, o, ix, moves, tt_move, depth, &mut list);
        let mut best = -Self::MAX - 1;
        let mut best_move = NO_MOVE;
        for (i, m) in list[..count].iter().enumerate() {
            let (np, no) = (o ^ m.flips, p ^ m.flips ^ (1 << m.sq));
            let child = ix.play(self.layout, m.sq, m.flips);
            let v = if i == 0 {
                -self.mid_pvs(np, no, &child, -beta, -alpha, depth - 1, n - 1)
            } else {
                let v = -self.mid_nws(np, no, &child, -alpha - 1, depth - 1, n - 1);
                if v > alpha && v < beta && !self.stopped {
                    -self.mid_pvs(np, no, &child, -beta, -alpha, depth - 1, n - 1)
                } else {
                    v
                }
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
        self.table.store(h, lower, upper, best_move, n as u8, depth as u8);
        best
    }

    /// The `depth`-ply value of a position with window (`alpha`, `beta`), fail-soft: the entry
    /// point of the estimate search.
    pub fn estimate(&mut self, p: u64, o: u64, alpha: i32, beta: i32, depth: u32) -> i32 {
        let n = (!(p | o) & full_mask(N)).count_ones();
        let ix = Indexes::new(self.layout, p, o);
        self.mid_pvs(p, o, &ix, alpha, beta, depth, n)
    }
}
