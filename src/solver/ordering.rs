//! Move ordering: which child each node searches first.
//!
//! - The exact search ([`Searcher::sorted_moves`]): the table's move, a wipe-out, then
//!   fastest-first (fewest replies for the opponent, corners counted twice, then fewest empty
//!   squares next to our discs). Higher up the sort leads with a shallow search of the fitted
//!   evaluation: from [`EVAL_SORT_MIN`] empties one ply, from [`EVAL_SORT_DEEP`] three (four from
//!   [`EVAL_SORT_DEEPER`], five from [`EVAL_SORT_DEEPEST`]), as Edax sorts by `search_eval_*`
//!   ([`Searcher::eval_search`]; its window closed [`EVAL_SORT_WINDOW`] discs below the node's
//!   alpha, its moves sorted by the evaluation high up and tried corners first below), the
//!   opponent's replies and our corner-anchored discs
//!   weighed beside it ([`EVAL_SORT_NEAR_FASTEST`] below [`EVAL_SORT_DEEP`] empties,
//!   [`EVAL_SORT_FASTEST`] from there). If the weights cannot be read, one ply of a rough
//!   mobility-and-corners evaluation from [`SORT_SEARCH_MIN`] empties takes their place. Deep null-window nodes also look
//!   their children up in the table first (enhanced transposition cutoff, from
//!   [`ETC_MIN`](super::settings::ETC_MIN)).
//! - The estimate search ([`Searcher::mid_sorted_moves`]): the table's move, a wipe-out, then
//!   (from [`SORT_BY_EVAL_DEPTH`] plies left) by the evaluation of each child, fewest replies
//!   breaking ties.
//!
//! Each list is keyed, not sorted: the node routines (`search.rs`) bring the best remaining move
//! to the front before each child ([`best_first`], the move [`sort_by_key`](super::node::sort_by_key), its plain twin, would
//! put there), as Edax's `movelist_best` does, so a node that cuts at its first move pays one pass
//! over the list instead of a whole sort; a split point sorts what it shares.
//!
//! The thresholds and depths, with what was measured to choose them, are in `settings.rs`.

use super::local_table;
use super::masks::{Masks, adjacent, corners_first, edge_adjacent_to_corners, odd_quadrants, weighted_mobility};
use super::node::{Move, Node, Window, best_first, raise};
use super::searcher::Searcher;
use super::settings::{
    EVAL_SORT_DEEP, EVAL_SORT_DEEPER, EVAL_SORT_DEEPEST, EVAL_SORT_DEPTH, EVAL_SORT_FASTEST, EVAL_SORT_INNER_DEPTH,
    EVAL_SORT_MIN, EVAL_SORT_NEAR_DEPTH, EVAL_SORT_NEAR_FASTEST, EVAL_SORT_WINDOW, SHALLOW, SORT_BY_EVAL_DEPTH,
    SORT_SEARCH_MIN,
};
use super::table::{EXACT, hash};
use crate::board::geometry::full_mask;
use crate::board::isa::Isa;
use crate::eval::pattern::Row;
use crate::eval::{Indexes, SCALE, Weights, evaluate_fine_indexed};

/// A rough evaluation for move ordering only (never a score): corner-weighted mobility,
/// corners and potential mobility, from `p`'s side.
#[inline(always)]
fn rough_eval<const N: usize, I: Isa>(isa: I, p: u64, o: u64) -> i32 {
    let corners = Masks::<N>::CORNERS;
    let empty = !(p | o) & full_mask(N);
    let pm = isa.legal_moves::<N>(p, o);
    let om = isa.legal_moves::<N>(o, p);
    let mobility = weighted_mobility::<N>(pm) - weighted_mobility::<N>(om);
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

/// A node of the ordering search ([`Searcher::eval_search`]): the position (`p` to move against
/// `o`), its pattern indexes, `p`'s legal moves and the plies left.
#[derive(Clone, Copy)]
struct EvalNode<'a> {
    p: u64,
    o: u64,
    ix: &'a Indexes,
    pm: u64,
    depth: u32,
}

