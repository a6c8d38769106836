//! The `show` and `perft` subcommands of the real binary, checked against the reference rules in
//! `tests/reference` and the published perft figures; and bad input, which must give one line on
//! stderr and exit code 2.

mod reference;

use assert_cmd::cargo::cargo_bin_cmd;
use reference::{Board, Ply, Rng, Side, hex, mask_of, name, random_game};
use serde_json::Value;
use std::process::Output;

fn run(args: &[&str]) -> Output {
    cargo_bin_cmd!("othello-explorer").args(args).env("RUST_BACKTRACE", "1").output().expect("the binary runs")
}

fn stdout_of(args: &[&str]) -> String {
    let out = run(args);
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "{args:?} wrote to stderr: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8 output")
}

fn json_of(args: &[&str]) -> Value {
    let text = stdout_of(args);
    assert_eq!(text.trim_end().lines().count(), 1, "one JSON object on one line: {text}");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{args:?} printed bad JSON ({e}): {text}"))
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Black => "black",
        Side::White => "white",
    }
}

fn transcript_of(n: usize, plies: &[Ply]) -> String {
    plies.iter().filter_map(|p| p.mv).map(|m| name(n, m)).collect()
}

/// Checks `show --json` output against the reference board it should describe (the board after
/// any forced pass).
fn check_show_json(v: &Value, b: &Board, passed: bool) {
    let n = b.n;
    let digits = (n * n).div_ceil(4);
    assert_eq!(v["size"], n as u64);
    assert_eq!(v["to_move"], side_name(b.to_move));
    assert_eq!(v["passed"], passed, "passed in {v}");
    for (field, mask) in [
        ("black", b.black_bits()),
        ("white", b.white_bits()),
        ("empty", b.empty_bits()),
        ("legal", mask_of(n, &b.moves())),
    ] {
        let text = v[field].as_str().unwrap_or_else(|| panic!("{field} is not a string in {v}"));
        assert_eq!(text.len(), 2 + digits, "{field} width");
        assert_eq!(text, hex(n, mask), "{field} of {}", b.board_string());
    }
    let mut moves: Vec<(String, String)> = v["moves"]
        .as_array()
        .expect("moves is an array")
        .iter()
        .map(|m| (m["move"].as_str().expect("move").to_string(), m["flips"].as_str().expect("flips").to_string()))
        .collect();
    moves.sort();
    let mut expected: Vec<(String, String)> =
        b.moves().into_iter().map(|m| (name(n, m), hex(n, mask_of(n, &b.flips(m))))).collect();
    expected.sort();
    assert_eq!(moves, expected, "moves of {}", b.board_string());
    assert_eq!(v["black_discs"], b.count(Side::Black) as i64);
    assert_eq!(v["white_discs"], b.count(Side::White) as i64);
    assert_eq!(v["game_over"], b.game_over());
    if b.game_over() {
        assert_eq!(v["score"], b.for_black(b.final_score()) as i64, "final score of {}", b.board_string());
    } else {
        assert!(v["score"].is_null(), "score of a game in progress: {v}");
    }
}

/// Checks the text of `show` for the same facts: every mask in hex, the binary rows, every move
/// with its flip mask.
fn check_show_text(text: &str, b: &Board) {
    let n = b.n;
    for mask in [b.black_bits(), b.white_bits(), b.empty_bits(), mask_of(n, &b.moves())] {
        assert!(text.contains(&hex(n, mask)), "{} missing from:\n{text}", hex(n, mask));
    }
    // The first row of the black mask in binary, as the layout writes it.
    let row1: String =
        (0..n).map(|col| if b.black_bits() >> reference::bit_of(n, col, 0) & 1 == 1 { '1' } else { '0' }).collect();
    assert!(text.lines().any(|l| l.trim_start().starts_with(&format!("1  {row1}"))), "row 1 {row1} in:\n{text}");
    for m in b.moves() {
        let flips = hex(n, mask_of(n, &b.flips(m)));
        assert!(
            text.lines().any(|l| l.contains(&name(n, m)) && l.contains(&flips)),
            "move {} flipping {flips} missing from:\n{text}",
            name(n, m)
        );
    }
    assert!(text.contains(&b.board_string()), "board string missing from:\n{text}");
}

