//! The shortest games: the fewest moves from the start to a game that is over in a given way (a
//! draw, a wipe-out, or any end), found by iterative deepening over the positions of each ply.
//!
//! Every move puts one disc on the board and none ever leaves it, so the positions after `k` moves
//! are exactly the positions with `4 + k` discs; passes are not moves (a side with no legal move
//! passes within the same layer). [`shortest`] builds the layers one move at a time, each position
//! once however many games reach it (with the number of games that do), and stops at the first
//! layer holding a finished game of the asked ending: no game of that ending is shorter. The
//! layers are kept, so every game of that length can then be listed ([`Found::games`]) by walking
//! back only through positions that lead to such an end.
//!
//! Memory is bounded by [`Limits::max_positions`], the positions all layers may hold together
//! (about 100 bytes each at the peak, while a layer is built); past it the search stops with [`Outcome::TooLarge`] instead of growing.
//! On 8x8 the wipe-out (9 moves) is well within reach; the 20-move draw of Yamana (2024) is not
//! (the article's search over final "silhouettes" ran four hours on one core), so for it
//! [`verify`] checks a file of game records instead.
//!
//! A search may run for minutes; [`shortest_with_progress`] reports how far it has got
//! ([`Progress`]): by layers, the layer being built, the positions held and the bound
//! [`Limits::max_positions`] that stops it undecided; by final boards, the length looked at, the
//! boards met and the game-record search on the board at hand with its node limit. Both name the
//! longest game they will look at ([`Limits::max_moves`], at most the board's empty squares).
//!
//! ```
//! use othello_explorer::studies::shortest::{shortest, Ending, Limits, Outcome};
//! use othello_explorer::Size;
//! use std::sync::atomic::AtomicBool;
//!
//! let stop = AtomicBool::new(false);
//! let Outcome::Found(found) = shortest(Size::Eight, Ending::Wipeout, &Limits::default(), &stop) else { panic!() };
//! assert_eq!(found.moves, 9);
//! ```

use crate::board::rules::{flips, legal_moves};
use crate::board::symmetry::canonical;
use crate::studies::reach;
use crate::{
    board::position::{Color, Position},
    board::size::Size,
    board::square::Square,
    with_size,
};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

mod verify;

pub use verify::{Checked, RecordProblem, Verification, verify};

/// How the game must end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// Neither side can move and both have as many discs.
    Draw,
    /// One side has no disc left.
    Wipeout,
    /// Neither side can move, whatever the score.
    Any,
}

impl Ending {
    /// Its name on the command line and in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Ending::Draw => "draw",
            Ending::Wipeout => "wipeout",
            Ending::Any => "any",
        }
    }

    /// Whether a finished board with `black` and `white` discs ends this way.
    pub fn matches(self, black: u64, white: u64) -> bool {
        match self {
            Ending::Draw => black.count_ones() == white.count_ones(),
            Ending::Wipeout => black == 0 || white == 0,
            Ending::Any => true,
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How far [`shortest`] may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The longest game looked at, in moves.
    pub max_moves: u32,
    /// The most positions all layers may hold together (memory: about 100 bytes each at the peak).
    pub max_positions: usize,
}

impl Default for Limits {
    /// Every length, and 10 million positions (about a gigabyte).
    fn default() -> Limits {
        Limits { max_moves: 64, max_positions: 10_000_000 }
    }
}

/// How far [`shortest_with_progress`] has got, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// By layers: building the positions after `moves` moves from those after one fewer.
    Layer {
        /// The layer being built: games of this many moves.
        moves: u32,
        /// The longest game looked at ([`Limits::max_moves`], at most the board's empty squares
        /// at the start): no layer is deeper.
        max_moves: u32,
        /// Positions of the layer before whose children are in so far.
        expanded: usize,
        /// The positions of the layer before.
        parents: usize,
        /// The positions all layers hold, the one being built with them.
        positions: usize,
        /// [`Limits::max_positions`]: past it the search stops undecided.
        max_positions: usize,
    },
    /// By final boards: the finished drawn boards of `moves` moves, each handed to the
    /// game-record search.
    Finals {
        /// The length looked at (even: a draw has as many discs of each colour).
        moves: u32,
        /// The longest looked at ([`Limits::max_moves`], at most the board's empty squares at the
        /// start).
        max_moves: u32,
        /// The finished drawn boards of this length met so far.
        boards: usize,
        /// How many of them a game reaches.
        reachable: usize,
        /// Positions the game-record search has visited on the board at hand.
        nodes: u64,
        /// Its limit for one board ([`reach::Limits::max_nodes`]): past it the answer is
        /// undecided.
        max_nodes: u64,
    },
}

