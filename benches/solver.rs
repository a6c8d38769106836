//! Criterion benches of the exact solver: FFO endgame positions of `data/ffo/fforum-1-19.obf`
//! (14-16 empties), each solved single-threaded by a fresh solver (a new, empty table per
//! iteration, built outside the timing), and the whole file in a row.
//!
//! Every iteration checks its score against the file's best listed score, so a fast wrong answer
//! fails instead of reporting a speed. Runs are kept short (10 samples, a few seconds each) so the
//! suite stays practical on two cores; `bench` in the command line measures the deep positions.
//!
//! Run: `cargo bench --bench solver`.

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use othello_explorer::Position;
use othello_explorer::notation::obf::parse_problem;
use othello_explorer::solver::{Limits, Solver, SolverOptions};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

/// The positions measured one by one: #1 (14 empties), #8 (15), #15 and #19 (16).
const SINGLE: [usize; 4] = [1, 8, 15, 19];

/// A table large enough for these positions, small enough to build quickly.
const HASH_MB: usize = 8;

/// FFO #1-#19 as (number, position, best listed score).
fn problems() -> Vec<(usize, Position, i32)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/ffo/fforum-1-19.obf");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {} (the FFO files beside the checkout): {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('%'))
        .enumerate()
        .map(|(i, line)| {
            let p = parse_problem(line).unwrap_or_else(|e| panic!("{}: FFO #{}: {e}", path.display(), i + 1));
            let best = p.best_score().unwrap_or_else(|| panic!("FFO #{} lists no score", i + 1));
            (i + 1, p.position, best)
        })
        .collect()
}

fn fresh() -> Solver {
    Solver::new(SolverOptions { hash_mb: HASH_MB, threads: 1, ..SolverOptions::default() })
}

fn solve_checked(solver: &mut Solver, number: usize, position: &Position, best: i32) -> u64 {
    let (score, _, nodes) = solver.score(black_box(position), &Limits::default()).expect("an unlimited search");
    assert_eq!(score, best, "FFO #{number}: the solver's score against the file's");
    nodes
}

fn ffo(c: &mut Criterion) {
    let problems = problems();
    assert_eq!(problems.len(), 19, "fforum-1-19.obf holds 19 positions");
    let mut group = c.benchmark_group("solver/ffo");
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    for number in SINGLE {
        let (_, position, best) = problems[number - 1];
        let id = BenchmarkId::from_parameter(format!("#{number}-{}-empties", position.empty_count()));
        group.bench_function(id, |b| {
            b.iter_batched(
                fresh,
                |mut solver| {
                    solve_checked(&mut solver, number, &position, best);
                    solver
                },
                BatchSize::PerIteration,
            )
        });
    }
    group.measurement_time(Duration::from_secs(4));
    group.bench_function("#1-#19", |b| {
        b.iter_batched(
            || problems.iter().map(|_| fresh()).collect::<Vec<_>>(),
            |mut solvers| {
                for (solver, &(number, position, best)) in solvers.iter_mut().zip(&problems) {
                    solve_checked(solver, number, &position, best);
                }
                solvers
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group!(benches, ffo);
criterion_main!(benches);
