//! Criterion bench of the evaluation: `evaluate` on positions from random games of every size
//! (1,024 positions per size, a few at every stage, so every stage's tables compete for the
//! cache), and on 8x8 positions of one stage (24-27 empties), as a search's leaves mostly are;
//! reported as evaluations per second.
//!
//! Each position's value is checked to lie in the board's range, so a broken evaluation fails
//! instead of reporting a speed.
//!
//! Run: `cargo bench --bench eval`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use othello_explorer::eval::{baseline, evaluate};
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

criterion_group!(benches, bench);
criterion_main!(benches);
