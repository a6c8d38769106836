//! Sessions that survive: the real binary in tmux keeps the explored tree in its session file
//! after every change; killed with SIGKILL (no chance to clean up), it loses nothing, and
//! `--resume` reopens the same tree at the same node. Skipped with a notice without tmux.

mod tmux;

use othello_explorer::tui::testing::session;
use othello_explorer::tui::testing::tree::Tree;
use std::path::Path;
use std::time::{Duration, Instant};
use tmux::{Tmux, tmux_available};

/// Polls the session file until it parses and `pred` holds.
fn wait_session(path: &Path, what: &str, pred: impl Fn(&Tree) -> bool) -> Tree {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(tree) = std::fs::read_to_string(path).ok().and_then(|t| session::parse(&t).ok())
            && pred(&tree)
        {
            return tree;
        }
        assert!(Instant::now() < deadline, "timed out waiting for the session file to hold {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The tree's branches as transcripts from the root to every leaf, in order.
fn leaves(tree: &Tree) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![tree.root()];
    while let Some(n) = stack.pop() {
        let kids = tree.children(n);
        if kids.is_empty() {
            let mut t = tree.clone();
            t.goto(n);
            out.push(t.transcript());
        }
        stack.extend(kids.iter().rev());
    }
    out
}

#[test]
fn a_killed_explorer_resumes_with_the_same_tree_and_node() {
    if !tmux_available() {
        eprintln!("notice: tmux is not installed; skipping the session test");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_othello-explorer");
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().display().to_string();
    // The default session file: session.txt in the program's data directory.
    let file = data.path().join("othello-explorer").join("session.txt");
    let tmux = Tmux { socket: format!("oe-session-test-{}", std::process::id()) };
    tmux.start(&format!("NO_COLOR=1 XDG_DATA_HOME='{dir}' exec '{bin}' --size 6"));
    tmux.wait_text("6x6");
    // Two branches at ply 2, then back to ply 2 on the second one.
    tmux.keys(&[":", "moves c2b2a2", "Enter"]);
    tmux.wait_text("ply 3");
    tmux.keys(&["u", "u"]);
    tmux.wait_text("ply 1");
    tmux.keys(&[":", "moves /c2d2", "Enter"]);
    tmux.wait_text("ply 2");
    let saved = wait_session(&file, "the second branch", |t| t.transcript() == "c2d2");
    assert_eq!(leaves(&saved), ["c2b2a2", "c2d2"]);

    // SIGKILL: no destructor, no terminal restore, no last write.
    let pid = tmux.display("#{pane_pid}");
    assert!(std::process::Command::new("kill").args(["-9", &pid]).status().unwrap().success());
    let after_kill = session::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(session::to_text(&after_kill), session::to_text(&saved));
    // `kill` returns before the process is gone: until it is, its session file is held.
    tmux.wait_gone();

    // --resume: the same tree, the same node, on screen.
    let tmux = Tmux { socket: format!("oe-session-test-2-{}", std::process::id()) };
    tmux.start(&format!("NO_COLOR=1 XDG_DATA_HOME='{dir}' exec '{bin}' --resume"));
    // d2, the second of two branches.
    tmux.wait_all(&["resumed the session: 4 positions explored, at ply 2", "ply 2", "1.c2 [2.d2(2/2)]"]);
    // Stepping back and forward follows the resumed line and is saved again.
    tmux.keys(&["u"]);
    tmux.wait_text("ply 1");
    let resumed = wait_session(&file, "the step back", |t| t.transcript() == "c2");
    assert_eq!(leaves(&resumed), ["c2b2a2", "c2d2"]);
    tmux.keys(&["q"]);
    // Gone, and its session file free again (a second explorer meanwhile would get a spare).
    tmux.wait_gone();

    // A fresh start keeps the last session beside the new one.
    let tmux = Tmux { socket: format!("oe-session-test-3-{}", std::process::id()) };
    tmux.start(&format!("NO_COLOR=1 XDG_DATA_HOME='{dir}' exec '{bin}' --size 4"));
    tmux.wait_text("4x4");
    let fresh = wait_session(&file, "the new 4x4 tree", |t| t.len() == 1);
    assert_eq!(fresh.position_of(fresh.root()).size(), othello_explorer::Size::Four);
    let previous = data.path().join("othello-explorer").join("session.txt.previous");
    let kept = session::parse(&std::fs::read_to_string(previous).unwrap()).unwrap();
    assert_eq!(leaves(&kept), ["c2b2a2", "c2d2"]);
    tmux.keys(&["q"]);
}

#[test]
fn resume_errors_are_one_line_with_exit_2() {
    let bin = env!("CARGO_BIN_EXE_othello-explorer");
    let data = tempfile::tempdir().unwrap();
    let bad = data.path().join("bad.txt");
    std::fs::write(&bad, "othello-explorer session 1\nroot XXXX\n").unwrap();
    let newer = data.path().join("newer.txt");
    std::fs::write(&newer, "othello-explorer session 7\n").unwrap();
    let missing = data.path().join("missing.txt");
    for (args, want) in [
        (vec!["--resume", "--session", missing.to_str().unwrap()], "no saved session at"),
        (vec!["--resume", "--session", bad.to_str().unwrap()], "bad.txt: line 2: root:"),
        (vec!["--resume", "--session", newer.to_str().unwrap()], "format version 7, newer than this program reads"),
        (vec!["--resume", "--size", "6"], "'--resume' cannot be used with '--size <N>'"),
        (vec!["--resume", "--no-session"], "'--resume' cannot be used with '--no-session'"),
    ] {
        let out = std::process::Command::new(bin).args(&args).env("XDG_DATA_HOME", data.path()).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

/// A session whose last journal line was cut by a crash mid-append: `--resume` leaves the line out
/// and says so on stderr, one line naming the file and the line (here before it finds no
/// terminal to run in).
#[test]
fn a_cut_last_line_is_said_on_resuming() {
    let bin = env!("CARGO_BIN_EXE_othello-explorer");
    let data = tempfile::tempdir().unwrap();
    let cut = data.path().join("cut.txt");
    let root = "root ---------------------------OX------XO--------------------------- X";
    // The explorer's stderr on resuming `text`.
    let resume = |text: String| {
        std::fs::write(&cut, text).unwrap();
        let out = std::process::Command::new(bin)
            .args(["--resume", "--session", cut.to_str().unwrap()])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let whole = format!("othello-explorer session 3\n{root}\n1 0 f5\ncurrent 1\n");
    let err = resume(format!("{whole}2 1 d6"));
    let said: Vec<&str> = err.lines().filter(|l| l.contains("cut")).collect();
    assert_eq!(said.len(), 1, "{err}");
    assert!(said[0].contains(&format!("{}:5: the last line was cut", cut.display())), "{err}");
    // A whole file says nothing of the kind.
    assert!(!resume(whole).contains("was cut"));
}

#[test]
fn two_explorers_on_one_data_directory_keep_both_sessions() {
    if !tmux_available() {
        eprintln!("notice: tmux is not installed; skipping the session test");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_othello-explorer");
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().display().to_string();
    let home = data.path().join("othello-explorer");
    std::fs::create_dir_all(&home).unwrap();
    // An older session, which the first explorer keeps as session.txt.previous.
    let mut older = Tree::new(othello_explorer::Position::start(othello_explorer::Size::Four));
    older.play(othello_explorer::tui::testing::tree::Edge::Move("c4".parse().unwrap())).unwrap();
    std::fs::write(home.join("session.txt"), session::to_text(&older)).unwrap();

    let a = Tmux { socket: format!("oe-two-a-{}", std::process::id()) };
    a.start(&format!("NO_COLOR=1 XDG_DATA_HOME='{dir}' exec '{bin}' --size 6"));
    a.wait_text("6x6");
    a.keys(&[":", "moves c2b2", "Enter"]);
    a.wait_text("ply 2");
    wait_session(&home.join("session.txt"), "the first explorer's moves", |t| t.transcript() == "c2b2");

    // The second explorer: its own session file, and the screen says so.
    let b = Tmux { socket: format!("oe-two-b-{}", std::process::id()) };
    b.start(&format!("NO_COLOR=1 XDG_DATA_HOME='{dir}' exec '{bin}' --size 4"));
    b.wait_text("session.txt is open in another explorer: this one keeps its session in session-2.txt");
    b.keys(&[":", "moves b1", "Enter"]);
    b.wait_text("ply 1");
    // Both go on moving; each file follows its own explorer.
    a.keys(&[":", "moves /c2b2a2", "Enter"]);
    a.wait_text("ply 3");
    wait_session(&home.join("session.txt"), "the first explorer's third move", |t| t.transcript() == "c2b2a2");
    wait_session(&home.join("session-2.txt"), "the second explorer's move", |t| t.transcript() == "b1");
    b.keys(&["q"]);
    b.wait_gone();
    a.keys(&["q"]);
    a.wait_gone();

    let read = |name: &str| session::parse(&std::fs::read_to_string(home.join(name)).unwrap()).unwrap();
    assert_eq!(leaves(&read("session.txt")), ["c2b2a2"]);
    assert_eq!(leaves(&read("session-2.txt")), ["b1"]);
    assert_eq!(session::to_text(&read("session.txt.previous")), session::to_text(&older));
    assert!(!home.join("session-2.txt.previous").exists());

    // Both resume.
    let a = Tmux { socket: format!("oe-two-a2-{}", std::process::id()) };
    a.start(&format!("NO_COLOR=1 XDG_DATA_HOME='{dir}' exec '{bin}' --resume"));
    a.wait_all(&["resumed the session: 3 positions explored, at ply 3", "6x6"]);
    let second = home.join("session-2.txt").display().to_string();
    let b = Tmux { socket: format!("oe-two-b2-{}", std::process::id()) };
    b.start(&format!("NO_COLOR=1 XDG_DATA_HOME='{dir}' exec '{bin}' --resume --session '{second}'"));
    let screen = b.wait_all(&["resumed the session: 1 position explored, at ply 1", "4x4"]);
    // Resuming the first's session does not make it a spare, nor move the files.
    assert!(!screen.contains("another explorer"), "{screen}");
    a.keys(&["q"]);
    b.keys(&["q"]);
    a.wait_gone();
    b.wait_gone();
    assert_eq!(leaves(&read("session.txt")), ["c2b2a2"]);
    assert_eq!(leaves(&read("session-2.txt")), ["b1"]);
}

#[test]
fn a_held_session_file_is_neither_reused_nor_moved() {
    use othello_explorer::tui::testing::disk::{Claimed, claim_session};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("session.txt");
    let file = |name: &str| std::fs::read_to_string(dir.path().join(name)).ok();
    std::fs::write(&path, "older").unwrap();
    std::fs::write(dir.path().join("session-2.txt"), "an older spare").unwrap();
    // A new session keeps the one it replaces.
    let Claimed::Session(first) = claim_session(&path, false).unwrap() else { panic!("session.txt is free") };
    assert_eq!(first.path, path);
    assert_eq!(first.busy, None);
    assert_eq!(file("session.txt.previous").as_deref(), Some("older"));
    std::fs::write(&path, "first").unwrap();
    // A second start, fresh or resuming, takes a spare and leaves the first's files alone.
    for resumed in [false, true] {
        let second = claim_slot_retrying(&path, resumed, &dir.path().join("session-2.txt"));
        assert_eq!(second.busy.as_deref(), Some(path.as_path()));
        assert_eq!(file("session.txt").as_deref(), Some("first"));
        assert_eq!(file("session.txt.previous").as_deref(), Some("older"));
        // The spare's own older session is kept, as any replaced session is.
        assert_eq!(file("session-2.txt.previous").as_deref(), Some("an older spare"));
    }
    // Resuming keeps the file; once the first explorer is gone the file is free again.
    drop(first);
    let again = claim_slot_retrying(&path, true, &path);
    assert_eq!(again.path, path);
    assert_eq!(file("session.txt").as_deref(), Some("first"));
    // Every spare held: no session at all rather than someone else's.
    let held: Vec<_> = (2..=othello_explorer::tui::testing::disk::SESSION_SLOTS)
        .map(|_| claim_session(&path, false).unwrap())
        .collect();
    assert!(held.iter().all(|c| matches!(c, Claimed::Session(_))));
    assert!(matches!(claim_session(&path, false).unwrap(), Claimed::AllBusy));
}

/// Six fresh starts keep the five sessions before the last, newest first, and drop the oldest.
#[test]
fn fresh_starts_keep_the_last_five_sessions() {
    use othello_explorer::tui::testing::disk::{KEPT_SESSIONS, kept_session};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("session.txt");
    for run in 1..=7 {
        let claim = claim_slot_retrying(&path, false, &path);
        std::fs::write(&path, format!("run {run}")).unwrap();
        drop(claim);
    }
    assert_eq!(KEPT_SESSIONS, 5);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "run 7");
    for k in 1..=5 {
        assert_eq!(std::fs::read_to_string(kept_session(&path, k)).unwrap(), format!("run {}", 7 - k), "{k}");
    }
    assert!(!kept_session(&path, 6).exists(), "the oldest is dropped");
}

/// `:save` (and every atomic write) into a directory that is not there fails and creates nothing.
#[test]
fn a_write_into_a_missing_directory_fails_and_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("no-such-dir").join("line.txt");
    let err = session::write_atomic(&target, "f5d6\n").unwrap_err();
    assert!(err.to_string().contains("no directory"), "{err}");
    assert!(!dir.path().join("no-such-dir").exists());
    session::write_atomic(&dir.path().join("line.txt"), "f5d6\n").unwrap();
}

/// Claims `path` and expects the session file `want`. The lock is on the open file, so a process
/// that another test of this binary forks at that moment shares it until its exec closes it: a
/// lock just released can still be held for a moment. Try again for up to two seconds.
fn claim_slot_retrying(path: &Path, resumed: bool, want: &Path) -> othello_explorer::tui::testing::disk::Claim {
    use othello_explorer::tui::testing::disk::{Claimed, claim_session};
    for _ in 0..100 {
        let Claimed::Session(claimed) = claim_session(path, resumed).unwrap() else { panic!("a session is free") };
        if claimed.path == want {
            return claimed;
        }
        drop(claimed);
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    panic!("{} is free once its holder is gone", want.display())
}

/// A tree `:new`, `:size`, `:board` or `:load` replaces is kept beside the session as its newest
/// copy (`session.txt.previous`, the older copies moved on), so quitting loses none of them; the
/// status line names the file. Without a session file, quitting says how many were not kept.
#[test]
fn replaced_trees_are_kept_beside_the_session_and_said_on_quitting_without_one() {
    if !tmux_available() {
        eprintln!("notice: tmux is not installed; skipping the replaced-tree test");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_othello-explorer");
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().display().to_string();
    let folder = data.path().join("othello-explorer");
    let file = folder.join("session.txt");
    let tmux = Tmux { socket: format!("oe-replaced-{}", std::process::id()) };
    tmux.start(&format!("NO_COLOR=1 XDG_DATA_HOME='{dir}' exec '{bin}' --size 6 --no-store"));
    tmux.wait_text("6x6");
    tmux.keys(&[":", "moves c2b2a2", "Enter"]);
    tmux.wait_text("ply 3");
    wait_session(&file, "the first tree", |t| t.transcript() == "c2b2a2");
    // :size replaces it: the 6x6 tree goes to session.txt.previous.
    tmux.keys(&[":", "size 4", "Enter"]);
    tmux.wait_text("session.txt.previous");
    tmux.wait_text("moves · exact");
    tmux.keys(&["b"]);
    tmux.wait_text("ply 1");
    wait_session(&file, "the 4x4 tree", |t| t.transcript().len() == 2);
    // :new replaces the 4x4 tree: it becomes .previous, the 6x6 one .previous.2.
    tmux.keys(&[":", "new", "Enter"]);
    tmux.wait_text("session.txt.previous");
    tmux.keys(&["q"]);
    tmux.wait_gone();
    let read = |name: &str| session::parse(&std::fs::read_to_string(folder.join(name)).unwrap()).unwrap();
    assert_eq!(leaves(&read("session.txt.previous.2")), ["c2b2a2"]);
    let four = read("session.txt.previous");
    assert_eq!(four.position_of(four.root()).size(), othello_explorer::Size::Four);
    assert_eq!(leaves(&four).len(), 1);
    assert_eq!(leaves(&four)[0].len(), 2);

    // Without a session file: said on quitting, after the terminal is back.
    let tmux = Tmux { socket: format!("oe-replaced-2-{}", std::process::id()) };
    tmux.start("sh");
    tmux.keys(&[
        &format!("NO_COLOR=1 XDG_DATA_HOME='{dir}' '{bin}' --size 4 --no-session --no-store; echo EXIT=$?"),
        "Enter",
    ]);
    tmux.wait_text("moves · exact");
    tmux.keys(&["b"]);
    tmux.wait_text("ply 1");
    tmux.keys(&[":", "new", "Enter"]);
    tmux.wait_text(":restore brings back");
    tmux.keys(&["q"]);
    let screen = tmux.wait_for("the exit", |s| s.lines().any(|l| l.trim().starts_with("EXIT=")));
    // The line may wrap at the pane's width.
    let joined: String = screen.lines().map(str::trim_end).collect();
    assert!(
        joined.contains(
            "othello-explorer: 1 tree replaced in this run (:new, :size, :board, :load) was not kept: run with a session file to keep them"
        ),
        "{screen}"
    );
    assert!(screen.lines().any(|l| l.trim() == "EXIT=0"), "{screen}");
}
