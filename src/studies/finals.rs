//! Finished drawn boards: every board of a size with a given number of discs on which neither
//! side can move and both have as many discs, as candidates for the shortest draw (Yamana 2024).
//!
//! A game ends with empty squares left only when no line has an empty square and discs of both
//! colours in one run: along a line, a run of discs that changes colour and ends at an empty
//! square gives one side a move there. So a finished board with both colours has this shape:
//! **wherever two neighbouring discs differ, the whole line through them (edge to edge) is
//! full**. Conversely, such a board leaves nobody a move: every run that touches an empty square
//! is of one colour. The enumeration assigns the squares in reading order (empty, black or white)
//! and checks that rule for each pair as soon as both are known, which prunes almost everything.
//! Two more rules cut early: the four centre squares are never empty, and the discs of a
//! reachable board are 8-connected (checked at the end of every row: discs above it that reach
//! no disc in it can never join the rest).
//!
//! ```
//! use othello_explorer::studies::finals::draw_finals;
//! use othello_explorer::Size;
//! use std::sync::atomic::AtomicBool;
//!
//! // 4x4 boards of 14 discs, 7 each, finished: the shortest 4x4 draws (10 moves) end on some.
//! let mut boards = Vec::new();
//! draw_finals(Size::Four, 14, &AtomicBool::new(false), &mut |b, w| boards.push((b, w)));
//! assert!(!boards.is_empty());
//! ```

use crate::{board::geometry, board::size::Size, with_size};
use std::sync::atomic::{AtomicBool, Ordering};

/// Calls `visit(black, white)` for every finished drawn board of `size` with `discs` discs (an
/// even number, at least 4) whose discs are 8-connected around a full centre. Returns `false`
/// when `stop` cut the enumeration short.
pub fn draw_finals(size: Size, discs: u32, stop: &AtomicBool, visit: &mut dyn FnMut(u64, u64)) -> bool {
    if discs % 2 == 1 || discs < 4 || discs as usize > size.squares() {
        return true;
    }
    with_size!(size, N => {
        let mut e = Enumeration::<N>::new(discs, stop, visit);
        e.cell(0, 0, 0, 0);
        !e.stopped
    })
}

/// For each cell (reading order) and each of its four earlier neighbours (left, up-left, up,
/// up-right): the neighbour's index and the mask of the whole line through both.
struct Geometry {
    back: Vec<[Option<(usize, u64)>; 4]>,
    centre: u64,
    rows: Vec<u64>,
}

impl Geometry {
    fn new(n: usize) -> Geometry {
        let bit = |c: i32, r: i32| 1u64 << (n * n - 1 - (r as usize * n + c as usize));
        let on = |c: i32, r: i32| c >= 0 && r >= 0 && c < n as i32 && r < n as i32;
        let line = |c: i32, r: i32, dc: i32, dr: i32| {
            let mut m = bit(c, r);
            for s in [1, -1] {
                let (mut x, mut y) = (c + s * dc, r + s * dr);
                while on(x, y) {
                    m |= bit(x, y);
                    x += s * dc;
                    y += s * dr;
                }
            }
            m
        };
        let mut back = Vec::with_capacity(n * n);
        for i in 0..n * n {
            let (c, r) = ((i % n) as i32, (i / n) as i32);
            let mut slots = [None; 4];
            for (k, (dc, dr)) in [(-1, 0), (-1, -1), (0, -1), (1, -1)].into_iter().enumerate() {
                if on(c + dc, r + dr) {
                    let j = ((r + dr) as usize) * n + (c + dc) as usize;
                    slots[k] = Some((j, line(c, r, dc, dr)));
                }
            }
            back.push(slots);
        }
        let rows = (0..n).map(|r| geometry::row_mask(n, r)).collect();
        Geometry { back, centre: geometry::centre(n), rows }
    }
}

struct Enumeration<'a, const N: usize> {
    g: Geometry,
    discs: u32,
    half: u32,
    stop: &'a AtomicBool,
    stopped: bool,
    visit: &'a mut dyn FnMut(u64, u64),
    calls: u64,
}

impl<'a, const N: usize> Enumeration<'a, N> {
    fn new(discs: u32, stop: &'a AtomicBool, visit: &'a mut dyn FnMut(u64, u64)) -> Self {
        Enumeration { g: Geometry::new(N), discs, half: discs / 2, stop, stopped: false, visit, calls: 0 }
    }

    /// Assigns cell `i` onwards; `black` and `white` hold the discs of cells before `i`, `must`
    /// the squares that lines with two colours require to be full.
    fn cell(&mut self, i: usize, black: u64, white: u64, must: u64) {
        self.calls += 1;
        if self.calls.is_multiple_of(1 << 16) && self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        if self.stopped {
            return;
        }
        let placed = (black | white).count_ones();
        if i == N * N {
            if placed == self.discs
                && black.count_ones() == white.count_ones()
                && geometry::spread(N, black | white, self.g.centre) == black | white
            {
                (self.visit)(black, white);
            }
            return;
        }
        let left = (N * N - i) as u32;
        let need = self.discs - placed;
        let bit = 1u64 << (N * N - 1 - i);
        // The squares from here on: every one a full line needs must get a disc.
        let later = (bit << 1).wrapping_sub(1);
        if (must & later).count_ones() > need {
            return;
        }
        // Empty: not a centre square, not on a line that must be full, and room for the rest.
        if bit & (self.g.centre | must) == 0 && need < left {
            self.next(i, black, white, must);
        }
        if need == 0 {
            return;
        }
        for is_black in [true, false] {
            let (own, other) = if is_black { (black, white) } else { (white, black) };
            if own.count_ones() >= self.half {
                continue;
            }
            let mut m = must;
            let mut ok = true;
            for (j, line) in self.g.back[i].iter().flatten().copied() {
                if other >> (N * N - 1 - j) & 1 == 1 {
                    // Two colours side by side: the line must be full, so far and from here on.
                    // Earlier squares are the higher bits.
                    let earlier = line & !((bit << 1).wrapping_sub(1));
                    if earlier & !(black | white) != 0 {
                        ok = false;
                        break;
                    }
                    m |= line;
                }
            }
            if !ok {
                continue;
            }
            let (b, w) = if is_black { (black | bit, white) } else { (black, white | bit) };
            self.next(i, b, w, m);
        }
    }

    /// After cell `i`: at the end of a row, the connectivity cut, then the next cell.
    fn next(&mut self, i: usize, black: u64, white: u64, must: u64) {
        if i % N == N - 1 && i / N >= 1 {
            let discs = black | white;
            if discs.count_ones() < self.discs {
                // Every disc so far must reach this row's discs through discs.
                let row = self.g.rows[i / N];
                if geometry::spread(N, discs, discs & row) != discs {
                    return;
                }
            }
        }
        self.cell(i + 1, black, white, must);
    }
}
