//! `store` and `book` on the real binary: every 4x4 position's score checked against a plain
//! negamax over the reference rules, the kill-mid-write test, a store another program holds open
//! (shared), damaged files, malformed imports (exit 2 naming the line), an endless line, `verify`
//! catching a wrong entry (exit 1), the check's node budget, and `--store` / `--no-store`.

mod reference;

use othello_explorer::store::{Store, text};
use othello_explorer::{Color, Position, Scoring, Size};
use reference::{Board, Memo, Side, negamax_memo};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::{Duration, Instant};

mod binary;
use binary::bin;

fn run(store: &Path, args: &[&str]) -> std::process::Output {
    bin().arg("--store").arg(store).args(args).output().expect("runs")
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn board_of(position: &Position) -> Board {
    let side = if position.to_move() == Color::Black { Side::Black } else { Side::White };
    Board::from_bits(position.size().n(), position.black().bits(), position.white().bits(), side)
}

/// Every position of 4x4 games from the start (passes included), with its exact score.
fn all_4x4_positions(memo: &mut Memo) -> Vec<(Board, i32)> {
    let mut seen = HashSet::new();
    let mut stack = vec![Board::start(4)];
    let mut out = Vec::new();
    while let Some(b) = stack.pop() {
        if !seen.insert(b.board_string()) {
            continue;
        }
        let score = negamax_memo(&b, false, memo);
        out.push((b.clone(), score));
        let moves = b.moves();
        if moves.is_empty() {
            if !b.moves_for(b.to_move.other()).is_empty() {
                stack.push(b.pass());
            }
        } else {
            stack.extend(moves.into_iter().map(|m| b.play(m)));
        }
    }
    out
}

/// Every entry of the store at `path` holds the plain negamax's score.
fn assert_entries_correct(path: &Path, memo: &mut Memo) -> usize {
    let store = Store::open(path).unwrap_or_else(|e| panic!("reopening after the kill: {e}"));
    let entries = store.entries().unwrap();
    for (key, stored) in &entries {
        let score = negamax_memo(&board_of(&key.position()), false, memo);
        assert_eq!(stored.score(), Some(score), "{}", key.position());
    }
    entries.len()
}

#[test]
fn an_import_killed_mid_write_leaves_a_store_that_opens_with_only_correct_entries() {
    let dir = tempfile::tempdir().unwrap();
    let mut memo = HashMap::new();
    let positions = all_4x4_positions(&mut memo);
    // Every position in its own orientation: many lines, committed a few hundred at a time.
    let mut file = String::from("; every 4x4 position with its exact score\n");
    for (b, score) in &positions {
        file.push_str(&format!("{} standard {score} - import\n", b.board_string()));
    }
    let input = dir.path().join("all.txt");
    std::fs::write(&input, &file).unwrap();
    // The full import, for the count of entries a finished import leaves.
    let full = dir.path().join("full.redb");
    let out = run(&full, &["store", "import", input.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let total = assert_entries_correct(&full, &mut memo);
    // Kills at 0, 20, 40, ... ms after the file appears, until one comes after the import has
    // finished: on any machine's speed, some land among the commits.
    let mut mid_write = 0;
    for round in 0..500u64 {
        let path = dir.path().join(format!("store-{round}.redb"));
        let exe = assert_cmd::cargo::cargo_bin("othello-explorer");
        let mut child = std::process::Command::new(exe)
            .arg("--store")
            .arg(&path)
            // Without the re-check, so that the kills land among the commits (the check comes
            // before any write).
            .args(["store", "import", "--no-check"])
            .arg(&input)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let began = Instant::now();
        while !path.exists() && began.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_micros(200));
        }
        std::thread::sleep(Duration::from_millis(20 * round));
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        // The store opens, and every entry in it is right.
        let kept = assert_entries_correct(&path, &mut memo);
        if 0 < kept && kept < total {
            mid_write += 1;
            // It still takes writes: finishing the import completes it.
            let out = run(&path, &["store", "import", input.to_str().unwrap()]);
            assert!(out.status.success(), "{}", stderr(&out));
            assert_eq!(assert_entries_correct(&path, &mut memo), total);
        }
        if kept == total {
            break;
        }
    }
    assert!(mid_write > 0, "no kill landed among the commits");
}

#[test]
fn book_on_4x4_stores_scores_the_plain_negamax_agrees_with() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("book.redb");
    let out = run(&path, &["book", "--size", "4", "--plies", "5", "--lines", "--threads", "1", "--hash-mb", "8"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut memo = HashMap::new();
    let n = assert_entries_correct(&path, &mut memo);
    assert!(n > 100, "{n} entries");
    // The start (the 4x4 article's -10) and every position within 5 plies are in.
    let store = Store::open(&path).unwrap();
    let start = Position::start(Size::Four);
    let found = store.get(&start, Scoring::Standard).unwrap().unwrap();
    assert_eq!(found.score(), Some(-10));
    let best = found.best.unwrap();
    assert_eq!(-negamax_memo(&board_of(&start.play(best).unwrap()), false, &mut memo), -10);
    // Every position up to 5 plies from the start (a pass is a ply), by the reference rules.
    let mut level = vec![Board::start(4)];
    for _ in 0..=5 {
        let mut next = Vec::new();
        for b in &level {
            let p = Position::new(
                Size::Four,
                b.black_bits(),
                b.white_bits(),
                if b.to_move == Side::Black { Color::Black } else { Color::White },
            )
            .unwrap();
            let found = store.get(&p, Scoring::Standard).unwrap().unwrap_or_else(|| panic!("{p} missing"));
            assert_eq!(found.score(), Some(negamax_memo(b, false, &mut memo)), "{p}");
            let moves = b.moves();
            if moves.is_empty() && !b.game_over() {
                next.push(b.pass());
            }
            next.extend(moves.into_iter().map(|m| b.play(m)));
        }
        level = next;
    }
    drop(store);
    // A second run finds everything done.
    let out = run(&path, &["book", "--size", "4", "--plies", "5", "--threads", "1", "--hash-mb", "8"]);
    assert!(out.status.success());
    let table = String::from_utf8_lossy(&out.stdout).into_owned();
    let ply4 = table.lines().find(|l| l.starts_with("ply 4")).unwrap();
    let cols: Vec<&str> = ply4.split_whitespace().collect();
    assert_eq!(cols[2], cols[3], "every ply-4 position skipped: {ply4}");
}

#[test]
fn stats_export_import_and_verify_through_the_binary() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.redb");
    let out = run(&a, &["book", "--size", "4", "--plies", "3", "--threads", "1", "--hash-mb", "8"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run(&a, &["store", "stats", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let entries = v["entries"].as_u64().unwrap();
    assert!(entries > 10);
    assert_eq!(v["by_size"][0]["size"], "4x4");
    assert_eq!(v["by_size"][0]["exact"].as_u64().unwrap(), entries);
    assert_eq!(v["by_size"][0]["sources"]["book"].as_u64().unwrap(), entries);
    assert!(v["file_bytes"].as_u64().unwrap() > 0);
    let text_out = run(&a, &["store", "stats"]);
    assert!(String::from_utf8_lossy(&text_out.stdout).contains(&format!("entries: {entries}")));

    let exported = dir.path().join("a.txt");
    let out = run(&a, &["store", "export", exported.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let b = dir.path().join("b.redb");
    let out = run(&b, &["store", "import", exported.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    // Every 4x4 entry has at most 14 empties: every one re-solved before it is written.
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!(
            "checked {entries} of {entries} entries (every one with at most 14 empties, and 0 of the others): 0 wrong, 0 skipped (over 20,000,000 nodes each)\n\
             imported {}: {entries} added, 0 merged, 0 unchanged, 0 conflicting, 0 refused\n",
            exported.display()
        )
    );
    let stdout_export = run(&b, &["store", "export"]);
    assert_eq!(stdout_export.stdout, std::fs::read(&exported).unwrap());

    let out = run(&b, &["store", "verify", "--sample", "1000", "--threads", "1", "--hash-mb", "8"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains(&format!("checked {entries} entries")));

    // A wrong score planted by an import that checks nothing: verify finds it and exits 1.
    let start = Position::start(Size::Four);
    let wrong = dir.path().join("wrong.txt");
    std::fs::write(&wrong, format!("{} discs -2 - import\n", othello_explorer::notation::obf::format_board(&start)))
        .unwrap();
    let out = run(&b, &["store", "import", "--no-check", wrong.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run(&b, &["store", "verify", "--sample", "1000", "--threads", "1", "--hash-mb", "8"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("discs: stored -2, the solver finds -8"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(
        stderr(&out).lines().last().unwrap(),
        format!("othello-explorer: 1 of {} entries disagree with the solver", entries + 1)
    );
    // A line the text form's parser reads back: the export round trip of that entry.
    assert!(
        text::parse_entry(&format!("{} discs -8 - import", othello_explorer::notation::obf::format_board(&start)))
            .unwrap()
            .is_some()
    );
}

#[test]
fn a_malformed_import_exits_2_naming_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.redb");
    let file = dir.path().join("bad.txt");
    std::fs::write(&file, "; header\n-----OX--XO----- X standard -10 c4\n-----OX--XO----- X standard ten c4\n")
        .unwrap();
    let out = run(&store, &["store", "import", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "othello-explorer: {} line 3: bad score 'ten' at column 29: expected a number like -4 or bounds like -6..+2\n",
            file.display()
        )
    );
    let out = run(&store, &["store", "import", dir.path().join("missing.txt").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with("othello-explorer: cannot read "), "{}", stderr(&out));
}

#[test]
fn a_store_another_program_holds_open_is_shared() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    let held = Store::open(&path).unwrap();
    let start = Position::start(Size::Four);
    held.put_many(&[(
        start,
        Scoring::Standard,
        othello_explorer::store::Stored::exact(-10, None, othello_explorer::store::Source::Book),
    )])
    .unwrap();
    // The other program reads it, and adds to it, while this one holds it open.
    let out = run(&path, &["store", "stats", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["entries"].as_u64(), Some(1));
    let c1 = "-X---XX--XO----- O";
    let file = dir.path().join("one.txt");
    std::fs::write(&file, format!("{c1} standard {} - import\n", reference_score(c1))).unwrap();
    let out = run(&path, &["store", "import", file.to_str().unwrap(), "--threads", "1", "--hash-mb", "8"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
    let c1 = othello_explorer::notation::obf::parse_board(c1).unwrap();
    assert_eq!(held.get(&c1, Scoring::Standard).unwrap().and_then(|s| s.score()), Some(reference_score_of(&c1)));
    // And solve answers the start from the entry the held store wrote, with no note.
    let out = run(&path, &["solve", "--size", "4", "--json", "--threads", "1", "--hash-mb", "8"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
}

#[test]
fn damaged_files_and_bad_options_exit_2_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let text_file = dir.path().join("notes.txt");
    std::fs::write(&text_file, "not a store\n").unwrap();
    let out = run(&text_file, &["store", "stats"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "othello-explorer: {} is not an othello-explorer store: choose another file with --store\n",
            text_file.display()
        )
    );
    let truncated = dir.path().join("t.redb");
    let out = run(&truncated, &["book", "--size", "4", "--plies", "4", "--threads", "1", "--hash-mb", "8"]);
    assert!(out.status.success());
    let bytes = std::fs::read(&truncated).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let out = run(&truncated, &["store", "stats"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with(&format!("othello-explorer: the store {} is damaged (", truncated.display())),
        "{}",
        stderr(&out)
    );
    assert_eq!(stderr(&out).lines().count(), 1);

    let out = bin().args(["--no-store", "store", "stats"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out), "othello-explorer: this command needs a store, and --no-store was given\n");
    let out = bin().args(["--store", "x.redb", "--no-store", "store", "stats"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--no-store"), "{}", stderr(&out));
    // --store after the subcommand works too (a store made first: a command that only reads
    // never creates one at a mistyped path).
    let after = dir.path().join("after.redb");
    let out = bin().args(["solve", "--size", "4", "--store"]).arg(&after).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let out = bin().args(["store", "stats", "--store"]).arg(&after).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("4x4 standard"), "{}", String::from_utf8_lossy(&out.stdout));
}

/// The plain negamax's score of the board string `board` (4x4, empties to the winner).
fn reference_score(board: &str) -> i32 {
    reference_score_of(&othello_explorer::notation::obf::parse_board(board).unwrap())
}

/// The plain negamax's score of a 4x4 `position` (empties to the winner).
fn reference_score_of(position: &Position) -> i32 {
    negamax_memo(&board_of(position), false, &mut HashMap::new())
}

#[test]
fn an_imported_wrong_score_is_refused_and_what_is_derived_from_one_keeps_its_source() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.redb");
    // Black's b1 from the 4x4 start, scored -16 for white; the plain negamax finds otherwise.
    let child = "-X---XX--XO----- O";
    let truth = reference_score(child);
    assert_ne!(truth, -16);
    let wrong = dir.path().join("wrong.txt");
    std::fs::write(&wrong, format!("{child} standard -16 - import\n")).unwrap();
    let out = run(&store, &["store", "import", wrong.to_str().unwrap(), "--threads", "1", "--hash-mb", "8"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("refused: line 1: {child} standard: stored -16, the solver finds {truth:+}")),
        "{text}"
    );
    assert!(text.contains("0 added"), "{text}");
    // solve finds the start's true score (the four first moves are one under symmetry).
    let start_truth = reference_score("-----OX--XO----- X");
    let out = run(&store, &["solve", "--size", "4", "--json", "--threads", "1", "--hash-mb", "8"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["score"].as_i64(), Some(start_truth as i64), "{}", String::from_utf8_lossy(&out.stdout));

    // Forced in without a check, the wrong value is used, and what is derived from it keeps the
    // source import: verify --all --source import finds both.
    let forced = dir.path().join("forced.redb");
    let out = run(&forced, &["store", "import", "--no-check", wrong.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run(&forced, &["solve", "--size", "4", "--json", "--threads", "1", "--hash-mb", "8"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["score"].as_i64(), Some(16));
    let out = run(&forced, &["store", "stats", "--json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["by_size"][0]["sources"]["import"].as_u64(), Some(2), "{v}");
    assert_eq!(v["by_size"][0]["sources"]["explorer"].as_u64(), Some(0), "{v}");
    let out = run(&forced, &["store", "verify", "--all", "--source", "import", "--threads", "1", "--hash-mb", "8"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("mismatch:").count(), 2, "{text}");
    assert!(text.contains("checked 2 entries from import"), "{text}");
    // Only the explorer's entries: none of them is wrong.
    let out = run(&forced, &["store", "verify", "--all", "--source", "explorer", "--threads", "1", "--hash-mb", "8"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_wrong_entry_in_the_sample_keeps_every_unchecked_entry_out() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.redb");
    let mut memo = HashMap::new();
    // 4x4 positions with at least 10 empties, and one with 9, wrong: the sample of one beyond 8
    // empties takes the fewest first.
    let empties = |b: &Board| b.board_string().matches('-').count();
    let all = all_4x4_positions(&mut memo);
    let nine = all.iter().find(|(b, _)| empties(b) == 9).cloned().unwrap();
    let positions: Vec<(Board, i32)> =
        std::iter::once(nine).chain(all.into_iter().filter(|(b, _)| empties(b) >= 10)).collect();
    let mut file = String::new();
    for (i, (b, score)) in positions.iter().enumerate() {
        let score = if i == 0 { score + 2 } else { *score };
        file.push_str(&format!("{} standard {score} - import\n", b.board_string()));
    }
    let input = dir.path().join("in.txt");
    std::fs::write(&input, &file).unwrap();
    let args = ["store", "import", input.to_str().unwrap(), "--check-empties", "8", "--check-sample", "1"];
    let out = run(&store, &args);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(&format!("not imported: {} unchecked entries", positions.len() - 1)), "{text}");
    let out = run(&store, &["store", "stats", "--json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["entries"].as_u64(), Some(0), "{v}");
}

const SIGINT: i32 = 2;
const SIGKILL: i32 = 9;
const SIGTERM: i32 = 15;

/// Starts `args` on the store at `path`, waits until the store file exists and the process
/// catches SIGINT (Linux shows the caught signals in /proc), then `settle` more; sends `signal`
/// and returns the exit status and standard error. Nothing here is timed: any moment will do.
fn signalled(path: &Path, args: &[&str], settle: Duration, signal: i32) -> (std::process::ExitStatus, String) {
    let exe = assert_cmd::cargo::cargo_bin("othello-explorer");
    let mut child = std::process::Command::new(exe)
        .arg("--store")
        .arg(path)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let began = Instant::now();
    let caught = |pid: u32| {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let mask = status.lines().find_map(|l| l.strip_prefix("SigCgt:")).map(str::trim).unwrap_or("0");
        u64::from_str_radix(mask, 16).is_ok_and(|m| m & (1 << (SIGINT - 1)) != 0)
    };
    while (!path.exists() || (Path::new("/proc/self/status").exists() && !caught(child.id())))
        && child.try_wait().is_ok_and(|done| done.is_none())
        && began.elapsed() < Duration::from_secs(60)
    {
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(settle);
    let sent = std::process::Command::new("kill").arg(format!("-{signal}")).arg(child.id().to_string()).status();
    assert!(sent.unwrap().success());
    let out = child.wait_with_output().unwrap();
    (out.status, String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn a_store_whose_writer_was_killed_reads_cleanly_with_every_commit_kept() {
    let dir = tempfile::tempdir().unwrap();
    for (name, args) in [
        ("book", vec!["book", "--size", "6", "--plies", "2", "--scoring", "discs", "--threads", "1", "--hash-mb", "8"]),
        ("solve", vec!["solve", "--size", "8", "--threads", "1", "--hash-mb", "8"]),
    ] {
        let path = dir.path().join(format!("{name}.redb"));
        let (status, _) = signalled(&path, &args, Duration::from_millis(700), SIGKILL);
        assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status), Some(SIGKILL));
        // SQLite replays the log the killed writer left: no note, no damage, for any command.
        for command in [vec!["store", "stats"], vec!["store", "export", "-"], vec!["store", "verify"]] {
            let out = run(&path, &command);
            assert!(out.status.success(), "{name}, {command:?}: {}", stderr(&out));
            assert_eq!(stderr(&out), "", "{name}, {command:?}");
        }
        // The shipped book the killed program merged at its start is all there (solve merges
        // it; book does not).
        let store = Store::open(&path).unwrap();
        if name == "solve" {
            for entry in othello_explorer::store::book::shipped() {
                let found = store.get(&entry.position, entry.scoring).unwrap();
                assert_eq!(found.and_then(|s| s.score()), entry.stored.score(), "{}", entry.position);
            }
        }
    }
}

#[test]
fn sigint_and_sigterm_stop_book_and_import_cleanly_keeping_what_was_finished() {
    let dir = tempfile::tempdir().unwrap();
    // book: the 6x6 start, counting discs (the shipped book is of the standard scoring), takes
    // minutes; a signal stops it, exit 128 + the signal.
    for (signal, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
        let path = dir.path().join(format!("book-{signal}.redb"));
        let args = ["book", "--size", "6", "--plies", "2", "--scoring", "discs", "--threads", "1", "--hash-mb", "8"];
        let (status, err) = signalled(&path, &args, Duration::from_millis(700), signal);
        assert_eq!(status.code(), Some(128 + signal), "{err}");
        assert!(err.ends_with(&format!("othello-explorer: interrupted by {name}: the book stopped; what was solved before is stored, run it again to go on\n")), "{err}");
        // Closed cleanly: read without a recovery.
        let out = run(&path, &["store", "stats"]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stderr(&out), "");
    }
    // import: deep 6x6 entries all sampled take long to check; stopped there, nothing is written.
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/book-6x6.txt");
    let path = dir.path().join("import.redb");
    let out = run(&path, &["store", "stats"]); // nothing there yet: created by the import only
    assert_eq!(out.status.code(), Some(2));
    let args = [
        "store",
        "import",
        book.to_str().unwrap(),
        "--check-empties",
        "0",
        "--check-sample",
        "100000",
        "--threads",
        "1",
        "--hash-mb",
        "8",
    ];
    let (status, err) = signalled(&path, &args, Duration::from_millis(500), SIGINT);
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(err.ends_with("othello-explorer: interrupted by SIGINT: import stopped: nothing was written\n"), "{err}");
    let out = run(&path, &["store", "stats", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["entries"].as_u64(), Some(0));
}

#[test]
fn a_line_longer_than_the_limit_is_refused_in_one_line_and_memory_stays_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.redb");
    let file = dir.path().join("long.txt");
    // A good line, then one of 64 MiB: the file is under the 256 MiB cap, the line far over the
    // line's. Reading the line whole (as a String, then its characters) took 16 bytes a character.
    let good = "-----OX--XO----- X standard -10 c4 book\n";
    let mut text = String::from(good);
    text.push_str(&"X".repeat(64 << 20));
    text.push('\n');
    std::fs::write(&file, &text).unwrap();
    drop(text);
    // Under a 1 GiB address-space limit: the file and its text fit; a copy of the line as
    // characters does not.
    let exe = assert_cmd::cargo::cargo_bin("othello-explorer");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1048576; exec \"$0\" \"$@\"")
        .arg(&exe)
        .arg("--store")
        .arg(&store)
        .args(["store", "import", "--no-check"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "othello-explorer: {} line 2: longer than 4096 bytes, not an entry (an entry's line is about 100)\n",
            file.display()
        )
    );
    // Nothing was written: a malformed file is refused whole.
    let out = run(&store, &["store", "stats", "--json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["entries"].as_u64(), Some(0), "{v}");
    // A line of exactly the limit (a long comment) is an entry.
    let padded = format!("{} ;{}\n", good.trim_end(), "c".repeat(4096 - good.trim_end().len() - 2));
    assert_eq!(padded.len(), 4097);
    std::fs::write(&file, &padded).unwrap();
    let out = run(&store, &["store", "import", "--no-check", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 added"));
}

#[test]
fn the_check_has_a_node_budget_and_reports_what_it_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.redb");
    // The 8x8 start (60 empties: no solver proves it in a budget) and a 4x4 entry the plain
    // negamax confirms.
    let start8 = othello_explorer::notation::obf::format_board(&Position::start(Size::Eight));
    let c1 = "-X---XX--XO----- O";
    let file = dir.path().join("in.txt");
    std::fs::write(&file, format!("{start8} standard 0 - import\n{c1} standard {} - import\n", reference_score(c1)))
        .unwrap();
    let args =
        ["store", "import", file.to_str().unwrap(), "--check-nodes", "100000", "--threads", "1", "--hash-mb", "8"];
    let out = run(&store, &[&args[..], &["--json"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["check"]["checked"].as_u64(), Some(1), "{v}");
    assert_eq!(v["check"]["sampled"].as_u64(), Some(1), "{v}");
    assert_eq!(v["check"]["skipped"].as_u64(), Some(1), "{v}");
    assert_eq!(v["check"]["check_nodes"].as_u64(), Some(100_000), "{v}");
    assert_eq!(v["skipped"][0]["line"].as_u64(), Some(1), "{v}");
    assert_eq!(v["skipped"][0]["board"].as_str(), Some(start8.as_str()), "{v}");
    // Skipped is not refused: like every entry beyond the sample, it is imported unchecked.
    assert_eq!((v["added"].as_u64(), v["refused_total"].as_u64()), (Some(2), Some(0)), "{v}");
    // The text says the same.
    let store2 = dir.path().join("t.redb");
    let out = run(&store2, &args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "checked 1 of 2 entries (every one with at most 14 empties, and 1 of the others): 0 wrong, 1 skipped (over 100,000 nodes each)\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(&format!("skipped: line 1: {start8} standard: its check needs more than 100,000 nodes\n")),
        "{text}"
    );

    // verify: the same budget, the same word, and with the default budget it ends too.
    let verify = ["store", "verify", "--all", "--threads", "1", "--hash-mb", "8"];
    let out = run(&store, &[&verify[..], &["--check-nodes", "100000", "--json"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["checked"].as_u64(), v["skipped"].as_array().map(Vec::len)), (Some(1), Some(1)), "{v}");
    assert_eq!(v["mismatches"].as_array().map(Vec::len), Some(0), "{v}");
    let out = run(&store, &verify);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    // The store keeps the canonical image of the start.
    let (key, _) = othello_explorer::store::Key::of(&Position::start(Size::Eight), Scoring::Standard);
    let kept = othello_explorer::notation::obf::format_board(&key.position());
    assert!(
        text.contains(&format!("skipped: {kept} standard: its check needs more than 20,000,000 nodes\n")),
        "{text}"
    );
    assert!(text.contains("checked 1 entry (seed "), "{text}");
    assert!(text.contains(": 0 mismatches, 1 skipped (over 20,000,000 nodes each), "), "{text}");
}
