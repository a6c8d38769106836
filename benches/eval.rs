//! Criterion bench of the evaluation: `evaluate` on positions from random games of every size
//! (1,024 positions per size, a few at every stage, so every stage's tables compete for the
//! cache), and on 8x8 positions of one stage (24-27 empties), as a search's leaves mostly are;
//! reported as evaluations per second.
//!
//! Each position's value is checked to lie in the board's range, so a broken evaluation fails
//! instead of reporting a speed.
//!
//! The second group times the network's first layer summed at the leaf against the same sums
//! kept move by move (docs/network.md gives the figures).
//!
//! Run: `cargo bench --bench eval`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use othello_explorer::board::isa::{Cpu, Isa};
use othello_explorer::board::rules::flips;
use othello_explorer::eval::pattern::Layout;
use othello_explorer::eval::{Indexes, baseline, evaluate, network};
use othello_explorer::with_cpu;
use othello_explorer::{Position, Size};
use std::hint::black_box;
use std::time::Duration;

/// Positions from random games (xorshift-driven), every non-final one with `empties` kept, 1,024
/// in all.
fn positions(size: Size, empties: std::ops::RangeInclusive<u32>) -> Vec<(u64, u64)> {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut out = Vec::new();
    while out.len() < 1024 {
        let mut pos = Position::start(size);
        while !pos.is_game_over() && out.len() < 1024 {
            if pos.must_pass() {
                pos = pos.pass();
                continue;
            }
            if empties.contains(&pos.empty_count()) {
                out.push(pos.raw());
            }
            let moves: Vec<_> = pos.legal_moves().iter().collect();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            pos = pos.play(moves[(state % moves.len() as u64) as usize]).expect("a legal move");
        }
    }
    out
}

fn sum<const N: usize>(set: &[(u64, u64)], f: fn(u64, u64) -> i32) -> i64 {
    let max = (N * N) as i32;
    set.iter()
        .map(|&(p, o)| {
            let v = f(black_box(p), black_box(o));
            assert!((-max..=max).contains(&v), "{v} out of range");
            v as i64
        })
        .sum()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("evaluate");
    group.sample_size(20).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    let (four, six, eight) =
        (positions(Size::Four, 0..=64), positions(Size::Six, 0..=64), positions(Size::Eight, 0..=64));
    let midgame = positions(Size::Eight, 24..=27);
    group.throughput(Throughput::Elements(1024));
    group.bench_function("fitted 4x4", |b| b.iter(|| sum::<4>(&four, evaluate::<4>)));
    group.bench_function("fitted 6x6", |b| b.iter(|| sum::<6>(&six, evaluate::<6>)));
    group.bench_function("fitted 8x8", |b| b.iter(|| sum::<8>(&eight, evaluate::<8>)));
    group.bench_function("fitted 8x8, 24-27 empties", |b| b.iter(|| sum::<8>(&midgame, evaluate::<8>)));
    group.bench_function("stand-in 8x8", |b| b.iter(|| sum::<8>(&eight, baseline::<8>)));
    group.finish();
}

/// The moves of random 8x8 games from 14 to 50 empties: each the parent's kept indexes and the
/// child's, 4,096 in all.
fn moves_8x8() -> Vec<(Indexes, Indexes)> {
    let layout = Layout::of(8);
    let mut state = 0x1f2e_3d4c_5b6a_7988_u64;
    let mut out = Vec::new();
    while out.len() < 4096 {
        let mut pos = Position::start(Size::Eight);
        while !pos.is_game_over() && out.len() < 4096 {
            if pos.must_pass() {
                pos = pos.pass();
                continue;
            }
            let moves: Vec<_> = pos.legal_moves().iter().collect();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let square = moves[(state % moves.len() as u64) as usize];
            let (p, o) = pos.raw();
            let sq = square.bit(Size::Eight);
            let f = flips::<8>(p, o, sq);
            if (14..=50).contains(&pos.empty_count()) {
                let ix = Indexes::new(layout, p, o);
                out.push((ix, ix.play(layout, sq, f)));
            }
            pos = pos.play(square).expect("a legal move");
        }
    }
    out
}

/// The network's first layer two ways (docs/network.md, "Why the first layer is summed at the
/// leaf"): summed from the kept indexes at the leaf, as the search does, against the sums kept
/// move by move (a child's sums from its parent's: both points of view, as every node needs, and
/// the child's own view alone, what an evaluated child needs), each on 4,096 moves of random
/// games; with the CPU's best kernels. Prints the mean number of placements a move changes.
fn bench_first_layer(c: &mut Criterion) {
    let Some(net) = network::shipped(8) else { return };
    let moves = moves_8x8();
    let mut group = c.benchmark_group("network first layer");
    group.sample_size(20).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    group.throughput(Throughput::Elements(moves.len() as u64));
    with_cpu!(Cpu::detect(), isa => {
        let changed: u64 = moves
            .iter()
            .map(|(parent, child)| {
                let mut sums = net.sums(&parent.theirs);
                u64::from(net.update_sums(isa, &mut sums, &parent.theirs, &child.own))
            })
            .sum();
        eprintln!(
            "network first layer: a move changes {:.2} of the 46 placements on average ({}, {} moves)",
            changed as f64 / moves.len() as f64,
            Cpu::detect().level().name(),
            moves.len()
        );
        let start: Vec<([i16; 32], [i16; 32])> =
            moves.iter().map(|(parent, _)| (net.sums(&parent.own), net.sums(&parent.theirs))).collect();
        group.bench_function("summed at the leaf", |b| {
            b.iter(|| {
                isa.enter(#[inline(always)] || {
                    moves.iter().map(|(_, child)| i64::from(net.first_layer::<8, _>(isa, black_box(&child.own))[0])).sum::<i64>()
                })
            })
        });
        group.bench_function("kept: both views", |b| {
            b.iter(|| {
                isa.enter(#[inline(always)] || {
                    moves
                        .iter()
                        .zip(&start)
                        .map(|((parent, child), (own, theirs))| {
                            let (mut c_own, mut c_theirs) = (*theirs, *own);
                            net.update_sums(isa, &mut c_own, black_box(&parent.theirs), &child.own);
                            net.update_sums(isa, &mut c_theirs, black_box(&parent.own), &child.theirs);
                            i64::from(c_own[0]) + i64::from(c_theirs[0])
                        })
                        .sum::<i64>()
                })
            })
        });
        group.bench_function("kept: the child's own view", |b| {
            b.iter(|| {
                isa.enter(#[inline(always)] || {
                    moves
                        .iter()
                        .zip(&start)
                        .map(|((parent, child), (_, theirs))| {
                            let mut c_own = *theirs;
                            net.update_sums(isa, &mut c_own, black_box(&parent.theirs), &child.own);
                            i64::from(c_own[0])
                        })
                        .sum::<i64>()
                })
            })
        });
    });
    group.finish();
}

criterion_group!(benches, bench, bench_first_layer);
criterion_main!(benches);
