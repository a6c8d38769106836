//! Hostile input on the real binary (issue 12): tables larger than the machine, endless or
//! special files, impossible problem scores, negative numbers, byte-order marks, binary bytes,
//! read-only stores, Ctrl-C during `solve`, and `solve` answering from the store. Every refusal is
//! one line on standard error with exit code 2.

use serde_json::Value;
use std::path::Path;

mod binary;
use binary::bin;

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs `args` and checks the refusal: exit 2, nothing on stdout, one line on stderr containing
/// every `needle`.
fn refused(args: &[&str], needles: &[&str]) -> String {
    let out = bin().arg("--no-store").args(args).output().expect("runs");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("othello-explorer: "), "{args:?}: {err}");
    for needle in needles {
        assert!(err.contains(needle), "{args:?}: {err} lacks {needle}");
    }
    assert!(out.stdout.is_empty(), "{args:?}: printed {:?}", String::from_utf8_lossy(&out.stdout));
    err
}

/// MemAvailable in MiB, where the system says.
fn available_mb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kb: u64 = text.lines().find(|l| l.starts_with("MemAvailable:"))?.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

#[test]
fn a_table_larger_than_the_machine_is_refused_before_anything_starts() {
    let far_beyond = (1u64 << 40).to_string();
    let mut sizes = vec![far_beyond.as_str()];
    if available_mb().is_some_and(|mb| mb < 65536) {
        sizes.push("65536");
    }
    for mb in sizes {
        refused(&["solve", "--size", "4", "--hash-mb", mb], &["--hash-mb", mb]);
        refused(&["book", "--size", "4", "--plies", "1", "--hash-mb", mb], &["--hash-mb"]);
        // The explorer: refused by the option's parser, before the terminal is touched (no
        // escape sequence on stdout), and not with the "needs a terminal" message.
        let err = refused(&["--hash-mb", mb], &["--hash-mb"]);
        assert!(!err.contains("terminal"), "{err}");
    }
}

#[test]
fn negative_and_huge_numbers_name_their_option() {
    refused(&["solve", "--time", "-1"], &["'-1'", "--time", "positive number of seconds"]);
    refused(&["solve", "--time", "1e308"], &["--time", "too large", "1000000000"]);
    refused(&["solve", "--hash-mb", "-5"], &["'-5'", "--hash-mb"]);
    refused(&["perft", "-1"], &["'-1'", "DEPTH", "from 1 to 20"]);
    refused(&["solve", "--threads", "-2"], &["'-2'", "--threads"]);
    refused(&["solve", "--size", "-4"], &["'-4'", "--size"]);
    refused(&["--level", "0"], &["'0'", "--level", "from 1 to 30"]);
    refused(&["--level", "31"], &["--level", "from 1 to 30"]);
    refused(&["--move-time", "-1"], &["'-1'", "--move-time", "0.05 to 600"]);
    refused(&["--move-time", "nan"], &["--move-time"]);
    refused(&["--play", "red"], &["'red'", "--play"]);
    refused(&["--level", "5", "--move-time", "2"], &["--level", "--move-time"]);
}

