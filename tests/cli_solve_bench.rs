//! `solve` and `bench` on the real binary: JSON shapes, the 4x4 article's figures, a mismatch
//! (exit 1) and malformed problem files (exit 2, one line naming the line).

mod reference;

use serde_json::Value;
use std::io::Write;

mod binary;
use binary::bin_no_store as bin;

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

// ---- estimates, outcomes and limits ----

fn children_of(v: &Value) -> &Vec<Value> {
    v["children"].as_array().expect("a children array")
}

#[test]
fn solve_with_a_depth_estimates_every_child_at_that_depth() {
    // The 8x8 start: far too deep to prove, so `auto` (implied by --depth) gives estimates.
    let v = json(&["solve", "--depth", "4", "--json", "--threads", "1"]);
    assert_eq!(v["kind"], "estimate");
    assert_eq!(v["depth"], 4);
    let children = children_of(&v);
    assert_eq!(children.len(), 4);
    for c in children {
        assert_eq!(c["kind"], "estimate", "{c}");
        assert_eq!(c["depth"], 4, "{c}");
        assert!(c["score"].is_i64());
        assert!(c.get("outcome").is_none());
    }
    assert_eq!(v["stopped"], Value::Null);
    let pv = v["pv"].as_array().unwrap();
    assert!((2..=4).contains(&pv.len()), "the expected line, at most one move per ply: {pv:?}");
    assert!(v["best"].as_array().unwrap().contains(&pv[0]));
    // The text marks each value as an estimate and its depth.
    let out = bin().args(["solve", "--depth", "4", "--mode", "estimate", "--threads", "1"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("estimate:") && text.contains("@4"), "{text}");
}

#[test]
fn solve_exact_children_say_exact_with_no_depth() {
    let v = json(&["solve", "--size", "4", "--mode", "exact", "--json", "--threads", "1"]);
    assert_eq!(v["score"], -10);
    assert_eq!(v["kind"], "exact");
    for c in children_of(&v) {
        assert_eq!(c["kind"], "exact");
        assert_eq!(c["depth"], Value::Null);
        assert_eq!(c["selectivity"], Value::Null, "a proof has no selectivity");
        assert_eq!(c["score"], -10);
    }
    assert_eq!(v["selectivity"], Value::Null);
}

#[test]
fn every_estimate_says_its_selectivity() {
    // After f5: 59 empties, no proof in reach, so every value is an estimate at the level asked.
    for (level, percent) in [("95", 95), ("100", 100), ("73%", 73)] {
        let args = ["solve", "--moves", "f5", "--mode", "estimate", "--depth", "5", "--threads", "1"];
        let v = json(&[&args[..], &["--selectivity", level, "--json"]].concat());
        assert_eq!((v["kind"].as_str(), v["depth"].as_u64()), (Some("estimate"), Some(5)), "{v}");
        assert_eq!(v["selectivity"], percent, "{level}: {v}");
        let children = children_of(&v);
        assert_eq!(children.len(), 3);
        for c in children {
            assert_eq!((c["kind"].as_str(), c["depth"].as_u64()), (Some("estimate"), Some(5)), "{c}");
            assert_eq!(c["selectivity"], percent, "{level}: {c}");
        }
        // The text labels each value as the explorer does: `+1 @5 95%`, and `+1 @5` full width.
        let out = bin().args(args).args(["--selectivity", level]).output().unwrap();
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("  ") && l.contains(" @5")).collect();
        assert_eq!(rows.len(), 3, "{text}");
        for row in rows {
            let labelled = if percent == 100 { !row.contains('%') } else { row.contains(&format!("@5 {percent}%")) };
            assert!(labelled, "{level}: {row}");
        }
        let top = text.lines().find(|l| l.starts_with("estimate:")).unwrap();
        assert_eq!(top.contains(&format!("selectivity {percent}%")), percent != 100, "{top}");
    }
    // The default is the engine's.
    let v = json(&["solve", "--moves", "f5", "--mode", "estimate", "--depth", "3", "--threads", "1", "--json"]);
    assert_eq!(v["selectivity"], othello_explorer::solver::DEFAULT_SELECTIVITY.percent());
    // A level that is none: exit 2, one line naming the option.
    for bad in ["90", "x", "0"] {
        let out = bin().args(["solve", "--moves", "f5", "--selectivity", bad]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.lines().count() == 1 && err.contains("--selectivity") && err.contains(bad), "{bad}: {err}");
        assert!(out.stdout.is_empty());
    }
}

