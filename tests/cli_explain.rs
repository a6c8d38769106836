//! `explain` of the real binary: the text of `legal` and `flips` on a fixed 4x4 position in full,
//! the JSON shape of every topic with its values checked against the reference rules, and bad
//! input (one line on stderr, exit code 2).
//!
//! The fixed position, black to move (`----XOO-XOX----- X`):
//!
//! ```text
//!    a b c d
//!  1 . . . .
//!  2 X O O .
//!  3 X O X .
//!  4 . . . .
//! ```
//!
//! Worked by hand: black 0x08a0 (a2 bit 11, a3 bit 7, c3 bit 5), white 0x0640 (b2 bit 10, c2
//! bit 9, b3 bit 6), empty 0xf11f. West: t = (0x08a0 << 1) & 0x0640 & 0x6666 = 0x0040 (b3), it
//! grows no further, (0x0040 << 1) & empty = 0: no move. North-east: t = 0x0400 (b2), move c1
//! (0x2000). North: t = 0x0200 (c2), move c1. North-west: t = 0x0400, move a1 (0x8000). East:
//! t = (0x08a0 >> 1) & 0x0640 = 0x0440, one step adds c2 (0x0640), move d2 (0x0100). South-west
//! and south: nothing. South-east: t = 0x0040 (b3), move c4 (0x0002). Legal: 0xa102 (a1 c1 d2
//! c4), as the reference walk finds. The move c1 (bit 13) flips b2 toward the south-west (a3 is
//! black) and c2 toward the south (c3 is black): 0x0600; west stops at the empty b1, east at the
//! empty d1, south-east at the empty d2, and the three northern rays are empty.

mod reference;

use assert_cmd::cargo::cargo_bin_cmd;
use reference::{Board, Side, hex, mask_of};
use serde_json::Value;
use std::process::Output;

const BOARD: &str = "----XOO-XOX----- X";

fn run(args: &[&str]) -> Output {
    cargo_bin_cmd!("othello-explorer").args(args).output().expect("the binary runs")
}

fn stdout_of(args: &[&str]) -> String {
    let out = run(args);
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "{args:?} wrote to stderr");
    String::from_utf8(out.stdout).expect("utf-8")
}

fn json_of(args: &[&str]) -> Value {
    let text = stdout_of(args);
    assert_eq!(text.trim_end().lines().count(), 1, "one JSON line: {text}");
    serde_json::from_str(&text).expect("JSON")
}

fn board() -> Board {
    // The fixed position on the reference board, from its cells.
    Board::from_cells(4, &BOARD[..16], Side::Black)
}

#[test]
fn legal_text_in_full() {
    let text = stdout_of(&["explain", "legal", "--board", BOARD]);
    assert_eq!(text, include_str!("explain/legal_4x4.txt"));
    // The hand-worked values above, against the reference rules.
    let b = board();
    assert_eq!(hex(4, mask_of(4, &b.moves())), "0xa102");
    assert!(text.ends_with("result: 0xa102 (a1 c1 d2 c4)\n"));
    assert!(text.contains("  moves      (t >> 1) & empty                            0x0100\n"));
}

#[test]
fn flips_text_in_full() {
    let text = stdout_of(&["explain", "flips", "--board", BOARD, "--move", "c1"]);
    assert_eq!(text, include_str!("explain/flips_4x4.txt"));
    let b = board();
    assert_eq!(hex(4, mask_of(4, &b.flips(2))), "0x0600");
    assert!(text.ends_with("result: 0x0600 (b2 c2)\n"));
}

fn check_steps(v: &Value, topic: &str) {
    assert_eq!(v["topic"], topic);
    let steps = v["steps"].as_array().expect("steps array");
    assert!(!steps.is_empty());
    for s in steps {
        assert!(s["name"].is_string() && s["expression"].is_string(), "{s}");
        assert!(!s["value"].is_null(), "{s}");
        if let Some(hexv) = s["value"].as_str() {
            assert!(hexv.starts_with("0x"), "{s}");
        }
    }
}