/// An option of the explorer given before a subcommand would be ignored by the subcommand (a
/// bench run with `--hash-mb 1024` before `bench` used the default table): refused, naming the
/// option and the subcommand. The store's options, global, stay accepted before it.
#[test]
fn explorer_options_before_a_subcommand_are_refused() {
    refused(&["--hash-mb", "1024", "bench", "data/ffo/fforum-40-59.obf"], &["--hash-mb", "`bench`", "go after it"]);
    refused(&["--size", "6", "show"], &["--size", "`show`"]);
    refused(&["--threads", "1", "solve", "--size", "4"], &["--threads", "`solve`"]);
    refused(&["--moves", "f5", "perft", "2"], &["--moves", "`perft`"]);
    refused(&["--play", "black", "store", "stats"], &["--play", "`store`"]);
    let out = bin().args(["--no-store", "show", "--size", "4"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("4x4"));
}

/// A problem file holding `bytes`.
fn file_with(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn endless_and_special_files_are_refused_without_reading_them() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().to_str().unwrap();
    for (special, what) in
        [("/dev/zero", "a character device"), ("/dev/urandom", "a character device"), (folder, "a folder")]
    {
        let want = format!("{special}: {what}, not a regular file");
        refused(&["bench", special], &[&want]);
        let store = dir.path().join("s.redb");
        let out = bin().arg("--store").arg(&store).args(["store", "import", special]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert_eq!(stderr(&out), format!("othello-explorer: {want}\n"));
        refused(&["--resume", "--session", special], &[&want]);
    }
    // A FIFO would block a reader forever: refused before it is opened.
    let fifo = dir.path().join("fifo");
    if std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success()) {
        refused(&["bench", fifo.to_str().unwrap()], &["a FIFO, not a regular file"]);
    }
    // A file past the 64 MiB limit (sparse: no disk used).
    let big = dir.path().join("big.obf");
    std::fs::File::create(&big).unwrap().set_len(65 * 1024 * 1024).unwrap();
    refused(&["bench", big.to_str().unwrap()], &["big.obf", "larger than the 64 MiB limit"]);
}

#[test]
fn bench_refuses_impossible_scores_and_illegal_moves_naming_the_line() {
    let dir = tempfile::tempdir().unwrap();
    // The 4x4 start: black's moves are b1, a2, d3, c4 (a1 top-left), every score -10 here.
    let start = "-----OX--XO----- X";
    let good = format!("{start}; C4:-10; B1:-10;\n");
    let cases = [
        (format!("{good}{start}; C4:+999;\n"), "impossible score 'C4:+999'"),
        (format!("{good}{start}; A1:-10;\n"), "move a1 at column 21 is not a legal move"),
        (format!("{good}{start}; C4:-9;\n"), "odd score -9 for c4"),
    ];
    for (text, want) in cases {
        let path = file_with(dir.path(), "p.obf", text.as_bytes());
        refused(&["bench", &path], &[&format!("{path}:2: "), want]);
    }
}

#[test]
fn byte_order_marks_and_binary_bytes_are_named() {
    let dir = tempfile::tempdir().unwrap();
    // A leading byte-order mark in a file is skipped: the problem is solved (4x4 start: -10).
    let path = file_with(dir.path(), "bom.obf", "\u{feff}-----OX--XO----- X; C4:-10;\n".as_bytes());
    let out = bin().args(["--no-store", "bench", &path, "--json", "--threads", "1"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["positions"][0]["score"], -10);
    // In a board string argument, it is named.
    refused(&["show", "--board", "\u{feff}-----OX--XO----- X"], &["--board", "byte-order mark", "column 1"]);
    // Binary bytes: the line that holds them.
    let path = file_with(dir.path(), "bin.obf", b"-----OX--XO----- X; C4:-10;\n% ok\n\xff\xfe\x00\n");
    refused(&["bench", &path], &[&format!("{path}:3: not UTF-8 text")]);
}

#[test]
fn a_session_naming_a_missing_current_node_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let text = "othello-explorer session 1\nroot -----OX--XO----- X\n1 0 c4\ncurrent 999\n";
    let path = file_with(dir.path(), "session.txt", text.as_bytes());
    refused(&["--resume", "--session", &path], &["line 4: no node 999"]);
}

#[test]
fn an_export_to_a_full_device_names_the_export_file() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.redb");
    bin().arg("--store").arg(&store).args(["solve", "--size", "4"]).assert().success();
    // A device is refused before anything is written to it (issue: nothing of the user's is
    // ever destroyed).
    let out = bin().arg("--store").arg(&store).args(["store", "export", "/dev/full"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "othello-explorer: /dev/full: a character device, not a regular file: refusing to write over it\n"
    );
}

#[test]
fn stats_verify_and_export_leave_the_store_file_untouched() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.redb");
    let run = |args: &[&str]| bin().arg("--store").arg(&store).args(args).output().unwrap();
    let out = run(&["book", "--size", "4", "--plies", "2", "--threads", "1", "--hash-mb", "8"]);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::set_permissions(&store, std::fs::Permissions::from_mode(0o444)).unwrap();
    let before = (std::fs::read(&store).unwrap(), std::fs::metadata(&store).unwrap().modified().unwrap());
    for args in [
        &["store", "stats"][..],
        &["store", "export"],
        &["store", "verify", "--sample", "3", "--threads", "1", "--hash-mb", "8", "--seed", "1"],
    ] {
        let out = run(args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    }
    let after = (std::fs::read(&store).unwrap(), std::fs::metadata(&store).unwrap().modified().unwrap());
    assert!(before == after, "the store file changed");
}

#[test]
fn solve_answers_the_6x6_start_from_the_shipped_book() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.redb");
    let out = bin().arg("--store").arg(&store).args(["solve", "--size", "6", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    // The published value of 6x6 Othello (Feinstein 1993): -4 for black, with perfect play.
    assert_eq!(v["score"], -4);
    assert_eq!(v["kind"], "exact");
    assert_eq!(v["from_store"], 4);
    assert!(v["children"].as_array().unwrap().iter().all(|c| c["source"] == "store"));
    assert_eq!(v["pv"].as_array().unwrap().len(), 32, "a line to the end of the game");
    let text = bin().arg("--store").arg(&store).args(["solve", "--size", "6"]).output().unwrap();
    let text = String::from_utf8_lossy(&text.stdout).into_owned();
    assert!(text.contains("score: -4 for black"), "{text}");
    assert!(text.contains("from the store: 4 of 4 moves"), "{text}");
    // --no-store measures the solver: nothing comes from a store.
    let out = bin().args(["--no-store", "solve", "--size", "4", "--json"]).output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["score"].as_i64(), v["from_store"].as_u64()), (Some(-10), Some(0)));
}

