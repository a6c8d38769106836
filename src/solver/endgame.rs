//! The exact search's one specialised endgame path: the last
//! [`SHALLOW`](super::settings::SHALLOW) empties without allocation, and without a table but
//! at its top node ([`Searcher::shallow`]; its moves sorted by the opponent's replies from
//! [`SHALLOW_SORT`](super::settings::SHALLOW_SORT) empties, tried by parity and square class
//! below; a node of [`SHALLOW`](super::settings::SHALLOW) empties keeps its bounds in the
//! thread's small table, `local_table.rs`; their legal moves found in one pass before any
//! flips), the last 2 to 4 ([`Searcher::small_body`], a fixed-size search for each count, the legal
//! moves found first from [`SMALL_LEGAL_FIRST`] empties, each empty square tried with the
//! neighbour test below) and the last one ([`Searcher::last1`], flips only counted), and the
//! stability cutoff the null-window nodes try.
//!
//! Every function is fail-soft, scores from the side to move, as in [`super::search`].

use super::last_flips::count_last_flips;
use super::local_table;
use super::masks::{Masks, corner_groups, odd_quadrants, weighted_mobility};
use super::node::{Window, bounds, raise, table_cutoff};
use super::searcher::Searcher;
use super::settings::{SHALLOW, SHALLOW_SORT, SMALL_LEGAL_FIRST};
use super::table::{NO_MOVE, hash};
use crate::board::geometry::full_mask;
use crate::board::isa::Isa;

// The node of SHALLOW empties sorts its moves, so that its table move can lead.
const _: () = assert!(SHALLOW_SORT <= SHALLOW);

impl<'a, const N: usize, const DISCS: bool, I: Isa> Searcher<'a, N, DISCS, I> {
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

    /// [`Self::small_body`] entered as a function compiled with the kernels' instruction set:
    /// the boundary where the search meets the same count again (after a pass), since a body
    /// that is always inlined cannot call itself.
    #[inline(always)]
    fn small<const K: usize>(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empties: [u32; 4]) -> i32 {
        let isa = self.isa;
        isa.enter(
            #[inline(always)]
            move || self.small_body::<K>(p, o, alpha, beta, empties),
        )
    }

    /// The child `(np, no)` left by the move at `empties[i]` in [`Self::small`], searched with the
    /// window turned round: the other `K - 1` empties in their order.
    #[inline(always)]
    fn small_child<const K: usize>(
        &mut self,
        (np, no): (u64, u64),
        alpha: i32,
        beta: i32,
        empties: [u32; 4],
        i: usize,
    ) -> i32 {
        if K == 2 {
            return -self.last1(np, no, empties[1 - i]);
        }
        let mut rest = [0u32; 4];
        let mut m = 0;
        for (j, &e) in empties[..K].iter().enumerate() {
            if j != i {
                rest[m] = e;
                m += 1;
            }
        }
        if K == 4 {
            -self.small_body::<3>(np, no, -beta, -alpha, rest)
        } else {
            -self.small_body::<2>(np, no, -beta, -alpha, rest)
        }
    }

    /// The last `K` empties (2 to 4), given in the order to try them (odd quadrants first) in
    /// the first `K` entries of `empties`: a fixed-size search for each count, so that the
    /// loops unroll and the next count is inlined.
    #[inline(always)]
    fn small_body<const K: usize>(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, empties: [u32; 4]) -> i32 {
        self.nodes += 1;
        let mut best = -Self::MAX - 1;
        let legal = if K >= SMALL_LEGAL_FIRST as usize { self.isa.legal_moves::<N>(p, o) } else { !0 };
        for i in 0..K {
            let sq = empties[i];
            let f = if K >= SMALL_LEGAL_FIRST as usize {
                if legal >> sq & 1 == 0 {
                    continue;
                }
                self.isa.flips::<N>(p, o, sq)
            } else {
                let Some(f) = self.legal_flips(p, o, sq) else {
                    continue;
                };
                f
            };
            let v = self.small_child::<K>((o ^ f, p ^ f ^ (1 << sq)), alpha, beta, empties, i);
            if raise(v, &mut best, &mut alpha, beta) {
                return v;
            }
        }
        if best > -Self::MAX - 1 {
            return best;
        }
        // No move: the opponent plays if it can, else the game is over.
        let opponent_can = empties[..K]
            .iter()
            .any(|&sq| Masks::<N>::NEIGHBOURS[sq as usize] & p != 0 && self.isa.flips::<N>(o, p, sq) != 0);
        if !opponent_can {
            return Self::final_score(p, o);
        }
        -self.small::<K>(o, p, -beta, -alpha, empties)
    }

