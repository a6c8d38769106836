//! Many programs on one store at once, with `kill -9` among them: two explorers (the explorer's
//! solver thread, twice, in this process), `solve`, `gtp`, `book` and `store import` (the real
//! binary), imports, a `solve` and a `book` killed with SIGKILL while they work. Nothing is refused (no program is told the store
//! is in use, or goes on without it), nothing a finished program committed is lost, and every
//! entry is right: every 4x4 score against a plain negamax over the reference rules, the 6x6 book
//! against the shipped text.

mod common;
mod reference;

use common::to_position;
use othello_explorer::solver::{DEFAULT_SELECTIVITY, Kind, SolverOptions};
use othello_explorer::store::{Store, book};
use othello_explorer::tui::testing::app::Msg;
use othello_explorer::tui::testing::worker::{EventKind, Worker};
use othello_explorer::{Position, Scoring, Size, Square};
use reference::{Board, negamax_memo};
use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// Every position of 4x4 games from the start (passes included).
fn all_4x4_positions() -> Vec<Board> {
    let mut seen = HashSet::new();
    let mut stack = vec![Board::start(4)];
    let mut out = Vec::new();
    while let Some(b) = stack.pop() {
        if !seen.insert(b.board_string()) {
            continue;
        }
        out.push(b.clone());
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

fn exe() -> PathBuf {
    assert_cmd::cargo::cargo_bin("othello-explorer")
}

/// The binary on the store at `path` with `args`, its output captured.
fn spawn(path: &Path, args: &[&str]) -> Child {
    Command::new(exe())
        .arg("--store")
        .arg(path)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts")
}

/// Waits for `child`; its exit code, standard output and standard error.
fn finish(child: Child) -> (Option<i32>, String, String) {
    let out = child.wait_with_output().expect("waited for");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A finished program's result: exit 0 and no message of the program's on standard error (no
/// note that the store is in use, busy, or left out; `book`'s progress lines aside).
fn assert_clean(what: &str, (code, out, err): &(Option<i32>, String, String)) {
    assert_eq!(*code, Some(0), "{what}: {err}\n{out}");
    assert!(!err.lines().any(|l| l.starts_with("othello-explorer:")), "{what}: {err}");
}

/// Starts `args` on the store, lets it run `after`, and kills it with SIGKILL.
fn killed_after(path: &Path, args: &[&str], after: Duration) {
    let mut child = spawn(path, args);
    std::thread::sleep(after);
    child.kill().expect("SIGKILL sent");
    child.wait().expect("waited for");
}

/// A `gtp` engine on the store playing a whole 4x4 game against itself, then the 6x6 opening:
/// every answer a success.
fn gtp_games(path: &Path) -> (Option<i32>, String, String) {
    let mut child = Command::new(exe())
        .arg("--store")
        .arg(path)
        .args(["gtp", "--threads", "1", "--hash-mb", "8", "--move-time", "0.2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gtp starts");
    let mut input = child.stdin.take().expect("stdin");
    let mut output = BufReader::new(child.stdout.take().expect("stdout"));
    let mut ask = |command: &str| -> String {
        writeln!(input, "{command}").expect("sent");
        input.flush().expect("sent");
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            assert!(output.read_line(&mut line).expect("read") > 0, "gtp ended during {command}");
            if line.trim().is_empty() {
                return answer;
            }
            answer.push_str(line.trim_end());
        }
    };
    assert_eq!(ask("boardsize 4"), "=");
    let mut passes = 0;
    for turn in 0..40 {
        let color = if turn % 2 == 0 { "b" } else { "w" };
        let answer = ask(&format!("genmove {color}"));
        assert!(answer.starts_with("= "), "genmove {color}: {answer}");
        passes = if answer == "= pass" { passes + 1 } else { 0 };
        if passes == 2 {
            break;
        }
    }
    // The 6x6 opening comes from the shipped book, whatever the others write meanwhile.
    assert_eq!(ask("boardsize 6"), "=");
    let first = ask("genmove b");
    assert!(["= c2", "= b3", "= e4", "= d5"].contains(&first.to_lowercase().as_str()), "{first}");
    assert_eq!(ask("quit"), "=");
    drop(input);
    let mut rest = String::new();
    let _ = std::io::Read::read_to_string(&mut output, &mut rest);
    let status = child.wait().expect("waited for");
    let mut err = String::new();
    let _ = std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut err);
    (status.code(), rest, err)
}

/// Events of `job` until `until` holds for one.
fn collect(rx: &Receiver<Msg>, job: u64, until: impl Fn(&EventKind) -> bool) -> Vec<EventKind> {
    let mut out = Vec::new();
    while let Ok(msg) = rx.recv_timeout(Duration::from_secs(120)) {
        if let Msg::Notice { error: true, text } = &msg {
            panic!("the explorer was told: {text}");
        }
        let Msg::Solver(ev) = msg else { continue };
        if ev.job != job {
            continue;
        }
        let done = until(&ev.kind);
        out.push(ev.kind);
        if done {
            return out;
        }
    }
    panic!("the solver thread went quiet; events so far: {out:?}");
}

/// An explorer (its solver thread) on the store analysing `positions` one after another; the
/// exact child scores it showed, by position.
fn explorer(path: &Path, positions: &[Position]) -> Vec<(Position, HashMap<Square, i32>)> {
    let (tx, rx) = channel();
    let options = SolverOptions { hash_mb: 8, threads: 1, ..SolverOptions::default() };
    let mut worker = Worker::spawn(options, Some(path.to_path_buf()), tx).expect("the solver thread starts");
    let mut seen = Vec::new();
    for (job, position) in positions.iter().enumerate() {
        let job = job as u64 + 1;
        worker.analyse(job, *position, DEFAULT_SELECTIVITY);
        let events = collect(&rx, job, |k| matches!(k, EventKind::Pv { .. }));
        let exact: HashMap<Square, i32> = events
            .iter()
            .filter_map(|e| match e {
                EventKind::Child(c) if c.kind == Kind::Exact => Some((c.square, c.score)),
                _ => None,
            })
            .collect();
        seen.push((*position, exact));
    }
    seen
}

#[test]
fn two_explorers_solve_gtp_book_and_imports_share_one_store_with_kill_9_among_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    let mut memo = HashMap::new();
    let all = all_4x4_positions();
    let mut file = String::from("; every 4x4 position with its exact score\n");
    for b in &all {
        file.push_str(&format!("{} standard {} - import\n", b.board_string(), negamax_memo(b, false, &mut memo)));
    }
    let input = dir.path().join("all.txt");
    std::fs::write(&input, &file).unwrap();
    let input = input.to_str().unwrap();
    // Positions for the explorers and solve: a few plies into 4x4 games.
    let mut rng = reference::Rng(2026);
    let positions: Vec<Position> = (0..16)
        .map(|_| to_position(&reference::random_game(&Board::start(4), &mut rng, 3).1))
        .filter(|p| !p.is_game_over() && !p.must_pass())
        .collect();
    let (first_half, second_half) = positions.split_at(positions.len() / 2);

    let results = std::thread::scope(|scope| {
        // Two explorers.
        let explorers = [first_half, second_half].map(|half| scope.spawn(|| explorer(&path, half)));
        // book, to the end.
        let book = scope.spawn(|| {
            finish(spawn(
                &path,
                &["book", "--size", "4", "--plies", "5", "--lines", "--threads", "1", "--hash-mb", "8"],
            ))
        });
        // Imports: five killed at moments spread over an import's run (some among its commits,
        // some while it holds the write lock), the last to the end.
        let imports = scope.spawn(|| {
            for ms in [10, 30, 60, 100, 150] {
                killed_after(&path, &["store", "import", "--no-check", input], Duration::from_millis(ms));
            }
            finish(spawn(&path, &["store", "import", "--no-check", input]))
        });
        // solve: the 4x4 positions one by one, and the 6x6 start (from the shipped book).
        let solves = scope.spawn(|| {
            let mut out = Vec::new();
            for p in &positions {
                let board = othello_explorer::notation::obf::format_board(p);
                let args = ["solve", "--board", &board, "--json", "--threads", "1", "--hash-mb", "8"];
                out.push((*p, finish(spawn(&path, &args))));
            }
            let start6 = finish(spawn(&path, &["solve", "--size", "6", "--json", "--threads", "1", "--hash-mb", "8"]));
            (out, start6)
        });
        // gtp, a game and an opening.
        let gtp = scope.spawn(|| gtp_games(&path));
        // Killed while searching: the 8x8 start, and a 6x6 book that cannot finish.
        let killed = scope.spawn(|| {
            killed_after(
                &path,
                &["solve", "--size", "8", "--threads", "1", "--hash-mb", "8"],
                Duration::from_millis(400),
            );
            killed_after(
                &path,
                &["book", "--size", "6", "--plies", "2", "--scoring", "discs", "--threads", "1", "--hash-mb", "8"],
                Duration::from_millis(700),
            );
        });
        killed.join().unwrap();
        (
            explorers.map(|e| e.join().unwrap()),
            book.join().unwrap(),
            imports.join().unwrap(),
            solves.join().unwrap(),
            gtp.join().unwrap(),
        )
    });
    let (explorers, book_run, import_run, (solve_runs, start6), gtp_run) = results;

    // Nothing refused: every program that was not killed finished with nothing to say on stderr.
    assert_clean("book", &book_run);
    assert_clean("store import", &import_run);
    assert_clean("gtp", &gtp_run);
    assert_clean("solve --size 6", &start6);
    let v: serde_json::Value = serde_json::from_str(&start6.1).unwrap();
    assert_eq!((v["score"].as_i64(), v["from_store"].as_u64()), (Some(-4), Some(4)), "{v}");
    for (p, run) in &solve_runs {
        assert_clean(&format!("solve {p}"), run);
    }

    // Every entry is right, and nothing a finished program committed is missing.
    let store = Store::open(&path).unwrap();
    let entries = store.entries().unwrap();
    for (key, stored) in &entries {
        let position = key.position();
        match key.size {
            Size::Four => {
                let b = reference::Board::from_bits(
                    4,
                    position.black().bits(),
                    position.white().bits(),
                    if position.to_move() == othello_explorer::Color::Black {
                        reference::Side::Black
                    } else {
                        reference::Side::White
                    },
                );
                let score = negamax_memo(&b, false, &mut memo);
                assert!(stored.lower <= score && score <= stored.upper, "{position}: {stored:?}, negamax {score}");
            }
            Size::Six => {
                if let Some(kept) = book::lookup(&position, key.scoring) {
                    assert_eq!(stored.score(), kept.score(), "{position}: the book says {kept:?}");
                }
            }
            Size::Eight => {}
        }
    }
    // The import that finished: every line is there, exact.
    for b in &all {
        let p = to_position(b);
        let found = store.get(&p, Scoring::Standard).unwrap().unwrap_or_else(|| panic!("{p} lost"));
        assert_eq!(found.score(), Some(negamax_memo(b, false, &mut memo)), "{p}");
    }
    // The shipped book, merged by the first program that opened the store: every entry there.
    for entry in book::shipped() {
        let found = store.get(&entry.position, entry.scoring).unwrap();
        assert_eq!(found.and_then(|s| s.score()), entry.stored.score(), "{}", entry.position);
    }
    // What each solve printed is what the store holds for those children.
    for (p, (_, out, _)) in &solve_runs {
        let v: serde_json::Value = serde_json::from_str(out).unwrap();
        for child in v["children"].as_array().unwrap() {
            assert_eq!(child["kind"], "exact", "{p}: {child}");
            let square: Square = child["move"].as_str().unwrap().parse().unwrap();
            let score = child["score"].as_i64().unwrap() as i32;
            let stored = store.get(&p.play(square).unwrap(), Scoring::Standard).unwrap().unwrap();
            assert_eq!(stored.score(), Some(-score), "{p} {square}");
        }
    }
    // What the explorers showed is what the store holds, and what the plain negamax says.
    for seen in &explorers {
        for (p, children) in seen {
            assert_eq!(children.len(), p.legal_moves().count() as usize, "{p}");
            for (&square, &score) in children {
                let child = p.play(square).unwrap();
                let stored = store.get(&child, Scoring::Standard).unwrap().unwrap();
                assert_eq!(stored.score(), Some(-score), "{p} {square}");
            }
        }
    }
}
