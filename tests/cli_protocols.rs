//! The engine protocols on the real binary, line by line: `gtp` and `nboard` play and analyse
//! against the reference rules (every move legal, every value a known one: a plain negamax, the
//! published FFO scores), answer malformed and hostile input as their protocols say (GTP's `?`,
//! NBoard ignores), stop thinking for `quit` and `ping`; `match` plays them against each other
//! and writes games that replay by the reference rules.

mod reference;

use reference::{Board, Side, negamax};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_othello-explorer");

/// A protocol session with the binary.
struct Session {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        Session::start_with(&[&["--no-store"], args].concat())
    }

    /// A session with the binary run with `args` as given (no `--no-store` added).
    fn start_with(args: &[&str]) -> Session {
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Session { child, input, lines }
    }

    fn send(&mut self, text: &str) {
        self.input.write_all(text.as_bytes()).unwrap();
        self.input.write_all(b"\n").unwrap();
        self.input.flush().unwrap();
    }

    fn line(&self, within: Duration) -> Option<String> {
        self.lines.recv_timeout(within).ok()
    }

    /// A GTP answer: its lines up to the empty one.
    fn answer(&self) -> String {
        let mut out = Vec::new();
        loop {
            let line = self.line(Duration::from_secs(60)).expect("an answer within a minute");
            if line.is_empty() {
                return out.join("\n");
            }
            out.push(line);
        }
    }

    fn gtp(&mut self, command: &str) -> String {
        self.send(command);
        self.answer()
    }

    /// Waits for the process to end; its exit code.
    fn wait(mut self, within: Duration) -> Option<i32> {
        drop(self.input);
        let deadline = Instant::now() + within;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        None
    }
}

fn name(n: usize, i: usize) -> String {
    format!("{}{}", (b'a' + (i % n) as u8) as char, i / n + 1)
}

fn index_of(n: usize, vertex: &str) -> Option<usize> {
    let v = vertex.to_ascii_lowercase();
    let mut chars = v.chars();
    let col = chars.next()? as usize - 'a' as usize;
    let row: usize = chars.as_str().parse().ok()?;
    (col < n && (1..=n).contains(&row)).then(|| (row - 1) * n + col)
}

#[test]
fn gtp_plays_both_sides_legally_and_perfectly_on_4x4() {
    // At the most selective level: its estimates prune, its proofs are proofs all the same.
    let mut s = Session::start(&["gtp", "--level", "4", "--threads", "1", "--selectivity", "73"]);
    assert_eq!(s.gtp("protocol_version"), "= 2");
    assert_eq!(s.gtp("7 name"), "=7 othello-explorer");
    assert_eq!(s.gtp("boardsize 4"), "=");
    assert_eq!(s.gtp("clear_board"), "=");
    let mut b = Board::start(4);
    while !b.game_over() {
        let color = if b.to_move == Side::Black { "b" } else { "w" };
        let answer = s.gtp(&format!("genmove {color}"));
        let vertex = answer.strip_prefix("= ").unwrap_or_else(|| panic!("{answer}"));
        if b.must_pass() {
            assert_eq!(vertex.to_ascii_lowercase(), "pass");
            b = b.pass();
            continue;
        }
        let i = index_of(4, vertex).unwrap_or_else(|| panic!("{vertex}"));
        assert!(b.moves().contains(&i), "{vertex} is not legal on\n{}", b.board_string());
        // Every move keeps the position's value: perfect play, by the plain negamax.
        assert_eq!(-negamax(&b.play(i)), negamax(&b), "{vertex} on {}", b.board_string());
        b = b.play(i);
    }
    let value = negamax(&Board::start(4));
    let want = match value.signum() {
        1 => format!("= B+{value}"),
        -1 => format!("= W+{}", -value),
        _ => "= 0".into(),
    };
    assert_eq!(s.gtp("final_score"), want);
    assert!(s.gtp("showboard").starts_with('='));
    assert_eq!(s.gtp("undo"), "=");
    assert_eq!(s.gtp("quit"), "=");
    assert_eq!(s.wait(Duration::from_secs(5)), Some(0));
}

#[test]
fn gtp_takes_the_clients_moves_and_passes_on_6x6() {
    let mut s = Session::start(&["gtp", "--move-time", "0.05", "--threads", "1"]);
    assert_eq!(s.gtp("boardsize 6"), "=");
    // The client plays black at random (a fixed sequence), the engine white.
    let mut b = Board::start(6);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    while !b.game_over() {
        if b.must_pass() {
            let color = if b.to_move == Side::Black { "b" } else { "w" };
            // Sent explicitly half the time, left implicit otherwise.
            if seed.is_multiple_of(2) {
                assert_eq!(s.gtp(&format!("play {color} pass")), "=");
            }
            b = b.pass();
            continue;
        }
        if b.to_move == Side::Black {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let moves = b.moves();
            let m = moves[(seed % moves.len() as u64) as usize];
            assert_eq!(s.gtp(&format!("play black {}", name(6, m).to_uppercase())), "=");
            b = b.play(m);
        } else {
            let answer = s.gtp("genmove white");
            let vertex = answer.strip_prefix("= ").unwrap();
            let i = index_of(6, vertex).unwrap_or_else(|| panic!("{answer}"));
            assert!(b.moves().contains(&i), "{vertex} is not legal");
            b = b.play(i);
        }
    }
    assert_eq!(s.gtp("genmove b"), "= pass", "the game is over");
    s.send("quit");
    assert_eq!(s.wait(Duration::from_secs(5)), Some(0));
}