#[test]
fn show_start_positions() {
    for (n, size) in [(4, "4"), (6, "6"), (8, "8")] {
        let b = Board::start(n);
        check_show_json(&json_of(&["show", "--size", size, "--json"]), &b, false);
        check_show_text(&stdout_of(&["show", "--size", size]), &b);
    }
    // The default size is 8, and the fixed figures of docs/architecture.md.
    let v = json_of(&["show", "--json"]);
    assert_eq!(v["black"], "0x0000000810000000");
    assert_eq!(v["white"], "0x0000001008000000");
    assert_eq!(v["to_move"], "black");
    let v = json_of(&["show", "--size", "4", "--json"]);
    assert_eq!((v["black"].as_str(), v["white"].as_str()), (Some("0x0240"), Some("0x0420")));
}

#[test]
fn show_positions_from_transcripts_and_board_strings() {
    let mut rng = Rng(0xc1);
    for n in [4, 6, 8] {
        for _ in 0..3 {
            let (plies, _) = random_game(&Board::start(n), &mut rng, usize::MAX);
            let cut = rng.below(plies.len());
            let before = &plies[..cut];
            let board = &plies[cut].board;
            if board.must_pass() {
                continue;
            }
            // A transcript ends before a pass it does not write: `show` plays the pass.
            let passed = cut > 0 && plies[cut - 1].mv.is_none();
            let size = n.to_string();
            let moves = transcript_of(n, before);
            let v = json_of(&["show", "--size", &size, "--moves", &moves, "--json"]);
            check_show_json(&v, board, passed);
            let upper = moves.to_uppercase();
            check_show_text(&stdout_of(&["show", "--size", &size, "--moves", &upper]), board);
            let text = format!("--board={}", board.board_string());
            check_show_json(&json_of(&["show", &text, "--json"]), board, false);
        }
    }
}

/// The first board in seeded random games of the `n x n` board where the side to move must pass,
/// with the plies before it.
fn must_pass_board(n: usize) -> (Vec<Ply>, Board) {
    let mut rng = Rng(0x9a55);
    for _ in 0..1000 {
        let (plies, _) = random_game(&Board::start(n), &mut rng, usize::MAX);
        if let Some(k) = plies.iter().position(|p| p.mv.is_none()) {
            return (plies[..k].to_vec(), plies[k].board.clone());
        }
    }
    panic!("no pass in a thousand {n}x{n} games");
}

#[test]
fn show_when_the_side_to_move_must_pass() {
    for n in [4, 6] {
        let (before, board) = must_pass_board(n);
        assert!(board.must_pass());
        let after = board.pass();
        let text = format!("--board={}", board.board_string());
        let v = json_of(&["show", &text, "--json"]);
        check_show_json(&v, &after, true);
        assert_eq!(v["to_move"], side_name(board.to_move.other()), "to_move names the side that will move");
        let out = stdout_of(&["show", &text]);
        let passer = side_name(board.to_move);
        assert!(out.to_lowercase().contains(&format!("{passer} has no legal move and passes")), "{out}");
        check_show_text(&out, &after);
        // Reached by a transcript, the same.
        let moves = transcript_of(n, &before);
        let v = json_of(&["show", "--size", &n.to_string(), "--moves", &moves, "--json"]);
        check_show_json(&v, &after, true);
    }
}

#[test]
fn show_a_finished_game() {
    let mut rng = Rng(0xe0d);
    for n in [4, 6] {
        let (plies, last) = random_game(&Board::start(n), &mut rng, usize::MAX);
        assert!(last.game_over());
        let moves = transcript_of(n, &plies);
        let v = json_of(&["show", "--size", &n.to_string(), "--moves", &moves, "--json"]);
        check_show_json(&v, &last, false);
        assert_eq!(v["game_over"], true);
        assert_eq!(v["legal"], hex(n, 0));
        let out = stdout_of(&["show", "--size", &n.to_string(), "--moves", &moves]);
        assert!(out.contains("game over"), "{out}");
    }
    // A game over with empty squares left, from a board string: 4x4, black 9, white 3, 4 empty,
    // the empties go to black: +10.
    let b = Board::from_bits(4, 0xff10, 0x000e, Side::White);
    assert!(b.game_over() && b.empties() == 4);
    let text = format!("--board={}", b.board_string());
    let v = json_of(&["show", &text, "--json"]);
    check_show_json(&v, &b, false);
    assert_eq!(v["score"], 10);
    let out = stdout_of(&["show", &text]);
    assert!(out.contains("game over: black wins by 10"), "{out}");
}