#[test]
fn bench_reads_known_scores_from_the_store_and_writes_new_ones() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.redb");
    let path = file_with(dir.path(), "p.obf", b"-----OX--XO----- X; C4:-10;\n");
    let row = || {
        let out = bin().arg("--store").arg(&store).args(["bench", &path, "--json", "--threads", "1"]).output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v["positions"][0].clone()
    };
    let first = row();
    assert_eq!((first["score"].as_i64(), first["source"].as_str()), (Some(-10), Some("search")));
    let second = row();
    assert_eq!((second["score"].as_i64(), second["source"].as_str()), (Some(-10), Some("store")));
}

/// `solve` on FFO #50 (26 empties, minutes of exact search), interrupted.
#[cfg(unix)]
fn interrupted_solve(json: bool) -> std::process::Output {
    let board = "----X-----XXX----OOOXOOO-OOOXOOO-OXOXOXO-OOXXOOO--OOXO----O--O-- X";
    let json = if json { &["--json"][..] } else { &[] };
    interrupted(&[&["--no-store", "solve", "--board", board, "--mode", "exact"][..], json].concat())
}

/// The binary run with `args`, sent SIGINT once it catches it and has had a moment to work.
#[cfg(unix)]
fn interrupted(args: &[&str]) -> std::process::Output {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("othello-explorer"));
    cmd.args(args);
    let mut child = cmd.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().unwrap();
    // Wait until it catches SIGINT (Linux shows the caught signals in /proc), then give the search
    // a moment: any moment will do, nothing here is timed.
    let caught = |pid: u32| {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let mask = status.lines().find_map(|l| l.strip_prefix("SigCgt:")).map(str::trim).unwrap_or("0");
        u64::from_str_radix(mask, 16).is_ok_and(|m| m & (1 << (2 - 1)) != 0)
    };
    while Path::new("/proc/self/status").exists()
        && !caught(child.id())
        && child.try_wait().is_ok_and(|done| done.is_none())
    {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    let killed = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    child.wait_with_output().unwrap()
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_solve_with_what_it_knows_and_exit_130() {
    let out = interrupted_solve(false);
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.starts_with("8x8 ----X-----XXX"), "{text}");
    assert!(text.contains("stopped: interrupted by SIGINT; the values above are the best known"), "{text}");
    assert!(text.contains("nodes: "), "{text}");

    let out = interrupted_solve(true);
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["stopped"], "interrupted by SIGINT");
    // Whatever was proven before the stop is exact: each against the score data/ffo lists.
    // The quick estimates come before the proofs: every child has a value.
    assert_eq!(v["children"].as_array().unwrap().len(), 15, "{v}");
    let listed: std::collections::HashMap<&str, i64> = [
        ("d8", 10),
        ("h7", 6),
        ("a4", 2),
        ("b2", 2),
        ("g7", -2),
        ("g8", -2),
        ("a2", -4),
        ("a5", -6),
        ("a7", -6),
        ("g2", -6),
        ("h2", -6),
        ("a6", -8),
        ("a3", -10),
        ("b8", -14),
        ("b7", -18),
    ]
    .into_iter()
    .collect();
    for c in v["children"].as_array().unwrap() {
        if c["kind"] == "exact" {
            assert_eq!(c["score"].as_i64(), listed.get(c["move"].as_str().unwrap()).copied(), "{c}");
        }
    }
}

