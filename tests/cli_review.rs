//! `review` on the real binary: every move of 4x4 games judged against a plain negamax of the
//! reference rules; games read from GGF, transcript files and a WTHOR database the test writes
//! byte by byte; a transcript file with `--` for a pass; `--ggf` written and read back, names
//! holding `(;` and `;)` too, and names holding control and format characters escaped on screen
//! and in the file; malformed files refused in one line naming the
//! line and column, exit code 2.

mod reference;

use assert_cmd::Command;
use reference::{Board, negamax};
use serde_json::Value;

mod binary;
use binary::bin_no_store as bin;

fn name(n: usize, i: usize) -> String {
    format!("{}{}", (b'a' + (i % n) as u8) as char, i / n + 1)
}

/// A 4x4 game picking moves by a fixed xorshift sequence, as a transcript, and the board before
/// each move.
fn random_game(seed: u64) -> (String, Vec<Board>) {
    let game = reference::xorshift_uniform(4, seed);
    (game.iter().map(|(_, m)| name(4, *m)).collect(), game.into_iter().map(|(b, _)| b).collect())
}

fn review_json(args: &[&str]) -> Value {
    let out = bin().args(["review", "--threads", "1", "--json"]).args(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn every_move_of_4x4_games_matches_a_plain_negamax() {
    for seed in [1u64, 7, 42] {
        let (text, before) = random_game(0x9e37_79b9_7f4a_7c15 ^ seed);
        let v = review_json(&["--size", "4", "--moves", &text]);
        let moves = v["moves"].as_array().unwrap();
        assert_eq!(moves.len(), before.len(), "{text}");
        for (j, b) in moves.iter().zip(&before) {
            let values: Vec<(String, i32)> =
                b.moves().into_iter().map(|m| (name(4, m), -negamax(&b.play(m)))).collect();
            let best = values.iter().map(|v| v.1).max().unwrap();
            let played = values.iter().find(|v| v.0 == j["move"]).unwrap().1;
            let mut best_moves: Vec<&str> = values.iter().filter(|v| v.1 == best).map(|v| v.0.as_str()).collect();
            best_moves.sort_by_key(|s| (s.as_bytes()[1], s.as_bytes()[0]));
            assert_eq!(j["kind"], "exact", "{j}");
            assert_eq!((&j["depth"], &j["selectivity"]), (&Value::Null, &Value::Null), "a proof: {j}");
            assert_eq!(j["best_value"], best, "{text}: {j}");
            assert_eq!(j["played"], played, "{text}: {j}");
            assert_eq!(j["loss"], best - played, "{text}: {j}");
            assert_eq!(j["best"], serde_json::json!(best_moves), "{text}: {j}");
            let mark = match best - played {
                0..=1 => Value::Null,
                2..=5 => "?!".into(),
                6..=11 => "?".into(),
                _ => "??".into(),
            };
            assert_eq!(j["mark"], mark, "{j}");
            let side = if b.to_move == reference::Side::Black { "black" } else { "white" };
            assert_eq!(j["side"], side);
        }
        // The summary adds the losses up per side.
        for side in ["black", "white"] {
            let total: i64 = moves.iter().filter(|j| j["side"] == side).map(|j| j["loss"].as_i64().unwrap()).sum();
            assert_eq!(v["summary"][side]["loss"], total);
        }
    }
}

#[test]
fn estimates_say_their_depth_fixed_by_the_budget() {
    // The first moves of an 8x8 game: nothing provable, every value an estimate of the review's
    // own, full width, at the first depth the budget fixes (7 at 0.1 s) or the deeper one (11)
    // where the played move was in doubt.
    let args = ["--moves", "f5d6c3", "--time", "0.1"];
    let v = review_json(&args);
    assert_eq!((v["first_depth"].as_u64(), v["estimate_depth"].as_u64()), (Some(7), Some(11)), "{v}");
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3);
    for j in moves {
        assert_eq!(j["kind"], "estimate", "{j}");
        let depth = if j["deepened"] == true { 11 } else { 7 };
        assert_eq!(j["depth"], depth, "{j}");
        assert_eq!(j["selectivity"], 100, "full width: {j}");
    }
    // The text's kind column holds the whole label, the marks' column after it.
    let out = bin().args(["review", "--threads", "1"]).args(args).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let header = text.lines().nth(1).unwrap();
    let at = header.find("mark").unwrap();
    for row in text.lines().skip(2).take(3) {
        let kind = row.find("est @").unwrap_or_else(|| panic!("{row}"));
        let end = kind + 5 + row[kind + 5..].find(' ').unwrap_or(row.len() - kind - 5);
        assert!(end < at && !row[kind..end].contains('%'), "{header}\n{row}");
    }
}

#[test]
fn games_from_ggf_transcript_files_and_wthor() {
    let dir = tempfile::tempdir().unwrap();
    // A transcript file with move numbers and lines.
    let t = dir.path().join("game.txt");
    std::fs::write(&t, "; a game\n1. f5 d6\n2. c3 d3\n").unwrap();
    let v = review_json(&["--game", t.to_str().unwrap(), "--time", "0.05"]);
    assert_eq!(v["moves"].as_array().unwrap().len(), 4);
    assert!(v["source"].as_str().unwrap().contains("(transcript)"));
    // --ggf writes the game with its values; reading it back reviews the same moves.
    let g = dir.path().join("out.ggf");
    let v1 = review_json(&["--size", "4", "--moves", "b1a1", "--ggf", g.to_str().unwrap()]);
    let text = std::fs::read_to_string(&g).unwrap();
    assert!(text.starts_with("(;GM[Othello]"), "{text}");
    assert!(text.contains("TY[4]BO[4 -----O*--*O----- *]B[b1/-10]W[a1/+10];)"), "{text}");
    let v2 = review_json(&["--game", g.to_str().unwrap()]);
    assert_eq!(v1["moves"], v2["moves"]);
    assert!(v2["source"].as_str().unwrap().contains("(GGF)"));
    // A WTHOR database written here byte by byte: two games, the second f5 d6 c3.
    let mut bytes = vec![20, 26, 11, 23, 2, 0, 0, 0, 0, 0, 0xea, 0x07, 8, 0, 0, 0];
    for moves in [[56u8, 66, 0], [56, 64, 33]] {
        let mut record = vec![0u8; 68];
        record[2] = 7; // black's player number
        record[8..11].copy_from_slice(&moves);
        bytes.extend_from_slice(&record);
    }
    let w = dir.path().join("games.wtb");
    std::fs::write(&w, &bytes).unwrap();
    let v = review_json(&["--game", w.to_str().unwrap(), "--index", "2", "--time", "0.05"]);
    let played: Vec<&str> = v["moves"].as_array().unwrap().iter().map(|j| j["move"].as_str().unwrap()).collect();
    assert_eq!(played, ["f5", "d6", "c3"]);
    assert!(v["source"].as_str().unwrap().contains("(WTHOR, game 2 of 2)"), "{}", v["source"]);
    assert_eq!(v["black_player"], "player 7");
}

/// The first 4x4 game of the xorshift sequence with a forced pass, as a transcript file's line
/// with `--` where the pass falls, and the reference board before each move.
fn game_with_a_pass() -> (String, Vec<Board>) {
    for seed in 1u64.. {
        let game = reference::xorshift_uniform(4, 0x9e37_79b9_7f4a_7c15 ^ seed);
        let mut b = Board::start(4);
        let mut words = Vec::new();
        for (before, m) in &game {
            if b.must_pass() {
                words.push("--".to_string());
                b = b.pass();
            }
            assert!(b == *before, "the game's boards follow the rules");
            words.push(name(4, *m));
            b = b.play(*m);
        }
        if words.iter().any(|w| w == "--") {
            return (words.join(" "), game.into_iter().map(|(b, _)| b).collect());
        }
    }
    unreachable!("some 4x4 game has a pass")
}

#[test]
fn a_transcript_file_with_pass_markers_is_reviewed_as_a_transcript() {
    let dir = tempfile::tempdir().unwrap();
    // The issue's file, 8x8.
    let t = dir.path().join("issue.txt");
    std::fs::write(&t, "f5 d6 c3 d3 c4 --\n").unwrap();
    let v = review_json(&["--game", t.to_str().unwrap(), "--time", "0.05"]);
    let played: Vec<&str> = v["moves"].as_array().unwrap().iter().map(|j| j["move"].as_str().unwrap()).collect();
    assert_eq!(played, ["f5", "d6", "c3", "d3", "c4"]);
    assert!(v["source"].as_str().unwrap().ends_with("(transcript)"), "{}", v["source"]);
    // A 4x4 game with a real pass: every move judged, by the side the reference rules say.
    let (text, before) = game_with_a_pass();
    let t = dir.path().join("pass.txt");
    std::fs::write(&t, format!("{text}\n")).unwrap();
    let v = review_json(&["--game", t.to_str().unwrap()]);
    assert!(v["source"].as_str().unwrap().ends_with("(transcript)"), "{}", v["source"]);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), before.len(), "{text}");
    for (j, b) in moves.iter().zip(&before) {
        let side = if b.to_move == reference::Side::Black { "black" } else { "white" };
        assert_eq!(j["side"], side, "{text}: {j}");
        let best = b.moves().into_iter().map(|m| -negamax(&b.play(m))).max().unwrap();
        assert_eq!(j["best_value"], best, "{text}: {j}");
    }
    assert_eq!(
        v["summary"]["black"]["moves"].as_u64().unwrap() + v["summary"]["white"]["moves"].as_u64().unwrap(),
        before.len() as u64
    );
}