    /// The stability cutoff: the opponent's stable discs cap our score; when the cap is no
    /// better than `alpha`, it is the (upper-bound) result. Tried only when alpha is high enough
    /// for the opponent's discs to matter.
    #[inline(always)]
    pub(super) fn stability_cutoff(&self, p: u64, o: u64, alpha: i32, n: u32) -> Option<i32> {
        // Edax's thresholds: with few empties the cap rarely reaches a low alpha.
        let threshold = if n < 10 { 2 * n as i32 - 2 } else { 2 * n as i32 };
        if alpha >= threshold && alpha >= Self::MAX - 2 * o.count_ones() as i32 {
            let upper = Self::MAX - 2 * crate::board::stability::stable_discs::<N>(o, p).count_ones() as i32;
            if upper <= alpha {
                return Some(upper);
            }
        }
        None
    }

    /// The stability cutoff from below: our own stable discs floor our score; when the floor
    /// reaches `beta`, it is the (lower-bound) result. It is [`Self::stability_cutoff`] seen from
    /// the opponent's side (window negated), so a proof of a wipe-out is answered at the node of
    /// the side being wiped out rather than one ply later, after that side's moves were sorted.
    #[inline(always)]
    pub(super) fn stability_floor(&self, p: u64, o: u64, beta: i32, n: u32) -> Option<i32> {
        self.stability_cutoff(o, p, -beta, n).map(|upper| -upper)
    }

    /// The flips of the move at `sq` (bit index) for the side to move, or `None` if it is not
    /// legal; the neighbour test spares the flips of a square no opponent disc touches.
    #[inline(always)]
    fn legal_flips(&self, p: u64, o: u64, sq: u32) -> Option<u64> {
        if Masks::<N>::NEIGHBOURS[sq as usize] & o == 0 {
            return None;
        }
        let f = self.isa.flips::<N>(p, o, sq);
        (f != 0).then_some(f)
    }

    /// The moves of a node of the endgame path with [`SHALLOW_SORT`] or more empties (at most
    /// [`SHALLOW`]), each with its flips, sorted fastest-first: fewest replies
    /// left to the opponent (corners counted twice), a move into an odd region (`odd_empty`)
    /// half a reply ahead; ties in square order. Returns the list and its length.
    #[inline(always)]
    fn shallow_sorted(&self, p: u64, o: u64, odd_empty: u64) -> ([(u32, u64); SHALLOW as usize], usize) {
        let empty = !(p | o) & full_mask(N);
        debug_assert!(empty.count_ones() <= SHALLOW);
        let mut list = [(0u32, 0u64); SHALLOW as usize];
        let mut keys = [0i32; SHALLOW as usize];
        let mut k = 0;
        let mut rest = self.isa.legal_moves::<N>(p, o);
        while rest != 0 {
            let sq = rest.trailing_zeros();
            rest &= rest - 1;
            let f = self.isa.flips::<N>(p, o, sq);
            let replies = self.isa.legal_moves::<N>(o ^ f, p ^ f ^ (1 << sq));
            let mut key = 2 * weighted_mobility::<N>(replies);
            key -= (odd_empty >> sq) as i32 & 1;
            // Insertion: the list is short.
            let mut j = k;
            while j > 0 && keys[j - 1] > key {
                list[j] = list[j - 1];
                keys[j] = keys[j - 1];
                j -= 1;
            }
            list[j] = (sq, f);
            keys[j] = key;
            k += 1;
        }
        (list, k)
    }

    /// The search of the last few empties (`n` of them, at least 1): without a table but at a
    /// node of [`SHALLOW`] empties ([`Self::shallow_top`]).
    #[inline(always)]
    pub fn shallow(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        let odd = odd_quadrants::<N>(!(p | o) & full_mask(N));
        if n == SHALLOW {
            let isa = self.isa;
            return isa.enter(
                #[inline(always)]
                move || self.shallow_top(p, o, Window { alpha, beta }, odd),
            );
        }
        self.shallow_odd(p, o, alpha, beta, n, odd)
    }

    /// The top node of the endgame path ([`SHALLOW`] empties, entered from the exact search):
    /// its bounds in the thread's small table, which gives a cutoff or the move that found them,
    /// tried first. (The nodes below, and this one's after a pass, keep nothing.)
    #[inline(always)]
    fn shallow_top(&mut self, p: u64, o: u64, w: Window, odd: u64) -> i32 {
        let n = SHALLOW;
        self.nodes += 1;
        if let Some(cut) = self.stability_cutoff(p, o, w.alpha, n).or_else(|| self.stability_floor(p, o, w.beta, n)) {
            return cut;
        }
        let h = hash(N, p, o);
        let mut first = NO_MOVE;
        if let Some(e) = local_table::probe(self.local_tag, n, h, p, o) {
            if let Some(v) = table_cutoff(e.lower, e.upper, w) {
                return v;
            }
            first = e.best;
        }
        let (v, best_move) = self.shallow_sorted_search(p, o, w, n, odd, first);
        let (lower, upper) = bounds(v, w, Self::MAX as i8);
        local_table::store(self.local_tag, n, h, p, o, lower, upper, best_move);
        v
    }

