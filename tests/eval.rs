//! The evaluation against independent references, never against its own output:
//!
//! - exact scores from the solver (positions of random games with at most 12 empties): the fitted
//!   weights' mean absolute error is well below the hand-written stand-in's, on every size;
//! - the eight symmetries of a position give exactly the same evaluation;
//! - every evaluation lies in the board's range, and a finished game is its final score;
//! - the shipped weights load, and reproduce the evaluations `fit-eval` recorded beside them in
//!   `data/eval/check-N.txt` when it wrote them;
//! - damaged, foreign and newer weight files are refused with typed errors.

use othello_explorer::board::symmetry::Symmetry;
use othello_explorer::eval::weights::{MAGIC, Weights, WeightsError, shipped, shipped_bytes};
use othello_explorer::eval::{baseline, evaluate};
use othello_explorer::notation::obf::parse_board;
use othello_explorer::solver::{Limits, Solver, SolverOptions};
use othello_explorer::{Position, Size};

/// xorshift64, seeded apart from the fitting tool's generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Every position (with a move or a pass to make) of `games` uniformly random games.
fn random_positions(size: Size, games: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::start(size);
        while !pos.is_game_over() {
            out.push(pos);
            if pos.must_pass() {
                pos = pos.pass();
                continue;
            }
            let moves: Vec<_> = pos.legal_moves().iter().collect();
            pos = pos.play(moves[(rng.next() % moves.len() as u64) as usize]).unwrap();
        }
        out.push(pos);
    }
    out
}

fn eval(pos: &Position) -> i32 {
    let (p, o) = pos.raw();
    match pos.size() {
        Size::Four => evaluate::<4>(p, o),
        Size::Six => evaluate::<6>(p, o),
        Size::Eight => evaluate::<8>(p, o),
    }
}

fn stand_in(pos: &Position) -> i32 {
    let (p, o) = pos.raw();
    match pos.size() {
        Size::Four => baseline::<4>(p, o),
        Size::Six => baseline::<6>(p, o),
        Size::Eight => baseline::<8>(p, o),
    }
}

#[test]
fn the_shipped_weights_load_for_every_size() {
    for n in [4, 6, 8] {
        let w = shipped(n).unwrap_or_else(|e| panic!("data/eval/weights-{n}.oxev: {e}"));
        assert_eq!(w.n(), n);
    }
}

#[test]
fn the_eight_symmetries_evaluate_the_same() {
    for size in Size::ALL {
        for pos in random_positions(size, 40, 0x5a5a_1234 + size.n() as u64) {
            let want = eval(&pos);
            for s in Symmetry::ALL {
                assert_eq!(eval(&s.apply_position(&pos)), want, "{} under {}", pos, s.name());
            }
        }
    }
}

#[test]
fn evaluations_stay_in_range_and_finished_games_are_exact() {
    let mut rng = Rng(0xdead_beef);
    for size in Size::ALL {
        let max = size.squares() as i32;
        for pos in random_positions(size, 60, 0x77 + size.n() as u64) {
            let v = eval(&pos);
            assert!((-max..=max).contains(&v), "{pos}: {v}");
            if pos.is_game_over() {
                assert_eq!(v, pos.score(othello_explorer::Scoring::Standard), "{pos}");
            }
        }
        // Random disc placements too, however unlike a game.
        for _ in 0..2000 {
            let a = rng.next() & size.full();
            let b = rng.next() & size.full() & !a;
            let v = match size {
                Size::Four => evaluate::<4>(a, b),
                Size::Six => evaluate::<6>(a, b),
                Size::Eight => evaluate::<8>(a, b),
            };
            assert!((-max..=max).contains(&v), "{a:#x} {b:#x}: {v}");
        }
    }
}

#[test]
fn the_loaded_weights_reproduce_the_recorded_evaluations() {
    for n in [4, 6, 8] {
        let path = format!("{}/data/eval/check-{n}.txt", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut checked = 0;
        for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            let (board, value) = line.rsplit_once(' ').unwrap_or_else(|| panic!("{path}: {line}"));
            let pos = parse_board(board).unwrap_or_else(|e| panic!("{path}: {line}: {e}"));
            assert_eq!(eval(&pos), value.parse::<i32>().unwrap(), "{path}: {line}");
            checked += 1;
        }
        assert!(checked >= 10, "{path}: only {checked} positions");
    }
}

#[test]
fn foreign_newer_and_damaged_files_are_refused() {
    let eight = shipped_bytes(8);
    assert_eq!(Weights::from_bytes(6, eight), Err(WeightsError::WrongSize { expected: 6, found: 8 }));
    let mut newer = eight.to_vec();
    newer[8..10].copy_from_slice(&3u16.to_le_bytes());
    assert_eq!(Weights::from_bytes(8, &newer), Err(WeightsError::UnsupportedVersion { found: 3, supported: 2 }));
    assert_eq!(Weights::from_bytes(8, b"PK\x03\x04 a zip, not weights"), Err(WeightsError::BadMagic));
    assert_eq!(Weights::from_bytes(8, &MAGIC), Err(WeightsError::Truncated));
    assert_eq!(Weights::from_bytes(8, &eight[..eight.len() - 3]), Err(WeightsError::Truncated));
    let mut damaged = eight.to_vec();
    let last = damaged.len() - 9;
    damaged[last] ^= 0x20;
    assert!(Weights::from_bytes(8, &damaged).is_err());
    // The messages are one lower-case line.
    let msg = WeightsError::UnsupportedVersion { found: 3, supported: 2 }.to_string();
    assert_eq!(msg, "weights file version 3 is not supported (this build reads version 2)");
}

/// Mean absolute errors (fitted, stand-in) against exact scores on positions of random games
/// with `lo..=hi` empty squares.
fn errors(size: Size, lo: u32, hi: u32, games: usize, seed: u64) -> (f64, f64, usize) {
    let mut solver = Solver::new(SolverOptions { hash_mb: 16, threads: 1, ..SolverOptions::default() });
    let (mut fitted, mut stand, mut k) = (0f64, 0f64, 0);
    let mut rng = Rng(seed ^ 0x1111);
    for pos in random_positions(size, games, seed) {
        let e = pos.empty_count();
        // One position in three, to spread them over more games.
        if e < lo || e > hi || pos.is_game_over() || !rng.next().is_multiple_of(3) {
            continue;
        }
        let exact = solver.score(&pos, &Limits::default()).unwrap().0;
        fitted += (eval(&pos) - exact).abs() as f64;
        stand += (stand_in(&pos) - exact).abs() as f64;
        k += 1;
    }
    (fitted / k as f64, stand / k as f64, k)
}

#[test]
fn the_fitted_weights_beat_the_stand_in_against_exact_scores() {
    for (size, lo, hi, games) in [(Size::Four, 3, 10, 100), (Size::Six, 6, 12, 60), (Size::Eight, 8, 12, 40)] {
        let (fitted, stand, k) = errors(size, lo, hi, games, 0x0bad_cafe + size.n() as u64);
        assert!(k >= 50, "{size:?}: only {k} positions");
        assert!(
            fitted < 0.7 * stand,
            "{size:?}, {k} positions with {lo}-{hi} empties: fitted MAE {fitted:.2}, stand-in {stand:.2}"
        );
    }
}