#[test]
fn names_holding_record_marks_survive_review_ggf() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.ggf");
    std::fs::write(&input, "(;GM[Othello]PB[a\\]b(;c\\\\]PW[x;)y(;z]TY[4]BO[4 -----O*--*O----- *]B[b1]W[a1];)\n")
        .unwrap();
    let out = dir.path().join("out.ggf");
    let v1 = review_json(&["--game", input.to_str().unwrap(), "--ggf", out.to_str().unwrap()]);
    let one_game = |v: &Value| {
        assert!(v["source"].as_str().unwrap().ends_with("(GGF)"), "{}", v["source"]);
        assert_eq!((v["black_player"].as_str(), v["white_player"].as_str()), (Some("a]b(;c\\"), Some("x;)y(;z")));
    };
    one_game(&v1);
    // Its own output reads back as the one game, with the same names and moves.
    let v2 = review_json(&["--game", out.to_str().unwrap()]);
    one_game(&v2);
    assert_eq!(v1["moves"], v2["moves"]);
    let o = bin().args(["review", "--game", out.to_str().unwrap(), "--index", "2"]).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("no game 2: the file holds 1 game"), "{err}");
}

/// Names holding ESC, BEL, C1, bidi and zero-width characters: `review` prints each as an escape,
/// and `review --ggf` writes no raw control or format character (a record stays one line), so the
/// names read back as those escapes.
#[test]
fn names_with_control_and_format_characters_are_escaped_on_screen_and_in_ggf() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.ggf");
    let (black, white) = ("ab\u{1b}[31mred\u{7}\u{85}c", "evil\u{202e}txt.exe\u{200b}\u{2028}x");
    let (shown_black, shown_white) = (r"ab\u{1b}[31mred\u{7}\u{85}c", r"evil\u{202e}txt.exe\u{200b}\u{2028}x");
    std::fs::write(&input, format!("(;GM[Othello]PB[{black}]PW[{white}]TY[4]BO[4 -----O*--*O----- *]B[b1]W[a1];)\n"))
        .unwrap();
    let out = dir.path().join("out.ggf");
    let text = bin()
        .args(["review", "--threads", "1", "--game", input.to_str().unwrap(), "--ggf", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(text.status.success(), "{}", String::from_utf8_lossy(&text.stderr));
    let invisible =
        |c: char| (c.is_control() && c != '\n') || matches!(c, '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}');
    let shown = String::from_utf8(text.stdout).unwrap();
    assert!(!shown.chars().any(invisible), "{shown:?}");
    assert!(shown.contains(shown_black) && shown.contains(shown_white), "{shown}");
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(!written.chars().any(invisible), "{written:?}");
    assert_eq!(written.lines().count(), 1, "{written:?}");
    let v = review_json(&["--game", out.to_str().unwrap()]);
    assert_eq!((v["black_player"].as_str(), v["white_player"].as_str()), (Some(shown_black), Some(shown_white)));
}

#[test]
fn malformed_games_are_refused_in_one_line_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("bad.ggf", "(;GM[Othello]\nB[f5]W[z9];)", "line 2, column 8: GGF expected a move like f5"),
        ("bad.txt", "1. f5 d6\n2. c3 c3\n", "line 2, column 7: transcript move 4 is illegal"),
        ("open.ggf", "(;GM[Othello]B[f5]", "';)' to end the game record"),
    ];
    for (file, text, want) in cases {
        let path = dir.path().join(file);
        std::fs::write(&path, text).unwrap();
        let out = bin().args(["review", "--game", path.to_str().unwrap()]).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(want), "{err}");
    }
    let out = bin().args(["review", "--size", "6"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing to review"));
}

/// An optimal game record of 8x8 Othello: Takizawa, "Othello is Solved" (2023),
/// arXiv:2310.19387, Figure 1. The start is a draw and every move of this line keeps it so.
const DRAWING_LINE: &str = "f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4c8g6g4c2e8d1f7e2g3h4f1e1f2g1b1f8g8b3h3b2h5b7a3a4a1a2c1h2h1g2b8a8g7h8h7h6";

/// The mark a loss of `loss` discs earns when it is proven.
fn mark_of(loss: i64) -> Value {
    match loss {
        i64::MIN..=1 => Value::Null,
        2..=5 => "?!".into(),
        6..=11 => "?".into(),
        _ => "??".into(),
    }
}

#[test]
fn the_weak_solutions_drawing_line_gets_no_mark_at_the_default_budget() {
    // The default budget (1 s a position) and threads, as a user runs it.
    let out = bin().args(["review", "--json", "--moves", DRAWING_LINE]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 60);
    let marked: Vec<String> = moves
        .iter()
        .filter(|j| !j["mark"].is_null())
        .map(|j| format!("{}.{} {} (loss {}, {})", j["ply"], j["move"], j["mark"], j["loss"], j["kind"]))
        .collect();
    assert!(marked.is_empty(), "perfect play marked: {marked:?}");
    // Where the values are proven, every move keeps the draw.
    for j in moves.iter().filter(|j| j["kind"] == "exact") {
        assert_eq!(j["loss"], 0, "{j}");
        assert_eq!(j["played"], 0, "{j}");
    }
    for side in ["black", "white"] {
        assert_eq!(v["summary"][side]["marks"], serde_json::json!({"?!": 0, "?": 0, "??": 0}));
    }
}

#[test]
fn marks_of_8x8_endgames_match_the_published_ffo_scores() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string("data/ffo/fforum-1-19.obf").unwrap();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('%') && !l.trim().is_empty()).take(6) {
        let (board, rest) = line.split_once(';').unwrap();
        let scores: Vec<(String, i64)> = rest
            .split(';')
            .filter_map(|part| {
                let (m, s) = part.trim().split_once(':')?;
                Some((m.to_lowercase(), s.trim().parse().ok()?))
            })
            .collect();
        let best = scores.iter().map(|s| s.1).max().unwrap();
        // The second best listed move and the worst one.
        for (m, score) in [&scores[1.min(scores.len() - 1)], scores.last().unwrap()] {
            let file = dir.path().join("game.txt");
            std::fs::write(&file, format!("{}\n{m}\n", board.trim())).unwrap();
            let v = review_json(&["--game", file.to_str().unwrap()]);
            let j = &v["moves"][0];
            assert_eq!(j["kind"], "exact", "{board} {m}: {j}");
            assert_eq!(j["best_value"], best, "{board} {m}: {j}");
            assert_eq!(j["played"], *score, "{board} {m}: {j}");
            assert_eq!(j["mark"], mark_of(best - score), "{board} {m}: {j}");
            if !j["mark"].is_null() {
                assert_eq!(j["mark_proven"], true, "{j}");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 12);
}

/// A 6x6 game by the xorshift sequence, and the reference board before each of its last moves
/// (from `empties` empty squares on), as a transcript of the whole game.
fn six_by_six_game(seed: u64, empties: i32) -> (String, Vec<Board>) {
    let game = reference::xorshift_uniform(6, seed);
    let text = game.iter().map(|(_, m)| name(6, *m)).collect();
    (text, game.into_iter().map(|(b, _)| b).filter(|b| b.empties() <= empties).collect())
}

#[test]
fn marks_of_6x6_endgames_match_a_plain_negamax() {
    for seed in [3u64, 11] {
        let (text, late) = six_by_six_game(0x2545_f491_4f6c_dd1d ^ seed, 9);
        let v = review_json(&["--size", "6", "--moves", &text, "--time", "0.2"]);
        let moves = v["moves"].as_array().unwrap();
        let tail = &moves[moves.len() - late.len()..];
        for (j, b) in tail.iter().zip(&late) {
            let values: Vec<(String, i32)> =
                b.moves().into_iter().map(|m| (name(6, m), -negamax(&b.play(m)))).collect();
            let best = values.iter().map(|v| v.1).max().unwrap();
            let played = values.iter().find(|v| v.0 == j["move"]).unwrap().1;
            assert_eq!(j["kind"], "exact", "{text}: {j}");
            assert_eq!(j["mark"], mark_of(i64::from(best - played)), "{text}: {j}");
        }
    }
}

#[test]
fn a_review_of_the_same_game_gives_the_same_marks() {
    // A 6x6 game of random moves, full of mistakes, at a budget too small to prove the opening:
    // the marks in doubt are settled by searches that do not depend on the clock.
    let (text, _) = six_by_six_game(0x0123_4567_89ab_cdef, 0);
    let marks = |v: &Value| -> Vec<(Value, Value, Value)> {
        v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|j| (j["move"].clone(), j["mark"].clone(), j["mark_proven"].clone()))
            .collect()
    };
    let first = review_json(&["--size", "6", "--moves", &text, "--time", "0.05"]);
    let second = review_json(&["--size", "6", "--moves", &text, "--time", "0.05"]);
    assert_eq!(marks(&first), marks(&second));
    // Random play makes mistakes, and some are marked.
    assert!(marks(&first).iter().any(|m| !m.1.is_null()), "{first}");
}