    /// [`Self::shallow`] given the squares of the quadrants with an odd number of empties
    /// ([`odd_quadrants`]), which each move keeps up to date with one XOR
    /// ([`Masks::QUADRANT_OF`]) instead of four counts a node.
    #[inline(always)]
    fn shallow_odd(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32, odd: u64) -> i32 {
        let isa = self.isa;
        isa.enter(
            #[inline(always)]
            move || self.shallow_body(p, o, alpha, beta, n, odd),
        )
    }

    /// The value from the mover's side of the move at `sq` flipping `f` in the shallow search:
    /// the child searched with the window `w` turned round, its quadrants' parity kept.
    #[inline(always)]
    fn shallow_play(&mut self, p: u64, o: u64, (sq, f): (u32, u64), w: Window, n: u32, odd: u64) -> i32 {
        let odd = odd ^ Masks::<N>::QUADRANT_OF[sq as usize];
        -self.shallow_odd(o ^ f, p ^ f ^ (1 << sq), -w.beta, -w.alpha, n - 1, odd)
    }

    /// A node of the endgame path with [`SHALLOW_SORT`] or more empties: its moves sorted
    /// fastest-first ([`Self::shallow_sorted`]), `first` (the table's move, or [`NO_MOVE`]) ahead
    /// of them. The value and the move that found it ([`NO_MOVE`] after a pass or at the end).
    #[inline(always)]
    fn shallow_sorted_search(&mut self, p: u64, o: u64, w: Window, n: u32, odd: u64, first: u8) -> (i32, u8) {
        let Window { mut alpha, beta } = w;
        let empty = !(p | o) & full_mask(N);
        let (mut list, k) = self.shallow_sorted(p, o, empty & odd);
        if let Some(j) = list[..k].iter().position(|&(sq, _)| sq == first as u32) {
            list[..=j].rotate_right(1);
        }
        let (mut best, mut best_move) = (-Self::MAX - 1, NO_MOVE);
        for &(sq, f) in &list[..k] {
            let v = self.shallow_play(p, o, (sq, f), Window { alpha, beta }, n, odd);
            if v > best {
                best_move = sq as u8;
            }
            if raise(v, &mut best, &mut alpha, beta) {
                return (v, best_move);
            }
        }
        if best > -Self::MAX - 1 {
            return (best, best_move);
        }
        (self.shallow_pass(p, o, alpha, beta, n, odd), NO_MOVE)
    }

    /// A node of the endgame path where the side to move has no move: the opponent plays on the
    /// same empties (the window turned round), or the game is over.
    #[inline(always)]
    fn shallow_pass(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32, odd: u64) -> i32 {
        if self.isa.legal_moves::<N>(o, p) == 0 {
            return Self::final_score(p, o);
        }
        -self.shallow_odd(o, p, -beta, -alpha, n, odd)
    }

    #[inline(always)]
    fn shallow_body(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, n: u32, odd: u64) -> i32 {
        let empty = !(p | o) & full_mask(N);
        debug_assert_eq!(odd, odd_quadrants::<N>(empty));
        if n == 1 {
            return self.last1(p, o, empty.trailing_zeros());
        }
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
            return match k {
                4 => self.small_body::<4>(p, o, alpha, beta, list),
                3 => self.small_body::<3>(p, o, alpha, beta, list),
                _ => self.small_body::<2>(p, o, alpha, beta, list),
            };
        }
        self.nodes += 1;
        if let Some(cut) = self.stability_cutoff(p, o, alpha, n).or_else(|| self.stability_floor(p, o, beta, n)) {
            return cut;
        }
        if n >= SHALLOW_SORT {
            return self.shallow_sorted_search(p, o, Window { alpha, beta }, n, odd, NO_MOVE).0;
        }
        let mut best = -Self::MAX - 1;
        // Odd regions first, and within each the corners first, the C and X squares last (the
        // six classes in one flat loop: this is the hottest loop of the search).
        let moves = self.isa.legal_moves::<N>(p, o);
        let ([a, b, c], [d, e, g]) = (corner_groups::<N>(moves & odd), corner_groups::<N>(moves & !odd));
        for class in [a, b, c, d, e, g] {
            let mut rest = class;
            while rest != 0 {
                let sq = rest.trailing_zeros();
                rest &= rest - 1;
                let f = self.isa.flips::<N>(p, o, sq);
                let v = self.shallow_play(p, o, (sq, f), Window { alpha, beta }, n, odd);
                if raise(v, &mut best, &mut alpha, beta) {
                    return v;
                }
            }
        }
        if best > -Self::MAX - 1 {
            return best;
        }
        self.shallow_pass(p, o, alpha, beta, n, odd)
    }
}
