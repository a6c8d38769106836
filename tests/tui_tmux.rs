//! End to end: the real binary in a detached tmux session of a fixed size with `NO_COLOR=1`. It
//! waits for expected text by polling `capture-pane` (never a fixed sleep), plays moves with
//! `send-keys`, quits, and checks the terminal came back sane: not in raw mode (`stty -a` shows
//! `icanon` and `echo`), alternate screen left, mouse reporting off. Skipped with a notice when
//! tmux is not installed.

mod tmux;

use std::process::Command;
use tmux::{Tmux, tmux_available};

#[test]
fn the_explorer_runs_in_a_real_terminal_and_restores_it() {
    if !tmux_available() {
        eprintln!("notice: tmux is not installed; skipping the end-to-end explorer test");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_othello-explorer");
    let tmux = Tmux { socket: format!("oe-tui-test-{}", std::process::id()) };
    tmux.start("sh");
    let _ = tmux.run(&["set-option", "-t", "t", "status", "off"]);
    // The shell marks the start and, after the explorer, prints the terminal modes.
    // The session file goes to a data directory of the test's own.
    let data = tempfile::tempdir().unwrap();
    let data = data.path().display();
    tmux.keys(&[
        &format!("echo BEFORE; NO_COLOR=1 XDG_DATA_HOME='{data}' '{bin}' --size 4; echo EXIT=$?; stty -a; echo AFTER"),
        "Enter",
    ]);

    // 4x4 is solved at once: every child scored, exact.
    tmux.wait_all(&["moves · exact", "othello-explorer · 4x4", "-10★"]);
    assert_eq!(tmux.display("#{alternate_on}"), "1");

    // Play the best move, then a move chosen with Tab and Enter.
    tmux.keys(&["b"]);
    tmux.wait_text("ply 1");
    tmux.keys(&["Tab", "Enter"]);
    tmux.wait_all(&["ply 2", "1."]);

    // A wrong command reports in the status line and changes nothing.
    tmux.keys(&[":", "moves z9", "Enter"]);
    tmux.wait_all(&["✗ moves: move 1 at column 1: bad column 'z'", "ply 2"]);

    // Back, help, close help, resize to 80x24 and a too small size.
    tmux.keys(&["u"]);
    tmux.wait_text("ply 1");
    tmux.keys(&["?"]);
    tmux.wait_text("Esc or ? closes");
    tmux.keys(&["Escape"]);
    tmux.wait_for("help closed", |s| !s.contains("Esc or ? closes"));
    let _ = tmux.run(&["resize-window", "-t", "t", "-x", "60", "-y", "20"]);
    tmux.wait_text("terminal too small");
    let _ = tmux.run(&["resize-window", "-t", "t", "-x", "80", "-y", "24"]);
    tmux.wait_for("a redraw at 80x24", |s| s.contains("othello-explorer · 4x4") && !s.contains("too small"));

    // Quit: the shell goes on in a sane terminal.
    tmux.keys(&["q"]);
    let screen = tmux.wait_for("the shell after the explorer", |s| s.lines().any(|l| l.trim() == "AFTER"));
    assert!(screen.contains("EXIT=0"), "{screen}");
    // The shell's own output is back (after a resize the prompt may share its line).
    assert!(
        screen.lines().any(|l| l.trim_end().ends_with("BEFORE") && !l.contains("echo")),
        "the main screen is back: {screen}"
    );
    let words: Vec<&str> = screen.split_whitespace().collect();
    assert!(words.contains(&"icanon") && !words.contains(&"-icanon"), "raw mode left on: {screen}");
    assert!(words.contains(&"echo") && !words.contains(&"-echo"), "echo left off: {screen}");
    assert_eq!(tmux.display("#{alternate_on}"), "0");
    assert_eq!(tmux.display("#{mouse_any_flag}"), "0");
    assert_eq!(tmux.display("#{cursor_flag}"), "1");
}

#[test]
fn without_a_terminal_the_explorer_says_so_and_exits_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_othello-explorer")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("the explorer needs a terminal"), "{err}");
}