#[test]
fn plies_count_passes_as_the_reference_rules_play_them_and_a_pass_has_its_row() {
    let (text, _) = game_with_a_pass();
    // The reference numbering: every move and every pass is a ply.
    let mut b = Board::start(4);
    let (mut plies, mut passes) = (Vec::new(), Vec::new());
    let mut ply = 0;
    for word in text.split_whitespace() {
        ply += 1;
        if word == "--" {
            assert!(b.must_pass());
            passes.push(serde_json::json!({"ply": ply, "side": if b.to_move == reference::Side::Black { "black" } else { "white" }}));
            b = b.pass();
            continue;
        }
        let i = (0..16).find(|&i| name(4, i) == word).unwrap();
        plies.push((ply, word.to_string()));
        b = b.play(i);
    }
    assert!(!passes.is_empty());
    let moves: String = text.split_whitespace().filter(|w| *w != "--").collect();
    let v = review_json(&["--size", "4", "--moves", &moves]);
    let got: Vec<(i64, String)> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| (j["ply"].as_i64().unwrap(), j["move"].as_str().unwrap().to_string()))
        .collect();
    let want: Vec<(i64, String)> = plies.iter().map(|(p, m)| (*p as i64, m.clone())).collect();
    assert_eq!(got, want, "{text}");
    assert_eq!(v["passes"], Value::Array(passes.clone()), "{text}");
    // The text: a row for the pass, under its ply number, and the count of plies in the heading.
    let out = bin().args(["review", "--size", "4", "--moves", &moves]).output().unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    let first = passes[0]["ply"].as_i64().unwrap();
    assert!(
        shown.lines().any(|l| l.split_whitespace().take(3).collect::<Vec<_>>()
            == [first.to_string().as_str(), passes[0]["side"].as_str().unwrap(), "pass"]),
        "{shown}"
    );
    assert!(shown.lines().next().unwrap().contains(&format!("({ply} plies with ")), "{shown}");
}

#[test]
fn the_same_marks_with_one_thread_or_two() {
    // A 6x6 game of random moves at a small budget: estimates, deeper looks and proofs.
    let (text, _) = six_by_six_game(0x5151_aaaa_1234_9876, 0);
    let run = |threads: &str| {
        let out = bin()
            .args(["review", "--json", "--size", "6", "--moves", &text, "--time", "0.05", "--threads", threads])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v["moves"].clone()
    };
    let one = run("1");
    assert_eq!(one, run("2"), "every value, depth and mark alike");
    assert!(one.as_array().unwrap().iter().any(|j| j["kind"] == "estimate"), "{one}");
    assert!(one.as_array().unwrap().iter().any(|j| j["kind"] == "exact"), "{one}");
}

#[test]
fn review_refuses_options_that_would_not_change_it() {
    // Its searches have settings of their own: a store, a table size or a selectivity given to
    // it would do nothing, and is refused in one line.
    for args in
        [&["--store", "x.redb", "review"][..], &["review", "--hash-mb", "64"], &["review", "--selectivity", "95"]]
    {
        let out = Command::cargo_bin("othello-explorer").unwrap().args(args).args(["--moves", "f5"]).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("--store: `review` does not read the store") || !args.contains(&"--store"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}
