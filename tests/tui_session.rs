//! Sessions that survive: the real binary in tmux keeps the explored tree in its session file
//! after every change; killed with SIGKILL (no chance to clean up), it loses nothing, and
//! `--resume` reopens the same tree at the same node. Skipped with a notice without tmux.

mod tmux;

use othello_explorer::tui::session;
use othello_explorer::tui::tree::Tree;
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

fn start(tmux: &Tmux, command: &str) {
    let started = tmux.run(&["-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "120", "-y", "40", command]);
    assert!(started.status.success(), "{}", String::from_utf8_lossy(&started.stderr));
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
    start(&tmux, &format!("NO_COLOR=1 XDG_DATA_HOME='{dir}' exec '{bin}' --size 6"));
    tmux.wait_text("6x6");
    // Two branches at ply 2, then back to ply 2 on the second one.
    tmux.keys(&[":", "moves c2b2a2", "Enter"]);
    tmux.wait_text("ply 3");
    tmux.keys(&["u", "u"]);
    tmux.wait_text("ply 1");
    tmux.keys(&[":", "moves c2d2", "Enter"]);
    tmux.wait_text("ply 2");
    let saved = wait_session(&file, "the second branch", |t| t.transcript() == "c2d2");
    assert_eq!(leaves(&saved), ["c2b2a2", "c2d2"]);

    // SIGKILL: no destructor, no terminal restore, no last write.
    let pid = tmux.display("#{pane_pid}");
    assert!(std::process::Command::new("kill").args(["-9", &pid]).status().unwrap().success());
    let after_kill = session::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(session::to_text(&after_kill), session::to_text(&saved));
    let _ = tmux.run(&["kill-server"]);

    // --resume: the same tree, the same node, on screen.
    let tmux = Tmux { socket: format!("oe-session-test-2-{}", std::process::id()) };
    start(&tmux, &format!("NO_COLOR=1 XDG_DATA_HOME='{dir}' exec '{bin}' --resume"));
    let screen = tmux.wait_text("resumed the session: 4 positions explored, at ply 2");
    assert!(screen.contains("ply 2"), "{screen}");
    assert!(screen.contains("1.c2 [2.d2]"), "{screen}");
    // Stepping back and forward follows the resumed line and is saved again.
    tmux.keys(&["u"]);
    tmux.wait_text("ply 1");
    let resumed = wait_session(&file, "the step back", |t| t.transcript() == "c2");
    assert_eq!(leaves(&resumed), ["c2b2a2", "c2d2"]);
    tmux.keys(&["q"]);

    // A fresh start keeps the last session beside the new one.
    let tmux = Tmux { socket: format!("oe-session-test-3-{}", std::process::id()) };
    start(&tmux, &format!("NO_COLOR=1 XDG_DATA_HOME='{dir}' exec '{bin}' --size 4"));
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
