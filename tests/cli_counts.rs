//! A count in the command line's output agrees with its noun (`notation::printable::count`): each
//! place that can print 1 is made to print it, on the real binary, and says `1 move`, `1 thread`,
//! `1 entry`, never `1 moves`.

use std::path::Path;

mod binary;
use binary::bin;

/// Standard output and standard error of `args` with the store `store` (or none), and the exit code.
fn run(store: Option<&Path>, args: &[&str]) -> (String, String, Option<i32>) {
    let mut cmd = bin();
    match store {
        Some(path) => cmd.arg("--store").arg(path),
        None => cmd.arg("--no-store"),
    };
    let out = cmd.args(args).output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

fn contains(text: &str, needle: &str) {
    assert!(text.contains(needle), "{needle:?} not in:\n{text}");
}

#[test]
fn one_move_one_thread_one_disc_one_square() {
    // One legal move: black a1, white b1, black to move has c1 alone.
    let (out, _, code) = run(None, &["show", "--board", "XO-------------- X"]);
    assert_eq!(code, Some(0));
    contains(&out, "\n1 legal move for black:\n");

    // A game of one move, reviewed on one thread: white has made no move.
    let (out, _, code) = run(None, &["review", "--size", "4", "--moves", "d3", "--threads", "1"]);
    assert_eq!(code, Some(0));
    contains(&out, "review of --moves: 1 move on 4x4, budget 1s a position (");
    contains(&out, "from 16 empties), 1 thread\n");
    contains(&out, "black  1 move · lost 0 discs");
    contains(&out, "white  0 moves · lost 0 discs");

    // One move from the start.
    let (out, _, code) = run(None, &["reach", "--size", "4", "--moves", "d3"]);
    assert_eq!(code, Some(0));
    contains(&out, "reach: 4x4 board, 5 discs (1 move from the start), white to move\n");

    // One empty square, one black disc, a board string of one square.
    let (out, _, _) = run(None, &["explain", "empties", "--board", "XXXXXXXXXXXXXXO- O"]);
    contains(&out, "(1 empty square visited)");
    let (out, _, _) = run(None, &["explain", "popcount", "--board", "XOOOOOOOOOOOOOOO X"]);
    contains(&out, "result: 1 black disc\n");
    let (_, err, code) = run(None, &["show", "--board", "X X"]);
    assert_eq!(code, Some(2));
    contains(&err, "board of 1 square:");
}

#[test]
fn one_position_scored_differently() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("one.obf");
    // The 4x4 start is -10, not -8.
    std::fs::write(&file, "-----OX--XO----- X; C4:-8;\n").unwrap();
    let (_, err, code) = run(None, &["bench", file.to_str().unwrap(), "--threads", "1"]);
    assert_eq!(code, Some(1));
    contains(&err, "1 position scored differently from");
}

#[test]
fn one_entry_imported_exported_verified_and_found_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.redb");
    // One 4x4 entry, with its true score (as `store export` writes it after `solve --moves d3d4`).
    let good = dir.path().join("good.txt");
    std::fs::write(&good, "----XXX--XO---XO O standard +14 - explorer\n").unwrap();
    let (out, err, code) = run(Some(&store), &["store", "import", good.to_str().unwrap(), "--threads", "1"]);
    assert_eq!(code, Some(0), "{err}");
    contains(
        &out,
        "checked 1 of 1 entry (every one with at most 14 empties, and 0 of the others): 0 wrong, 0 skipped (over 20,000,000 nodes each)\n",
    );
    contains(&out, ": 1 added, 0 merged");
    let exported = dir.path().join("out.txt");
    let (out, _, code) = run(Some(&store), &["store", "export", exported.to_str().unwrap()]);
    assert_eq!(code, Some(0));
    contains(&out, "exported 1 entry to ");
    let (out, _, code) = run(Some(&store), &["store", "verify", "--threads", "1"]);
    assert_eq!(code, Some(0));
    contains(&out, "checked 1 entry (seed ");
    contains(&out, "): 0 mismatches, 0 skipped (over 20,000,000 nodes each), ");

    // A wrong one, let in unchecked: found wrong by verify.
    let wrong_store = dir.path().join("w.redb");
    let wrong = dir.path().join("wrong.txt");
    std::fs::write(&wrong, "----XXX--XO---XO O standard +2 - explorer\n").unwrap();
    let (_, err, code) = run(Some(&wrong_store), &["store", "import", wrong.to_str().unwrap(), "--no-check"]);
    assert_eq!(code, Some(0), "{err}");
    let (out, err, code) = run(Some(&wrong_store), &["store", "verify", "--threads", "1"]);
    assert_eq!(code, Some(1), "{err}");
    contains(&out, "): 1 mismatch, ");
    contains(&err, "1 of 1 entry disagrees with the solver");
}