impl<'a, const N: usize, const DISCS: bool, I: Isa> Searcher<'a, N, DISCS, I> {
    /// Whether an exact node with `n` empties sorts its moves (two or more) by
    /// [`Self::eval_search`]: from [`EVAL_SORT_MIN`] empties, when the weights can be read.
    #[inline(always)]
    pub(super) fn sorts_by_eval(&self, n: u32) -> bool {
        self.weights.is_some() && n >= EVAL_SORT_MIN
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
    /// value of `node` after its `depth` plies of alpha-beta over the evaluation `w` with window
    /// `window`, in 1/[`SCALE`] of a disc, fail-soft. No table; from [`EVAL_SORT_INNER_DEPTH`]
    /// plies left its moves are sorted by each child's evaluation, below that the corners are
    /// tried first and the C and X squares last ([`corners_first`]), so that a refutation cuts
    /// sooner. Its positions are not counted as nodes: it only sorts the exact search's moves,
    /// never gives a score.
    fn eval_search(&self, w: &Weights, node: EvalNode<'_>, window: Window) -> i32 {
        let isa = self.isa;
        isa.enter(
            #[inline(always)]
            move || self.eval_search_body(w, node, window),
        )
    }

    #[inline(always)]
    fn eval_search_body(&self, w: &Weights, node: EvalNode<'_>, window: Window) -> i32 {
        let EvalNode { p, o, ix, pm, depth } = node;
        let Window { mut alpha, beta } = window;
        if depth == 0 {
            return self.eval_leaf(w, p, o, &ix.own, pm);
        }
        if pm == 0 {
            let om = self.isa.legal_moves::<N>(o, p);
            if om == 0 {
                return Self::final_score(p, o) * SCALE;
            }
            return -self.eval_search(w, EvalNode { p: o, o: p, ix: &ix.pass(), pm: om, depth }, window.negated());
        }
        let mut best = -i32::MAX;
        if depth >= EVAL_SORT_INNER_DEPTH {
            // High in the ordering search: the moves taken by how each child evaluates.
            let mut list = [Move::default(); 64];
            let mut count = 0;
            let mut rest = pm;
            while rest != 0 {
                let sq = rest.trailing_zeros();
                rest &= rest - 1;
                let f = self.isa.flips::<N>(p, o, sq);
                let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
                let replies = self.isa.legal_moves::<N>(np, no);
                let key = -self.eval_leaf(w, np, no, &ix.play_own(self.layout, sq, f), replies);
                list[count] = Move { sq, flips: f, key };
                count += 1;
            }
            for i in 0..count {
                best_first(&mut list[i..count]);
                let m = list[i];
                let (np, no) = (o ^ m.flips, p ^ m.flips ^ (1 << m.sq));
                let replies = self.isa.legal_moves::<N>(np, no);
                let child =
                    EvalNode { p: np, o: no, ix: &ix.play(self.layout, m.sq, m.flips), pm: replies, depth: depth - 1 };
                let v = -self.eval_search(w, child, Window { alpha, beta }.negated());
                if raise(v, &mut best, &mut alpha, beta) {
                    break;
                }
            }
            return best;
        }
        // Lower, no sort: the moves that most often refute (and so cut soonest) go first.
        for sq in corners_first::<N>(pm) {
            let f = self.isa.flips::<N>(p, o, sq);
            let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
            let replies = self.isa.legal_moves::<N>(np, no);
            let v = if depth == 1 {
                // The children are leaves: only their own indexes are needed.
                -self.eval_leaf(w, np, no, &ix.play_own(self.layout, sq, f), replies)
            } else {
                let child = EvalNode { p: np, o: no, ix: &ix.play(self.layout, sq, f), pm: replies, depth: depth - 1 };
                -self.eval_search(w, child, Window { alpha, beta }.negated())
            };
            if raise(v, &mut best, &mut alpha, beta) {
                break;
            }
        }
        best
    }

    /// The legal `moves` of the side to move at `node` with their flips, each keyed for the
    /// order (the node routines take them best first, [`best_first`]): the table's move, a
    /// wipe-out, then fastest-first, led from [`EVAL_SORT_MIN`] empties by a search of the
    /// evaluation ([`Self::eval_search`]) whose window ends [`EVAL_SORT_WINDOW`]
    /// discs below `alpha` (without the weights, from [`SORT_SEARCH_MIN`] empties by a one-ply
    /// search of [`rough_eval`]).
    ///
    /// With `etc` set to the best score so far (deep null-window nodes), each child is looked up
    /// in the table first: a child bounded low enough for the opponent settles the node at once (`Err(score)`,
    /// enhanced transposition cutoff), and a child already proven no better than alpha is left
    /// out, its bound raising the best score for the fail-soft result.
    #[inline(always)]
    pub(super) fn sorted_moves(
        &self,
        node: Node<'_, ()>,
        moves: u64,
        tt_move: u8,
        list: &mut [Move; 64],
        alpha: i32,
        mut etc: Option<&mut i32>,
    ) -> Result<usize, i32> {
        let (p, o) = (node.p, node.o);
        let corners = Masks::<N>::CORNERS;
        let mut count = 0;
        let mut rest = moves;
        let empty = !(p | o) & full_mask(N);
        let n = empty.count_ones();
        let odd = odd_quadrants::<N>(empty);
        while rest != 0 {
            let sq = rest.trailing_zeros();
            rest &= rest - 1;
            let f = self.isa.flips::<N>(p, o, sq);
            list[count] = Move { sq, flips: f, key: 0 };
            count += 1;
        }
        // Every child's entry is asked for before any is read, so that the children's misses
        // wait for memory together instead of one after the other: where the cutoff below reads
        // them, and where the children will probe their table first thing (the shared table's
        // bucket, or the slot of this thread's small table, which the endgame path's top node
        // probes too; the nodes below it probe none).
        let mut hashes = [0u64; 64];
        let children_local = local_table::keeps(n - 1);
        if n > SHALLOW {
            for (h, m) in hashes.iter_mut().zip(&list[..count]) {
                *h = hash(N, o ^ m.flips, p ^ m.flips ^ (1 << m.sq));
                if children_local {
                    local_table::prefetch(n - 1, *h);
                } else {
                    self.table.prefetch(*h);
                }
            }
        }
        if let Some(skipped) = etc.as_mut() {
            let mut kept = 0;
            for i in 0..count {
                let m = list[i];
                // The child's bounds: from this thread's small table, or the shared one.
                let bounds = if children_local {
                    let (cp, co) = (o ^ m.flips, p ^ m.flips ^ (1 << m.sq));
                    local_table::probe(self.local_tag, n - 1, hashes[i], cp, co).map(|e| (e.lower, e.upper))
                } else {
                    self.table
                        .probe(hashes[i])
                        .filter(|e| e.serves(EXACT, self.selectivity))
                        .map(|e| (e.lower as i32, e.upper as i32))
                };
                if let Some((lower, upper)) = bounds {
                    if -upper > alpha {
                        return Err(-upper);
                    }
                    if -lower <= alpha {
                        **skipped = (**skipped).max(-lower);
                        continue;
                    }
                }
                list[kept] = m;
                kept += 1;
            }
            count = kept;
        }
        // High up, the evaluation orders the moves (if there are two to order): the pattern
        // indexes of this node, once.
        let by_eval = match self.weights {
            Some(w) if self.sorts_by_eval(n) && count > 1 => Some((w, Indexes::new(self.layout, p, o))),
            _ => None,
        };
        let (eval_depth, weight) = if n < EVAL_SORT_DEEP {
            (EVAL_SORT_NEAR_DEPTH, EVAL_SORT_NEAR_FASTEST)
        } else {
            let depth = EVAL_SORT_DEPTH + (n >= EVAL_SORT_DEEPER) as u32 + (n >= EVAL_SORT_DEEPEST) as u32;
            (depth, EVAL_SORT_FASTEST[N / 2 - 2])
        };
        // The ordering search's bound from the node's side: a child worse than it is cut early.
        let floor = alpha - EVAL_SORT_WINDOW;
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
                    let mobility = weighted_mobility::<N>(r);
                    let potential = (adjacent::<N>(no) & empty & !x).count_ones() as i32;
                    let anchored = (((Masks::<N>::EDGE_NEIGHBOURS_OF_CORNERS_MASK & edge_adjacent_to_corners::<N>(no))
                        | corners)
                        & no)
                        .count_ones() as i32;
                    let parity = (x & odd != 0) as i32;
                    let fastest = -(mobility << 15) + (anchored << 11) - (potential << 5) + (parity << 3);
                    if let Some((w, ix)) = &by_eval {
                        // How the position looks `eval_depth` plies on, in discs, by the
                        // evaluation, less the opponent's replies and plus our anchored discs
                        // at `weight` each; fastest-first breaks ties.
                        let ix = ix.play(self.layout, m.sq, m.flips);
                        let child = EvalNode { p: np, o: no, ix: &ix, pm: r, depth: eval_depth };
                        let v = self.eval_search(w, child, Window { alpha: -i32::MAX, beta: -floor * SCALE });
                        let look = -v - weight * (mobility - anchored);
                        ((look + SCALE / 2).div_euclid(SCALE) << 16) + (fastest >> 4)
                    } else if n >= SORT_SEARCH_MIN {
                        // Without the weights: how the position looks after the opponent's best
                        // reply, by the rough evaluation; fastest-first breaks ties. (Searching
                        // two plies instead of one, or from 16 or 12 empties, cost more nodes on
                        // FFO #41-#46.)
                        let v = rough_search::<N, I>(self.isa, np, no, 1, -10_000, 10_000);
                        (-v << 16) + (fastest >> 4)
                    } else {
                        fastest
                    }
                };
            }
            i += 4;
        }
        Ok(count)
    }

    /// The legal `moves` of an estimate node with their flips, keyed best first (taken in that
    /// order by [`best_first`]): the table's move
    /// (`tt_move`), a wipe-out, then (from [`SORT_BY_EVAL_DEPTH`] plies left) by the evaluation of
    /// each child, fewest replies breaking ties. From 3 plies left the children will probe the
    /// table, so their buckets are prefetched.
    #[inline(always)]
    pub(super) fn mid_sorted_moves(
        &self,
        node: Node<'_, Indexes>,
        moves: u64,
        tt_move: u8,
        list: &mut [Move; 64],
    ) -> usize {
        let Node { p, o, x: ix, depth, .. } = node;
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
                let mobility = weighted_mobility::<N>(replies);
                (look << 8) - mobility
            };
            list[count] = Move { sq, flips: f, key };
            count += 1;
        }
        count
    }
}
