//! Reachability: is there a game from the start that arrives at a given board, and which? The
//! game-record search of Yamana (2024, the shortest-draw article), for every board size.
//!
//! A disc never leaves the board once placed, so a game reaching the target plays only on squares
//! the target occupies, and it takes exactly as many moves as the target has discs beyond the
//! start's four (passes are not moves, and transcripts leave them implicit). The search plays
//! from the start depth first on those squares only, and cuts a line as soon as a disc that can
//! never change colour again has the wrong colour. "Never" is judged with the target in mind: the
//! squares the target leaves empty stay empty for the whole game, so they act as walls, and a disc
//! beside one is as safe along that line as a disc on the edge (the article lists such squares as
//! "squares that act as corners"). Positions already shown to lead nowhere are remembered in a
//! fixed-size table, so memory stays bounded.
//!
//! Before searching, cheap arguments settle many boards at once ([`Refusal`]): the four centre
//! squares are never emptied; the discs of a reachable board are 8-connected (every move lands
//! next to a disc); after any move the mover has three discs in a row (the one placed, one
//! flipped, the one that flanked); and a wipe-out takes at least [`least_wipeout_moves`] moves.
//!
//! The side to move counts unless the target game is over; a target whose side to move must pass
//! is taken with the pass played (transcripts leave passes implicit).
//!
//! A search may run for minutes (a full board with the discs scattered); [`reach_with_progress`]
//! reports how far it has got ([`Progress`]: the positions visited, the bound
//! [`Limits::max_nodes`] that stops it undecided, the depth of the line tried) at the start,
//! every [`PROGRESS_EVERY`] positions and at the end. The front ends show it (the command line on
//! a terminal, the explorer in its status line); the search knows nothing of how.
//!
//! ```
//! use othello_explorer::studies::reach::{reach, Limits, Outcome};
//! use othello_explorer::{Position, Size};
//! use std::sync::atomic::AtomicBool;
//!
//! let target = Position::start(Size::Eight).play("f5".parse().unwrap()).unwrap()
//!     .play("d6".parse().unwrap()).unwrap();
//! let stop = AtomicBool::new(false);
//! let Outcome::Found { moves, .. } = reach(&target, &Limits::default(), &stop) else { panic!() };
//! assert_eq!(moves.len(), 2);
//! ```

use crate::board::geometry::{self, DIRECTIONS};
use crate::board::rules::{flips, legal_moves};
use crate::{
    board::position::{Color, Position},
    board::size::Size,
    board::square::Square,
    with_size,
};
use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

/// The fewest moves of a game that ends in a wipe-out, by board size: 8x8 9 moves (a published
/// fact), 6x6 9 and 4x4 10, as [`crate::studies::shortest`] finds them (its tests check all three against
/// a plain enumeration of every game).
pub const fn least_wipeout_moves(size: Size) -> u32 {
    match size {
        Size::Four => 10,
        Size::Six => 9,
        Size::Eight => 9,
    }
}

/// How far a [`reach_with_progress`] search has got, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Positions visited so far.
    pub nodes: u64,
    /// The most it may visit ([`Limits::max_nodes`]): past it the answer is undecided.
    pub max_nodes: u64,
    /// Moves on the line being tried now.
    pub depth: usize,
    /// The moves of every game that arrives (the target's discs beyond the start's four): no line
    /// is longer.
    pub moves: usize,
}

/// Positions visited between two reports of [`reach_with_progress`].
pub const PROGRESS_EVERY: u64 = 1 << 16;

/// How much the search may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most positions visited before giving up.
    pub max_nodes: u64,
    /// Entries of the table of positions that lead nowhere (24 bytes each).
    pub table_entries: usize,
}

impl Default for Limits {
    /// A billion positions, and a table of a million entries (24 MiB).
    fn default() -> Limits {
        Limits { max_nodes: 1_000_000_000, table_entries: 1 << 20 }
    }
}

