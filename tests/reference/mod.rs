//! A plain, square-by-square reference implementation of the rules of Othello, for the tests.
//!
//! It shares nothing with the library: its own board type (a `Vec` of `N*N` cells in reading
//! order, `a1` = index 0), legal moves found by walking the eight directions one cell at a time,
//! flips, play, pass, game end, scores and a naive perft. The only link to the library's bit
//! layout is written out here by hand, from the project's convention: the cell at `row`, `col`
//! is bit `N*N-1-(row*N+col)` (`a1` the most significant used bit).
//!
//! Each test crate uses a part of it, so unused items are expected.
#![allow(dead_code)]

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Black,
    White,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }

    /// The board-string letter: `X` black, `O` white.
    pub fn letter(self) -> char {
        match self {
            Side::Black => 'X',
            Side::White => 'O',
        }
    }
}

/// The eight directions as (column step, row step).
pub const DIRS: [(i32, i32); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];

/// A board of `n * n` cells, `a1` first, row by row, and the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub n: usize,
    pub cells: Vec<Option<Side>>,
    pub to_move: Side,
}

/// The bit of cell (`col`, `row`) in the project's layout, written out independently.
pub fn bit_of(n: usize, col: usize, row: usize) -> u32 {
    (n * n - 1 - (row * n + col)) as u32
}

/// The mask of a set of cell indices (reading order).
pub fn mask_of(n: usize, cells: &[usize]) -> u64 {
    cells.iter().fold(0, |m, &i| m | 1u64 << bit_of(n, i % n, i / n))
}

/// The cell indices of a mask, in reading order.
pub fn cells_of(n: usize, mask: u64) -> Vec<usize> {
    (0..n * n).filter(|&i| mask >> bit_of(n, i % n, i / n) & 1 == 1).collect()
}

/// The name of a cell: `a1`, `f5`, …
pub fn name(n: usize, index: usize) -> String {
    format!("{}{}", (b'a' + (index % n) as u8) as char, index / n + 1)
}

/// A mask as the project's hex text: `0x` and one digit per four squares (4, 9 or 16 digits).
pub fn hex(n: usize, mask: u64) -> String {
    format!("0x{:0width$x}", mask, width = (n * n).div_ceil(4))
}

impl Board {
    /// The start: white on the top-left and bottom-right centre squares, black on the other two.
    pub fn start(n: usize) -> Board {
        let mut cells = vec![None; n * n];
        let (lo, hi) = (n / 2 - 1, n / 2);
        cells[lo * n + lo] = Some(Side::White);
        cells[hi * n + hi] = Some(Side::White);
        cells[lo * n + hi] = Some(Side::Black);
        cells[hi * n + lo] = Some(Side::Black);
        Board { n, cells, to_move: Side::Black }
    }

    /// The board with black and white discs given as masks in the project's layout.
    pub fn from_bits(n: usize, black: u64, white: u64, to_move: Side) -> Board {
        assert_eq!(black & white, 0, "overlapping discs");
        let mut cells = vec![None; n * n];
        for i in cells_of(n, black) {
            cells[i] = Some(Side::Black);
        }
        for i in cells_of(n, white) {
            cells[i] = Some(Side::White);
        }
        Board { n, cells, to_move }
    }

    /// The board of `n * n` cells written `X`/`O`/`-` from `a1` (a board string's first part),
    /// `to_move` to move. Panics on anything else: the tests write these strings.
    pub fn from_cells(n: usize, cells: &str, to_move: Side) -> Board {
        assert_eq!(cells.len(), n * n, "{cells}");
        let cells = cells
            .chars()
            .map(|c| match c {
                'X' => Some(Side::Black),
                'O' => Some(Side::White),
                '-' => None,
                other => panic!("not a cell: {other}"),
            })
            .collect();
        Board { n, cells, to_move }
    }

    /// The cells of `side`.
    pub fn cells_of_side(&self, side: Side) -> Vec<usize> {
        (0..self.cells.len()).filter(|&i| self.cells[i] == Some(side)).collect()
    }

    /// The mask of `side`'s discs in the project's layout.
    pub fn bits(&self, side: Side) -> u64 {
        mask_of(self.n, &self.cells_of_side(side))
    }

    pub fn black_bits(&self) -> u64 {
        self.bits(Side::Black)
    }

    pub fn white_bits(&self) -> u64 {
        self.bits(Side::White)
    }

    pub fn empty_bits(&self) -> u64 {
        let empties: Vec<usize> = (0..self.cells.len()).filter(|&i| self.cells[i].is_none()).collect();
        mask_of(self.n, &empties)
    }