/// An exact solve of the 8x8 start, which no one sees the end of, stopped by Ctrl-C: the values
/// known so far (the quick estimates, made first) for every child, not nothing.
#[cfg(unix)]
#[test]
fn ctrl_c_during_an_exact_solve_of_the_8x8_start_prints_every_childs_estimate() {
    let out = interrupted(&["--no-store", "solve", "--mode", "exact", "--threads", "1"]);
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.contains("estimate: "), "{text}");
    for child in ["d3", "c4", "f5", "e6"] {
        assert!(text.lines().any(|l| l.starts_with(&format!("  {child}  ")) && l.contains(" @")), "{child}: {text}");
    }
    assert!(text.contains("stopped: interrupted by SIGINT; the values above are the best known"), "{text}");
    // Said before it started: how long, and how to bound it.
    let err = stderr(&out);
    assert!(err.contains("60 empty squares: an exact solve may take more than two days"), "{err}");
    assert!(err.contains("--time SECONDS bounds it"), "{err}");
}

/// The explorer's `:load` of an endless device: the command asks the file thread, which refuses
/// it at once (the explorer stays responsive), and the status line says why.
#[test]
fn explorer_load_of_dev_zero_is_refused_and_reported() {
    use othello_explorer::tui::testing::app::{Config, Effect, Model, Msg, update};
    use othello_explorer::tui::testing::disk::Disk;
    use othello_explorer::{Position, Size};
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let now = std::time::Instant::now();
    let mut m = Model::new(Position::start(Size::Eight), &[], Config::default(), now);
    m.init();
    let key = |c: KeyCode| Msg::Key(KeyEvent::new(c, KeyModifiers::NONE));
    let mut effects = Vec::new();
    for msg in std::iter::once(key(KeyCode::Char(':')))
        .chain(":load /dev/zero".chars().skip(1).map(|c| key(KeyCode::Char(c))))
        .chain(std::iter::once(key(KeyCode::Enter)))
    {
        effects.extend(update(&mut m, msg));
    }
    let path = effects
        .iter()
        .find_map(|e| match e {
            Effect::Load { path, .. } => Some(path.clone()),
            _ => None,
        })
        .expect("a load effect");
    assert_eq!(path, "/dev/zero");
    let (tx, rx) = std::sync::mpsc::channel();
    let disk = Disk::spawn(None, tx).unwrap();
    disk.load(path, None);
    let reply = rx.recv().expect("a reply");
    assert!(matches!(&reply, Msg::Loaded { result: Err(e), .. } if e == "a character device, not a regular file"));
    update(&mut m, reply);
    let status = m.status.clone().expect("a status");
    assert!(status.error);
    assert_eq!(status.text, "load /dev/zero: a character device, not a regular file");
}

#[test]
fn text_from_a_file_never_reaches_the_terminal_raw_and_errors_stay_one_short_line() {
    let dir = tempfile::tempdir().unwrap();
    // A value over three lines: one line, the newlines escaped.
    let chess = file_with(dir.path(), "chess.ggf", b"(;GM[Chess\nline two\nline three];)");
    refused(&["review", "--game", &chess], &["GM[Chess\\nline two\\nline three]"]);
    // A 5 MB value: an excerpt, not the value.
    let big = format!("(;GM[{}];)", "x".repeat(5_000_000));
    let big = file_with(dir.path(), "big.ggf", big.as_bytes());
    let err = refused(&["review", "--game", &big], &["(5000000 characters)"]);
    assert!(err.len() < 300, "{} bytes", err.len());
    // Escape sequences in the players' names are printed escaped, never sent to the terminal.
    let names = file_with(dir.path(), "names.ggf", b"(;GM[Othello]PB[\x1b[41mRED\x07]PW[\x1b[0mbob]TY[8]B[f5];)");
    let out = bin().args(["--no-store", "review", "--game", &names, "--time", "0.01"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!out.stdout.iter().any(|&b| b == 0x1b || b == 0x07), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stdout).contains("black \\u{1b}[41mRED\\u{7}"));
}