/// Why no game reaches the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A centre square is empty: the four start discs never leave the board.
    CentreEmpty(Square),
    /// The discs are not 8-connected: this square is cut off from the centre.
    NotConnected(Square),
    /// No colour has three discs in a row, which the last move always leaves.
    NoThreeInARow,
    /// One colour is wiped out in fewer moves than a wipe-out takes.
    WipeoutTooSoon {
        /// The moves the board implies.
        moves: u32,
        /// The fewest moves of any wipe-out on this board size.
        least: u32,
    },
    /// Every game on the target's squares was searched and none arrives.
    Exhausted,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::CentreEmpty(sq) => {
                write!(f, "the centre square {sq} is empty, but the four start discs never leave the board")
            }
            Refusal::NotConnected(sq) => write!(
                f,
                "the discs are not 8-connected ({sq} is cut off from the centre), but every move lands next to a disc"
            ),
            Refusal::NoThreeInARow => f.write_str(
                "no colour has three discs in a row, but every move leaves its mover three in a row (placed, flipped, flanking)",
            ),
            Refusal::WipeoutTooSoon { moves, least } => {
                write!(f, "one colour is wiped out after {moves} moves, but a wipe-out takes at least {least}")
            }
            Refusal::Exhausted => f.write_str("every game on the board's occupied squares was searched and none arrives"),
        }
    }
}

/// What [`reach`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A transcript from the start to the board (passes implicit).
    Found {
        /// The moves.
        moves: Vec<Square>,
        /// Positions visited.
        nodes: u64,
    },
    /// Proof that none exists.
    Unreachable {
        /// The argument.
        reason: Refusal,
        /// Positions visited (0 when a cheap argument settled it).
        nodes: u64,
    },
    /// The node limit ran out first.
    GaveUp {
        /// Positions visited.
        nodes: u64,
    },
    /// The stop flag was raised.
    Cancelled {
        /// Positions visited.
        nodes: u64,
    },
}

/// Looks for a game from the start of the target's size that arrives at `target` (see the module
/// documentation).
pub fn reach(target: &Position, limits: &Limits, stop: &AtomicBool) -> Outcome {
    reach_with_progress(target, limits, stop, &mut |_| {})
}