    pub fn count(&self, side: Side) -> i32 {
        self.cells.iter().filter(|c| **c == Some(side)).count() as i32
    }

    pub fn empties(&self) -> i32 {
        self.cells.iter().filter(|c| c.is_none()).count() as i32
    }

    /// The board string: `X`/`O`/`-` from `a1`, a space, the side to move.
    pub fn board_string(&self) -> String {
        let mut s: String = self.cells.iter().map(|c| c.map_or('-', Side::letter)).collect();
        s.push(' ');
        s.push(self.to_move.letter());
        s
    }

    /// The cells a move at `index` by `side` flips, walking each direction one cell at a time:
    /// a run of the other side's discs closed by one of `side`'s. Empty if the cell is taken.
    pub fn flips_for(&self, side: Side, index: usize) -> Vec<usize> {
        let n = self.n as i32;
        let mut out = Vec::new();
        if self.cells[index].is_some() {
            return out;
        }
        let (c0, r0) = ((index % self.n) as i32, (index / self.n) as i32);
        for (dc, dr) in DIRS {
            let mut run = Vec::new();
            let (mut c, mut r) = (c0 + dc, r0 + dr);
            while c >= 0 && r >= 0 && c < n && r < n {
                let i = (r * n + c) as usize;
                match self.cells[i] {
                    Some(s) if s == side.other() => run.push(i),
                    Some(_) => {
                        out.extend_from_slice(&run);
                        break;
                    }
                    None => break,
                }
                c += dc;
                r += dr;
            }
        }
        out.sort_unstable();
        out
    }

    /// The flips of a move at `index` by the side to move.
    pub fn flips(&self, index: usize) -> Vec<usize> {
        self.flips_for(self.to_move, index)
    }

    /// Whether `side` may play at `index`: the cell is empty and some direction holds a run of
    /// the other side's discs closed by one of `side`'s.
    pub fn is_legal_for(&self, side: Side, index: usize) -> bool {
        if self.cells[index].is_some() {
            return false;
        }
        let n = self.n as i32;
        let (c0, r0) = ((index % self.n) as i32, (index / self.n) as i32);
        DIRS.iter().any(|&(dc, dr)| {
            let (mut c, mut r, mut run) = (c0 + dc, r0 + dr, 0);
            while c >= 0 && r >= 0 && c < n && r < n {
                match self.cells[(r * n + c) as usize] {
                    Some(s) if s == side => return run > 0,
                    Some(_) => run += 1,
                    None => return false,
                }
                c += dc;
                r += dr;
            }
            false
        })
    }

    /// The legal moves of `side`, in reading order.
    pub fn moves_for(&self, side: Side) -> Vec<usize> {
        (0..self.cells.len()).filter(|&i| self.is_legal_for(side, i)).collect()
    }

    /// The legal moves of the side to move, in reading order.
    pub fn moves(&self) -> Vec<usize> {
        self.moves_for(self.to_move)
    }

    /// Whether the side to move has no move but the other side has.
    pub fn must_pass(&self) -> bool {
        self.moves().is_empty() && !self.moves_for(self.to_move.other()).is_empty()
    }

    /// Whether neither side can move.
    pub fn game_over(&self) -> bool {
        self.moves().is_empty() && self.moves_for(self.to_move.other()).is_empty()
    }

    /// Plays a legal move of the side to move. Panics on an illegal one.
    pub fn play(&self, index: usize) -> Board {
        let flips = self.flips(index);
        assert!(!flips.is_empty(), "illegal reference move {}", name(self.n, index));
        let mut next = self.clone();
        next.cells[index] = Some(self.to_move);
        for i in flips {
            next.cells[i] = Some(self.to_move);
        }
        next.to_move = self.to_move.other();
        next
    }

    /// The same discs, the other side to move.
    pub fn pass(&self) -> Board {
        let mut next = self.clone();
        next.to_move = self.to_move.other();
        next
    }

    /// Discs of the side to move minus the other side's (the `discs` scoring).
    pub fn disc_difference(&self) -> i32 {
        self.count(self.to_move) - self.count(self.to_move.other())
    }

    /// The final score from the side to move with the empty squares given to the winner; a draw
    /// is 0.
    pub fn final_score(&self) -> i32 {
        let diff = self.disc_difference();
        match diff.signum() {
            1 => diff + self.empties(),
            -1 => diff - self.empties(),
            _ => 0,
        }
    }

    /// A score from the side to move, turned to black's side.
    pub fn for_black(&self, score: i32) -> i32 {
        if self.to_move == Side::Black { score } else { -score }
    }

