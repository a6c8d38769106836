//! Writes the estimate-quality set: 8x8 positions with 14 to 20 empty squares, reached by
//! random-ish play from the start (a random move one time in eight, else the best move of a plain
//! 4-ply alpha-beta search of the evaluation), each with the exact score of every legal move, in the problem-file
//! format `bench` reads (`obf::parse_problem`). Positions whose side to move has fewer than two
//! moves are left out.
//!
//! ```text
//! cargo run --release --example estimate_set -- [COUNT] [SEED] > tests/data/estimates-14-20.obf
//! cargo run --release --example estimate_set -- 200 20261126 6 14 26 > tests/data/estimates-6x6-14-26.obf
//! ```
//!
//! The optional third to fifth arguments give the board side (6 or 8) and the range of empties;
//! the review's margins (`data/review-margins.txt`) are measured on the 6x6 set.
//!
//! `bench tests/data/estimates-14-20.obf --mode estimate` then measures the estimates against it.
//! `tests/data/estimates-14-20-heldout.obf` is the same with 300 positions and seed 20261124.

use othello_explorer::board::rules::{flips, legal_moves};
use othello_explorer::eval::evaluate;
use othello_explorer::notation::obf::format_board;
use othello_explorer::solver::{Limits, Solver, SolverOptions};
use othello_explorer::{Position, Size, Square};

/// xorshift64: enough randomness for picking moves, with no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A plain alpha-beta of the evaluation, `depth` plies (no table, so the set does not depend on the
/// solver's search).
fn alpha_beta<const N: usize>(p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
    let moves = legal_moves::<N>(p, o);
    if moves == 0 && legal_moves::<N>(o, p) == 0 {
        return p.count_ones() as i32 - o.count_ones() as i32;
    }
    if depth == 0 {
        return evaluate::<N>(p, o);
    }
    if moves == 0 {
        return -alpha_beta::<N>(o, p, depth, -beta, -alpha);
    }
    let mut best = -1000;
    let mut rest = moves;
    while rest != 0 {
        let sq = rest.trailing_zeros();
        rest &= rest - 1;
        let f = flips::<N>(p, o, sq);
        best = best.max(-alpha_beta::<N>(o ^ f, p ^ f ^ (1 << sq), depth - 1, -beta, -alpha.max(best)));
        if best >= beta {
            break;
        }
    }
    best
}

/// Plays from the start to `empties` empty squares; `None` if the game ends first.
fn play_to(rng: &mut Rng, size: Size, empties: u32) -> Option<Position> {
    let mut position = Position::start(size);
    while position.empty_count() > empties {
        let (next, _) = position.after_forced_pass();
        if next.is_game_over() {
            return None;
        }
        let moves = next.legal_moves().reading_order();
        let square = if rng.below(8) == 0 {
            moves[rng.below(moves.len())]
        } else {
            // The first move in reading order of those a plain 4-ply search likes best.
            let mut best = (i32::MIN, moves[0]);
            for &sq in &moves {
                let (p, o) = next.play(sq).expect("a legal move").raw();
                let v = match size {
                    Size::Six => -alpha_beta::<6>(p, o, 3, -1000, 1000),
                    _ => -alpha_beta::<8>(p, o, 3, -1000, 1000),
                };
                if v > best.0 {
                    best = (v, sq);
                }
            }
            best.1
        };
        position = next.play(square).expect("a legal move");
    }
    Some(position)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let count: usize = args.next().map_or(200, |a| a.parse().expect("COUNT: a number of positions"));
    let seed: u64 = args.next().map_or(0x00e5_71a7_e5e7, |a| a.parse().expect("SEED: a number"));
    let side: usize = args.next().map_or(8, |a| a.parse().expect("SIZE: 6 or 8"));
    let size = match side {
        6 => Size::Six,
        8 => Size::Eight,
        _ => panic!("SIZE: 6 or 8"),
    };
    let low: u32 = args.next().map_or(14, |a| a.parse().expect("MIN: the fewest empties"));
    let high: u32 = args.next().map_or(20, |a| a.parse().expect("MAX: the most empties"));
    assert!(low <= high, "MIN is at most MAX");
    let mut rng = Rng(seed | 1);
    let mut solver = Solver::new(SolverOptions { hash_mb: 64, threads: 1, ..SolverOptions::default() });
    println!(
        "% {count} {size} positions with {low}-{high} empties, random-ish play (seed {seed}), every move's exact score"
    );
    let tail = if (side, low, high) == (8, 14, 20) { String::new() } else { format!(" {side} {low} {high}") };
    println!("% cargo run --release --example estimate_set -- {count} {seed}{tail}");
    let mut written = 0;
    while written < count {
        let empties = low + rng.below((high - low + 1) as usize) as u32;
        let Some(position) = play_to(&mut rng, size, empties) else { continue };
        if position.legal_moves().count() < 2 {
            continue;
        }
        let children = solver.score_children(&position, &Limits::default(), &mut |_| {}).expect("an unlimited search");
        let scores: Vec<String> = children.iter().map(|c| format!("{}:{:+}", upper(c.square), c.score)).collect();
        println!("{}; {};", format_board(&position), scores.join("; "));
        written += 1;
    }
}

/// A square in capitals, as the FFO files write them.
fn upper(square: Square) -> String {
    square.to_string().to_uppercase()
}