#[test]
fn json_shape_of_every_topic_with_reference_results() {
    let b = board();
    let v = json_of(&["explain", "legal", "--board", BOARD, "--json"]);
    check_steps(&v, "legal");
    assert_eq!(v["result"], hex(4, mask_of(4, &b.moves())));
    let last = v["steps"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["value"], v["result"]);

    // flips and play default to the first legal move in reading order: a1.
    let v = json_of(&["explain", "flips", "--board", BOARD, "--json"]);
    check_steps(&v, "flips");
    assert_eq!(v["move"], "a1");
    assert_eq!(v["result"], hex(4, mask_of(4, &b.flips(0))));
    let v = json_of(&["explain", "play", "--board", BOARD, "--move", "d2", "--json"]);
    check_steps(&v, "play");
    let after = b.play(7);
    assert_eq!(v["result"]["black"], hex(4, after.black_bits()));
    assert_eq!(v["result"]["white"], hex(4, after.white_bits()));
    assert_eq!(v["result"]["board"], after.board_string());

    let v = json_of(&["explain", "popcount", "--size", "8", "--moves", "f5d6", "--json"]);
    check_steps(&v, "popcount");
    assert_eq!(v["result"], 3);
    // Words are hex strings of the board's width.
    assert_eq!(v["steps"][1]["value"].as_str().unwrap().len(), 18);

    let v = json_of(&["explain", "empties", "--size", "6", "--json"]);
    check_steps(&v, "empties");
    assert_eq!(v["result"], hex(6, Board::start(6).empty_bits()));
    assert_eq!(
        v["steps"].as_array().unwrap().iter().filter(|s| s["name"].as_str().unwrap().ends_with(": lowest")).count(),
        32
    );

    let v = json_of(&["explain", "symmetry", "--board", BOARD, "--json"]);
    assert_eq!(v["topic"], "symmetry");
    assert!(v["result"]["player"].as_str().unwrap().starts_with("0x"));
    assert!(v["result"]["symmetry"].is_string());

    let v = json_of(&["explain", "search", "--size", "4", "--json"]);
    assert_eq!(v["topic"], "search");
    assert_eq!(v["result"], -10);
    let steps = v["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 4);
    assert!(steps.iter().all(|s| s["value"] == -10 && s["nodes"].as_u64().unwrap() > 0));
}

#[test]
fn search_refuses_deep_positions_for_the_plain_methods() {
    // A 6x6 position with 13 empty squares: negamax refuses, the other three run and agree.
    let line = "e4c5b4a5a4e3a6b5d5b6b3e5f4a3f2f3f5d6d2";
    let text = stdout_of(&["explain", "search", "--size", "6", "--moves", line]);
    assert!(text.contains("13 empty squares"), "{text}");
    assert!(text.contains("every method that ran agrees"), "{text}");
    assert!(text.contains("negamax        negamax refuses positions with more than 12 empty squares"), "{text}");
}

#[test]
fn search_outcome_json_has_the_documented_shape() {
    // The 4x4 start: a loss by 10 for black, so every method proves a loss.
    let v = json_of(&["explain", "search", "--outcome", "--size", "4", "--json"]);
    assert_eq!(v["topic"], "search");
    assert_eq!(v["result"], "loss");
    assert_eq!(v["empties"], 12);
    let methods = v["methods"].as_array().unwrap();
    let names: Vec<&str> = methods.iter().map(|m| m["method"].as_str().unwrap()).collect();
    assert_eq!(names, ["alpha-beta", "sorted-alpha-beta", "wpns", "branching-threshold", "solver"]);
    for m in methods {
        assert_eq!(m["outcome"], "loss", "{m}");
        assert!(m["refused"].is_null(), "{m}");
        assert!(m["nodes"].as_u64().unwrap() > 0 && m["seconds"].as_f64().unwrap() >= 0.0, "{m}");
        let share = &m["selection_share"];
        if m["method"] == "wpns" {
            assert!((0.0..=1.0).contains(&share.as_f64().unwrap()), "{m}");
        } else {
            assert!(share.is_null(), "{m}");
        }
    }
    // FFO #40 (20 empty squares): unsorted alpha-beta and the branching thresholds refuse with a
    // reason and a null outcome; the others prove black's win (the file lists +38).
    let ffo40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
    let v = json_of(&["explain", "search", "--outcome", "--board", ffo40, "--json"]);
    let methods = v["methods"].as_array().unwrap();
    for m in methods {
        match m["method"].as_str().unwrap() {
            "alpha-beta" | "branching-threshold" => {
                assert!(m["outcome"].is_null(), "{m}");
                assert!(m["refused"].as_str().unwrap().contains("refuses positions with more than"), "{m}");
            }
            _ => assert_eq!(m["outcome"], "win", "{m}"),
        }
    }
    assert_eq!(v["result"], "win");
    let text = stdout_of(&["explain", "search", "--outcome", "--size", "4"]);
    assert!(text.contains("result: a loss for black; every method that ran agrees"), "{text}");
    assert!(text.contains("of the time choosing nodes)"), "{text}");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for args in [
        vec!["explain", "moves"],
        vec!["explain", "flips", "--size", "4", "--move", "z9"],
        vec!["explain", "flips", "--size", "6", "--move", "i1"],
        vec!["explain", "flips", "--size", "4", "--move", "e5"],
        vec!["explain", "play", "--size", "4", "--move", "a1"],
        vec!["explain", "flips", "--size", "4", "--move", "b2"],
        vec!["explain", "legal", "--size", "4", "--move", "b1"],
        vec!["explain", "legal", "--size", "5"],
        vec!["explain", "play", "--board", "XXXXXXXXXXXXXXXX O"],
        vec!["explain"],
        vec!["explain", "legal", "--outcome", "--size", "4"],
        vec!["explain", "flips", "--outcome", "--json"],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("othello-explorer: "), "{err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // A square of the 8x8 grid past the board's edge is named as a transcript names it.
    let err = String::from_utf8(run(&["explain", "flips", "--size", "6", "--move", "g1"]).stderr).unwrap();
    assert_eq!(err, "othello-explorer: --move g1: g1 is off the 6x6 board\n");
    let err = String::from_utf8(run(&["explain", "legal", "--outcome"]).stderr).unwrap();
    assert_eq!(err, "othello-explorer: --outcome: only the search topic takes it, not legal\n");
    let err = String::from_utf8(run(&["explain", "moves"]).stderr).unwrap();
    assert_eq!(
        err,
        "othello-explorer: unknown topic 'moves': expected one of legal, flips, play, popcount, empties, symmetry, \
         stable, frontier, regions, corners, search\n"
    );
}