    /// Perft: a pass is a ply, a game that ends before `depth` counts as one leaf.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if moves.is_empty() {
            if self.moves_for(self.to_move.other()).is_empty() {
                return 1;
            }
            return self.pass().perft(depth - 1);
        }
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.into_iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }
}

/// A small deterministic random generator (SplitMix64) for the tests' own choices.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `bound` (which must not be 0).
    pub fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound as u64) as usize
    }
}

/// One step of a game: the board before it and what was done.
#[derive(Clone, Debug)]
pub struct Ply {
    pub board: Board,
    /// The move played, or `None` for a pass.
    pub mv: Option<usize>,
}

/// Plays a random game from `start` to its end (or `max_plies` plies), passing when forced.
/// Returns every ply and the final board.
pub fn random_game(start: &Board, rng: &mut Rng, max_plies: usize) -> (Vec<Ply>, Board) {
    let mut board = start.clone();
    let mut plies = Vec::new();
    while plies.len() < max_plies && !board.game_over() {
        let moves = board.moves();
        if moves.is_empty() {
            plies.push(Ply { board: board.clone(), mv: None });
            board = board.pass();
        } else {
            let m = moves[rng.below(moves.len())];
            plies.push(Ply { board: board.clone(), mv: Some(m) });
            board = board.play(m);
        }
    }
    (plies, board)
}

