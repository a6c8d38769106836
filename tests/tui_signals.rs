//! Signals end the explorer like `q`: the real binary in tmux, run from a shell, gets SIGTERM,
//! SIGINT, SIGHUP or SIGQUIT from `kill`; the shell then finds the terminal cooked (`stty -a`
//! shows `icanon`, `echo` and `isig`), the alternate screen left, mouse reporting off, the cursor
//! shown, the exit status 128 + the signal, and the session file holding the last move. Skipped
//! with a notice without tmux.

mod tmux;

use othello_explorer::tui::testing::session;
use tmux::{Tmux, tmux_available};

fn signal_quits_and_restores(name: &str, number: i32) {
    if !tmux_available() {
        eprintln!("notice: tmux is not installed; skipping the signal test");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_othello-explorer");
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().display().to_string();
    let pid_file = data.path().join("pid");
    let session_file = data.path().join("othello-explorer").join("session.txt");
    let tmux = Tmux { socket: format!("oe-signal-{name}-{}", std::process::id()) };
    tmux.start("sh");
    let _ = tmux.run(&["set-option", "-t", "t", "status", "off"]);
    // `exec` keeps the pid written to the file: the explorer's own, not a shell's.
    tmux.keys(&[
        &format!(
            "echo BEFORE; sh -c 'echo $$ > {}; exec env NO_COLOR=1 XDG_DATA_HOME={dir} {bin} --size 4'; echo EXIT=$?; stty -a; echo AFTER",
            pid_file.display()
        ),
        "Enter",
    ]);
    tmux.wait_text("moves · exact");
    assert_eq!(tmux.display("#{alternate_on}"), "1");
    assert_eq!(tmux.display("#{mouse_any_flag}"), "1");
    tmux.keys(&["b"]);
    tmux.wait_text("ply 1");
    // The move is on screen; the signal comes at once, before anyone waits for the file.
    let pid = std::fs::read_to_string(&pid_file).unwrap().trim().to_string();
    let killed = std::process::Command::new("kill").args([&format!("-{name}"), &pid]).status().unwrap();
    assert!(killed.success());

    let screen = tmux.wait_for("the shell after the explorer", |s| s.lines().any(|l| l.trim() == "AFTER"));
    assert!(screen.contains(&format!("EXIT={}", 128 + number)), "SIG{name}: {screen}");
    let words: Vec<&str> = screen.split_whitespace().collect();
    for mode in ["icanon", "echo", "isig"] {
        assert!(words.contains(&mode), "SIG{name}: {mode} missing: {screen}");
        assert!(!words.contains(&format!("-{mode}").as_str()), "SIG{name}: -{mode} left: {screen}");
    }
    assert!(screen.lines().any(|l| l.trim_end().ends_with("BEFORE") && !l.contains("echo")), "main screen: {screen}");
    assert_eq!(tmux.display("#{alternate_on}"), "0", "SIG{name}: the alternate screen is still on");
    assert_eq!(tmux.display("#{mouse_any_flag}"), "0", "SIG{name}: mouse reporting is still on");
    assert_eq!(tmux.display("#{cursor_flag}"), "1", "SIG{name}: the cursor is hidden");

    // The session holds the move (the explorer has exited: the file is final).
    let tree = session::parse(&std::fs::read_to_string(&session_file).unwrap()).unwrap();
    assert_eq!(tree.depth(tree.current()), 1, "SIG{name}: {}", session::to_text(&tree));
}

#[test]
fn sigterm_quits_like_q() {
    signal_quits_and_restores("TERM", 15);
}

#[test]
fn sigint_quits_like_q() {
    signal_quits_and_restores("INT", 2);
}

#[test]
fn sighup_quits_like_q() {
    signal_quits_and_restores("HUP", 1);
}

#[test]
fn sigquit_quits_like_q() {
    signal_quits_and_restores("QUIT", 3);
}

/// A terminal that hangs up while the 8x8 start is being searched (the tmux server killed: the
/// pane's terminal closes and the explorer gets SIGHUP) ends the explorer within seconds, instead
/// of leaving it spinning on a dead terminal with the search on every core (crossterm's reader
/// loops on a hung-up terminal; `src/tui/watchdog.rs`).
#[test]
fn a_terminal_that_hangs_up_ends_the_explorer() {
    if !tmux_available() {
        eprintln!("notice: tmux is not installed; skipping the hang-up test");
        return;
    }
    if !std::path::Path::new("/proc/self").exists() {
        eprintln!("notice: no /proc to watch the process in; skipping the hang-up test");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_othello-explorer");
    let data = tempfile::tempdir().unwrap();
    let tmux = Tmux { socket: format!("oe-hangup-{}", std::process::id()) };
    let command = format!("NO_COLOR=1 XDG_DATA_HOME='{}' exec '{bin}' --no-session", data.path().display());
    tmux.start(&command);
    tmux.wait_for("an estimate on screen", |s| s.contains(" @"));
    let pid = tmux.display("#{pane_pid}");
    assert!(!pid.is_empty());
    let _ = tmux.run(&["kill-server"]);
    wait_gone(&pid, "its terminal hung up");
}

/// Waits up to 20 s for process `pid` to end (a zombie, exited but not yet reaped, counts as
/// ended), and fails the test naming `after` if it does not.
fn wait_gone(pid: &str, after: &str) {
    let proc_dir = std::path::PathBuf::from(format!("/proc/{pid}"));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while proc_dir.exists() {
        let stat = std::fs::read_to_string(proc_dir.join("stat")).unwrap_or_default();
        if stat.split_whitespace().nth(2) == Some("Z") {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the explorer (pid {pid}) still runs 20 s after {after}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// The `stty -a` modes a shell needs, in cooked mode, and the tmux pane's flags: the alternate
/// screen off, mouse reporting off, the cursor shown.
fn assert_terminal_given_back(tmux: &Tmux, when: &str) {
    assert_eq!(tmux.display("#{alternate_on}"), "0", "{when}: the alternate screen is still on");
    assert_eq!(tmux.display("#{mouse_any_flag}"), "0", "{when}: mouse reporting is still on");
    assert_eq!(tmux.display("#{cursor_flag}"), "1", "{when}: the cursor is hidden");
    tmux.keys(&["clear; stty -a; echo STTY-DONE", "Enter"]);
    let screen = tmux.wait_for("stty's answer", |s| s.lines().any(|l| l.trim() == "STTY-DONE"));
    let words: Vec<&str> = screen.split_whitespace().collect();
    for mode in ["icanon", "echo", "isig"] {
        assert!(words.contains(&mode), "{when}: {mode} missing: {screen}");
        assert!(!words.contains(&format!("-{mode}").as_str()), "{when}: -{mode} left: {screen}");
    }
}

/// Job control: `kill -TSTP` (and the Ctrl-Z key, which raw mode delivers as a key) give the
/// terminal back to the shell as on quitting and stop the explorer; `fg` continues it, and it
/// takes the terminal again (raw, alternate screen, mouse, cursor hidden), redraws and answers keys.
#[test]
fn suspend_gives_the_terminal_back_and_fg_takes_it_again() {
    if !tmux_available() {
        eprintln!("notice: tmux is not installed; skipping the suspend test");
        return;
    }
    if !std::path::Path::new("/proc/self").exists() {
        eprintln!("notice: no /proc to watch the process in; skipping the suspend test");
        return;
    }
    if !std::path::Path::new("/bin/bash").exists() {
        eprintln!("notice: no bash for job control; skipping the suspend test");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_othello-explorer");
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().display().to_string();
    let pid_file = data.path().join("pid");
    let tmux = Tmux { socket: format!("oe-suspend-{}", std::process::id()) };
    tmux.start("/bin/bash --norc --noprofile -i");
    let _ = tmux.run(&["set-option", "-t", "t", "status", "off"]);
    tmux.keys(&[
        &format!(
            "sh -c 'echo $$ > {}; exec env NO_COLOR=1 XDG_DATA_HOME={dir} {bin} --size 4 --no-session'",
            pid_file.display()
        ),
        "Enter",
    ]);
    tmux.wait_text("moves · exact");
    assert_eq!(tmux.display("#{alternate_on}"), "1");
    let pid = std::fs::read_to_string(&pid_file).unwrap().trim().to_string();

    // kill -TSTP: stopped, the terminal the shell's.
    let sent = std::process::Command::new("kill").args(["-TSTP", &pid]).status().unwrap();
    assert!(sent.success());
    tmux.wait_for("the shell's job report", |s| s.contains("Stopped"));
    assert_terminal_given_back(&tmux, "after SIGTSTP");

    // fg: the explorer again, answering keys.
    tmux.keys(&["fg", "Enter"]);
    tmux.wait_for("the explorer after fg", |s| s.contains("moves · exact") && !s.contains("STTY-DONE"));
    assert_eq!(tmux.display("#{alternate_on}"), "1", "after fg");
    assert_eq!(tmux.display("#{mouse_any_flag}"), "1", "after fg");
    assert_eq!(tmux.display("#{cursor_flag}"), "0", "after fg");
    tmux.keys(&["b"]);
    tmux.wait_text("ply 1");

    // The Ctrl-Z key does the same.
    tmux.keys(&["C-z"]);
    tmux.wait_for("the shell's job report", |s| s.contains("Stopped"));
    assert_terminal_given_back(&tmux, "after Ctrl-Z");
    tmux.keys(&["fg", "Enter"]);
    tmux.wait_for("the explorer after fg", |s| s.contains("ply 1") && !s.contains("STTY-DONE"));
    tmux.keys(&["q"]);
    // Keys typed before the explorer has ended would be read by it, not by the shell: wait for
    // the process itself to end (the screen can lack the explorer's text while it redraws).
    wait_gone(&pid, "q");
    // `fg`'s status is the job's.
    tmux.keys(&["echo EXIT=$?", "Enter"]);
    let screen = tmux.wait_for("the exit", |s| tmux::number_after(s, "EXIT=").is_some());
    assert_eq!(tmux::number_after(&screen, "EXIT=").as_deref(), Some("0"), "{screen}");
    assert_terminal_given_back(&tmux, "after q");
}