/// A position in a layer: the discs by colour and who moves (after any forced pass).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Key {
    black: u64,
    white: u64,
    black_to_move: bool,
}

impl Key {
    fn position(self, size: Size) -> Position {
        let to_move = if self.black_to_move { Color::Black } else { Color::White };
        Position::new(size, self.black, self.white, to_move).expect("discs from play do not overlap")
    }
}

/// The positions after one number of moves, sorted, each with the number of games reaching it.
#[derive(Clone, Debug, Default)]
struct Layer {
    keys: Vec<Key>,
    games: Vec<u64>,
}

impl Layer {
    fn contains(&self, key: &Key) -> bool {
        self.keys.binary_search(key).is_ok()
    }
}

/// The children of `key` (the side to move plays each legal move; a side left without a move
/// passes), with the square played.
fn children<const N: usize>(key: Key, out: &mut Vec<(Square, Key)>) {
    out.clear();
    let (p, o) = if key.black_to_move { (key.black, key.white) } else { (key.white, key.black) };
    let mut moves = legal_moves::<N>(p, o);
    let size = Size::from_n(N).expect("4, 6 or 8");
    while moves != 0 {
        let sq = moves.trailing_zeros();
        moves &= moves - 1;
        let f = flips::<N>(p, o, sq);
        let (np, no) = (p ^ f ^ (1 << sq), o ^ f);
        // The other side moves next unless it has no move and we have one; a finished game is
        // always kept with white "to move", so that each final board has one key.
        let (they, we) = (legal_moves::<N>(no, np) != 0, legal_moves::<N>(np, no) != 0);
        let black_to_move = if !they && !we { false } else { key.black_to_move != they };
        let (black, white) = if key.black_to_move { (np, no) } else { (no, np) };
        let square = Square::from_bit(size, sq).expect("a legal move is on the board");
        out.push((square, Key { black, white, black_to_move }));
    }
}

fn is_over<const N: usize>(key: Key) -> bool {
    legal_moves::<N>(key.black, key.white) == 0 && legal_moves::<N>(key.white, key.black) == 0
}

/// How [`shortest`] searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Forward, one layer of positions per move (any ending).
    Layers,
    /// Backward, for draws: every finished drawn board of each even length ([`crate::studies::finals`]),
    /// each handed to the game-record search ([`crate::studies::reach`]), as Yamana (2024) does.
    Finals,
}

impl Method {
    /// Its name on the command line and in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Method::Layers => "layers",
            Method::Finals => "finals",
        }
    }

    /// The method [`shortest`] uses for `ending` unless told: final boards for draws (their
    /// layers outgrow memory long before the 16 moves of the 6x6 draw), layers otherwise.
    pub const fn default_for(ending: Ending) -> Method {
        match ending {
            Ending::Draw => Method::Finals,
            _ => Method::Layers,
        }
    }
}

/// How the games of a [`Found`] are listed.
#[derive(Clone, Debug)]
enum Lister {
    /// The kept layers, and for each the positions that lead to such an end.
    Layers { layers: Vec<Layer>, good: Vec<Vec<Key>> },
    /// Each final board's games, by the game-record search.
    Finals,
}

