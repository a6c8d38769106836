//! Criterion bench of the estimate search: the opening position after `f5d6c3` and eleven 8x8
//! midgame positions from fixed random games (20 to 40 plies in), each analysed by a fresh solver
//! to depth 8 (iterative deepening from 1, one thread, a new table per iteration built outside the
//! timing). The throughput is the nodes of one pass over the set, counted once before timing, so
//! criterion's "elements per second" are **nodes per second**; the time per iteration is the time
//! to depth 8. Both depend on the evaluation (its speed, and the tree its values shape).
//!
//! Every iteration checks that each position got an estimate for every legal move at depth 8,
//! so a broken search fails instead of reporting a speed.
//!
//! Run: `cargo bench --bench estimate`.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use othello_explorer::solver::{Kind, Limits, SearchMode, Solver, SolverOptions};
use othello_explorer::{Position, Size, notation::transcript};
use std::hint::black_box;
use std::time::Duration;

const DEPTH: u32 = 8;

/// The positions: `f5d6c3`, then the positions 20, 24, ..., 40 plies into two random games
/// (xorshift-driven, fixed seeds).
fn positions() -> Vec<Position> {
    let start = Position::start(Size::Eight);
    let mut out = vec![transcript::play(&start, "f5d6c3").expect("a legal line").end()];
    for seed in [0x2545_f491_4f6c_dd1d_u64, 0x9e37_79b9_7f4a_7c15] {
        let mut state = seed;
        let mut pos = start;
        let mut ply = 0;
        while !pos.is_game_over() && ply <= 40 {
            if pos.must_pass() {
                pos = pos.pass();
                continue;
            }
            if ply >= 20 && ply % 4 == 0 {
                out.push(pos);
            }
            let moves: Vec<_> = pos.legal_moves().iter().collect();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            pos = pos.play(moves[(state % moves.len() as u64) as usize]).expect("a legal move");
            ply += 1;
        }
    }
    out
}

fn fresh() -> Solver {
    Solver::new(SolverOptions { hash_mb: 16, threads: 1, ..SolverOptions::default() })
}

/// Analyses every position to `DEPTH`; returns the nodes searched.
fn pass(solver: &mut Solver, set: &[Position]) -> u64 {
    let mut nodes = 0;
    for position in set {
        let analysis = solver.analyse(
            black_box(position),
            SearchMode::Estimate,
            Some(DEPTH),
            &Limits::default(),
            &[],
            &mut |_| {},
        );
        assert_eq!(analysis.children.len(), position.legal_moves().count() as usize, "a value for every move");
        assert!(analysis.children.iter().all(|c| c.kind == Kind::estimate(DEPTH) || c.kind == Kind::Exact));
        nodes += analysis.nodes;
    }
    nodes
}

fn bench(c: &mut Criterion) {
    let set = positions();
    let nodes = pass(&mut fresh(), &set);
    let mut group = c.benchmark_group("estimate");
    group.sample_size(10).measurement_time(Duration::from_secs(10)).warm_up_time(Duration::from_secs(2));
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(format!("8x8, 12 positions, depth {DEPTH} ({nodes} nodes)"), |b| {
        b.iter_batched_ref(fresh, |solver| pass(solver, &set), BatchSize::PerIteration)
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
