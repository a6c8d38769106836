//! `solve` and `bench` on the real binary: JSON shapes, the 4x4 article's figures, a mismatch
//! (exit 1) and malformed problem files (exit 2, one line naming the line).

use assert_cmd::Command;
use serde_json::Value;
use std::io::Write;

fn bin() -> Command {
    Command::cargo_bin("othello-explorer").expect("the binary is built")
}

fn json(args: &[&str]) -> Value {
    let out = bin().args(args).output().expect("runs");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn solve_json_has_the_documented_fields_and_the_article_figures() {
    let v = json(&["solve", "--size", "4", "--moves", "d3", "--scoring", "discs", "--json", "--threads", "1"]);
    assert_eq!(v["score"], 8);
    assert_eq!(v["best"], serde_json::json!(["d4"]));
    let children: Vec<(String, i64)> = v["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["move"].as_str().unwrap().to_string(), c["score"].as_i64().unwrap()))
        .collect();
    let mut sorted = children.clone();
    sorted.sort();
    assert_eq!(sorted, [("b4".to_string(), -9), ("d2".to_string(), -8), ("d4".to_string(), 8)]);
    assert!(v["pv"].as_array().unwrap().len() >= 2);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    let v = json(&["solve", "--size", "4", "--json"]);
    assert_eq!(v["score"], -10);
}

#[test]
fn solve_on_a_finished_game_prints_the_final_score_and_no_children() {
    // 4x4, black 9, white 3, 4 empty, nobody can move: -10 for white to move.
    let v = json(&["solve", "--board", "XXXXXXXX---X--OO O", "--json"]);
    assert_eq!(v["game_over"], true);
    assert_eq!(v["children"], serde_json::json!([]));
    assert!(v["score"].is_i64());
}

/// A problem file holding `text`, removed when dropped.
fn problem_file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new().suffix(".obf").tempfile().expect("a temporary file");
    f.write_all(text.as_bytes()).expect("written");
    f
}

fn path(f: &tempfile::NamedTempFile) -> &str {
    f.path().to_str().expect("a UTF-8 path")
}

#[test]
fn bench_reports_rows_totals_and_mismatches() {
    // The 4x4 start, listed right (-10) and wrong (+2); comments and blank lines are skipped.
    let file = problem_file("% a comment\n\n-----OX--XO----- X; B1:-10;\n-----OX--XO----- X; B1:+2;\n");
    let out = bin().args(["bench", path(&file), "--json", "--threads", "1"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "a mismatch exits 1");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = v["positions"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["index"], 1);
    assert_eq!(rows[0]["empties"], 12);
    assert_eq!(rows[0]["score"], -10);
    for key in ["best", "seconds", "nodes"] {
        assert!(!rows[0][key].is_null(), "{key}");
    }
    assert_eq!(v["mismatches"], serde_json::json!([2]));
    assert!(v["total_nodes"].as_u64().unwrap() > 0);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");

    let out = bin().args(["bench", path(&file), "--positions", "1-1", "--threads", "1"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn malformed_problem_files_name_the_line_and_exit_2() {
    let cases = [
        ("-----OX--XO----- X; B1:-10;\n-----OX--XO-- X;\n", ":2:"),
        ("-----OX--XO----- X; B1:ten;\n", ":1:"),
        ("-----OX--XO----- Q\n", ":1:"),
    ];
    for (text, line) in cases {
        let file = problem_file(text);
        let out = bin().args(["bench", path(&file)]).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{text:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(line), "{text:?}: {stderr}");
        assert!(!stderr.contains("panicked"));
    }
    let out = bin().args(["bench", "/no/such/file.obf"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = bin().args(["bench", "/dev/null", "--positions", "5-2"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}