/// The shortest games of one ending.
#[derive(Clone, Debug)]
pub struct Found {
    /// The board size.
    pub size: Size,
    /// The ending.
    pub ending: Ending,
    /// Their length in moves (passes not counted).
    pub moves: u32,
    /// How many games of that length end that way (transcripts, passes implicit; saturates at
    /// `u64::MAX`).
    pub games: u64,
    /// The distinct final positions, in sorted order.
    pub finals: Vec<Position>,
    /// How many of them differ up to the board's eight symmetries.
    pub finals_up_to_symmetry: usize,
    /// With [`Method::Layers`], the distinct positions after each number of moves, from 0; with
    /// [`Method::Finals`], the finished drawn boards looked at for each even length, from 2.
    pub layer_sizes: Vec<usize>,
    /// How it was found.
    pub method: Method,
    lister: Lister,
}

impl Found {
    /// The games of that length ending that way, at most `limit` of them, in a fixed order (moves
    /// in reading order at each step).
    pub fn games(&self, limit: usize) -> Vec<Vec<Square>> {
        let mut out = Vec::new();
        match &self.lister {
            Lister::Layers { layers, good } => {
                let mut line = Vec::new();
                let start = layers[0].keys[0];
                with_size!(self.size, N => walk::<N>(good, self.moves, start, 0, &mut line, &mut out, limit));
            }
            Lister::Finals => {
                let stop = AtomicBool::new(false);
                // Each board's games come in order: the first `limit` of all of them are among
                // the first `limit` of each.
                for f in &self.finals {
                    if let Ok((_, games)) = reach::all_games(f, &reach::Limits::default(), &stop, limit) {
                        out.extend(games);
                    }
                }
                out.sort();
                out.truncate(limit);
            }
        }
        out
    }

    /// The first game in [`Found::games`] order.
    pub fn example(&self) -> Vec<Square> {
        self.games(1).pop().unwrap_or_default()
    }
}

fn walk<const N: usize>(
    good: &[Vec<Key>],
    moves: u32,
    key: Key,
    depth: usize,
    line: &mut Vec<Square>,
    out: &mut Vec<Vec<Square>>,
    limit: usize,
) {
    if out.len() >= limit {
        return;
    }
    if depth == moves as usize {
        out.push(line.clone());
        return;
    }
    let mut next = Vec::new();
    children::<N>(key, &mut next);
    next.sort_by_key(|(sq, _)| *sq);
    for (sq, child) in next {
        if good[depth + 1].binary_search(&child).is_ok() {
            line.push(sq);
            walk::<N>(good, moves, child, depth + 1, line, out, limit);
            line.pop();
        }
    }
}

/// What [`shortest`] found.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// The shortest games.
    Found(Found),
    /// No game of that ending within `max_moves`; `layer_sizes` says how far it went.
    NoneWithin {
        /// The limit.
        max_moves: u32,
        /// The distinct positions after each number of moves.
        layer_sizes: Vec<usize>,
    },
    /// The layers outgrew [`Limits::max_positions`] before an end was found.
    TooLarge {
        /// Games up to this many moves were all looked at, and none ends that way.
        searched_moves: u32,
        /// The positions held when the search stopped.
        positions: usize,
        /// The distinct positions after each number of moves fully built.
        layer_sizes: Vec<usize>,
    },
    /// The game-record search gave up on a final board (its node limit), so a shorter game may
    /// exist: games up to `searched_moves` moves were all looked at.
    Undecided {
        /// Games up to this many moves were all looked at, and none ends that way.
        searched_moves: u32,
        /// The board it could not settle.
        board: Position,
    },
    /// The stop flag was raised.
    Cancelled,
}

/// The shortest games from the start of `size` that end as `ending`, by iterative deepening one
/// move at a time (see the module documentation), with [`Method::default_for`] the ending.
pub fn shortest(size: Size, ending: Ending, limits: &Limits, stop: &AtomicBool) -> Outcome {
    shortest_by(Method::default_for(ending), size, ending, limits, stop)
}

/// [`shortest`] by the given method; [`Method::Finals`] finds draws only (other endings go by
/// layers).
pub fn shortest_by(method: Method, size: Size, ending: Ending, limits: &Limits, stop: &AtomicBool) -> Outcome {
    shortest_with_progress(method, size, ending, limits, stop, &mut |_| {})
}