#[test]
fn gtp_answers_malformed_and_hostile_lines_with_errors_and_goes_on() {
    let mut s = Session::start(&["gtp", "--level", "1", "--threads", "1"]);
    for (line, want) in [
        ("frobnicate", "? unknown command"),
        ("boardsize 5", "? unacceptable size"),
        ("boardsize", "? syntax error: boardsize 8, 6 or 4"),
        ("play purple f5", "? invalid color 'purple'"),
        ("play b z9", "? invalid vertex 'z9'"),
        ("play b", "? syntax error: play COLOR VERTEX"),
        ("play w f5", "? illegal move: it is black's turn"),
        ("play b a1", "? illegal move: a1 flips no disc"),
        ("genmove", "? syntax error: genmove COLOR"),
        ("undo", "? cannot undo"),
        ("time_left b x 0", "? syntax error: time_left COLOR TIME STONES"),
        ("time_left b 10 -1", "? syntax error: time_left COLOR TIME STONES"),
        ("time_settings 60 x 1", "? syntax error: byo-yomi time expected"),
        ("time_settings 60 0", "? syntax error: time_settings MAIN BYOYOMI STONES"),
        ("set_level 99", "? syntax error: set_level 1-30"),
        ("12", "?12 syntax error: no command"),
    ] {
        assert_eq!(s.gtp(line), want, "{line}");
    }
    // A comment and empty lines are skipped; a line of 200,000 characters and control bytes are
    // answered, not fatal.
    s.send("# a comment");
    s.send("");
    let long = "x".repeat(200_000);
    assert_eq!(s.gtp(&long), "? unknown command");
    assert_eq!(s.gtp("na\u{1}me"), "= othello-explorer");
    s.input.write_all(b"\xff\xfe name\n").unwrap();
    s.input.flush().unwrap();
    assert!(s.answer().starts_with('?'));
    assert_eq!(s.gtp("play b f5"), "=");
    assert_eq!(s.gtp("quit"), "=");
    assert_eq!(s.wait(Duration::from_secs(5)), Some(0));
}

#[test]
fn gtp_genmove_answers_for_the_colour_asked_with_the_rules_passes_and_final_score_estimates() {
    // genmove answers a move for the colour asked, with a pass of the other side only when the
    // rules force it (as Edax's GTP mode): "wrong color" while the other side has a legal move.
    // final_score gives the engine's estimate of the score. On 4x4 every value is proven: checked
    // by the plain negamax.
    let mut s = Session::start(&["gtp", "--level", "4", "--threads", "1"]);
    assert_eq!(s.gtp("boardsize 4"), "=");
    let score = |b: &Board| {
        let v = b.for_black(negamax(b));
        match v.signum() {
            1 => format!("= B+{v}"),
            -1 => format!("= W+{}", -v),
            _ => "= 0".to_string(),
        }
    };
    let mut b = Board::start(4);
    assert_eq!(s.gtp("final_score"), score(&b), "the start's value");
    // White asked at the start, where black has moves: not white's turn, nothing played.
    assert_eq!(s.gtp("genmove w"), "? wrong color: black is to move and has a legal move");
    assert_eq!(s.gtp("final_score"), score(&b), "nothing was played");
    // To the end: at every position where the side to move has a move, the other colour is
    // refused first; then the colour that moves next is asked, the other side's forced pass
    // played first when it must pass. Each answer is a legal move of the colour asked.
    let word = |side: Side| if side == Side::Black { "b" } else { "w" };
    let full = |side: Side| if side == Side::Black { "black" } else { "white" };
    let (mut refused, mut forced) = (0, 0);
    while !b.game_over() {
        if !b.must_pass() {
            let answer = s.gtp(&format!("genmove {}", word(b.to_move.other())));
            assert_eq!(answer, format!("? wrong color: {} is to move and has a legal move", full(b.to_move)));
            refused += 1;
        }
        let ask = if b.must_pass() { b.to_move.other() } else { b.to_move };
        let answer = s.gtp(&format!("genmove {}", word(ask)));
        if b.to_move != ask {
            b = b.pass();
            forced += 1;
        }
        let v = answer.strip_prefix("= ").unwrap_or_else(|| panic!("{answer}")).to_ascii_lowercase();
        let i = index_of(4, &v).unwrap_or_else(|| panic!("{answer}"));
        assert!(b.moves().contains(&i), "{answer} on\n{}", b.board_string());
        b = b.play(i);
        assert_eq!(s.gtp("final_score"), score(&b), "after {answer}");
    }
    assert!(refused >= 6, "{refused}");
    // The game over: every colour passes.
    assert_eq!(s.gtp("genmove w"), "= pass");
    assert_eq!(s.gtp("genmove b"), "= pass");
    // A position where the side to move must pass (the first such line in move order): the
    // other colour asked gets a move of its own, the pass played first, and `undo` takes back
    // the move, then the pass.
    fn forced_pass_line(b: &Board, line: &mut Vec<usize>) -> Option<Board> {
        if b.game_over() {
            return None;
        }
        if b.must_pass() {
            return Some(b.clone());
        }
        for m in b.moves() {
            line.push(m);
            if let Some(found) = forced_pass_line(&b.play(m), line) {
                return Some(found);
            }
            line.pop();
        }
        None
    }
    let mut line = Vec::new();
    let stuck = forced_pass_line(&Board::start(4), &mut line).expect("a 4x4 line with a pass");
    assert_eq!(s.gtp("clear_board"), "=");
    let mut side = Side::Black;
    for &m in &line {
        assert_eq!(s.gtp(&format!("play {} {}", word(side), reference::name(4, m))), "=");
        side = side.other();
    }
    assert_eq!(side, stuck.to_move);
    let answer = s.gtp(&format!("genmove {}", word(side.other())));
    let v = answer.strip_prefix("= ").unwrap_or_else(|| panic!("{answer}")).to_ascii_lowercase();
    let after = stuck.pass();
    assert!(after.moves().contains(&index_of(4, &v).unwrap()), "{answer} on\n{}", after.board_string());
    forced += 1;
    assert_eq!(s.gtp("undo"), "=");
    assert_eq!(s.gtp("final_score"), score(&after), "the move taken back, the pass kept");
    assert_eq!(s.gtp("undo"), "=");
    assert_eq!(s.gtp("final_score"), score(&stuck), "the pass taken back");
    eprintln!("{refused} refused, {forced} forced passes played first");
    assert_eq!(s.gtp("quit"), "=");
    assert_eq!(s.wait(Duration::from_secs(5)), Some(0));
}