/// A transcript file near the 64 MiB limit is read no further than a game can go: `review` under
/// a 400 MB data limit (`prlimit`) names the first illegal move, where the old reader kept 24
/// bytes per move of the whole file (over 800 MB here). The same for a file of one long line, and
/// one of nothing but blank lines. Skipped with a notice without `prlimit`.
#[test]
fn a_huge_transcript_file_is_read_no_further_than_a_game_goes() {
    if std::process::Command::new("prlimit").arg("--version").output().is_err() {
        eprintln!("notice: no prlimit; skipping the memory-bound test");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // A whole 4x4 game (a perfect line, passes implicit) then the same moves again, to the
    // 64 MiB limit: move 11 is illegal (the game is over).
    let game = "c4d4d3b4a1d2a4c1d1b1\n";
    let lines = (64 << 20) / game.len() - 1;
    let many = file_with(dir.path(), "many.txt", game.repeat(lines).as_bytes());
    let one_line = file_with(dir.path(), "one.txt", game.trim_end().repeat(lines).as_bytes());
    let blank = file_with(dir.path(), "blank.txt", format!("{}{game}", "\n".repeat(60 << 20)).as_bytes());
    let bin = assert_cmd::cargo::cargo_bin("othello-explorer");
    for (file, want) in
        [(&many, "move 11 is illegal"), (&one_line, "a line of at most 1048576 characters"), (&blank, "move 1")]
    {
        let out = std::process::Command::new("prlimit")
            .arg("--data=400000000")
            .arg(&bin)
            .args(["--no-store", "review", "--size", "4", "--game", file, "--time", "0.01", "--threads", "1"])
            .output()
            .unwrap();
        let err = stderr(&out);
        if file == &blank {
            // A game after 60 M blank lines: read, and reviewed.
            assert!(out.status.success(), "{file}: {err}");
            continue;
        }
        assert_eq!(out.status.code(), Some(2), "{file}: {err}");
        assert!(err.contains(want), "{file}: {err}");
    }
}

/// Every path a reader opens, given a FIFO or a link to one (a reader that opened it would wait for
/// a writer for ever): refused at once, before it is opened, in one line naming it, exit 2.
#[test]
fn every_reader_refuses_a_fifo_at_once_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    if !std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success()) {
        eprintln!("notice: no mkfifo; skipping");
        return;
    }
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&fifo, &link).unwrap();
    let games = file_with(dir.path(), "games.txt", b"f5d6c3\n");
    let archive = dir.path().join("a.oxar").to_str().unwrap().to_string();
    let store = dir.path().join("s.db").to_str().unwrap().to_string();
    for path in [&fifo, &link] {
        let f = path.to_str().unwrap();
        let cases: [&[&str]; 14] = [
            &["--no-store", "bench", f],
            &["--no-store", "review", "--game", f],
            &["--no-store", "--resume", "--session", f],
            &["--no-store", "--archive", f],
            &["--no-store", "solve", "--size", "4", "--weights", f],
            &["--store", &store, "store", "import", f],
            &["match", "--openings", f, "--engine1", "ours", "--engine2", "ours"],
            &["archive", "--archive", f, "stats"],
            &["archive", "--archive", f, "show"],
            &["archive", "--archive", f, "games"],
            &["archive", "--archive", f, "remove", "x"],
            &["archive", "--archive", f, "add", &games],
            &["archive", "--archive", &archive, "add", f],
            &["archive", "--archive", &archive, "add", &games, f],
        ];
        for args in cases {
            let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_othello-explorer"))
                .args(args)
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            let began = std::time::Instant::now();
            while child.try_wait().unwrap().is_none() {
                if began.elapsed() > std::time::Duration::from_secs(20) {
                    let _ = child.kill();
                    panic!("{args:?}: still waiting on the FIFO after 20 s");
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            let out = child.wait_with_output().unwrap();
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
            let name = path.file_name().unwrap().to_str().unwrap();
            assert!(err.contains(name) && err.contains("not a regular file"), "{args:?}: {err}");
        }
    }
    // Nothing was added from a command refused.
    assert!(!Path::new(&archive).exists());
}