/// [`shortest_by`], calling `progress` as it goes: by layers at the start of each layer and every
/// few thousand positions of the layer before; by final boards at the start of each length, every
/// thousand boards and with each report of the game-record search. Within a layer or a length
/// the counts only grow.
pub fn shortest_with_progress(
    method: Method,
    size: Size,
    ending: Ending,
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Outcome {
    match method {
        Method::Finals if ending == Ending::Draw => by_finals(size, limits, stop, progress),
        _ => with_size!(size, N => search::<N>(size, ending, limits, stop, progress)),
    }
}

/// Draws by their final boards: for each even length (a draw has as many discs of each colour,
/// so an even number of moves), every finished drawn board with that many discs, each given to
/// the game-record search; the first length with a reachable board is the shortest.
fn by_finals(size: Size, limits: &Limits, stop: &AtomicBool, progress: &mut dyn FnMut(&Progress)) -> Outcome {
    let mut looked = Vec::new();
    let most = limits.max_moves.min(size.squares() as u32 - 4);
    let reach_limits = reach::Limits::default();
    for moves in (2..=most).step_by(2) {
        let mut reachable = Vec::new();
        let mut undecided = None;
        let mut candidates = 0usize;
        let report = |boards: usize, found: usize, nodes: u64| Progress::Finals {
            moves,
            max_moves: most,
            boards,
            reachable: found,
            nodes,
            max_nodes: reach_limits.max_nodes,
        };
        progress(&report(0, 0, 0));
        let finished = crate::studies::finals::draw_finals(size, moves + 4, stop, &mut |black, white| {
            candidates += 1;
            if undecided.is_some() {
                return;
            }
            let (boards, found) = (candidates, reachable.len());
            if boards % 1024 == 0 {
                progress(&report(boards, found, 0));
            }
            let board = Position::new(size, black, white, Color::Black).expect("disjoint discs");
            let mut searched = |r: &reach::Progress| progress(&report(boards, found, r.nodes));
            match reach::reach_with_progress(&board, &reach_limits, stop, &mut searched) {
                reach::Outcome::Found { .. } => reachable.push(board),
                reach::Outcome::Unreachable { .. } | reach::Outcome::Cancelled { .. } => {}
                reach::Outcome::GaveUp { .. } => undecided = Some(board),
            }
        });
        if !finished || stop.load(Ordering::Relaxed) {
            return Outcome::Cancelled;
        }
        if let Some(board) = undecided {
            return Outcome::Undecided { searched_moves: moves - 2, board };
        }
        looked.push(candidates);
        if !reachable.is_empty() {
            reachable.sort_by_key(|p| (p.black().bits(), p.white().bits()));
            let mut games = 0u64;
            for f in &reachable {
                match reach::all_games(f, &reach::Limits::default(), stop, 0) {
                    Ok((n, _)) => games = games.saturating_add(n),
                    Err(_) => return Outcome::Cancelled,
                }
            }
            let finals_up_to_symmetry = up_to_symmetry(size, &reachable);
            return Outcome::Found(Found {
                size,
                ending: Ending::Draw,
                moves,
                games,
                finals: reachable,
                finals_up_to_symmetry,
                layer_sizes: looked,
                method: Method::Finals,
                lister: Lister::Finals,
            });
        }
    }
    Outcome::NoneWithin { max_moves: limits.max_moves, layer_sizes: looked }
}

/// How many of `boards` differ up to the eight symmetries (as boards: colours count, the side to
/// move does not).
fn up_to_symmetry(size: Size, boards: &[Position]) -> usize {
    boards
        .iter()
        .map(|p| {
            let b = Position::new(size, p.black().bits(), p.white().bits(), Color::Black).expect("a position");
            canonical(&b).0
        })
        .collect::<HashSet<_>>()
        .len()
}

fn search<const N: usize>(
    size: Size,
    ending: Ending,
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Outcome {
    let start = Position::start(size);
    let root = Key { black: start.black().bits(), white: start.white().bits(), black_to_move: true };
    let mut layers = vec![Layer { keys: vec![root], games: vec![1u64] }];
    let mut held = 1usize;
    let mut kids = Vec::new();
    let max_moves = limits.max_moves.min(size.squares() as u32 - 4);
    for moves in 1..=limits.max_moves {
        let last = layers.last().expect("the start layer");
        let mut next: HashMap<Key, u64> = HashMap::new();
        for (i, (&key, &games)) in last.keys.iter().zip(&last.games).enumerate() {
            if i % 4096 == 0 {
                if stop.load(Ordering::Relaxed) {
                    return Outcome::Cancelled;
                }
                progress(&Progress::Layer {
                    moves,
                    max_moves,
                    expanded: i,
                    parents: last.keys.len(),
                    positions: held + next.len(),
                    max_positions: limits.max_positions,
                });
            }
            if is_over::<N>(key) {
                continue;
            }
            children::<N>(key, &mut kids);
            for &(_, child) in &kids {
                let slot = next.entry(child).or_insert(0);
                *slot = slot.saturating_add(games);
            }
            if held + next.len() > limits.max_positions {
                return Outcome::TooLarge {
                    searched_moves: moves - 1,
                    positions: held + next.len(),
                    layer_sizes: layers.iter().map(|l| l.keys.len()).collect(),
                };
            }
        }
        if next.is_empty() {
            break;
        }
        let mut entries: Vec<(Key, u64)> = next.into_iter().collect();
        entries.sort_unstable_by_key(|e| e.0);
        held += entries.len();
        let layer = Layer { keys: entries.iter().map(|e| e.0).collect(), games: entries.iter().map(|e| e.1).collect() };
        let ends: Vec<usize> = (0..layer.keys.len())
            .filter(|&i| {
                let k = layer.keys[i];
                is_over::<N>(k) && ending.matches(k.black, k.white)
            })
            .collect();
        layers.push(layer);
        if !ends.is_empty() {
            return Outcome::Found(found::<N>(size, ending, moves, layers, &ends));
        }
    }
    Outcome::NoneWithin { max_moves: limits.max_moves, layer_sizes: layers.iter().map(|l| l.keys.len()).collect() }
}

fn found<const N: usize>(size: Size, ending: Ending, moves: u32, layers: Vec<Layer>, ends: &[usize]) -> Found {
    let last = layers.last().expect("the layer of the ends");
    let games = ends.iter().fold(0u64, |sum, &i| sum.saturating_add(last.games[i]));
    let finals: Vec<Position> = ends.iter().map(|&i| last.keys[i].position(size)).collect();
    let finals_up_to_symmetry = up_to_symmetry(size, &finals);
    let mut good = vec![Vec::new(); layers.len()];
    good[moves as usize] = ends.iter().map(|&i| last.keys[i]).collect();
    let mut kids = Vec::new();
    for depth in (0..moves as usize).rev() {
        let (below, here) = (&good[depth + 1], &layers[depth]);
        let keep: Vec<Key> = here
            .keys
            .iter()
            .copied()
            .filter(|&k| {
                children::<N>(k, &mut kids);
                kids.iter().any(|(_, c)| below.binary_search(c).is_ok())
            })
            .collect();
        good[depth] = keep;
    }
    let layer_sizes = layers.iter().map(|l| l.keys.len()).collect();
    let lister = Lister::Layers { layers, good };
    Found { size, ending, moves, games, finals, finals_up_to_symmetry, layer_sizes, method: Method::Layers, lister }
}

impl Found {
    /// Whether `key`'s position is among those after `depth` moves (for tests).
    #[doc(hidden)]
    pub fn holds(&self, depth: usize, position: &Position) -> bool {
        let key = Key {
            black: position.black().bits(),
            white: position.white().bits(),
            black_to_move: position.to_move() == Color::Black,
        };
        match &self.lister {
            Lister::Layers { layers, .. } => layers.get(depth).is_some_and(|l| l.contains(&key)),
            Lister::Finals => false,
        }
    }
}