/// FFO #1 (14 empties, black wins by 18; the file lists every move's exact score): the outcome of
/// each move has the sign of its listed score.
#[test]
fn solve_wld_gives_each_outcome_with_the_sign_of_the_listed_score() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/ffo/fforum-1-19.obf");
    let text = std::fs::read_to_string(&path).expect("the FFO files beside the checkout");
    let line = text.lines().find(|l| !l.trim().is_empty() && !l.starts_with('%')).expect("FFO #1");
    let problem = othello_explorer::notation::obf::parse_problem(line).expect("a problem line");
    let board = othello_explorer::notation::obf::format_board(&problem.position);
    let v = json(&["solve", "--board", &board, "--mode", "wld", "--json", "--threads", "1"]);
    assert_eq!(v["kind"], "wld");
    assert_eq!(v["score"], 1);
    assert_eq!(v["outcome"], "win");
    let children = children_of(&v);
    assert_eq!(children.len(), problem.scores.len());
    for c in children {
        let square: othello_explorer::Square = c["move"].as_str().unwrap().parse().unwrap();
        let listed = problem.scores.iter().find(|s| s.0 == square).expect("a listed move").1;
        assert_eq!(c["kind"], "wld");
        assert_eq!(c["score"], listed.signum(), "{c}");
        let want = match listed.signum() {
            1 => "win",
            -1 => "loss",
            _ => "draw",
        };
        assert_eq!(c["outcome"], want, "{c}");
    }
}

#[test]
fn solve_with_a_time_limit_stops_with_labelled_estimates() {
    let v = json(&["solve", "--time", "0.2", "--json", "--threads", "1"]);
    assert_eq!(v["stopped"], "time limit reached");
    assert_eq!(v["kind"], "estimate");
    let depth = v["depth"].as_u64().expect("a depth");
    for c in children_of(&v) {
        assert_eq!(c["kind"], "estimate");
        let d = c["depth"].as_u64().unwrap();
        assert!(d == depth || d + 1 == depth || d == depth + 1, "{c} against {depth}");
    }
}