/// A script that pipes its whole game, a `genmove` and `quit` at once (the `quit` read before
/// the search starts) gets a searched move, not an unsearched one: at every 4x4 position of
/// random games where the first legal move in reading order is not a best move, the move
/// answered is a best move by the reference negamax.
#[test]
fn gtp_genmove_piped_with_quit_is_searched_in_full() {
    let mut rng = reference::Rng(0x0051_7e5a_9a11);
    let mut memo = reference::Memo::new();
    let mut checked = 0;
    for _ in 0..6 {
        let (plies, _) = reference::random_game(&Board::start(4), &mut rng, 16);
        for (k, ply) in plies.iter().enumerate() {
            let b = &ply.board;
            let moves = b.moves();
            let values: Vec<i32> =
                moves.iter().map(|&m| -reference::negamax_memo(&b.play(m), false, &mut memo)).collect();
            let top = values.iter().copied().max();
            if moves.len() < 2 || Some(values[0]) == top {
                continue;
            }
            let side = |s: Side| if s == Side::Black { "b" } else { "w" };
            let mut script = String::from("boardsize 4\n");
            for p in &plies[..k] {
                let v = p.mv.map_or("pass".to_string(), |m| reference::name(4, m));
                script.push_str(&format!("play {} {v}\n", side(p.board.to_move)));
            }
            script.push_str(&format!("genmove {}\nquit\n", side(b.to_move)));
            let mut child = Command::new(BIN)
                .args(["--no-store", "gtp", "--threads", "1"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
            let out = child.wait_with_output().unwrap();
            let text = String::from_utf8_lossy(&out.stdout);
            let answer = text.lines().filter(|l| l.starts_with('=')).nth(k + 1).unwrap_or_else(|| panic!("{text}"));
            let v = answer.strip_prefix("= ").unwrap_or_else(|| panic!("{answer}"));
            let m = index_of(4, v).unwrap_or_else(|| panic!("{answer}"));
            let value = moves.iter().position(|&x| x == m).map(|i| values[i]);
            assert_eq!(value, top, "{answer} on\n{}\nafter {script}", b.board_string());
            checked += 1;
        }
    }
    assert!(checked >= 3, "{checked} positions where the first legal move is not best");
}

#[test]
fn gtp_quit_while_thinking_stops_the_search() {
    let mut s = Session::start(&["gtp", "--move-time", "60", "--threads", "1"]);
    s.send("genmove b");
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    s.send("quit");
    let first = s.answer();
    assert!(first.starts_with("= "), "{first}");
    assert_eq!(s.answer(), "=");
    assert_eq!(s.wait(Duration::from_secs(10)), Some(0));
    assert!(asked.elapsed() < Duration::from_secs(10), "quit waited for the search");
}

/// FFO #40 as NBoard's `set game` gives it, with the published score of every move.
fn ffo_40() -> (String, Vec<(String, i32)>) {
    let text = std::fs::read_to_string("data/ffo/fforum-40-59.obf").unwrap();
    let line = text.lines().find(|l| !l.starts_with('%')).unwrap();
    let board: String = line[..64].chars().map(|c| if c == 'X' { '*' } else { c }).collect();
    let scores = line[66..]
        .split(';')
        .filter_map(|p| {
            let (m, v) = p.trim().split_once(':')?;
            Some((m.to_string(), v.trim().parse().ok()?))
        })
        .collect();
    (format!("(;GM[Othello]PC[test]TY[8]BO[8 {board} *];)"), scores)
}

#[test]
fn nboard_hint_and_go_give_the_published_scores() {
    let (game, scores) = ffo_40();
    let mut s = Session::start(&["nboard", "--threads", "2"]);
    s.send("nboard 2");
    assert_eq!(s.line(Duration::from_secs(10)).unwrap(), "set myname othello-explorer");
    s.send("set depth 12");
    s.send(&format!("set game {game}"));
    s.send("ping 1");
    assert_eq!(s.line(Duration::from_secs(10)).unwrap(), "pong 1");
    s.send("hint 3");
    // The search lines until the hint ends (`status` cleared): the last three are the exact
    // scores of the best three.
    let mut lines = Vec::new();
    loop {
        let l = s.line(Duration::from_secs(120)).expect("the hint's end within two minutes");
        if l == "status" {
            break;
        }
        lines.push(l);
    }
    let exact: Vec<&String> = lines.iter().filter(|l| l.starts_with("search") && l.ends_with(" 100%")).collect();
    assert!(exact.len() >= 3, "{lines:?}");
    for l in &exact[exact.len() - 3..] {
        let words: Vec<&str> = l.split_whitespace().collect();
        let mv = &words[1][..2];
        let value: f64 = words[2].parse().unwrap();
        let published = scores.iter().find(|(m, _)| m == mv).unwrap().1;
        assert_eq!(value, f64::from(published), "{l}");
    }
    // Every search line's move is one of the position's.
    for l in lines.iter().filter(|l| l.starts_with("search")) {
        let mv = &l.split_whitespace().nth(1).unwrap()[..2];
        assert!(scores.iter().any(|(m, _)| m == mv), "{l}");
    }
    s.send("go");
    let answer = loop {
        let l = s.line(Duration::from_secs(60)).unwrap();
        if l.starts_with("===") {
            break l;
        }
    };
    assert!(answer.starts_with("=== A2/+38.00/"), "{answer}");
    // Malformed lines are ignored: nothing comes back but the pong.
    for junk in ["", "frob", "move Z9", "move", "set game (;GM[Chess];)", "hint x", "set depth many", "\u{1}\u{2}"] {
        s.send(junk);
    }
    s.send("ping 2");
    let mut got = Vec::new();
    loop {
        let l = s.line(Duration::from_secs(10)).expect("pong 2");
        if l == "pong 2" {
            break;
        }
        got.push(l);
    }
    assert!(got.iter().all(|l| l.starts_with("status")), "{got:?}");
    s.send("quit");
    assert_eq!(s.wait(Duration::from_secs(5)), Some(0));
}

/// The `search` lines of `hint 3` at `depth` after f5 on 8x8, until the hint ends.
fn nboard_hint_lines(args: &[&str], depth: u32) -> Vec<String> {
    let mut s = Session::start(args);
    s.send("nboard 2");
    s.send(&format!("set depth {depth}"));
    s.send("set game (;GM[Othello]PC[test]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)");
    s.send("hint 3");
    let mut lines = Vec::new();
    loop {
        let l = s.line(Duration::from_secs(60)).expect("the hint's end within a minute");
        if l == "status" {
            break;
        }
        if l.starts_with("search ") {
            lines.push(l);
        }
    }
    s.send("quit");
    assert_eq!(s.wait(Duration::from_secs(5)), Some(0));
    lines
}

#[test]
fn nboard_depths_say_the_selectivity_as_edax_does() {
    // Estimates at 95%: `search D6 -1.00 0 4@95%`; full width: the depth alone.
    for (level, suffix) in [("95", "@95%"), ("100", "")] {
        let lines = nboard_hint_lines(&["nboard", "--threads", "1", "--selectivity", level], 4);
        assert!(!lines.is_empty());
        for l in &lines {
            let depth = l.split_whitespace().nth(4).unwrap();
            let plain = depth.strip_suffix(suffix).unwrap_or_else(|| panic!("{level}: {l}"));
            assert!(plain.parse::<u32>().is_ok_and(|d| (1..=4).contains(&d)), "{level}: {l}");
        }
        assert!(lines.iter().any(|l| l.ends_with(&format!(" 4{suffix}"))), "{lines:?}");
    }
}

#[test]
fn nboard_ping_stops_a_long_hint() {
    let mut s = Session::start(&["nboard", "--threads", "1"]);
    s.send("nboard 2");
    s.send("set depth 30");
    s.send("set game (;GM[Othello]PC[test]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)");
    s.send("hint 1");
    std::thread::sleep(Duration::from_millis(500));
    let asked = Instant::now();
    s.send("ping 5");
    loop {
        let l = s.line(Duration::from_secs(10)).expect("pong within ten seconds");
        if l == "pong 5" {
            break;
        }
        // What comes before the pong is the hint's answer: legal moves of the position after f5.
        if let Some(rest) = l.strip_prefix("search ") {
            let mv = rest[..2].to_ascii_lowercase();
            assert!(["c4", "d6", "f4", "f6"].contains(&mv.as_str()) || mv == "d6", "{l}");
        }
    }
    assert!(asked.elapsed() < Duration::from_secs(5));
    s.send("quit");
    assert_eq!(s.wait(Duration::from_secs(5)), Some(0));
}

/// The `played` list of a `match --json` run's output.
fn v_played(out: &std::process::Output) -> Vec<serde_json::Value> {
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["played"].as_array().unwrap().clone()
}

#[test]
fn match_plays_our_protocols_against_each_other_and_writes_legal_games() {
    let dir = tempfile::tempdir().unwrap();
    let ggf = dir.path().join("games.ggf");
    let out = Command::new(BIN)
        .args(["match", "--size", "6", "--pairs", "2", "--json", "--ggf", ggf.to_str().unwrap()])
        .args(["--engine1", "ours:level=2,selectivity=87"])
        .arg("--engine2")
        .arg(format!("nboard:{BIN} --no-store nboard --level 1 --threads 1"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], 4);
    let (w, d, l) =
        (v["engine1_wins"].as_u64().unwrap(), v["draws"].as_u64().unwrap(), v["engine1_losses"].as_u64().unwrap());
    assert_eq!(w + d + l, 4);
    // Each game replays by the reference rules, and its recorded score is the board's.
    let text = std::fs::read_to_string(&ggf).unwrap();
    let records: Vec<&str> = text.lines().filter(|l| l.starts_with("(;")).collect();
    assert_eq!(records.len(), 4);
    for (record, played) in records.iter().zip(v["played"].as_array().unwrap()) {
        assert!(played["forfeit"].is_null(), "{played}");
        let mut b = Board::start(6);
        let moves = played["moves"].as_str().unwrap();
        for k in 0..moves.len() / 2 {
            if b.must_pass() {
                b = b.pass();
            }
            let i = index_of(6, &moves[2 * k..2 * k + 2]).unwrap();
            assert!(b.moves().contains(&i), "{moves}: move {} is not legal", k + 1);
            b = b.play(i);
        }
        assert!(b.game_over(), "{moves}");
        let black = b.for_black(b.final_score());
        assert_eq!(played["black_score"], black, "{moves}");
        assert!(record.contains(&format!("RE[{black:+}]")), "{record}");
        // The opening is given, not chosen: the record starts from the board after it (BO) and
        // holds only the moves the engines chose.
        let opening = played["opening_moves"].as_str().unwrap();
        assert!(!opening.is_empty() && moves.starts_with(opening), "{played}");
        let mut after = Board::start(6);
        for k in 0..opening.len() / 2 {
            if after.must_pass() {
                after = after.pass();
            }
            after = after.play(index_of(6, &opening[2 * k..2 * k + 2]).unwrap());
        }
        let want: String = after.board_string().replace('X', "*");
        let bo = record.split("BO[6 ").nth(1).unwrap().split(']').next().unwrap();
        assert_eq!(bo.split_whitespace().collect::<Vec<_>>().join(" "), want, "{record}");
        let after_bo = record.split_once("BO[").unwrap().1.split_once(']').unwrap().1;
        let recorded: String = after_bo
            .split(['B', 'W'])
            .filter_map(|part| part.strip_prefix('['))
            .map(|v| v.split([']', '/']).next().unwrap().to_lowercase())
            .filter(|m| m != "pa")
            .collect();
        assert_eq!(recorded, moves[opening.len()..], "{record}");
    }
    // `review` of a record judges the engines' moves alone, numbered from the board it starts at.
    let r: serde_json::Value = serde_json::from_slice(
        &Command::new(BIN)
            .args(["review", "--json", "--time", "0.05", "--threads", "1", "--game", ggf.to_str().unwrap()])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let first = &v_played(&out)[0];
    let chosen = (first["moves"].as_str().unwrap().len() - first["opening_moves"].as_str().unwrap().len()) / 2;
    assert_eq!(r["moves"].as_array().unwrap().len(), chosen, "{r}");
    // Both colours for each opening.
    let openings: Vec<u64> = v["played"].as_array().unwrap().iter().map(|p| p["opening"].as_u64().unwrap()).collect();
    assert_eq!(openings, [1, 1, 2, 2]);
}

#[test]
fn match_refuses_bad_engines_in_one_line() {
    for (engine, want) in [
        ("uci:stockfish", "--engine1 'uci:stockfish': an engine is"),
        ("ours:colour=red", "unknown option 'colour'"),
        ("ours:selectivity=90", "--engine1 ours: selectivity=90: must be one of 73, 87, 95, 98, 99, 100 (percent)"),
    ] {
        let out = Command::new(BIN)
            .args(["match", "--engine1", engine, "--engine2", "ours", "--pairs", "1"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want) && err.lines().count() == 1, "{err}");
    }
}

#[test]
fn match_refuses_bad_options_and_an_existing_ggf_before_any_engine_starts() {
    let dir = tempfile::tempdir().unwrap();
    // The second engine leaves a mark when it starts.
    let started = dir.path().join("started");
    let second = format!("gtp:touch '{}'; exec '{BIN}' --no-store gtp --level 1 --threads 1", started.display());
    let old = dir.path().join("old.ggf");
    let games = "(;GM[Othello]PC[earlier]TY[4]BO[4 -----OX--XO----- *]B[b1];)\n";
    std::fs::write(&old, games).unwrap();
    let old_arg = old.to_str().unwrap();
    let exists = format!("--ggf {old_arg}: the file exists; match writes a new file");
    let cases: [(&[&str], &str); 9] = [
        (&["--engine1", "ours:level=99"], "--engine1 ours: level=99: must be a whole number from 1 to 30"),
        (&["--engine1", "ours:level=0"], "--engine1 ours: level=0: must be a whole number from 1 to 30"),
        (&["--engine1", "ours:threads=0"], "--engine1 ours: threads=0: must be a whole number from 1 to 256"),
        (&["--engine1", "ours:time=-1"], "--engine1 ours: time=-1: must be a positive number of seconds"),
        (&["--engine1", "ours:hash=0"], "--engine1 ours: hash=0: must be a whole number of MiB, at least 1"),
        (&["--engine1", "ours:level=1,level=2"], "--engine1 ours: 'level' is given twice"),
        (
            &["--engine1", "ours:level=4,time=2"],
            "--engine1 ours: level= and a move time (time= or --move-time) exclude",
        ),
        (&["--engine1", "ours:level=4", "--move-time", "2"], "--engine1 ours: level= and a move time"),
        (&["--engine1", "ours:level=1", "--ggf", old_arg], &exists),
    ];
    for (args, want) in cases {
        let out = Command::new(BIN)
            .args(["match", "--size", "4", "--pairs", "1", "--timeout", "5", "--engine2", &second])
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.lines().count() == 1 && err.contains(want), "{args:?}: {err}");
        assert!(!started.exists(), "{args:?}: an engine started");
        assert_eq!(std::fs::read_to_string(&old).unwrap(), games, "{args:?}: the games file changed");
    }
    // The same match with good options starts both engines and writes a new file.
    let new = dir.path().join("new.ggf");
    let out = Command::new(BIN)
        .args(["match", "--size", "4", "--pairs", "1", "--engine2", &second, "--engine1", "ours:level=1,threads=1"])
        .args(["--ggf", new.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(started.exists());
    assert_eq!(std::fs::read_to_string(&new).unwrap().lines().count(), 2);
}

#[test]
fn ctrl_c_ends_a_match_with_the_games_played_written_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let ggf = dir.path().join("games.ggf");
    let child = Command::new(BIN)
        .args(["match", "--size", "6", "--pairs", "40", "--json", "--ggf", ggf.to_str().unwrap()])
        .args(["--engine1", "ours:level=1", "--engine2", "ours:level=2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Once two games are written, SIGINT.
    let deadline = Instant::now() + Duration::from_secs(120);
    while std::fs::read_to_string(&ggf).map_or(0, |t| t.lines().count()) < 2 {
        assert!(Instant::now() < deadline, "no game written in two minutes");
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = child.id().to_string();
    assert!(Command::new("kill").args(["-INT", &pid]).status().unwrap().success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["interrupted"], true);
    let games = v["games"].as_u64().unwrap();
    assert!((2..80).contains(&games), "{games}");
    let written = std::fs::read_to_string(&ggf).unwrap().lines().filter(|l| l.starts_with("(;")).count();
    assert_eq!(written as u64, games, "every game counted is written, and no other");
}

/// Whether process `pid` catches SIGINT (Linux shows the caught signals in /proc).
fn catches_sigint(pid: u32) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let mask = status.lines().find_map(|l| l.strip_prefix("SigCgt:")).map(str::trim).unwrap_or("0");
    u64::from_str_radix(mask, 16).is_ok_and(|m| m & (1 << (2 - 1)) != 0)
}

fn sigint(child: &Child) {
    assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
}

#[cfg(target_os = "linux")]
#[test]
fn sigint_the_moment_a_protocol_starts_ends_it_as_a_later_one_does() {
    let dir = tempfile::tempdir().unwrap();
    for protocol in ["gtp", "nboard"] {
        // Later: the engine has answered a line.
        let store = dir.path().join(format!("{protocol}-later.redb"));
        let mut later = Session::start_with(&["--store", store.to_str().unwrap(), protocol, "--threads", "1"]);
        later.send(if protocol == "gtp" { "name" } else { "ping 1" });
        assert!(later.line(Duration::from_secs(60)).is_some());
        sigint(&later.child);
        let later = later.child.wait().unwrap();
        assert_eq!(later.code(), Some(0), "{protocol}: a SIGINT ends the session as the end of the input does");
        // At once: SIGINT as soon as it catches the signal or it has begun to set up (its store
        // file appears), whichever comes first. Set-up takes tens of milliseconds; the signal must
        // not find it defenceless.
        for k in 0..5 {
            let store = dir.path().join(format!("{protocol}-{k}.redb"));
            let mut s = Session::start_with(&["--store", store.to_str().unwrap(), protocol, "--threads", "1"]);
            let deadline = Instant::now() + Duration::from_secs(60);
            while !catches_sigint(s.child.id()) && !store.exists() {
                assert!(Instant::now() < deadline, "{protocol}: neither the signal caught nor the store opened");
                assert!(s.child.try_wait().unwrap().is_none(), "{protocol}: it ended by itself");
                std::thread::sleep(Duration::from_micros(200));
            }
            sigint(&s.child);
            let deadline = Instant::now() + Duration::from_secs(60);
            let status = loop {
                if let Some(status) = s.child.try_wait().unwrap() {
                    break status;
                }
                assert!(Instant::now() < deadline, "{protocol}: still running a minute after SIGINT");
                std::thread::sleep(Duration::from_millis(10));
            };
            assert_eq!(status.code(), later.code(), "{protocol}, try {k}: {status:?} at once, {later:?} later");
        }
    }
}

/// A SIGINT that comes while the signal handlers are being installed, the moment the kernel has
/// one but the program has not yet set up what it does: each `rt_sigaction` is made to return a
/// fifth of a second late (strace's fault injection), and the signal is sent as soon as the
/// process catches SIGINT. It must end the session as a later one does (exit 0), not be lost
/// (the program would wait for input for ever).
#[cfg(target_os = "linux")]
#[test]
fn a_sigint_while_the_handlers_are_installed_is_not_lost() {
    let traceable = Command::new("strace").args(["-qq", "-o", "/dev/null", "true"]).status();
    if !traceable.is_ok_and(|s| s.success()) {
        eprintln!("notice: strace is not installed or cannot trace here; skipping the handler-race test");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for protocol in ["gtp", "nboard"] {
        let store = dir.path().join(format!("{protocol}.redb"));
        let mut strace = Command::new("strace")
            .args(["-qq", "-o", "/dev/null", "-e", "trace=rt_sigaction", "-e", "inject=rt_sigaction:delay_exit=200000"])
            .arg(BIN)
            .args(["--store", store.to_str().unwrap(), protocol, "--threads", "1"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        // strace's child that runs the program (it may start others of its own first), once it
        // catches SIGINT.
        let children = format!("/proc/{0}/task/{0}/children", strace.id());
        let store_arg = store.to_str().unwrap().to_string();
        let pid = loop {
            let kids = std::fs::read_to_string(&children).unwrap_or_default();
            let program = kids.split_whitespace().filter_map(|k| k.parse::<u32>().ok()).find(|k| {
                std::fs::read(format!("/proc/{k}/cmdline"))
                    .is_ok_and(|c| String::from_utf8_lossy(&c).contains(&store_arg))
            });
            if let Some(pid) = program.filter(|&pid| catches_sigint(pid)) {
                break pid;
            }
            assert!(Instant::now() < deadline, "{protocol}: the program never caught SIGINT");
            assert!(strace.try_wait().unwrap().is_none(), "{protocol}: it ended by itself");
            std::thread::sleep(Duration::from_micros(200));
        };
        assert!(Command::new("kill").args(["-INT", &pid.to_string()]).status().unwrap().success());
        let deadline = Instant::now() + Duration::from_secs(60);
        let status = loop {
            if let Some(status) = strace.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                let _ = Command::new("kill").args(["-KILL", &pid.to_string()]).status();
                let _ = strace.wait();
                panic!("{protocol}: still running a minute after a SIGINT that came while its handler was installed");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        assert_eq!(status.code(), Some(0), "{protocol}: {status:?}");
    }
}

#[test]
fn nboard_commands_sent_together_are_each_answered_in_full() {
    // A GUI (or a script) sends `hint`, `go` and `ping` at once: the ping stops the searches, but
    // only once each has finished a depth, so the hint still gives its search lines and the go a
    // move with its value; no field of an answer is empty.
    let mut s = Session::start(&["nboard", "--threads", "1"]);
    s.send("nboard 2");
    s.send("set depth 30");
    s.send("set game (;GM[Othello]PC[test]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)");
    s.send("hint 3\ngo\nping 2");
    let legal = ["c4", "d6", "f4", "f6"];
    let (mut searches_before_go, mut answer, mut lines) = (0, None, Vec::new());
    loop {
        let l = s.line(Duration::from_secs(30)).expect("the pong within thirty seconds");
        lines.push(l.clone());
        if l == "pong 2" {
            break;
        }
        if let Some(rest) = l.strip_prefix("search ") {
            // `search PV EVAL 0 DEPTH`: every field there, the move legal.
            let fields: Vec<&str> = rest.split_whitespace().collect();
            assert_eq!(fields.len(), 4, "{l}");
            assert!(legal.contains(&fields[0][..2].to_ascii_lowercase().as_str()), "{l}");
            assert!(fields[1].parse::<f64>().is_ok() && fields[2] == "0" && !fields[3].is_empty(), "{l}");
            if answer.is_none() {
                searches_before_go += 1;
            }
        }
        if let Some(rest) = l.strip_prefix("=== ") {
            answer = Some(rest.to_string());
        }
    }
    assert!(searches_before_go >= 1, "the hint gave no search line: {lines:?}");
    let answer = answer.unwrap_or_else(|| panic!("no === before the pong: {lines:?}"));
    let parts: Vec<&str> = answer.split('/').collect();
    assert_eq!(parts.len(), 3, "{answer}");
    assert!(legal.contains(&parts[0].to_ascii_lowercase().as_str()), "{answer}");
    assert!(parts.iter().all(|p| !p.is_empty()) && parts[1].parse::<f64>().is_ok(), "{answer}");
    s.send("quit");
    assert_eq!(s.wait(Duration::from_secs(5)), Some(0));
}

#[test]
fn nboard_passes_when_the_side_to_move_has_no_move() {
    // 4x4: black's one disc on c3 brackets nothing; white has d4. Black must pass.
    let mut s = Session::start(&["nboard", "--threads", "1"]);
    s.send("nboard 2");
    s.send("set depth 4");
    s.send("set game (;GM[Othello]PC[test]TY[4]BO[4 OOOOOOOOOOO*---- *];)");
    s.send("go");
    let answer = loop {
        let l = s.line(Duration::from_secs(30)).expect("an answer");
        if l.starts_with("===") {
            break l;
        }
    };
    assert!(answer.starts_with("=== PA"), "{answer}");
    s.send("quit");
    assert_eq!(s.wait(Duration::from_secs(5)), Some(0));
}

/// The peak resident memory of a process, in KiB (`VmHWM` of `/proc/PID/status`).
fn peak_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// A client that sends without reading the answers (`yes "play b d3" | gtp`): the engine reads
/// ahead a bounded number of lines and the client waits, so memory stays flat.
#[test]
fn a_client_flooding_the_engine_waits_and_memory_stays_bounded() {
    for (protocol, line) in [("gtp", "play b d3\n"), ("nboard", "move d3\n")] {
        let mut child = Command::new(BIN)
            .args(["--no-store", protocol, "--threads", "1", "--hash-mb", "1"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let pid = child.id();
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || {
            let chunk = line.repeat(4096);
            let began = Instant::now();
            let mut sent = 0usize;
            while began.elapsed() < Duration::from_secs(4) {
                if stdin.write_all(chunk.as_bytes()).is_err() {
                    break;
                }
                sent += chunk.len();
            }
            sent
        });
        std::thread::sleep(Duration::from_secs(3));
        let peak = peak_kib(pid);
        let _ = child.kill();
        let sent = writer.join().unwrap();
        let _ = child.wait();
        assert!(peak > 0, "{protocol}: no /proc status");
        assert!(peak < 200 * 1024, "{protocol}: {peak} KiB after 3 s of flooding ({sent} bytes sent)");
    }
}

/// An engine that writes without end and without a newline: `match` reads its output in bounded
/// lines, so its own memory stays flat until the engine's silence ends the game.
#[test]
fn an_engine_writing_without_end_does_not_fill_the_matchs_memory() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(BIN)
        .args(["match", "--engine1", "ours:level=1", "--engine2", "gtp:exec head -c 8000000000 /dev/zero"])
        .args(["--pairs", "1", "--timeout", "3"])
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let (mut peak, began) = (0, Instant::now());
    while child.try_wait().unwrap().is_none() && began.elapsed() < Duration::from_secs(20) {
        peak = peak.max(peak_kib(pid));
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(peak > 0, "no /proc status");
    assert!(peak < 200 * 1024, "match at {peak} KiB while the engine wrote zeros");
}

/// Writes an executable shell script `name` into `dir`: a fake GTP engine.
fn engine_script(dir: &std::path::Path, name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_str().unwrap().to_string()
}

/// A fake GTP engine's loop: `=` to every command but those `cases` answer (shell `case` arms).
fn gtp_loop(cases: &str) -> String {
    format!("while IFS= read -r line; do\n  case \"$line\" in\n{cases}\n    *) printf '=\\n\\n';;\n  esac\ndone\n")
}

/// Whether process `pid` still runs (a zombie, ended but not yet reaped by its parent, does not).
fn running(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { return false };
    let state = stat.rsplit_once(')').map_or("", |(_, rest)| rest.trim_start());
    !state.starts_with(['Z', 'X'])
}

/// The process ids the fake engines wrote to `file`, one a line.
fn pids_in(file: &std::path::Path) -> Vec<u32> {
    std::fs::read_to_string(file).unwrap_or_default().lines().filter_map(|l| l.trim().parse().ok()).collect()
}

/// Waits up to five seconds for every process of `pids` to end; those still running.
fn still_running(pids: &[u32]) -> Vec<u32> {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let left: Vec<u32> = pids.iter().copied().filter(|&p| running(p)).collect();
        if left.is_empty() || Instant::now() > deadline {
            return left;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// An engine that starts a process of its own and then hangs forfeits on the timeout, and one
/// that quits at the end of the match but leaves a process behind: `match` kills each engine's
/// whole process group, so neither the engines nor what they started outlive it.
#[test]
fn match_kills_each_engines_whole_process_group_on_a_forfeit_and_at_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let p = pids.display();
    let hangs = engine_script(
        dir.path(),
        "hangs.sh",
        &format!("sleep 1000 &\necho $! >> '{p}'\necho $$ >> '{p}'\n{}", gtp_loop("    genmove*) sleep 1000;;")),
    );
    let leaves = engine_script(
        dir.path(),
        "leaves.sh",
        &format!(
            "sleep 1000 &\necho $! >> '{p}'\necho $$ >> '{p}'\n{}",
            gtp_loop("    genmove*) printf '? nope\\n\\n';;\n    quit*) printf '=\\n\\n'; exit 0;;")
        ),
    );
    for engine in [hangs, leaves] {
        let out = Command::new(BIN)
            .args(["match", "--size", "4", "--pairs", "1", "--timeout", "2", "--json"])
            .args(["--engine1", "ours:level=1,threads=1", "--engine2"])
            .arg(format!("gtp:{engine}"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{engine}: {}", String::from_utf8_lossy(&out.stderr));
        let played = v_played(&out);
        assert_eq!(played.len(), 2, "{engine}");
        assert!(played.iter().all(|g| !g["forfeit"].is_null()), "{engine}: {played:?}");
    }
    // Each game started the engine afresh: two engines of two processes each, per script.
    let all = pids_in(&pids);
    assert!(all.len() >= 8, "{all:?}");
    assert_eq!(still_running(&all), Vec::<u32>::new(), "processes the engines started outlive the match");
}

/// Ctrl-C while an engine is silent on its move ends the match at once (not after the 60-second
/// timeout), reported as interrupted, with the engine's whole process group killed.
#[test]
fn ctrl_c_during_a_silent_engines_move_ends_the_match_at_once_and_kills_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let asked = dir.path().join("asked");
    let silent = engine_script(
        dir.path(),
        "silent.sh",
        &format!(
            "sleep 1000 &\necho $! >> '{}'\necho $$ >> '{}'\n{}",
            pids.display(),
            pids.display(),
            gtp_loop(&format!("    genmove*) touch '{}'; sleep 1000;;", asked.display()))
        ),
    );
    let child = Command::new(BIN)
        .args(["match", "--size", "4", "--pairs", "2", "--timeout", "60", "--json"])
        .args(["--engine1", "ours:level=1,threads=1", "--engine2"])
        .arg(format!("gtp:{silent}"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !asked.exists() {
        assert!(Instant::now() < deadline, "the engine was never asked for a move");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    sigint(&child);
    let (tx, rx) = channel();
    std::thread::spawn(move || tx.send(child.wait_with_output().unwrap()));
    let out = rx.recv_timeout(Duration::from_secs(10)).expect("match still running 10 s after Ctrl-C");
    let took = sent.elapsed();
    assert_eq!(out.status.code(), Some(130), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["interrupted"], true, "{v}");
    assert!(took < Duration::from_secs(10), "{took:?}");
    let all = pids_in(&pids);
    assert!(all.len() >= 2, "{all:?}");
    assert_eq!(still_running(&all), Vec::<u32>::new(), "the engine outlives the match");
}

/// An engine that refuses `genmove` (`? nope`), ends on it, answers bytes that are not UTF-8, or
/// refuses `boardsize` before the game starts: it forfeits the game in hand, the match goes on,
/// and every game is reported (text and JSON) and written to `--ggf`.
#[test]
fn an_engines_failure_forfeits_that_game_alone_and_every_game_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let engines = [
        ("refuses", "    genmove*) printf '? nope\\n\\n';;", "refuses.sh: genmove"),
        ("ends", "    genmove*) exit 3;;", "ends.sh has ended"),
        ("garbles", "    genmove*) printf '= \\377\\376\\n\\n';;", "garbles.sh answered"),
        ("no-board", "    boardsize*) printf '? nope\\n\\n';;", "no-board.sh: boardsize 4: nope"),
    ];
    for (name, case, says) in engines {
        let script = engine_script(dir.path(), &format!("{name}.sh"), &gtp_loop(case));
        let ggf = dir.path().join(format!("{name}.ggf"));
        let run = |json: bool| {
            let _ = std::fs::remove_file(&ggf);
            Command::new(BIN)
                .args(["match", "--size", "4", "--pairs", "2", "--timeout", "10"])
                .args(json.then_some("--json"))
                .args(["--engine1", "ours:level=1,threads=1", "--engine2"])
                .arg(format!("gtp:{script}"))
                .arg("--ggf")
                .arg(&ggf)
                .output()
                .unwrap()
        };
        let out = run(true);
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let played = v_played(&out);
        assert_eq!(played.len(), 4, "{name}: {played:?}");
        for g in &played {
            let forfeit = g["forfeit"].as_str().unwrap_or_else(|| panic!("{name}: {g}"));
            assert!(forfeit.contains(says), "{name}: {forfeit}");
            // The engine that failed lost: engine 1 (ours) won every game.
            assert_eq!(g["engine1_points"], 1.0, "{name}: {g}");
        }
        let written = std::fs::read_to_string(&ggf).unwrap();
        let records: Vec<&str> = written.lines().filter(|l| l.starts_with("(;")).collect();
        assert_eq!(records.len(), 4, "{name}: every game written");
        // Each states its result as the loser's resignation (GGF's `:r`): black's +1 or -1 as
        // the report counts it, by the colour engine 2 (the loser) had.
        for (g, r) in played.iter().zip(&records) {
            let re = format!("RE[{:+}:r]", g["black_score"].as_i64().unwrap());
            assert!(r.contains(&re), "{name}: {re} in {r}");
        }
        let text = run(false);
        let stdout = String::from_utf8_lossy(&text.stdout);
        assert!(text.status.success(), "{name}: {}", String::from_utf8_lossy(&text.stderr));
        assert!(stdout.contains("4 games") && stdout.contains("engine 1: 4 won, 0 drawn, 0 lost"), "{name}: {stdout}");
        assert_eq!(stdout.matches("forfeit in opening").count(), 4, "{name}: {stdout}");
    }
}