/// [`reach`], calling `progress` at the start of the search, every [`PROGRESS_EVERY`] positions
/// and at the end (not at all when a cheap argument settles the board): the positions visited
/// only grow, and the last report has the count the outcome holds.
pub fn reach_with_progress(
    target: &Position,
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Outcome {
    if let Some(reason) = cheap_refusal(target) {
        return Outcome::Unreachable { reason, nodes: 0 };
    }
    with_size!(target.size(), N => Search::<N>::new(target, limits, stop, progress).run())
}

/// Every game from the start that arrives at `target`: how many there are, and the first `list`
/// of them (moves tried in reading order at each step). `Err` holds [`Outcome::GaveUp`] or
/// [`Outcome::Cancelled`] when the search could not finish.
pub fn all_games(
    target: &Position,
    limits: &Limits,
    stop: &AtomicBool,
    list: usize,
) -> Result<(u64, Vec<Vec<Square>>), Outcome> {
    if cheap_refusal(target).is_some() {
        return Ok((0, Vec::new()));
    }
    with_size!(target.size(), N => {
        let mut quiet = |_: &Progress| {};
        let mut s = Search::<N>::new(target, limits, stop, &mut quiet);
        let root = s.root();
        let count = s.count(root);
        if let Some(halted) = s.halted.take() {
            return Err(halted);
        }
        let mut games = Vec::new();
        s.list(root, list, &mut games);
        Ok((count, games))
    })
}

/// The cheap arguments of the module documentation, in order.
pub(crate) fn cheap_refusal(target: &Position) -> Option<Refusal> {
    let size = target.size();
    let n = size.n();
    let (black, white) = (target.black().bits(), target.white().bits());
    let occupied = black | white;
    let centre = geometry::centre(n);
    if let Some(sq) = crate::board::bitboard::Bitboard::new(size, centre & !occupied).reading_order().first() {
        return Some(Refusal::CentreEmpty(*sq));
    }
    let joined = geometry::spread(n, occupied, centre);
    if let Some(sq) = crate::board::bitboard::Bitboard::new(size, occupied & !joined).reading_order().first() {
        return Some(Refusal::NotConnected(*sq));
    }
    let moves = occupied.count_ones() - 4;
    if moves == 0 {
        return None;
    }
    if !three_in_a_row(n, black) && !three_in_a_row(n, white) {
        return Some(Refusal::NoThreeInARow);
    }
    let least = least_wipeout_moves(size);
    if (black == 0 || white == 0) && moves < least {
        return Some(Refusal::WipeoutTooSoon { moves, least });
    }
    None
}

fn three_in_a_row(n: usize, discs: u64) -> bool {
    let mut found = false;
    for_each_bit(discs, |b| {
        let (c, r) = square_of(n, b);
        for d in &DIRECTIONS[..4] {
            let one = step(n, c, r, d.dcol, d.drow);
            let two = step(n, c, r, 2 * d.dcol, 2 * d.drow);
            if let (Some(x), Some(y)) = (one, two)
                && discs >> x & 1 == 1
                && discs >> y & 1 == 1
            {
                found = true;
            }
        }
    });
    found
}

fn for_each_bit(mut set: u64, mut f: impl FnMut(u32)) {
    while set != 0 {
        let b = set.trailing_zeros();
        set &= set - 1;
        f(b);
    }
}

/// Column and row of bit `b` on the `n x n` board.
fn square_of(n: usize, b: u32) -> (i32, i32) {
    let index = n * n - 1 - b as usize;
    ((index % n) as i32, (index / n) as i32)
}

/// The bit `k` steps of `(dc, dr)` from column `c`, row `r`, if on the board.
fn step(n: usize, c: i32, r: i32, dc: i32, dr: i32) -> Option<u32> {
    let (c, r) = (c + dc, r + dr);
    (c >= 0 && r >= 0 && c < n as i32 && r < n as i32).then(|| geometry::bit(n, c as usize, r as usize))
}

/// Along one of the four axes from a square: the occupied-in-target run through it, and its two
/// neighbours on the axis when they are in the target (a neighbour outside is a wall).
#[derive(Clone, Copy, Default)]
struct Axis {
    run: u64,
    ends: [Option<u32>; 2],
}

/// A position during the search: discs by colour, and who moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
struct Key {
    black: u64,
    white: u64,
    black_to_move: bool,
}

struct Search<'a, const N: usize> {
    size: Size,
    target: Key,
    over: bool,
    occupied: u64,
    discs: u32,
    axes: Vec<[Axis; 4]>,
    table: Vec<Option<Key>>,
    nodes: u64,
    limits: Limits,
    stop: &'a AtomicBool,
    progress: &'a mut dyn FnMut(&Progress),
    halted: Option<Outcome>,
    line: Vec<u32>,
    counts: HashMap<(u64, u64, bool), u64>,
}