/// A game from the start of the `n x n` board to its end, each move chosen by the xorshift64
/// sequence from `seed`: `pick(moves played, legal moves, the next number)` gives the index
/// among the legal moves (the tests' games that share their openings pick among the first two
/// early on). Passes are played when forced and left out of the result: each move with the board
/// before it.
pub fn xorshift_game(n: usize, mut seed: u64, pick: impl Fn(usize, usize, u64) -> usize) -> Vec<(Board, usize)> {
    let mut b = Board::start(n);
    let mut out = Vec::new();
    while !b.game_over() {
        if b.must_pass() {
            b = b.pass();
            continue;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let legal = b.moves();
        let m = legal[pick(out.len(), legal.len(), seed)];
        out.push((b.clone(), m));
        b = b.play(m);
    }
    out
}

/// The xorshift64 sequence's state `steps` numbers after `seed` (where the next game of a series
/// picks up: [`xorshift_game`] draws one number a move).
pub fn xorshift_after(mut seed: u64, steps: usize) -> u64 {
    for _ in 0..steps {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
    }
    seed
}

/// [`xorshift_game`] with every legal move equally likely.
pub fn xorshift_uniform(n: usize, seed: u64) -> Vec<(Board, usize)> {
    xorshift_game(n, seed, |_, count, r| (r % count as u64) as usize)
}

/// A random arrangement of discs (not necessarily reachable in a game): each cell is empty,
/// black or white, with the empty share chosen at random too.
pub fn random_board(n: usize, rng: &mut Rng) -> Board {
    let empty_share = rng.below(101);
    let cells = (0..n * n)
        .map(|_| {
            if rng.below(100) < empty_share {
                None
            } else if rng.below(2) == 0 {
                Some(Side::Black)
            } else {
                Some(Side::White)
            }
        })
        .collect();
    let to_move = if rng.below(2) == 0 { Side::Black } else { Side::White };
    Board { n, cells, to_move }
}

/// Plain negamax over these rules: the exact score from the side to move (empties to the
/// winner), with no pruning and no memory; for positions of a dozen empties or fewer.
pub fn negamax(b: &Board) -> i32 {
    if b.game_over() {
        return b.final_score();
    }
    if b.must_pass() {
        return -negamax(&b.pass());
    }
    b.moves().into_iter().map(|m| -negamax(&b.play(m))).max().expect("a move")
}

/// Exact scores already found by [`negamax_memo`]: by board, and by whether the end is counted
/// in discs only (`true`) or with the empties to the winner.
pub type Memo = std::collections::HashMap<(Board, bool), i32>;

/// The final score of a finished game from the side to move: empties to the winner, or with
/// `discs` the plain disc difference.
pub fn final_score_counted(b: &Board, discs: bool) -> i32 {
    if discs { b.disc_difference() } else { b.final_score() }
}

/// Plain negamax over these rules, remembering every position it scores in `memo`: the exact
/// score from the side to move, the end counted as [`final_score_counted`] says; for the
/// positions of whole small-board trees.
pub fn negamax_memo(b: &Board, discs: bool, memo: &mut Memo) -> i32 {
    let key = (b.clone(), discs);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let v = if b.game_over() {
        final_score_counted(b, discs)
    } else if b.must_pass() {
        -negamax_memo(&b.pass(), discs, memo)
    } else {
        b.moves().into_iter().map(|m| -negamax_memo(&b.play(m), discs, memo)).max().expect("a move")
    };
    memo.insert(key, v);
    v
}

// ---- The concepts players reason with, square by square (`board::concepts`' twins) ----

impl Board {
    /// The cell at (`col`, `row`) if it is on the board.
    fn at(&self, col: i32, row: i32) -> Option<usize> {
        let n = self.n as i32;
        (col >= 0 && row >= 0 && col < n && row < n).then(|| (row * n + col) as usize)
    }

    /// The cells next to cell `i` in the eight directions.
    pub fn neighbour_cells(&self, i: usize) -> Vec<usize> {
        let (c, r) = ((i % self.n) as i32, (i / self.n) as i32);
        DIRS.iter().filter_map(|&(dc, dr)| self.at(c + dc, r + dr)).collect()
    }

    /// The stable discs of `side`: a disc is stable when along each of the four lines through it
    /// the line is full (no empty cell on it either way), or a neighbour on it is off the board or
    /// a stable disc of `side`; grown from none until a pass over the board adds nothing.
    pub fn stable_cells(&self, side: Side) -> Vec<usize> {
        let n = self.n;
        let full_line = |c: i32, r: i32, dc: i32, dr: i32| {
            [(dc, dr), (-dc, -dr)].iter().all(|&(dc, dr)| {
                let (mut c, mut r) = (c + dc, r + dr);
                while let Some(i) = self.at(c, r) {
                    if self.cells[i].is_none() {
                        return false;
                    }
                    (c, r) = (c + dc, r + dr);
                }
                true
            })
        };
        let mut stable = vec![false; n * n];
        loop {
            let mut changed = false;
            for i in 0..n * n {
                if stable[i] || self.cells[i] != Some(side) {
                    continue;
                }
                let (c, r) = ((i % n) as i32, (i / n) as i32);
                let held = [(1, 0), (0, 1), (1, 1), (1, -1)].iter().all(|&(dc, dr)| {
                    full_line(c, r, dc, dr)
                        || [(dc, dr), (-dc, -dr)]
                            .iter()
                            .any(|&(dc, dr)| self.at(c + dc, r + dr).is_none_or(|j| stable[j]))
                });
                if held {
                    stable[i] = true;
                    changed = true;
                }
            }
            if !changed {
                return (0..n * n).filter(|&i| stable[i]).collect();
            }
        }
    }

    /// The discs of `side` with an empty cell next to them.
    pub fn frontier_cells(&self, side: Side) -> Vec<usize> {
        (0..self.n * self.n)
            .filter(|&i| self.cells[i] == Some(side))
            .filter(|&i| self.neighbour_cells(i).iter().any(|&j| self.cells[j].is_none()))
            .collect()
    }

    /// The empty cells next to a disc of the other side than `side`.
    pub fn potential_cells(&self, side: Side) -> Vec<usize> {
        (0..self.n * self.n)
            .filter(|&i| self.cells[i].is_none())
            .filter(|&i| self.neighbour_cells(i).iter().any(|&j| self.cells[j] == Some(side.other())))
            .collect()
    }

    /// The empty cells in groups joined through empty neighbours (eight directions), each group
    /// sorted, the groups in the order of their first cell; found by a breadth-first search.
    pub fn empty_regions(&self) -> Vec<Vec<usize>> {
        let n = self.n;
        let mut seen = vec![false; n * n];
        let mut out = Vec::new();
        for start in 0..n * n {
            if seen[start] || self.cells[start].is_some() {
                continue;
            }
            let mut region = vec![start];
            seen[start] = true;
            let mut k = 0;
            while k < region.len() {
                for j in self.neighbour_cells(region[k]) {
                    if !seen[j] && self.cells[j].is_none() {
                        seen[j] = true;
                        region.push(j);
                    }
                }
                k += 1;
            }
            region.sort_unstable();
            out.push(region);
        }
        out
    }
}

/// The corner cells of an `n x n` board.
pub fn corner_cells(n: usize) -> Vec<usize> {
    vec![0, n - 1, n * (n - 1), n * n - 1]
}

/// The X-squares: the cell diagonally inside each corner.
pub fn x_cells(n: usize) -> Vec<usize> {
    let mut v = vec![n + 1, 2 * n - 2, n * (n - 2) + 1, n * (n - 1) - 2];
    v.sort_unstable();
    v
}

/// The C-squares: the edge cells next to each corner.
pub fn c_cells(n: usize) -> Vec<usize> {
    let mut v = vec![1, n, n - 2, 2 * n - 1, n * (n - 2), n * (n - 1) + 1, n * (n - 1) - 1, n * n - 2];
    v.sort_unstable();
    v.dedup();
    v
}