#[test]
fn the_8x8_start_shows_an_estimate_for_every_move_and_they_deepen() {
    if !tmux_available() {
        eprintln!("notice: tmux is not installed; skipping the end-to-end explorer test");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_othello-explorer");
    let tmux = Tmux { socket: format!("oe-tui-est-{}", std::process::id()) };
    let data = tempfile::tempdir().unwrap();
    let command = format!("NO_COLOR=1 XDG_DATA_HOME='{}' exec '{bin}' --no-session", data.path().display());
    tmux.start(&command);
    // The children table: each of the four moves with an estimate `+n @d`, never an exact score.
    let row = |screen: &str, mv: &str| -> Option<u32> {
        let line = screen.lines().find(|l| l.contains(&format!("│ {mv} ")) && l.contains(" @"))?;
        let at = line.find(" @")?;
        line[at + 2..].chars().take_while(|c| c.is_ascii_digit()).collect::<String>().parse().ok()
    };
    let moves = ["d3", "c4", "f5", "e6"];
    let screen = tmux.wait_for("an estimate for each move", |s| moves.iter().all(|m| row(s, m).is_some()));
    let first: Vec<u32> = moves.iter().map(|m| row(&screen, m).unwrap()).collect();
    assert!(screen.contains("estimat"), "the state says these are estimates: {screen}");
    assert!(!screen.contains("exact ✓"), "{screen}");
    // While the user stays, the estimates deepen.
    let deeper = tmux.wait_for("deeper estimates", |s| {
        moves.iter().all(|m| row(s, m).is_some_and(|d| d > *first.iter().max().unwrap()))
    });
    assert!(deeper.contains("@"), "{deeper}");
    // `%`: the next selectivity; the estimates of the old level go, the position is analysed
    // again at the new one, and every estimate says it (`+0 @9 98%`; full width, no level).
    let next = othello_explorer::solver::DEFAULT_SELECTIVITY.cycled();
    tmux.keys(&["%"]);
    let labelled = |screen: &str, mv: &str| {
        screen.lines().find(|l| l.contains(&format!("│ {mv} ")) && l.contains(" @")).is_some_and(|l| {
            let at = l.find(" @").unwrap();
            let label: String = l[at..].split('│').next().unwrap().to_string();
            if next.is_full() { !label.contains('%') } else { label.contains(&format!(" {next}")) }
        })
    };
    let screen = tmux.wait_for("estimates at the next selectivity", |s| {
        s.contains(&format!("selectivity {next}")) && moves.iter().all(|m| labelled(s, m))
    });
    assert!(!screen.contains(&format!(" {}", othello_explorer::solver::DEFAULT_SELECTIVITY)), "{screen}");
    tmux.keys(&["q"]);
}

/// Input already waiting is read in the turn it arrives: a paste of 10,000 characters into the
/// command line, then Enter, is answered at once (crossterm's edge-triggered reader used to read
/// a kilobyte per later key, and Enter sat unread for minutes); 700 arrow keys then `:` open the
/// prompt without another key.
#[test]
fn a_long_paste_and_a_key_burst_are_read_whole() {
    if !tmux_available() {
        eprintln!("notice: tmux is not installed; skipping the paste test");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_othello-explorer");
    let data = tempfile::tempdir().unwrap();
    let tmux = Tmux { socket: format!("oe-paste-{}", std::process::id()) };
    let command = format!(
        "NO_COLOR=1 XDG_DATA_HOME='{}' exec '{bin}' --size 4 --threads 1 --no-store --no-session",
        data.path().display()
    );
    tmux.start(&command);
    tmux.wait_text("moves · exact");

    let paste = data.path().join("paste.txt");
    std::fs::write(&paste, "x".repeat(10_000)).unwrap();
    tmux.keys(&[":"]);
    tmux.wait_for("the prompt", |s| s.lines().any(|l| l.starts_with(':')));
    assert!(tmux.run(&["load-buffer", paste.to_str().unwrap()]).status.success());
    assert!(tmux.run(&["paste-buffer", "-t", "t"]).status.success());
    tmux.keys(&["Enter"]);
    tmux.wait_text("✗ unknown command 'xxxx");

    let burst: Vec<&str> = std::iter::repeat_n(["Right", "Left"], 350).flatten().collect();
    tmux.keys(&burst);
    tmux.keys(&[":"]);
    tmux.wait_for("the prompt after the burst", |s| s.lines().any(|l| l.starts_with(':')));
    tmux.keys(&["Escape", "q"]);
}
