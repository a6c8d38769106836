//! Every instruction-set level the CPU has ([`othello_explorer::board::isa`]) against independent
//! references and against the plain level, its twin:
//!
//! - perft at every level against Aart Bik's published 8x8 counts and the 4x4 and 6x6 counts of
//!   the square-by-square reference rules (`tests/perft.rs` derives those);
//! - the exact score of every move of FFO #1-#10 at every level against the file's listed scores;
//! - estimates at every level: the same values and the same node counts as the plain level (the
//!   search is deterministic on one thread, so any kernel that disagreed would change one or the
//!   other);
//! - the level chosen never exceeds what `OTHELLO_EXPLORER_ISA` asks for.
//!
//! On a CPU without AVX2 only the plain level runs: the same tests then check it alone.

use othello_explorer::board::isa::{Cpu, Level};
use othello_explorer::board::perft::perft_on;
use othello_explorer::notation::obf::parse_problem;
use othello_explorer::solver::{Limits, SearchMode, Solver, SolverOptions};
use othello_explorer::{Position, Size};
use std::path::PathBuf;

const BIK_8X8: [u64; 7] = [4, 12, 56, 244, 1396, 8200, 55092];
const START_6X6: [u64; 7] = [4, 12, 56, 244, 1364, 7604, 47740];
const START_4X4: [u64; 8] = [4, 12, 44, 128, 424, 1256, 3624, 9116];

fn levels() -> Vec<Level> {
    Cpu::available().into_iter().map(Cpu::level).collect()
}

#[test]
fn plain_is_always_available_and_levels_only_go_down() {
    let levels = levels();
    assert_eq!(levels[0], Level::Plain);
    for level in Level::ALL {
        assert!(Cpu::at_most(level).level() <= level);
    }
}

#[test]
fn perft_at_every_level_matches_published_counts() {
    for cpu in Cpu::available() {
        let start = |size| Position::start(size).raw();
        let (p, o) = start(Size::Eight);
        for (d, &want) in BIK_8X8.iter().enumerate() {
            assert_eq!(perft_on::<8>(cpu, p, o, d as u32 + 1), want, "{:?} 8x8 depth {}", cpu.level(), d + 1);
        }
        let (p, o) = start(Size::Six);
        for (d, &want) in START_6X6.iter().enumerate() {
            assert_eq!(perft_on::<6>(cpu, p, o, d as u32 + 1), want, "{:?} 6x6 depth {}", cpu.level(), d + 1);
        }
        let (p, o) = start(Size::Four);
        for (d, &want) in START_4X4.iter().enumerate() {
            assert_eq!(perft_on::<4>(cpu, p, o, d as u32 + 1), want, "{:?} 4x4 depth {}", cpu.level(), d + 1);
        }
    }
}

fn ffo(file: &str) -> Vec<othello_explorer::notation::obf::Problem> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/ffo").join(file);
    let text = std::fs::read_to_string(&path).expect("the shipped FFO file");
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| parse_problem(l).expect("an FFO line")).collect()
}

#[test]
fn every_level_scores_every_move_of_ffo_1_to_10_as_listed() {
    let problems = ffo("fforum-1-19.obf");
    for level in levels() {
        let mut solver = Solver::new(SolverOptions { hash_mb: 16, ..SolverOptions::default() }).with_level(level);
        assert_eq!(solver.level(), level);
        for (i, problem) in problems.iter().take(10).enumerate() {
            let children = solver.score_children(&problem.position, &Limits::default(), &mut |_| {}).expect("no limit");
            for &(square, score) in &problem.scores {
                let got = children.iter().find(|c| c.square == square).map(|c| c.score);
                assert_eq!(got, Some(score), "{level} FFO #{} move {square}", i + 1);
            }
        }
    }
}

#[test]
fn estimates_are_the_same_at_every_level() {
    // Midgame positions of every size: FFO #40-#44 (8x8) and positions a few moves in.
    let mut positions: Vec<Position> = ffo("fforum-40-59.obf").into_iter().take(3).map(|p| p.position).collect();
    for (size, plies) in [(Size::Six, 5), (Size::Four, 2), (Size::Eight, 10)] {
        // A fixed line: at ply k, the (k mod count)-th legal move in reading order.
        let mut pos = Position::start(size);
        for k in 0..plies {
            let moves = pos.legal_moves().reading_order();
            pos = pos.play(moves[k % moves.len()]).expect("a legal move");
        }
        positions.push(pos);
    }
    let run = |level: Level, pos: &Position| {
        let mut solver = Solver::new(SolverOptions { hash_mb: 16, ..SolverOptions::default() }).with_level(level);
        let analysis = solver.analyse(pos, SearchMode::Estimate, Some(7), &Limits::default(), &[], &mut |_| {});
        (analysis.children, analysis.nodes)
    };
    for pos in &positions {
        let plain = run(Level::Plain, pos);
        for level in levels().into_iter().skip(1) {
            assert_eq!(run(level, pos), plain, "{level} on {pos}");
        }
    }
}

/// The binary refuses a level it does not know with one line and exit 2, and `bench` says which
/// level it ran at; at the plain level it still scores FFO #1-#3 as listed.
#[test]
fn the_binary_names_its_level_and_refuses_an_unknown_one() {
    let bin = || assert_cmd::Command::cargo_bin("othello-explorer").expect("the binary is built");
    let out = bin().env("OTHELLO_EXPLORER_ISA", "sse9").args(["show"]).output().expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("OTHELLO_EXPLORER_ISA 'sse9'"), "{err}");
    let ffo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/ffo/fforum-1-19.obf");
    let out = bin()
        .env("OTHELLO_EXPLORER_ISA", "plain")
        .args(["--no-store", "bench"])
        .arg(&ffo)
        .args(["--positions", "1-3", "--threads", "1"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text} {}", String::from_utf8_lossy(&out.stderr));
    assert!(text.lines().any(|l| l == "instruction set: plain"), "{text}");
}
