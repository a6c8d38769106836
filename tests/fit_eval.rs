//! `fit-eval` on the real binary, against independent references:
//!
//! - `solved --play search`: every position's label is its exact score by plain negamax over the
//!   reference rules; the header names the run and the weights it was played with; a shard run
//!   again goes on from its last line, and the run is the same item for item however it was
//!   interrupted;
//! - `train --freeze-from E --base W`: the stages from `E` empties on are `W`'s, entry for entry
//!   (read back by the library's own weights parser), and so are their check positions, while
//!   the stages below are refitted;
//! - bad settings, unknown values, missing arguments and empty data directories: exit 2 and one
//!   line naming them.

mod reference;

use assert_cmd::Command;
use othello_explorer::eval::weights::Weights;
use reference::{Board, Side};
use std::path::{Path, PathBuf};

fn fit_eval() -> Command {
    Command::cargo_bin("fit-eval").expect("the training tool is built")
}

/// Plain negamax over the reference rules: the exact score from the side to move (empties to the
/// winner).
fn negamax(b: &Board) -> i32 {
    if b.game_over() {
        return b.final_score();
    }
    if b.must_pass() {
        return -negamax(&b.pass());
    }
    b.moves().into_iter().map(|m| -negamax(&b.play(m))).max().expect("a move")
}

/// A reference board from a board string of `n * n` cells, `X` to move.
fn board_of(n: usize, cells: &str) -> Board {
    assert_eq!(cells.len(), n * n, "{cells}");
    let cells = cells
        .chars()
        .map(|c| match c {
            'X' => Some(Side::Black),
            'O' => Some(Side::White),
            '-' => None,
            other => panic!("not a cell: {other}"),
        })
        .collect();
    Board { n, cells, to_move: Side::Black }
}

fn solved(out: &Path, positions: u32) {
    let positions = positions.to_string();
    let out = out.to_str().expect("a UTF-8 path");
    fit_eval()
        .args(["solved", "--size", "8", "--seed", "11", "--play", "search", "--shard", "1/1"])
        .args(["--positions", &positions, "--min-empties", "2", "--max-empties", "6", "--out", out])
        .assert()
        .success();
}

const SOLVED_FILE: &str = "solved-8x8-empties2-6-seed11-search-shard1of1.txt";

#[test]
fn search_played_positions_carry_their_exact_scores_and_a_run_resumes() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (first, whole) = (dir.path().join("first"), dir.path().join("whole"));
    solved(&first, 8);
    solved(&first, 16);
    solved(&whole, 16);
    let text = std::fs::read_to_string(first.join(SOLVED_FILE)).expect("the shard file");
    assert_eq!(text, std::fs::read_to_string(whole.join(SOLVED_FILE)).expect("the shard file"));
    let mut lines = text.lines();
    let header = lines.next().expect("a header");
    assert!(
        header.starts_with("# fit-eval solved v2 size 8 seed 11 shard 1/1 empties 2-6 play search weights "),
        "{header}"
    );
    let mut count = 0;
    for (g, line) in lines.enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words.len(), 4, "{line}");
        assert_eq!(words[0], g.to_string(), "{line}");
        assert_eq!(words[2], "X", "{line}");
        let board = board_of(8, words[1]);
        assert!((2..=6).contains(&board.empties()), "{line}");
        assert!(!board.moves().is_empty(), "a position with a move to play: {line}");
        assert_eq!(words[3].parse::<i32>().expect("a score"), negamax(&board), "{line}");
        count += 1;
    }
    assert_eq!(count, 16);
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The non-comment lines of a check file whose position has at least `empties` empty squares.
fn check_lines_from(path: &Path, empties: usize) -> Vec<String> {
    std::fs::read_to_string(path)
        .expect("a check file")
        .lines()
        .filter(|l| !l.starts_with('#') && l.split(' ').next().is_some_and(|b| b.matches('-').count() >= empties))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_frozen_fit_keeps_the_base_stages_and_their_check_positions() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let data = dir.path().join("data");
    solved(&data, 40);
    let out = dir.path().join("out");
    let base = repo("data/eval/weights-8.oxev");
    fit_eval()
        .args(["train", "--size", "8", "--freeze-from", "12", "--epochs", "3"])
        .arg("--base")
        .arg(&base)
        .arg("--out")
        .arg(&out)
        .arg(&data)
        .assert()
        .success();
    let read = |path: &Path| Weights::from_bytes(8, &std::fs::read(path).expect("a weights file")).expect("weights");
    let (before, after) = (read(&base), read(&out.join("weights-8.oxev")));
    for stage in 3..16 {
        assert_eq!(before.stage(stage), after.stage(stage), "stage {stage} is frozen");
    }
    assert!((0..3).any(|stage| before.stage(stage) != after.stage(stage)), "the stages below 12 empties are refitted");
    let frozen = check_lines_from(&repo("data/eval/check-8.txt"), 12);
    assert!(!frozen.is_empty());
    assert_eq!(check_lines_from(&out.join("check-8.txt"), 12), frozen);
}

#[test]
fn bad_training_settings_exit_2_with_one_line() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let base = repo("data/eval/weights-8.oxev");
    // The settings are checked before any data is read; an empty directory is refused at once.
    let file = dir.path().join("solved-8x8-none.txt");
    let cases: [(Vec<&str>, &Path, &str); 3] = [
        (vec!["--freeze-from", "13", "--base", base.to_str().unwrap()], &file, "--freeze-from 13"),
        (vec!["--freeze-from", "12"], &file, "needs --base"),
        (vec![], dir.path(), "no selfplay-8x8-*.txt or solved-8x8-*.txt files"),
    ];
    for (args, data, says) in cases {
        let out = fit_eval()
            .args(["train", "--size", "8", "--out"])
            .arg(dir.path().join("out"))
            .args(&args)
            .arg(data)
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

#[test]
fn unknown_values_and_missing_arguments_exit_2_with_one_line() {
    for (args, says) in [
        (vec!["solved", "--play", "bogus"], "invalid value 'bogus' for '--play"),
        (vec!["train", "--size", "8"], "required arguments were not provided"),
        (vec!["train", "--size", "8", "--freeze-from", "x", "data"], "--freeze-from"),
    ] {
        let out = fit_eval().args(&args).output().expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("fit-eval: ") && stderr.contains(says), "{args:?}: {stderr}");
    }
}