#[test]
fn perft_json_and_text() {
    let v = json_of(&["perft", "5", "--json"]);
    assert_eq!(v["size"], 8);
    let results = v["results"].as_array().expect("results");
    let depths: Vec<u64> = results.iter().map(|r| r["depth"].as_u64().expect("depth")).collect();
    assert_eq!(depths, [1, 2, 3, 4, 5]);
    let leaves: Vec<u64> = results.iter().map(|r| r["leaves"].as_u64().expect("leaves")).collect();
    assert_eq!(leaves, [4, 12, 56, 244, 1396], "Aart Bik's figures");
    for r in results {
        assert!(r["seconds"].as_f64().is_some_and(|s| s >= 0.0), "seconds in {r}");
    }

    // Other sizes and positions against the reference's naive perft.
    let (before, pass_board) = must_pass_board(6);
    let moves = transcript_of(6, &before);
    for (args, board, depth) in [
        (vec!["--size", "4"], Board::start(4), 9),
        (vec!["--size", "6"], Board::start(6), 6),
        (vec!["--size", "6", "--moves", moves.as_str()], pass_board, 5),
    ] {
        let d = depth.to_string();
        let mut all = vec!["perft", d.as_str(), "--json"];
        all.extend(&args);
        let v = json_of(&all);
        assert_eq!(v["size"], board.n as u64);
        let leaves: Vec<u64> =
            v["results"].as_array().expect("results").iter().map(|r| r["leaves"].as_u64().expect("leaves")).collect();
        let expected: Vec<u64> = (1..=depth).map(|d| board.perft(d)).collect();
        assert_eq!(leaves, expected, "perft of {}", board.board_string());
    }

    let out = stdout_of(&["perft", "4", "--size", "8"]);
    for (depth, leaves) in [(1, 4), (2, 12), (3, 56), (4, 244)] {
        assert!(
            out.lines().any(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                words.first() == Some(&depth.to_string().as_str()) && words.get(1) == Some(&leaves.to_string().as_str())
            }),
            "depth {depth} with {leaves} leaves missing from:\n{out}"
        );
    }
}

