//! Criterion benches of the rules kernels: legal moves, flips and perft, per board size.
//!
//! Every bench checks its answer in its setup, so a fast wrong answer fails instead of
//! reporting a speed: perft counts against Aart Bik's 8x8 table and the 4x4 and 6x6 counts that
//! `tests/perft.rs` confirms with the reference rules; legal-move and flip masks against a
//! square-by-square count of the same positions.
//!
//! Run: `cargo bench --bench engine` (add `-- --quick` for a short run).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use othello_explorer::board::perft::perft;
use othello_explorer::{Position, Size, board::rules, with_size};
use std::hint::black_box;
use std::time::Duration;

/// Perft depth and leaf count per size: deep enough to measure, short enough to run often. 8x8
/// depth 8 is Aart Bik's published figure; the 4x4 and 6x6 counts are confirmed by the reference
/// rules in `tests/perft.rs`. 4x4 is measured twice: at depth 10, and at depth 15, the whole
/// game tree (every game once), where inner nodes outnumber leaves five to one and leaves per
/// second fall accordingly.
const PERFT: [(Size, u32, u64); 4] =
    [(Size::Four, 10, 36_540), (Size::Four, 15, 60_060), (Size::Six, 8, 308_716), (Size::Eight, 8, 390_216)];

/// A small deterministic generator (xorshift) to pick moves.
struct Rng(u64);

impl Rng {
    fn below(&mut self, bound: u32) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as u32
    }
}

/// Positions from random games of `size` (all plies, passes included), as (player, opponent).
fn positions(size: Size, games: usize) -> Vec<(u64, u64)> {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::start(size);
        while !pos.is_game_over() {
            out.push(pos.raw());
            let moves: Vec<_> = pos.legal_moves().iter().collect();
            pos = if moves.is_empty() {
                pos.pass()
            } else {
                pos.play(moves[rng.below(moves.len() as u32) as usize]).expect("a legal move")
            };
        }
    }
    out
}

/// A slow, obviously right check of a move: walk each direction square by square on the board
/// of side `n` (bit `n*n-1-(row*n+col)`).
fn slow_flips(n: usize, p: u64, o: u64, sq: u32) -> u64 {
    let at = |c: i32, r: i32| 1u64 << (n * n - 1 - (r as usize * n + c as usize));
    let idx = n * n - 1 - sq as usize;
    let (c0, r0) = ((idx % n) as i32, (idx / n) as i32);
    let mut flips = 0;
    for (dc, dr) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
        let (mut c, mut r, mut run) = (c0 + dc, r0 + dr, 0);
        while c >= 0 && r >= 0 && c < n as i32 && r < n as i32 {
            if o & at(c, r) != 0 {
                run |= at(c, r);
            } else {
                if p & at(c, r) != 0 {
                    flips |= run;
                }
                break;
            }
            c += dc;
            r += dr;
        }
    }
    flips
}

fn check_positions(size: Size, positions: &[(u64, u64)]) {
    let n = size.n();
    for &(p, o) in positions {
        let empty = !(p | o) & size.full();
        let mut slow_legal = 0;
        for sq in 0..(n * n) as u32 {
            if empty >> sq & 1 == 1 {
                let slow = slow_flips(n, p, o, sq);
                if slow != 0 {
                    slow_legal |= 1 << sq;
                }
                let fast = with_size!(size, N => rules::flips::<N>(p, o, sq));
                assert_eq!(fast, slow, "flips of bit {sq} in {p:#x} {o:#x}");
            }
        }
        let fast = with_size!(size, N => rules::legal_moves::<N>(p, o));
        assert_eq!(fast, slow_legal, "legal moves of {p:#x} {o:#x}");
    }
}

fn bench_legal_moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves");
    for size in Size::ALL {
        let positions = positions(size, 20);
        check_positions(size, &positions);
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(size), &positions, |b, positions| {
            b.iter(|| {
                let mut acc = 0u64;
                for &(p, o) in positions {
                    acc ^= with_size!(size, N => rules::legal_moves::<N>(black_box(p), black_box(o)));
                }
                acc
            })
        });
    }
    group.finish();
}

/// Every concept of a position at once (`Concepts::of`: both sides' stable and frontier discs,
/// potential mobility, mobility, the regions with their moves, the corners' status): what the
/// explorer computes on every frame for its bitboards panel and review on every reviewed move.
fn bench_concepts(c: &mut Criterion) {
    let mut group = c.benchmark_group("concepts");
    for size in Size::ALL {
        let positions = positions(size, 20);
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(size), &positions, |b, positions| {
            b.iter(|| {
                let mut acc = 0u64;
                for &(p, o) in positions {
                    let c = othello_explorer::board::concepts::Concepts::of(size, black_box(p), black_box(o), true);
                    acc ^= c.stable[0] ^ c.frontier[1] ^ c.regions.len() as u64;
                }
                acc
            })
        });
    }
    group.finish();
}

fn bench_flips(c: &mut Criterion) {
    let mut group = c.benchmark_group("flips");
    for size in Size::ALL {
        let positions = positions(size, 20);
        check_positions(size, &positions);
        // Every legal move of every position.
        let moves: Vec<(u64, u64, u32)> = positions
            .iter()
            .flat_map(|&(p, o)| {
                let legal = with_size!(size, N => rules::legal_moves::<N>(p, o));
                (0..64u32).filter(move |sq| legal >> sq & 1 == 1).map(move |sq| (p, o, sq))
            })
            .collect();
        group.throughput(Throughput::Elements(moves.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(size), &moves, |b, moves| {
            b.iter(|| {
                let mut acc = 0u64;
                for &(p, o, sq) in moves {
                    acc ^= with_size!(size, N => rules::flips::<N>(black_box(p), black_box(o), black_box(sq)));
                }
                acc
            })
        });
    }
    group.finish();
}

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10).measurement_time(Duration::from_secs(3));
    for (size, depth, leaves) in PERFT {
        let start = Position::start(size);
        assert_eq!(perft(&start, depth), leaves, "perft {depth} of {size}");
        group.throughput(Throughput::Elements(leaves));
        group.bench_with_input(BenchmarkId::new(size.to_string(), depth), &start, |b, start| {
            b.iter(|| perft(black_box(start), depth))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_legal_moves, bench_flips, bench_perft, bench_concepts);
criterion_main!(benches);