impl<'a, const N: usize> Search<'a, N> {
    fn new(target: &Position, limits: &Limits, stop: &'a AtomicBool, progress: &'a mut dyn FnMut(&Progress)) -> Self {
        let size = target.size();
        let over = target.is_game_over();
        let to_move = if target.must_pass() { target.to_move().opponent() } else { target.to_move() };
        let key =
            Key { black: target.black().bits(), white: target.white().bits(), black_to_move: to_move == Color::Black };
        let occupied = key.black | key.white;
        let mut axes = vec![[Axis::default(); 4]; N * N];
        for_each_bit(occupied, |b| {
            let (c, r) = square_of(N, b);
            for (a, d) in DIRECTIONS[..4].iter().enumerate() {
                let mut axis = Axis { run: 1u64 << b, ends: [None, None] };
                for (side, sign) in [1i32, -1].into_iter().enumerate() {
                    let mut k = 1;
                    while let Some(x) = step(N, c, r, sign * k * d.dcol, sign * k * d.drow) {
                        if occupied >> x & 1 == 0 {
                            break;
                        }
                        if k == 1 {
                            axis.ends[side] = Some(x);
                        }
                        axis.run |= 1u64 << x;
                        k += 1;
                    }
                }
                axes[b as usize][a] = axis;
            }
        });
        // The table starts small and grows with the search (see `dfs`): most boards need a few
        // hundred positions, and clearing megabytes for each would cost more than the search.
        Search {
            size,
            target: key,
            over,
            occupied,
            discs: occupied.count_ones(),
            axes,
            table: vec![None; limits.table_entries.clamp(1, 1024)],
            nodes: 0,
            limits: *limits,
            stop,
            progress,
            halted: None,
            line: Vec::new(),
            counts: HashMap::new(),
        }
    }

    fn root(&self) -> Key {
        let start = Position::start(self.size);
        Key { black: start.black().bits(), white: start.white().bits(), black_to_move: true }
    }

    fn run(mut self) -> Outcome {
        let root = self.root();
        self.report();
        let found = self.dfs(root);
        self.report();
        if found {
            let moves = self.line.iter().map(|&b| Square::from_bit(self.size, b).expect("on the board")).collect();
            return Outcome::Found { moves, nodes: self.nodes };
        }
        self.halted.take().unwrap_or(Outcome::Unreachable { reason: Refusal::Exhausted, nodes: self.nodes })
    }

    /// Tells the caller how far the search has got.
    fn report(&mut self) {
        let progress = Progress {
            nodes: self.nodes,
            max_nodes: self.limits.max_nodes,
            depth: self.line.len(),
            moves: self.discs.saturating_sub(4) as usize,
        };
        (self.progress)(&progress);
    }

    /// The discs that keep their colour to the end of any game that stays within the target's
    /// squares: on every axis, the run through the disc is full, or a neighbour on the axis is a
    /// wall (an edge or a square the target leaves empty) or a disc of its colour already known
    /// to keep it.
    fn fixed(&self, black: u64, white: u64) -> u64 {
        let filled = black | white;
        let mut fixed = 0u64;
        loop {
            let mut grew = false;
            for_each_bit(filled & !fixed, |b| {
                let own = if black >> b & 1 == 1 { black } else { white };
                let safe = self.axes[b as usize].iter().all(|axis| {
                    axis.run & !filled == 0
                        || axis.ends.iter().any(|end| match end {
                            None => true,
                            Some(x) => (fixed & own) >> x & 1 == 1,
                        })
                });
                if safe {
                    fixed |= 1u64 << b;
                    grew = true;
                }
            });
            if !grew {
                return fixed;
            }
        }
    }

    fn slot(&self, key: &Key) -> usize {
        let h = key.black.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ key.white.rotate_left(29).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ key.black_to_move as u64;
        (h ^ (h >> 31)) as usize % self.table.len()
    }

    /// Counts a node and looks at the limits; `true` when the search must end.
    fn halt(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(PROGRESS_EVERY) {
            self.report();
        }
        if self.nodes.is_multiple_of(4096) && self.stop.load(Ordering::Relaxed) {
            self.halted = Some(Outcome::Cancelled { nodes: self.nodes });
        }
        if self.nodes > self.limits.max_nodes {
            self.halted = Some(Outcome::GaveUp { nodes: self.nodes });
        }
        self.halted.is_some()
    }

    /// Whether `key` has the target's number of discs, and if so whether it is the target.
    fn arrived(&self, key: Key) -> Option<bool> {
        ((key.black | key.white).count_ones() == self.discs).then_some(
            key.black == self.target.black
                && key.white == self.target.white
                && (self.over || key.black_to_move == self.target.black_to_move),
        )
    }