/// Runs the binary with bad input: exit code 2, one line on stderr that names the problem,
/// nothing on stdout, no panic, no backtrace.
fn assert_usage_error(args: &[&str], needles: &[&str]) {
    let out = run(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: exit code, stderr: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: stderr is not one line: {stderr:?}");
    assert!(stderr.ends_with('\n'), "{args:?}: {stderr:?}");
    let lower = stderr.to_lowercase();
    assert!(!lower.contains("panicked") && !lower.contains("backtrace"), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?} printed: {}", String::from_utf8_lossy(&out.stdout));
    for needle in needles {
        assert!(stderr.contains(needle), "{args:?}: {stderr:?} does not name {needle:?}");
    }
}

#[test]
fn bad_input_gives_one_line_and_exit_code_2() {
    let cases: &[(&[&str], &[&str])] = &[
        (&["show", "--size", "5"], &["--size", "4, 6 or 8"]),
        (&["show", "--size", "eight"], &["--size", "eight"]),
        (&["show", "--board=-----OX--XO--Z-- X"], &["--board", "'Z'", "column 14"]),
        (&["show", "--board=-----OX--XO---- X"], &["--board", "15"]),
        (&["show", "--board=-----OX--XO-----"], &["--board", "missing side", "column 17"]),
        (&["show", "--board=-----OX--XO----- Q"], &["--board", "'Q'", "column 18"]),
        (&["show", "--board=-----OX--XO----- X junk"], &["--board", "'junk'", "column 20"]),
        (&["show", "--board", "X----OX--XO--Z-- X"], &["--board", "'Z'", "column 14"]),
        (&["show", "--size", "6", "--board=-----OX--XO----- X"], &["--size 6"]),
        (&["show", "--moves", "f5z9"], &["--moves", "move 2", "column 3"]),
        (&["show", "--moves", "f5 d"], &["--moves", "move 2", "column 4", "missing row"]),
        (&["show", "--moves", "f5a1"], &["--moves", "move 2", "column 3", "a1"]),
        (&["show", "--moves", "f5f5"], &["--moves", "move 2", "occupied"]),
        (&["show", "--size", "4", "--moves", "e5"], &["--moves", "move 1", "e5", "4x4"]),
        (&["show", "--size", "6", "--moves", "c2i1"], &["--moves", "move 2", "'i'", "a to f"]),
        (&["show", "--size", "4", "--moves", "b1a9"], &["--moves", "move 2", "'9'", "1 to 4"]),
        (&["show", "--moves", "f5", "--board=-----OX--XO----- X"], &["--moves", "--board"]),
        (&["show", "--frobnicate"], &["--frobnicate"]),
        (&["show", "--json", "extra"], &["extra"]),
        (&["perft", "0"], &["0"]),
        (&["perft", "deep"], &["deep"]),
        (&["perft", "3", "--board=-----OX--XO-----"], &["--board", "column 17"]),
        (&["perft", "3", "--moves", "f5d6c3c3"], &["--moves", "move 4", "c3"]),
        (&["frobnicate"], &["frobnicate"]),
    ];
    for (args, needles) in cases {
        assert_usage_error(args, needles);
    }
}

/// A board string most often starts with `-` (an empty `a1`): given as the next argument after
/// `--board`, as README.md and the issue write it, it must still be the option's value.
#[test]
fn board_strings_starting_with_a_dash_are_values() {
    let start = Board::start(4);
    let text = start.board_string();
    assert!(text.starts_with('-'));
    check_show_json(&json_of(&["show", "--board", &text, "--json"]), &start, false);
    let v = json_of(&["perft", "3", "--board", &text, "--json"]);
    assert_eq!(v["results"][2]["leaves"], start.perft(3));
    assert_usage_error(&["show", "--board", "-----OX--XO--Z-- X"], &["--board", "'Z'", "column 14"]);
}

/// A missing required argument is named on the one line (clap puts the name on a second line,
/// which the one-line rule must not cut off).
#[test]
fn missing_arguments_are_named() {
    assert_usage_error(&["perft"], &["DEPTH"]);
    assert_usage_error(&["perft", "--json"], &["DEPTH"]);
}

#[test]
fn positions_as_other_programs_write_them_are_read_and_the_rest_refused_in_one_line() {
    // The reference board after f5 d6, as a board string, and the forms Edax and NBoard write.
    let b = Board::start(8).play(37).play(43);
    let plain = json_of(&["show", "--json", "--moves", "f5d6"]);
    let (cells, side) = b.board_string().split_once(' ').map(|(c, s)| (c.to_string(), s.to_string())).unwrap();
    for args in [
        vec!["--moves".to_string(), "1. f5 d6".to_string()],
        vec!["--moves".to_string(), "f5-d6".to_string()],
        vec!["--board".to_string(), format!("{cells}{side}")],
        vec!["--board".to_string(), format!("{} {}", cells.replace('X', "*").replace('-', "."), "*")],
    ] {
        let mut all = vec!["show".to_string(), "--json".to_string()];
        all.extend(args.clone());
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        let v = json_of(&refs);
        assert_eq!(v["board"], plain["board"], "{args:?}");
    }
    for (args, names) in [
        (&["show", "--moves", "f5 d6 z9"][..], "column 7"),
        (&["show", "--board", "-----OX--XO--?-- X"], "column 14"),
        (&["show", "--moves", "f5 +d6"], "column 4"),
    ] {
        let out = run(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(names), "{args:?}: {err}");
    }
}
