//! End to end in tmux: the best line everywhere and games against the engine. `b` and `p` on the
//! 8x8 start play an estimated line; `--play white` on 4x4 has the engine open at once; with
//! `--play black` and moves of ours picked at random, the engine as white wins (4x4 is a win
//! for white under perfect play); a SIGKILL during a game loses nothing and `--resume` goes on
//! with the game. Skipped with a notice without tmux.

mod tmux;

use std::time::{Duration, Instant};
use tmux::{Tmux, tmux_available};

/// The ply in the header.
fn ply(screen: &str) -> Option<u32> {
    let at = screen.find("· ply ")? + "· ply ".len();
    screen[at..].split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

fn explorer(name: &str, args: &str) -> Option<(Tmux, tempfile::TempDir)> {
    if !tmux_available() {
        eprintln!("notice: tmux is not installed; skipping {name}");
        return None;
    }
    let bin = env!("CARGO_BIN_EXE_othello-explorer");
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().display().to_string();
    let tmux = Tmux { socket: format!("oe-play-{name}-{}", std::process::id()) };
    tmux.start(&format!("NO_COLOR=1 XDG_DATA_HOME='{dir}' exec '{bin}' {args}"));
    Some((tmux, data))
}

#[test]
fn b_and_p_on_the_8x8_start_play_an_estimated_line() {
    // Without a store: on a fresh data folder the store's first opening merges the 6x6 book in
    // the background, and its note, when it comes after `b`, replaces the status this test reads.
    let Some((tmux, _data)) = explorer("line", "--size 8 --threads 1 --no-session --no-store") else { return };
    // The line panel shows the estimate's line, labelled with its depth, not proven.
    tmux.wait_for("an estimated line", |s| s.contains("est @") && s.contains("not proven"));
    tmux.keys(&["b"]);
    // b says the move is an estimate.
    tmux.wait_for("ply 1 and the best estimate", |s| ply(s) == Some(1) && s.contains("the best estimate"));
    tmux.keys(&["p"]);
    tmux.wait_for("auto-play two moves on", |s| ply(s).is_some_and(|p| p >= 3) && s.contains("auto-play"));
    tmux.keys(&["p"]);
    tmux.wait_text("auto-play off");
    tmux.keys(&["q"]);
    tmux.wait_gone();
}

#[test]
fn play_white_on_4x4_has_the_engine_open_at_once() {
    let Some((tmux, _data)) = explorer("open", "--size 4 --play white --no-session") else { return };
    tmux.wait_for("the engine's opening at ply 1 and our move", |s| {
        s.contains("black (engine) played") && ply(s) == Some(1) && s.contains("your move")
    });
    tmux.keys(&["q"]);
    tmux.wait_gone();
}

#[test]
fn the_engine_as_white_beats_random_moves_of_ours() {
    let Some((tmux, _data)) = explorer("random", "--size 4 --play black --no-session") else { return };
    // A fixed seed: the same "random" game every run.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    tmux.wait_text("you play black");
    for _ in 0..30 {
        let screen = tmux.wait_for("our move or the end", |s| s.contains("· your move") || s.contains("game over"));
        if screen.contains("game over") {
            break;
        }
        let before = ply(&screen).unwrap();
        // A random legal move: Tab walks the legal moves from the first.
        let tabs = next() % 4;
        for _ in 0..tabs {
            tmux.keys(&["Tab"]);
        }
        tmux.keys(&["Enter"]);
        tmux.wait_for("our move played", |s| ply(s).is_some_and(|p| p > before) || s.contains("game over"));
    }
    let screen = tmux.wait_for("the verdict", |s| s.contains("won by") || s.contains("a draw"));
    assert!(screen.contains("the engine won by"), "{screen}");
    tmux.keys(&["q"]);
    tmux.wait_gone();
}

#[test]
fn a_sigkill_during_a_game_resumes_it() {
    let Some((tmux, data)) = explorer("kill", "--size 4 --play black") else { return };
    tmux.wait_text("you play black");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_text("white (engine) played");
    let at = ply(&screen).unwrap();
    assert_eq!(at, 2, "{screen}");
    let file = data.path().join("othello-explorer").join("session.txt");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !std::fs::read_to_string(&file).is_ok_and(|t| t.contains("play black") && t.contains("current 2")) {
        assert!(Instant::now() < deadline, "the session file never held the game");
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = tmux.display("#{pane_pid}");
    assert!(std::process::Command::new("kill").args(["-9", &pid]).status().unwrap().success());
    tmux.wait_gone();
    // --resume: the same game, the user's move, the values still hidden.
    let bin = env!("CARGO_BIN_EXE_othello-explorer");
    let dir = data.path().display().to_string();
    let tmux = Tmux { socket: format!("oe-play-kill-2-{}", std::process::id()) };
    tmux.start(&format!("NO_COLOR=1 XDG_DATA_HOME='{dir}' exec '{bin}' --resume"));
    tmux.wait_for("the game resumed at ply 2 with our move", |s| {
        s.contains("resumed the session")
            && s.contains("you play black")
            && ply(s) == Some(2)
            && s.contains("your move")
    });
    tmux.keys(&["q"]);
    tmux.wait_gone();
}
