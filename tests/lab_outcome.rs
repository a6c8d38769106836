//! The outcome lab: its five methods prove the same win, loss or draw as a plain negamax over the
//! square-by-square reference rules, and as the solver's exact score, on random positions of
//! every size; the branching-threshold search stays sound whatever its thresholds; positions too
//! deep are refused with a reason, a budget or a raised flag stops a method; the lab's problem
//! file holds the FFO positions it names; `bench --lab` runs on a small file of 4x4 positions
//! scored by the reference, and exits 1 when a listed score disagrees.

mod common;
mod reference;

use common::to_position;
use othello_explorer::notation::obf::parse_problem;
use othello_explorer::studies::lab::outcome::{
    self, Budget, MAX_EMPTIES_ALPHA_BETA, MAX_EMPTIES_BRANCHING, MAX_EMPTIES_SOLVER, MAX_EMPTIES_SORTED,
    MAX_EMPTIES_WPNS, Method, Outcome, OutcomeError, Schedule, run, run_with,
};
use othello_explorer::{Position, Scoring, Size, studies::lab};
use reference::{Board, Rng, random_game};
use serde_json::Value;
use std::io::Write;
use std::sync::atomic::AtomicBool;

mod binary;
use binary::bin_no_store as bin;

/// Negamax over the reference board: the exact score from the side to move, empties to the
/// winner.
fn reference_score(b: &Board) -> i32 {
    if b.game_over() {
        return b.final_score();
    }
    let moves = b.moves();
    if moves.is_empty() {
        return -reference_score(&b.pass());
    }
    moves.into_iter().map(|m| -reference_score(&b.play(m))).max().unwrap()
}

/// Positions of an `n x n` board with `empties` empty squares, from random games.
fn positions(n: usize, empties: usize, count: usize, rng: &mut Rng) -> Vec<Board> {
    let mut out = Vec::new();
    while out.len() < count {
        let (plies, end) = random_game(&Board::start(n), rng, 200);
        if let Some(p) = plies.iter().find(|p| p.board.empties() as usize == empties) {
            out.push(p.board.clone());
        } else if end.empties() as usize == empties {
            out.push(end);
        }
    }
    out
}

fn check_all(b: &Board, expected: Outcome) {
    let stop = AtomicBool::new(false);
    let p = to_position(b);
    for method in Method::ALL {
        let r = run(method, &p, Budget::UNLIMITED, &stop).unwrap_or_else(|e| panic!("{method} on {p}: {e}"));
        assert_eq!(r.outcome, expected, "{method} on {p}");
        assert!(r.nodes >= 1, "{method} on {p}");
        assert_eq!(r.selecting.is_some(), method == Method::Wpns);
        assert_eq!(r.iterations.is_some(), method == Method::BranchingThreshold);
    }
}

#[test]
fn every_method_agrees_with_the_reference_negamax_on_small_positions() {
    let mut rng = Rng(0x0c7c0e);
    // 4x4 from the start down to the end; 6x6 and 8x8 near the end (the reference is plain).
    for (n, depths) in [(4, &[12, 11, 10, 9, 7, 5, 3, 1, 0][..]), (6, &[9, 8, 6, 2][..]), (8, &[9, 8, 6, 2][..])] {
        for &empties in depths {
            for b in positions(n, empties, 3, &mut rng) {
                check_all(&b, Outcome::of_score(reference_score(&b)));
            }
        }
    }
}

#[test]
fn every_method_agrees_with_the_exact_solver_on_deeper_positions() {
    // 6x6 with up to 14 empty squares and 8x8 with up to 12: the lab's exact solver gives the
    // sign (itself checked against the reference in tests/lab.rs), and plain negamax where it
    // accepts the position.
    let mut rng = Rng(0x5eed_0ca7);
    let stop = AtomicBool::new(false);
    for (n, depths) in [(6, &[14, 13, 12, 11][..]), (8, &[12, 11, 10][..])] {
        for &empties in depths {
            for b in positions(n, empties, 2, &mut rng) {
                let p = to_position(&b);
                let exact = lab::run(lab::Method::Solver, &p, Scoring::Standard, &stop).unwrap().score;
                if empties <= 12 {
                    let plain = lab::run(lab::Method::Negamax, &p, Scoring::Standard, &stop).unwrap().score;
                    assert_eq!(plain, exact, "{p}");
                }
                check_all(&b, Outcome::of_score(exact));
            }
        }
    }
}