/// Asked nothing in particular on a position no exact solve reaches (the 8x8 start), `solve`
/// says before it starts what it does instead and how to ask for more, then ends by itself with a
/// value for every child (the timeout only keeps a broken build from hanging the suite).
#[test]
fn solve_without_options_bounds_itself_where_an_exact_solve_is_out_of_reach() {
    let out = bin().args(["solve", "--json"]).timeout(std::time::Duration::from_secs(300)).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    for needle in ["60 empty squares", "estimating for 5 seconds", "--time", "--depth", "--mode exact"] {
        assert!(err.contains(needle), "{needle}: {err}");
    }
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["stopped"], "time limit reached");
    assert_eq!(v["kind"], "estimate");
    let children = children_of(&v);
    let mut moves: Vec<&str> = children.iter().map(|c| c["move"].as_str().unwrap()).collect();
    moves.sort_unstable();
    assert_eq!(moves, ["c4", "d3", "e6", "f5"], "every child of the start");
    assert!(children.iter().all(|c| c["kind"] == "estimate" && c["depth"].as_u64() >= Some(1)), "{v}");
    assert!(!v["pv"].as_array().unwrap().is_empty());

    // A position the solver finishes is still solved exactly, and nothing is said.
    let out = bin().args(["solve", "--size", "4", "--json", "--threads", "1"]).output().unwrap();
    assert!(out.status.success() && out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn solve_with_time_to_spare_proves_what_it_can() {
    // The 4x4 board is small enough for `auto` to prove every child within any time limit.
    let v = json(&["solve", "--size", "4", "--time", "30", "--json", "--threads", "1"]);
    assert_eq!(v["kind"], "exact");
    assert_eq!(v["score"], -10, "the 4x4 article's figure");
    assert_eq!(v["stopped"], Value::Null);
    assert!(children_of(&v).iter().all(|c| c["kind"] == "exact" && c["score"] == -10));
}

#[test]
fn solve_rejects_bad_search_flags_in_one_line() {
    for args in [
        &["solve", "--depth", "0"][..],
        &["solve", "--depth", "61"],
        &["solve", "--depth", "ten"],
        &["solve", "--time", "0"],
        &["solve", "--time", "-1"],
        &["solve", "--time", "soon"],
        &["solve", "--time", "inf"],
        &["solve", "--mode", "perfect"],
        &["solve", "--mode", "exact", "--depth", "3"],
        &["solve", "--mode", "wld", "--depth", "3"],
        &["bench", "/dev/null", "--mode", "auto"],
        &["bench", "/dev/null", "--depth", "3"],
        &["bench", "/dev/null", "--time", "1"],
        &["bench", "/dev/null", "--mode", "estimate", "--time", "0"],
        &["bench", "/dev/null", "--mode", "estimate", "--time", "1", "--depth", "3"],
        &["bench", "/dev/null", "--mode", "play"],
        &["bench", "/dev/null", "--mode", "play", "--time", "1", "--depth", "3"],
    ] {
        let out = bin().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("othello-explorer: "), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"));
    }
}

#[test]
fn bench_wld_checks_the_sign_of_each_listed_score() {
    // The 4x4 start: a loss by 10 for black; listed right (-10), with the right sign (-2), and
    // with the wrong one (+2).
    let file = problem_file("-----OX--XO----- X; B1:-10;\n-----OX--XO----- X; B1:-2;\n-----OX--XO----- X; B1:+2;\n");
    let out = bin().args(["bench", path(&file), "--mode", "wld", "--json", "--threads", "1"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "a wrong sign exits 1");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = v["positions"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for row in rows {
        assert_eq!(row["score"], -1);
        assert_eq!(row["outcome"], "loss");
    }
    assert_eq!(v["mismatches"], serde_json::json!([3]));
    let out = bin().args(["bench", path(&file), "--mode", "wld", "--positions", "1-2"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn bench_estimate_reports_every_depth() {
    // White's replies to d3 on 4x4, counting discs only (the 4x4 article): d2 -8, b4 -9, d4 +8.
    let file = problem_file("-----OX--XXX---- O; D2:-8; B4:-9; D4:+8;\n");
    let args =
        ["bench", path(&file), "--mode", "estimate", "--depth", "3", "--scoring", "discs", "--json", "--threads", "1"];
    let v = json(&args);
    let depths = v["depths"].as_array().unwrap();
    assert_eq!(depths.iter().map(|d| d["depth"].as_u64().unwrap()).collect::<Vec<_>>(), [1, 2, 3]);
    for d in depths {
        assert_eq!(d["positions"], 1);
        assert!((0.0..=100.0).contains(&d["share"].as_f64().unwrap()));
        assert!(d["mae_best"].as_f64().unwrap() >= 0.0);
    }
    // Deep enough to reach the end (11 empties: every child solved from depth 11 - EXACT_MARGIN,
    // where the deepening stops; bench counts the position at every depth after with those
    // values), the estimates are the exact scores: d4 best, no error.
    let args =
        ["bench", path(&file), "--mode", "estimate", "--depth", "12", "--scoring", "discs", "--json", "--threads", "1"];
    let v = json(&args);
    let last = v["depths"].as_array().unwrap().last().cloned().expect("a depth");
    assert_eq!(last["depth"], 12);
    assert_eq!(last["positions"], 1);
    assert_eq!(last["agree"], 1);
    assert_eq!(last["mae_best"], 0.0);
    assert_eq!(last["bias_best"], 0.0);
    assert_eq!(last["mae_moves"], 0.0);
}

#[test]
fn bench_estimate_with_a_time_judges_the_move_it_ends_with() {
    // White's replies to d3 on 4x4, counting discs only (the 4x4 article): d2 -8, b4 -9, d4 +8.
    // 11 empties: the estimates reach the end at once and stop there, so the move chosen is d4
    // with its exact +8 whatever the time. Listed three ways: right; with d2 wrongly listed best
    // (+10), so that d4 loses 2 discs by the file's count; and with d2 alone, so that d4 is not
    // judged.
    let file = problem_file(concat!(
        "-----OX--XXX---- O; D2:-8; B4:-9; D4:+8;\n",
        "-----OX--XXX---- O; D2:+10; B4:-9; D4:+8;\n",
        "-----OX--XXX---- O; D2:-8;\n",
    ));
    // The move to play (`--mode play`) is judged the same way: here the proof is in reach, so
    // it is the same move with the same exact value.
    for mode in ["play", "estimate"] {
        let args =
            ["bench", path(&file), "--mode", mode, "--time", "5", "--scoring", "discs", "--json", "--threads", "1"];
        let v = json(&args);
        assert_eq!(v["mode"].as_str(), Some(mode));
        for row in v["positions"].as_array().unwrap() {
            assert_eq!((row["move"].as_str(), row["value"].as_i64()), (Some("d4"), Some(8)), "{mode}");
        }
    }
    let args =
        ["bench", path(&file), "--mode", "estimate", "--time", "5", "--scoring", "discs", "--json", "--threads", "1"];
    let v = json(&args);
    let rows = v["positions"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for row in rows {
        assert_eq!(
            (row["move"].as_str(), row["value"].as_i64(), row["kind"].as_str()),
            (Some("d4"), Some(8), Some("exact"))
        );
    }
    let judged = |r: &Value| {
        (r["agrees"].as_bool(), r["best"].as_i64(), r["listed"].as_i64(), r["loss"].as_i64(), r["error"].as_i64())
    };
    assert_eq!(judged(&rows[0]), (Some(true), Some(8), Some(8), Some(0), Some(0)));
    assert_eq!(judged(&rows[1]), (Some(false), Some(10), Some(8), Some(2), Some(0)));
    assert_eq!(judged(&rows[2]), (Some(false), Some(-8), None, None, None));
    let s = &v["summary"];
    assert_eq!((s["positions"].as_u64(), s["agree"].as_u64(), s["judged"].as_u64()), (Some(3), Some(1), Some(2)));
    assert_eq!(s["mean_loss"].as_f64(), Some(1.0));
    assert_eq!(s["mean_error"].as_f64(), Some(0.0));
    // The text ends with the same summary.
    let out = bin().args(&args[..args.len() - 3]).args(["--threads", "1"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("best move 1 of 3 (33.3%), mean loss 1.00 and mean error 0.00 over the 2 judged"), "{text}");
}

#[test]
fn weights_from_a_file_replace_the_shipped_ones_and_a_bad_file_exits_2() {
    // All-zero weights evaluate every unfinished position as 0: every one-ply estimate of the
    // 6x6 start is 0 with them, and not with the shipped weights.
    let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
    file.write_all(&othello_explorer::eval::Weights::zero(6, 2).to_bytes()).expect("written");
    let args = ["solve", "--size", "6", "--mode", "estimate", "--depth", "1", "--json", "--threads", "1"];
    let scores = |v: &Value| -> Vec<i64> { children_of(v).iter().map(|c| c["score"].as_i64().unwrap()).collect() };
    let zero = json(&[&args[..], &["--weights", path(&file)]].concat());
    assert_eq!(scores(&zero), [0, 0, 0, 0]);
    assert!(scores(&json(&args)).iter().any(|&s| s != 0));
    // A file that is not weights: one line naming the option and the file, exit 2.
    let readme = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let out = bin().args(args).args(["--weights", readme.to_str().unwrap()]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--weights") && err.contains("README.md"), "{err}");
}

#[test]
fn a_network_file_given_as_weights_replaces_the_shipped_network_and_a_damaged_one_exits_2() {
    use othello_explorer::eval::network::{HIDDEN2, INPUTS2};
    // The shipped network with every stage's output layer (w3 and b3, the last HIDDEN2 i16 and
    // one i32 of each stage's block, as docs/network.md lays the file out) set to zero: it reads
    // every position as 0, so every one-ply estimate after f5d6 is 0.
    let mut bytes = othello_explorer::eval::network::shipped_bytes(8).expect("an 8x8 network").to_vec();
    let stages = bytes[12] as usize;
    let block = HIDDEN2 * INPUTS2 * 2 + HIDDEN2 * 4 + HIDDEN2 * 2 + 4;
    let end = bytes.len() - 8;
    for s in 0..stages {
        let w3 = end - (stages - s) * block + HIDDEN2 * INPUTS2 * 2 + HIDDEN2 * 4;
        bytes[w3..w3 + HIDDEN2 * 2 + 4].fill(0);
    }
    // FNV-1a 64 over every byte before the checksum (the format's checksum).
    let sum = bytes[..end].iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
    bytes[end..].copy_from_slice(&sum.to_le_bytes());
    let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
    file.write_all(&bytes).expect("written");
    let args = [
        "solve",
        "--moves",
        "f5d6",
        "--mode",
        "estimate",
        "--depth",
        "1",
        "--json",
        "--threads",
        "1",
        "--eval",
        "network",
        "--no-store",
    ];
    let scores = |v: &Value| -> Vec<i64> { children_of(v).iter().map(|c| c["score"].as_i64().unwrap()).collect() };
    assert_eq!(scores(&json(&[&args[..], &["--weights", path(&file)]].concat())), [0; 5]);
    assert!(scores(&json(&args)).iter().any(|&s| s != 0));
    // One byte changed: the checksum refuses it, in one line naming the option and the file.
    bytes[100] ^= 1;
    let mut damaged = tempfile::NamedTempFile::new().expect("a temporary file");
    damaged.write_all(&bytes).expect("written");
    let out = bin().args(args).args(["--weights", path(&damaged)]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--weights") && err.contains("checksum"), "{err}");
}

#[test]
fn a_proven_score_stopped_before_its_line_gives_the_tables_line_marked_unproven() {
    // FFO #59: g8 wins by everything (+64, published). Its wipe-out is proven within a second
    // (2-3 s in a debug build on a slow machine; the limit leaves room for a loaded one); the
    // other children (34 empties) are not, so the time limit stops the analysis before the proven
    // line is followed. The line is then the table's, to the end, and says so.
    let board = "-----------------------O--OOOOO---OOOOOXOOOOXXXX--XXOOXX--XX-O-X X";
    let v = json(&["solve", "--board", board, "--time", "15", "--threads", "1", "--json"]);
    assert_eq!(v["score"], 64);
    assert_eq!(v["kind"], "exact");
    assert_eq!(v["best"], serde_json::json!(["g8"]));
    assert!(!v["stopped"].is_null(), "{v}");
    assert_eq!(v["pv_proven"], false);
    let pv: Vec<&str> = v["pv"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert!(pv.len() > 1 && pv[0] == "g8", "{pv:?}");
    // Every move of it is legal by the reference rules, passes implicit.
    let mut b = reference::Board::from_cells(8, &board[..64], reference::Side::Black);
    for m in &pv {
        if b.must_pass() {
            b = b.pass();
        }
        let index = (0..64).find(|&i| reference::name(8, i) == *m).expect("a square");
        assert!(b.is_legal_for(b.to_move, index), "{m} in {pv:?}");
        b = b.play(index);
    }
    // A proof not stopped gives a proven line.
    let v = json(&["solve", "--size", "4", "--moves", "d3", "--json", "--threads", "1"]);
    assert_eq!(v["pv_proven"], true);
}