    /// Whether a disc that can no longer change colour has the wrong one.
    fn doomed(&self, key: Key) -> bool {
        let fixed = self.fixed(key.black, key.white);
        fixed & key.black & !self.target.black != 0 || fixed & key.white & !self.target.white != 0
    }

    /// The children on the target's squares, with the square played (passes made).
    fn children(&self, key: Key) -> Vec<(u32, Key)> {
        let (p, o) = if key.black_to_move { (key.black, key.white) } else { (key.white, key.black) };
        let mut moves = legal_moves::<N>(p, o) & self.occupied;
        let mut out = Vec::with_capacity(moves.count_ones() as usize);
        while moves != 0 {
            let sq = moves.trailing_zeros();
            moves &= moves - 1;
            let f = flips::<N>(p, o, sq);
            let (np, no) = (p ^ f ^ (1 << sq), o ^ f);
            let they = legal_moves::<N>(no, np) != 0;
            let black_to_move = if they { !key.black_to_move } else { key.black_to_move };
            let (black, white) = if key.black_to_move { (np, no) } else { (no, np) };
            out.push((sq, Key { black, white, black_to_move }));
        }
        out
    }

    /// The number of games from `key` that arrive (memoised in `counts`, bounded).
    fn count(&mut self, key: Key) -> u64 {
        if self.halt() {
            return 0;
        }
        if let Some(done) = self.arrived(key) {
            return u64::from(done);
        }
        if self.doomed(key) {
            return 0;
        }
        let k = (key.black, key.white, key.black_to_move);
        if let Some(&n) = self.counts.get(&k) {
            return n;
        }
        let mut total = 0u64;
        for (_, child) in self.children(key) {
            total = total.saturating_add(self.count(child));
        }
        if self.halted.is_none() && self.counts.len() < self.limits.table_entries {
            self.counts.insert(k, total);
        }
        total
    }

    /// The first `limit` games from the root in reading order of moves (after [`Search::count`]).
    fn list(&mut self, key: Key, limit: usize, out: &mut Vec<Vec<Square>>) {
        if out.len() >= limit || self.halted.is_some() {
            return;
        }
        if self.arrived(key) == Some(true) {
            let size = self.size;
            out.push(self.line.iter().map(|&b| Square::from_bit(size, b).expect("on the board")).collect());
            return;
        }
        let mut children = self.children(key);
        children.sort_by_key(|&(sq, _)| std::cmp::Reverse(sq)); // higher bit = earlier square
        for (sq, child) in children {
            if self.count(child) > 0 {
                self.line.push(sq);
                self.list(child, limit, out);
                self.line.pop();
            }
        }
    }

    fn dfs(&mut self, key: Key) -> bool {
        if self.halt() {
            return false;
        }
        if let Some(done) = self.arrived(key) {
            return done;
        }
        if self.doomed(key) {
            return false;
        }
        if self.nodes > 8 * self.table.len() as u64 && self.table.len() < self.limits.table_entries.min(1 << 26) {
            // A cache of failures: a bigger one, empty, is as sound.
            let grown = (self.table.len() * 8).min(self.limits.table_entries.min(1 << 26));
            self.table = vec![None; grown];
        }
        let slot = self.slot(&key);
        if self.table[slot] == Some(key) {
            return false;
        }
        // Children, most discs already of their target colour first.
        let mut children: Vec<(u32, u32, Key)> = self
            .children(key)
            .into_iter()
            .map(|(sq, c)| (((c.black & self.target.black) | (c.white & self.target.white)).count_ones(), sq, c))
            .collect();
        children.sort_by_key(|c| std::cmp::Reverse(c.0));
        for (_, sq, child) in children {
            self.line.push(sq);
            if self.dfs(child) {
                return true;
            }
            self.line.pop();
            if self.halted.is_some() {
                return false;
            }
        }
        self.table[slot] = Some(key);
        false
    }
}