#[test]
fn the_branching_threshold_search_is_sound_whatever_its_thresholds() {
    let mut rng = Rng(0xb4a9);
    let stop = AtomicBool::new(false);
    for (n, empties) in [(4, 12), (6, 10), (8, 10)] {
        for b in positions(n, empties, 3, &mut rng) {
            let p = to_position(&b);
            let expected = Outcome::of_score(reference_score(&b));
            for (initial, step) in [(0, 1), (1, 3), (4, 4), (100, 1)] {
                let schedule = Schedule { initial, step };
                let r = run_with(Method::BranchingThreshold, &p, schedule, Budget::UNLIMITED, &stop).unwrap();
                assert_eq!(r.outcome, expected, "{schedule:?} on {p}");
                assert!(r.iterations.unwrap() >= 1);
            }
        }
    }
}

#[test]
fn the_4x4_start_is_a_loss_and_sorting_saves_nodes() {
    let stop = AtomicBool::new(false);
    let start = Position::start(Size::Four);
    let mut runs = Vec::new();
    outcome::compare(&start, Budget::UNLIMITED, &stop, &mut |r| runs.push(r.unwrap()));
    assert_eq!(runs.iter().map(|r| r.method).collect::<Vec<_>>(), Method::ALL);
    assert!(runs.iter().all(|r| r.outcome == Outcome::Loss));
    assert!(runs[1].nodes < runs[0].nodes, "sorting helps alpha-beta");
    let share = runs[2].selection_share().unwrap();
    assert!((0.0..=1.0).contains(&share), "{share}");
}

#[test]
fn deep_positions_are_refused_with_a_reason_and_budgets_and_flags_stop() {
    let stop = AtomicBool::new(false);
    let start = Position::start(Size::Eight);
    for (method, limit) in [
        (Method::AlphaBeta, MAX_EMPTIES_ALPHA_BETA),
        (Method::SortedAlphaBeta, MAX_EMPTIES_SORTED),
        (Method::Wpns, MAX_EMPTIES_WPNS),
        (Method::BranchingThreshold, MAX_EMPTIES_BRANCHING),
        (Method::Solver, MAX_EMPTIES_SOLVER),
    ] {
        let err = run(method, &start, Budget::UNLIMITED, &stop).unwrap_err();
        assert_eq!(err, OutcomeError::TooDeep { method, empties: 60, limit });
        let text = err.to_string();
        assert!(text.starts_with(&format!("{method} refuses positions with more than {limit} empty squares")));
        assert_eq!(text.lines().count(), 1);
    }
    // FFO #24 (19 empty squares, a draw that takes every method more than 10,000 nodes): beyond
    // unsorted alpha-beta's limit, which a budget lifts.
    let ffo24 = othello_explorer::notation::obf::parse_board(
        "--O--O-----OOOX--X-XOXOO--XXXOOOXXXXOOOOXXXOXXOOXXXXXX--XOXX-O-- O",
    )
    .unwrap();
    assert!(matches!(run(Method::AlphaBeta, &ffo24, Budget::UNLIMITED, &stop), Err(OutcomeError::TooDeep { .. })));
    let budget = Budget { time: None, nodes: Some(10_000) };
    for method in Method::ALL {
        match run(method, &ffo24, budget, &stop) {
            Err(OutcomeError::OverBudget { method: m, nodes, .. }) => {
                assert_eq!(m, method);
                assert!(nodes >= 10_000, "{method}: {nodes}");
            }
            other => panic!("{method}: {other:?}"),
        }
    }
    let raised = AtomicBool::new(true);
    for method in Method::ALL {
        assert!(matches!(
            run(method, &ffo24, Budget::time(std::time::Duration::from_secs(60)), &raised),
            Err(OutcomeError::Cancelled { method: m, .. }) if m == method
        ));
    }
    let mut results = Vec::new();
    outcome::compare(&ffo24, Budget::UNLIMITED, &raised, &mut |r| results.push(r));
    assert_eq!(results.len(), 5);
    assert!(results.iter().all(|r| matches!(r, Err(OutcomeError::Cancelled { .. }))));
}

#[test]
fn the_lab_file_holds_the_ffo_positions_it_names() {
    let text = std::fs::read_to_string("tests/data/lab-19-25.obf").unwrap();
    let ffo: String = ["data/ffo/fforum-20-39.obf", "data/ffo/fforum-40-59.obf"]
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    let mut named = Vec::new();
    let mut lines = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("% FFO #") {
            named.push(rest.split(':').next().unwrap().parse::<u32>().unwrap());
        } else if !line.starts_with('%') && !line.trim().is_empty() {
            lines.push(line);
        }
    }
    assert_eq!(named, [24, 35, 43, 44, 47, 48]);
    let mut shape = Vec::new();
    for (number, line) in named.iter().zip(&lines) {
        // FFO #20 is the first line of fforum-20-39.obf, #40 the first of fforum-40-59.obf.
        let (file, first) =
            if *number < 40 { ("data/ffo/fforum-20-39.obf", 20) } else { ("data/ffo/fforum-40-59.obf", 40) };
        let original = std::fs::read_to_string(file).unwrap();
        let original: Vec<&str> = original.lines().filter(|l| !l.starts_with('%') && !l.is_empty()).collect();
        assert_eq!(original[(number - first) as usize], *line, "FFO #{number}");
        assert!(ffo.contains(line));
        let problem = parse_problem(line).unwrap();
        shape.push((problem.position.empty_count(), Outcome::of_score(problem.best_score().unwrap())));
    }
    use Outcome::{Draw, Loss, Win};
    assert_eq!(shape, [(19, Draw), (21, Draw), (23, Loss), (23, Loss), (25, Win), (25, Win)]);
}

/// A problem file of 4x4 positions from random games, every move scored by the reference.
fn small_file(rng: &mut Rng) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new().suffix(".obf").tempfile().unwrap();
    writeln!(f, "% 4x4 positions scored by the reference negamax").unwrap();
    for empties in [12, 10, 9, 7] {
        for b in positions(4, empties, 1, rng) {
            let b = if b.must_pass() && !b.game_over() { b.pass() } else { b };
            if b.game_over() {
                continue;
            }
            let scores: Vec<String> = b
                .moves()
                .into_iter()
                .map(|m| format!("{}:{:+}", reference::name(4, m).to_uppercase(), -reference_score(&b.play(m))))
                .collect();
            writeln!(f, "{}; {};", b.board_string(), scores.join("; ")).unwrap();
        }
    }
    f
}

#[test]
fn bench_lab_runs_a_small_file_and_checks_every_outcome() {
    let mut rng = Rng(0xbe9c);
    let file = small_file(&mut rng);
    let path = file.path().to_str().unwrap();
    let out = bin().args(["bench", path, "--lab", "--limit", "30"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    for name in ["alpha-beta", "sorted-alpha-beta", "wpns", "branching-threshold", "solver"] {
        assert!(text.contains(name), "{text}");
    }
    assert!(text.contains("wpns: total time"), "{text}");
    assert!(!text.contains("mismatch"), "{text}");

    let out = bin().args(["bench", path, "--lab", "--json", "--positions", "1-2"]).output().unwrap();
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["limit_seconds"], 60.0);
    let positions = v["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 2);
    for p in positions {
        let methods: Vec<&str> =
            p["methods"].as_array().unwrap().iter().map(|m| m["method"].as_str().unwrap()).collect();
        assert_eq!(methods, ["alpha-beta", "sorted-alpha-beta", "wpns", "branching-threshold", "solver"]);
        for m in p["methods"].as_array().unwrap() {
            assert_eq!(m["outcome"], p["expected"], "{m}");
            assert_eq!(m["over_limit"], false);
            assert!(m["nodes"].as_u64().unwrap() >= 1);
        }
    }
    assert_eq!(v["mismatches"], serde_json::json!([]));
}

#[test]
fn bench_lab_marks_methods_over_the_limit_and_exits_1_on_a_wrong_sign() {
    // FFO #24 with a millisecond each: every method but perhaps the solver runs out of time.
    let lab_file = "tests/data/lab-19-25.obf";
    let out =
        bin().args(["bench", lab_file, "--lab", "--positions", "1", "--limit", "0.001", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let methods = v["positions"][0]["methods"].as_array().unwrap();
    let over = methods.iter().filter(|m| m["over_limit"] == true).count();
    assert!(over >= 4, "{v}");
    for m in methods.iter().filter(|m| m["over_limit"] == true) {
        assert!(m["outcome"].is_null() && m["refused"].is_null() && m["nodes"].as_u64().is_some(), "{m}");
    }
    let out = bin().args(["bench", lab_file, "--lab", "--positions", "1", "--limit", "0.001"]).output().unwrap();
    assert!(String::from_utf8(out.stdout).unwrap().contains("> 0.001 s"));

    // The 4x4 start is a loss by 10: a file that says +10 is contradicted by every method.
    let mut f = tempfile::Builder::new().suffix(".obf").tempfile().unwrap();
    writeln!(f, "-----OX--XO----- X; B1:+10; A2:+10; D3:+10; C4:+10;").unwrap();
    let out = bin().args(["bench", f.path().to_str().unwrap(), "--lab"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("5 outcome(s) other than"), "{err}");

    // Options that do not go with --lab: one line, exit 2.
    for args in [
        vec!["bench", "data/ffo/fforum-40-59.obf", "--lab", "--mode", "wld"],
        vec!["bench", "data/ffo/fforum-40-59.obf", "--limit", "5"],
        vec!["bench", "data/ffo/fforum-40-59.obf", "--lab", "--limit", "0"],
    ] {
        let out = bin().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8(out.stderr).unwrap().lines().count(), 1, "{args:?}");
    }
}
