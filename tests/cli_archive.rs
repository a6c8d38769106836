//! `archive` on the real binary: databases written here byte by byte (WTHOR with its players and
//! tournaments beside it, GGF with many games, transcripts), every count checked against a plain
//! replay of the games by the reference rules; symmetric images and transpositions meet; a file
//! added twice adds nothing; damaged and hostile files are refused in one line naming the file and
//! the record, exit 2, the archive left byte for byte as it was.

mod reference;

use reference::{Board, Side};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_othello-explorer");

fn run(archive: &Path, args: &[&str]) -> std::process::Output {
    Command::new(BIN).arg("archive").arg("--archive").arg(archive).args(args).output().unwrap()
}

fn json(archive: &Path, args: &[&str]) -> Value {
    let out = run(archive, args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn name(n: usize, i: usize) -> String {
    format!("{}{}", (b'a' + (i % n) as u8) as char, i / n + 1)
}

/// Random 8x8 games by the reference rules (a fixed xorshift sequence; the first moves among
/// two, so that games share their openings): each as its moves (cell indexes, passes left out)
/// and its final score from black's side.
fn games(count: usize, mut seed: u64) -> Vec<(Vec<usize>, i32)> {
    let pick =
        |played: usize, legal: usize, r: u64| if played < 6 { r as usize % legal.min(2) } else { r as usize % legal };
    let mut out = Vec::new();
    for _ in 0..count {
        let game = reference::xorshift_game(8, seed, pick);
        let moves: Vec<usize> = game.iter().map(|(_, m)| *m).collect();
        let (last, m) = game.last().expect("a move");
        let b = last.play(*m);
        out.push((moves, b.for_black(b.final_score())));
        // The next game goes on from where this one's sequence stopped.
        seed = reference::xorshift_after(seed, game.len());
    }
    out
}

/// A WTHOR database of `games`, with tournament `t` and players `2k`, `2k+1` for game `k`.
fn wthor(games: &[(Vec<usize>, i32)], year: u16) -> Vec<u8> {
    let mut bytes = vec![20, 26, 11, 26];
    bytes.extend_from_slice(&(games.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&[0, 0]);
    bytes.extend_from_slice(&year.to_le_bytes());
    bytes.extend_from_slice(&[8, 0, 0, 0]);
    for (k, (moves, _)) in games.iter().enumerate() {
        let mut r = [0u8; 68];
        r[0..2].copy_from_slice(&((k % 3) as u16).to_le_bytes());
        r[2..4].copy_from_slice(&((2 * k % 10) as u16).to_le_bytes());
        r[4..6].copy_from_slice(&((2 * k % 10 + 1) as u16).to_le_bytes());
        for (i, &m) in moves.iter().enumerate() {
            r[8 + i] = (10 * (m / 8 + 1) + m % 8 + 1) as u8;
        }
        bytes.extend_from_slice(&r);
    }
    bytes
}

/// A GGF file of `games`, black and white named `Black k` and `White k` for game `k`, passes
/// written out.
fn ggf_text(games: &[(Vec<usize>, i32)]) -> String {
    games
        .iter()
        .enumerate()
        .map(|(k, (moves, _))| {
            let mut b = Board::start(8);
            let mut s = format!("(;GM[Othello]PC[test]PB[Black {k}]PW[White {k}]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]");
            for &m in moves {
                if b.must_pass() {
                    s.push_str(if b.to_move == Side::Black { "B[PA]" } else { "W[PA]" });
                    b = b.pass();
                }
                s.push_str(&format!("{}[{}]", if b.to_move == Side::Black { 'B' } else { 'W' }, name(8, m)));
                b = b.play(m);
            }
            s + ";)\n"
        })
        .collect()
}

/// A transcript file of `games`, one a line.
fn transcript_text(games: &[(Vec<usize>, i32)]) -> String {
    games.iter().map(|(moves, _)| moves.iter().map(|&m| name(8, m)).collect::<String>() + "\n").collect()
}

/// A `.JOU` or `.TRN` file of `names`, `width` bytes each: the record count in bytes 8-9, as the
/// federation's files have it.
fn names_file(names: &[&str], width: usize) -> Vec<u8> {
    let mut bytes = vec![0u8; 16];
    bytes[8..10].copy_from_slice(&(names.len() as u16).to_le_bytes());
    for n in names {
        let mut r = vec![0u8; width];
        r[..n.len()].copy_from_slice(n.as_bytes());
        bytes.extend_from_slice(&r);
    }
    bytes
}

/// A move's counts: games, black's wins, draws, white's wins, the sum of the final scores.
type Counts = (u32, u32, u32, u32, i64);

/// The cell of `i` under symmetry `s` of the 8x8 board.
fn image(s: usize, i: usize) -> usize {
    let (r, c) = (i / 8, i % 8);
    let (r, c) = match s {
        0 => (r, c),
        1 => (r, 7 - c),
        2 => (7 - r, c),
        3 => (7 - r, 7 - c),
        4 => (c, r),
        5 => (c, 7 - r),
        6 => (7 - c, r),
        _ => (7 - c, 7 - r),
    };
    r * 8 + c
}

/// The reference counts at the position after `prefix` (cells), over every game that passed
/// through it or one of its symmetric images, by a plain replay: the games that reached it, and
/// for each next move (in the position's own coordinates) its games, black's wins, draws, white's
/// wins and score sum.
fn plain_counts(games: &[(Vec<usize>, i32)], prefix: &[usize]) -> (usize, HashMap<String, Counts>) {
    let mut q = Board::start(8);
    for &m in prefix {
        if q.must_pass() {
            q = q.pass();
        }
        q = q.play(m);
    }
    let cells = |b: &Board| -> Vec<Option<Side>> {
        (0..64)
            .map(|i| {
                if b.black_bits() >> (63 - i) & 1 == 1 {
                    Some(Side::Black)
                } else if b.white_bits() >> (63 - i) & 1 == 1 {
                    Some(Side::White)
                } else {
                    None
                }
            })
            .collect()
    };
    let target = cells(&q);
    let mut reached = 0;
    let mut counts: HashMap<String, Counts> = HashMap::new();
    for (moves, score) in games {
        let mut b = Board::start(8);
        let mut k = 0;
        loop {
            if b.must_pass() {
                b = b.pass();
            }
            if b.to_move == q.to_move {
                let here = cells(&b);
                if let Some(s) = (0..8).find(|&s| (0..64).all(|i| here[i] == target[image(s, i)])) {
                    reached += 1;
                    if let Some(&m) = moves.get(k) {
                        let c = counts.entry(name(8, image(s, m))).or_default();
                        c.0 += 1;
                        match score.signum() {
                            1 => c.1 += 1,
                            0 => c.2 += 1,
                            _ => c.3 += 1,
                        }
                        c.4 += i64::from(*score);
                    }
                    break;
                }
            }
            let Some(&m) = moves.get(k) else { break };
            b = b.play(m);
            k += 1;
        }
    }
    (reached, counts)
}

#[test]
fn counts_match_a_plain_replay_and_names_come_from_the_files_beside() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("a.oxar");
    let gs = games(300, 0x2545_f491_4f6c_dd1d);
    std::fs::write(dir.path().join("WTH_2001.wtb"), wthor(&gs, 2001)).unwrap();
    let players: Vec<String> = (0..10).map(|i| format!("Player {i}")).collect();
    let refs: Vec<&str> = players.iter().map(String::as_str).collect();
    std::fs::write(dir.path().join("WTHOR.JOU"), names_file(&refs, 20)).unwrap();
    std::fs::write(dir.path().join("WTHOR.TRN"), names_file(&["Paris Open", "Tokyo Cup", "Rome WOC"], 26)).unwrap();
    let added = json(&archive, &["add", "--json", dir.path().join("WTH_2001.wtb").to_str().unwrap()]);
    assert_eq!(added["games"], 300);

    // Along the first game, every position's counts against the plain replay.
    let first = &gs[0].0;
    for k in 0..first.len().min(20) {
        let prefix = &first[..k];
        let moves: String = prefix.iter().map(|&m| name(8, m)).collect();
        let v = json(&archive, &["show", "--json", "--moves", &moves]);
        let (reached, counts) = plain_counts(&gs, prefix);
        let games = v["games"].as_u64().unwrap() as usize;
        assert_eq!(games, reached, "after {moves}");
        assert_eq!(v["moves"].as_array().unwrap().len(), counts.len(), "after {moves}");
        {
            for m in v["moves"].as_array().unwrap() {
                let c = counts.get(m["move"].as_str().unwrap()).copied().unwrap_or_default();
                assert_eq!(
                    (
                        m["games"].as_u64().unwrap() as u32,
                        m["black_wins"].as_u64().unwrap() as u32,
                        m["draws"].as_u64().unwrap() as u32,
                        m["white_wins"].as_u64().unwrap() as u32
                    ),
                    (c.0, c.1, c.2, c.3),
                    "after {moves}: {m}"
                );
                let mean = c.4 as f64 / f64::from(c.0);
                assert!((m["mean_score"].as_f64().unwrap() - mean).abs() < 0.01, "{m}");
            }
        }
    }
    // Players and tournaments come from WTHOR.JOU and WTHOR.TRN.
    let v = json(&archive, &["games", "--json", "--limit", "5"]);
    let g = &v["games"][0];
    assert_eq!(
        (g["black"].as_str(), g["white"].as_str(), g["tournament"].as_str()),
        (Some("Player 0"), Some("Player 1"), Some("Paris Open"))
    );
    assert_eq!(g["year"], 2001);
    // The start's moves: their players are the ones who chose them.
    let v = json(&archive, &["show", "--json"]);
    assert_eq!(v["games"], 300);
    assert!(v["moves"][0]["players"].as_array().unwrap().iter().all(|p| p.as_str().unwrap().starts_with("Player ")));
    // Filters: a player, years, a tournament.
    let v = json(&archive, &["show", "--json", "--player", "player 3"]);
    let want = gs.iter().enumerate().filter(|(k, _)| 2 * k % 10 + 1 == 3).count();
    assert_eq!(v["games"].as_u64().unwrap() as usize, want);
    assert_eq!(json(&archive, &["show", "--json", "--years", "1990-2000"])["games"], 0);
    let v = json(&archive, &["show", "--json", "--tournament", "tokyo"]);
    assert_eq!(v["games"].as_u64().unwrap() as usize, (0..gs.len()).filter(|k| k % 3 == 1).count());
}

#[test]
fn images_and_transpositions_meet_and_moves_are_in_the_askers_coordinates() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("a.oxar");
    // f5 d6 c3 d3 c4 and f5 d6 c4 d3 c3 transpose; c4 e3 f6 e6 f5 is f5 d6 c3 d3 c4's image.
    let file = dir.path().join("games.txt");
    std::fs::write(&file, "f5d6c3d3c4\nf5d6c4d3c3\n; a comment\nc4e3f6e6f5\n").unwrap();
    let v = json(&archive, &["add", "--json", file.to_str().unwrap()]);
    assert_eq!(v["games"], 3);
    let v = json(&archive, &["show", "--json", "--moves", "f5d6c3d3c4"]);
    assert_eq!(v["games"], 3, "{v}");
    assert_eq!(v["ended_here"], 3);
    // From f5's side, the image's third move c4 e3 f6 is f5 d6 c3: c3 twice, c4 once.
    let v = json(&archive, &["show", "--json", "--moves", "f5d6"]);
    let moves: HashMap<String, u64> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["move"].as_str().unwrap().to_string(), m["games"].as_u64().unwrap()))
        .collect();
    assert_eq!(moves, HashMap::from([("c3".to_string(), 2), ("c4".to_string(), 1)]));
    // Asked from the image's side, the same games in its coordinates.
    let v = json(&archive, &["show", "--json", "--moves", "c4e3"]);
    let moves: HashMap<String, u64> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["move"].as_str().unwrap().to_string(), m["games"].as_u64().unwrap()))
        .collect();
    assert_eq!(moves, HashMap::from([("f6".to_string(), 2), ("f5".to_string(), 1)]));
}

#[test]
fn a_file_added_twice_adds_nothing_and_remove_takes_its_games_away() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("a.oxar");
    let ggf = dir.path().join("many.ggf");
    let gs = games(40, 77);
    std::fs::write(&ggf, ggf_text(&gs)).unwrap();
    assert_eq!(json(&archive, &["add", "--json", ggf.to_str().unwrap()])["games"], 40);
    let again = json(&archive, &["add", "--json", ggf.to_str().unwrap()]);
    assert_eq!(again["files"][0]["already"], true);
    assert_eq!(again["games"], 40);
    // The same games in another file: each a duplicate.
    let copy = dir.path().join("copy.ggf");
    std::fs::copy(&ggf, &copy).unwrap();
    std::fs::OpenOptions::new()
        .append(true)
        .open(&copy)
        .and_then(|mut f| std::io::Write::write_all(&mut f, b"\n"))
        .unwrap();
    let dup = json(&archive, &["add", "--json", copy.to_str().unwrap()]);
    assert_eq!((dup["files"][0]["games"].as_u64(), dup["files"][0]["duplicates"].as_u64()), (Some(0), Some(40)));
    let stats = json(&archive, &["stats", "--json"]);
    assert_eq!(stats["games"], 40);
    assert_eq!(stats["files"].as_array().unwrap().len(), 2);
    // Remove the first: the copy's games were duplicates, so none is left.
    let out = run(&archive, &["remove", ggf.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json(&archive, &["stats", "--json"])["files"].as_array().unwrap().len(), 1);
    // games --ggf writes the games through a position, and they read back.
    let moves: String = gs[0].0[..2].iter().map(|&m| name(8, m)).collect();
    let out_ggf = dir.path().join("out.ggf");
    assert_eq!(json(&archive, &["add", "--json", ggf.to_str().unwrap()])["files"][0]["games"], 40);
    let v = json(&archive, &["games", "--json", "--moves", &moves, "--ggf", out_ggf.to_str().unwrap()]);
    let n = v["games"].as_array().unwrap().len();
    assert!(n >= 1);
    let written = std::fs::read_to_string(&out_ggf).unwrap();
    assert_eq!(written.matches("(;").count(), n);
}

#[test]
fn damaged_and_hostile_files_are_refused_in_one_line_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("a.oxar");
    let good = dir.path().join("good.txt");
    std::fs::write(&good, "f5d6c3\n").unwrap();
    json(&archive, &["add", "--json", good.to_str().unwrap()]);
    let before = std::fs::read(&archive).unwrap();
    let gs = games(3, 5);
    let mut wrong_count = wthor(&gs, 2001);
    wrong_count[4] = 9;
    let mut off_board = wthor(&gs, 2001);
    off_board[16 + 68 + 10] = 99;
    let mut illegal = wthor(&gs, 2001);
    illegal[16 + 2 * 68 + 8] = 11; // a1 as black's first move of game 3
    let mut truncated = wthor(&gs, 2001);
    truncated.truncate(16 + 68 + 30);
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("count.wtb", wrong_count, "the header counts 9 games but the file holds 3 records"),
        ("range.wtb", off_board, "record 2"),
        ("illegal.wtb", illegal, "record 3"),
        ("short.wtb", truncated, "truncated"),
        (
            "bad.ggf",
            b"(;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[z9];)"
                .to_vec(),
            "GGF record 1",
        ),
        ("bad.txt", b"f5d6\nf5f5\n".to_vec(), "line 2"),
        ("binary.bin", vec![0xff, 0xfe, 0, 1, 2], "neither text nor a WTHOR database"),
    ];
    for (file, bytes, want) in cases {
        let path = dir.path().join(file);
        std::fs::write(&path, bytes).unwrap();
        // Listed after a good file: the command adds nothing at all.
        let out = run(&archive, &["add", good.to_str().unwrap(), path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{file}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{file}: {err}");
        assert!(err.contains(file) && err.contains(want), "{file}: {err}");
        assert_eq!(std::fs::read(&archive).unwrap(), before, "{file}: the archive changed");
    }
    // A damaged archive file is named, and not written over.
    std::fs::write(&archive, b"OXARCH\0\x1a garbage").unwrap();
    let out = run(&archive, &["stats"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a readable archive"));
}

#[test]
fn adds_at_once_keep_every_game_of_every_file_and_readers_see_whole_files() {
    for writers in [2usize, 4] {
        let dir = tempfile::tempdir().unwrap();
        let archive = dir.path().join("a.oxar");
        let per_file = 800;
        let all = games(writers * per_file, 0x9e37_79b9_7f4a_7c15 ^ writers as u64);
        let distinct: HashSet<&Vec<usize>> = all.iter().map(|g| &g.0).collect();
        assert_eq!(distinct.len(), all.len(), "the test's games are distinct");
        // Transcript and GGF files in turn, each of its own games.
        let files: Vec<PathBuf> = all
            .chunks(per_file)
            .enumerate()
            .map(|(w, chunk)| {
                let (path, text) = if w % 2 == 0 {
                    (dir.path().join(format!("games-{w}.txt")), transcript_text(chunk))
                } else {
                    (dir.path().join(format!("games-{w}.ggf")), ggf_text(chunk))
                };
                std::fs::write(&path, text).unwrap();
                path
            })
            .collect();
        let adders: Vec<_> = files
            .iter()
            .map(|f| {
                let (archive, f) = (archive.clone(), f.clone());
                std::thread::spawn(move || run(&archive, &["add", "--json", f.to_str().unwrap()]))
            })
            .collect();
        // Meanwhile the archive is read, with no lock: each read finds whole files, every game of
        // each (the old archive or the new one, never half of one).
        let mut reads = 0;
        while reads == 0 || adders.iter().any(|a| !a.is_finished()) {
            let v = json(&archive, &["stats", "--json"]);
            let listed = v["files"].as_array().unwrap();
            assert!(listed.iter().all(|f| f["games"] == per_file), "{v}");
            assert_eq!(v["games"].as_u64().unwrap() as usize, listed.len() * per_file, "{v}");
            reads += 1;
        }
        for (adder, f) in adders.into_iter().zip(&files) {
            let out = adder.join().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{}: {err}", f.display());
            // Nothing on stderr, or the one line of a writer that waited for another.
            let lock = format!("waiting for {}.lock: another program is writing the archive", archive.display());
            assert!(err.is_empty() || (err.lines().count() == 1 && err.contains(&lock)), "{err}");
        }
        let v = json(&archive, &["stats", "--json"]);
        assert_eq!(v["games"].as_u64().unwrap() as usize, writers * per_file, "{v}");
        let mut listed: Vec<&str> =
            v["files"].as_array().unwrap().iter().map(|f| f["file"].as_str().unwrap()).collect();
        listed.sort_unstable();
        let mut want: Vec<&str> = files.iter().map(|f| f.to_str().unwrap()).collect();
        want.sort_unstable();
        assert_eq!(listed, want);
        // Every game is there by its moves: the start counts them all, and the first and last game
        // of each file end where they ended.
        assert_eq!(json(&archive, &["show", "--json"])["games"].as_u64().unwrap() as usize, writers * per_file);
        for chunk in all.chunks(per_file) {
            for (moves, _) in [&chunk[0], &chunk[per_file - 1]] {
                let line: String = moves.iter().map(|&m| name(8, m)).collect();
                let v = json(&archive, &["show", "--json", "--moves", &line]);
                assert!(v["ended_here"].as_u64().unwrap() >= 1, "{line}: {v}");
            }
        }
        // No temporary file is left beside it.
        let left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".partial"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }
}

#[test]
fn a_writer_waits_for_the_lock_and_says_so_while_readers_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("a.oxar");
    let (first, second) = (dir.path().join("first.txt"), dir.path().join("second.txt"));
    std::fs::write(&first, "f5d6c3\n").unwrap();
    std::fs::write(&second, "f5f6e6\n").unwrap();
    assert_eq!(json(&archive, &["add", "--json", first.to_str().unwrap()])["games"], 1);
    let before = std::fs::read(&archive).unwrap();
    // The test holds the lock, as another writer would.
    let lock_path = dir.path().join("a.oxar.lock");
    let lock = std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(&lock_path).unwrap();
    lock.lock().unwrap();
    let mut child = Command::new(BIN)
        .arg("archive")
        .arg("--archive")
        .arg(&archive)
        .args(["add", second.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    err.read_line(&mut line).unwrap();
    assert_eq!(
        line.trim_end(),
        format!("othello-explorer: waiting for {}: another program is writing the archive", lock_path.display())
    );
    // It waits, having written nothing; a reader takes no lock and reads the archive meanwhile.
    std::thread::sleep(Duration::from_millis(200));
    assert!(child.try_wait().unwrap().is_none(), "it went on without the lock");
    assert_eq!(std::fs::read(&archive).unwrap(), before);
    assert_eq!(json(&archive, &["stats", "--json"])["games"], 1);
    lock.unlock().unwrap();
    assert!(child.wait().unwrap().success());
    let mut rest = String::new();
    err.read_to_string(&mut rest).unwrap();
    assert!(rest.is_empty(), "{rest}");
    assert_eq!(json(&archive, &["stats", "--json"])["games"], 2);
}

/// The archive file's bytes with the moves of its game `game` (from 0) given to `edit`, and the
/// checksum made right again, as `docs/archive.md` and `src/archive/mod.rs` lay the file out: a
/// file made to look sound.
fn with_moves_edited(bytes: &[u8], game: usize, edit: impl FnOnce(&mut [u8])) -> Vec<u8> {
    let mut b = bytes[..bytes.len() - 8].to_vec();
    let u16_at = |b: &[u8], at: usize| u16::from_le_bytes(b[at..at + 2].try_into().unwrap()) as usize;
    let u32_at = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize;
    assert_eq!(&b[..8], b"OXARCH\0\x1a");
    let (sources, names, games) = (u32_at(&b, 10), u32_at(&b, 14), u32_at(&b, 18));
    assert!(game < games);
    let mut at = 8 + 2 + 4 + 4 + 4 + 8 + 4;
    for _ in 0..sources {
        at += 8 + 4;
        at += 2 + u16_at(&b, at);
    }
    for _ in 0..names {
        at += 2 + u16_at(&b, at);
    }
    // A game: source, index, side, black, white, to move, three names, year, score, how it was
    // decided (42 bytes), then the count of its moves and the moves.
    for _ in 0..game {
        at += 42;
        at += 1 + b[at] as usize;
    }
    at += 42;
    let n = b[at] as usize;
    edit(&mut b[at + 1..at + 1 + n]);
    // FNV-1a 64 of everything before.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &x in &b {
        h ^= u64::from(x);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    b.extend_from_slice(&h.to_le_bytes());
    b
}

#[test]
fn an_archive_made_to_hold_an_illegal_game_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("a.oxar");
    let (one, two) = (dir.path().join("one.txt"), dir.path().join("two.txt"));
    std::fs::write(&one, "f5d6c3\n").unwrap();
    std::fs::write(&two, "f5f6e6\n").unwrap();
    json(&archive, &["add", "--json", one.to_str().unwrap()]);
    json(&archive, &["add", "--json", two.to_str().unwrap()]);
    let sound = std::fs::read(&archive).unwrap();
    // two.txt's game, f5 f6 e6: f6 (square 45) becomes a1 (0, flips nothing), a byte that is no
    // square (200), or a pass where white has moves (255).
    for (byte, want) in [
        (0u8, "move 2: a1 flips no disc"),
        (200, "move 2: byte 200 is no square of the 8x8 board"),
        (255, "move 2 is a pass"),
    ] {
        let crafted = with_moves_edited(&sound, 1, |moves| {
            assert_eq!(moves, [37, 45, 44]);
            moves[1] = byte;
        });
        std::fs::write(&archive, &crafted).unwrap();
        // `remove` rebuilds the archive from the other files' games: it used to replay two.txt's
        // and panic. Every command refuses the file, naming it and the game.
        for args in [&["remove", one.to_str().unwrap()][..], &["stats"], &["show", "--moves", "f5"]] {
            let out = run(&archive, args);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?} with {byte}: {err}");
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.contains(archive.to_str().unwrap()) && err.contains("not a readable archive"), "{err}");
            assert!(err.contains("game 2 (game 1 of ") && err.contains("two.txt") && err.contains(want), "{err}");
            assert_eq!(std::fs::read(&archive).unwrap(), crafted, "{args:?}: the archive changed");
        }
    }
    // The sound file still reads, and remove works on it.
    std::fs::write(&archive, &sound).unwrap();
    assert!(run(&archive, &["remove", one.to_str().unwrap()]).status.success());
    assert_eq!(json(&archive, &["stats", "--json"])["games"], 1);
}

/// A FIFO (also behind a symlink), a folder and a file over the size limit given as the archive:
/// each refused at once with one line and exit 2, nothing waited on, nothing read.
#[test]
fn an_archive_that_is_no_regular_file_or_too_large_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.oxar");
    let status = Command::new("mkfifo").arg(&fifo).status();
    let huge = dir.path().join("huge.oxar");
    // A sparse file of 3 GiB: its size says it all, no byte is read.
    std::fs::File::create(&huge).unwrap().set_len(3 << 30).unwrap();
    let link = dir.path().join("link.oxar");
    let mut cases = vec![
        (huge.clone(), "larger than the 2048 MiB limit"),
        (dir.path().to_path_buf(), "a folder, not a regular file"),
    ];
    if status.is_ok_and(|s| s.success()) {
        std::os::unix::fs::symlink(&fifo, &link).unwrap();
        cases.push((fifo.clone(), "a FIFO, not a regular file"));
        cases.push((link.clone(), "a FIFO, not a regular file"));
    }
    for (path, says) in cases {
        {
            let began = std::time::Instant::now();
            let mut child = Command::new(BIN)
                .arg("archive")
                .arg("--archive")
                .arg(&path)
                .arg("stats")
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let mut waited = 0;
            while child.try_wait().unwrap().is_none() && waited < 100 {
                std::thread::sleep(Duration::from_millis(100));
                waited += 1;
            }
            if child.try_wait().unwrap().is_none() {
                child.kill().unwrap();
                panic!("{}: still waiting after 10 s", path.display());
            }
            let out = child.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{}: {stderr}", path.display());
            assert_eq!(stderr.lines().count(), 1, "{}: {stderr}", path.display());
            assert!(stderr.contains(says), "{}: {stderr}", path.display());
            assert!(began.elapsed() < Duration::from_secs(5), "{}: refused at once", path.display());
        }
    }
    assert_eq!(std::fs::metadata(&huge).unwrap().len(), 3 << 30, "the file is left as it was");
}

#[test]
fn unfinished_games_are_result_unknown_and_left_out_of_the_results() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("a.oxar");
    let finished = games(40, 0x0bad_cafe_f00d_1234);
    // Three games cut after 7 to 10 moves: no result on the board.
    let cut: Vec<(Vec<usize>, i32)> =
        finished[..3].iter().zip([7, 8, 10]).map(|((m, _), k)| (m[..k].to_vec(), 0)).collect();
    let file = dir.path().join("games.txt");
    std::fs::write(&file, transcript_text(&finished) + &transcript_text(&cut)).unwrap();
    json(&archive, &["add", "--json", file.to_str().unwrap()]);
    let every: Vec<(Vec<usize>, i32)> = finished.iter().chain(&cut).cloned().collect();
    let first = &cut[2].0;
    for k in 0..first.len() {
        let prefix = &first[..k];
        let moves: String = prefix.iter().map(|&m| name(8, m)).collect();
        let v = json(&archive, &["show", "--json", "--moves", &moves]);
        // Games from every game, results from the finished ones alone (a plain replay of each).
        let (reached, all) = plain_counts(&every, prefix);
        let (_, decided) = plain_counts(&finished, prefix);
        assert_eq!(v["games"].as_u64().unwrap() as usize, reached, "after {moves}");
        for m in v["moves"].as_array().unwrap() {
            let square = m["move"].as_str().unwrap();
            let a = all.get(square).copied().unwrap_or_default();
            let d = decided.get(square).copied().unwrap_or_default();
            let got = |k: &str| m[k].as_u64().unwrap() as u32;
            assert_eq!(
                (got("games"), got("black_wins"), got("draws"), got("white_wins"), got("result_unknown")),
                (a.0, d.1, d.2, d.3, a.0 - d.0),
                "after {moves}: {m}"
            );
            match d.0 {
                0 => assert_eq!(m["mean_score"], Value::Null, "{m}"),
                n => assert!((m["mean_score"].as_f64().unwrap() - d.4 as f64 / f64::from(n)).abs() < 0.01, "{m}"),
            }
        }
    }
    // The list says so, under a heading; the JSON has no score for them.
    let through: String = first[..6].iter().map(|&m| name(8, m)).collect();
    let out = run(&archive, &["games", "--moves", &through]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines().next().unwrap().contains("result") && text.lines().next().unwrap().contains("black"),
        "{text}"
    );
    assert!(text.lines().any(|l| l.trim_start().starts_with("unknown")), "{text}");
    let v = json(&archive, &["games", "--json", "--moves", &through]);
    let unknown = v["games"].as_array().unwrap().iter().filter(|g| g["result_known"] == false).count();
    assert!(unknown >= 1, "{v}");
    assert!(v["games"].as_array().unwrap().iter().all(|g| (g["result_known"] == false) == g["black_score"].is_null()));
}

/// Games that stop early with a result their file states (GGF `RE[-64:r]`, `RE[+10:t]`,
/// `RE[+0:s]`; WTHOR's score byte, black's discs) count as those results, checked against a plain
/// replay carrying the stated scores; the list and the JSON say how each was decided, and a GGF
/// written from the archive states them again.
#[test]
fn games_that_stop_early_count_with_the_results_their_files_state() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("a.oxar");
    let finished = games(30, 0x005e_ed0f_57a7_ed00);
    let cut = |k: usize, n: usize| finished[k].0[..n].to_vec();
    // GGF: resigned, on time, agreed; each record with its RE.
    let stated = [
        (cut(0, 7), -64, "-64.00:r", "-64 resigned", "resigned"),
        (cut(1, 9), 10, "+10:t", "+10 on time", "time"),
        (cut(2, 12), 0, "+0:s", "+0 agreed", "agreed"),
    ];
    let ggf: String = stated
        .iter()
        .map(|(moves, _, re, _, _)| ggf_text(&[(moves.clone(), 0)]).replace("TY[8]", &format!("TY[8]RE[{re}]")))
        .collect();
    let ggf_file = dir.path().join("games.ggf");
    std::fs::write(&ggf_file, ggf).unwrap();
    // WTHOR: a game cut after 11 moves, black's discs recorded as 40 (+16), and the finished
    // games (their score bytes 0: the board decides).
    let mut wtb = wthor(&[(cut(3, 11), 0)], 2001);
    wtb[16 + 6] = 40;
    let wtb_file = dir.path().join("CUT_2001.wtb");
    std::fs::write(&wtb_file, wtb).unwrap();
    let rest = dir.path().join("rest.txt");
    std::fs::write(&rest, transcript_text(&finished[4..])).unwrap();
    for f in [&ggf_file, &wtb_file, &rest] {
        json(&archive, &["add", "--json", f.to_str().unwrap()]);
    }
    let every: Vec<(Vec<usize>, i32)> = stated
        .iter()
        .map(|(m, s, _, _, _)| (m.clone(), *s))
        .chain([(cut(3, 11), 16)])
        .chain(finished[4..].iter().cloned())
        .collect();
    for prefix in [&[][..], &every[0].0[..2], &every[1].0[..4], &every[3].0[..6]] {
        let moves: String = prefix.iter().map(|&m| name(8, m)).collect();
        let v = json(&archive, &["show", "--json", "--moves", &moves]);
        let (reached, counts) = plain_counts(&every, prefix);
        assert_eq!(v["games"].as_u64().unwrap() as usize, reached, "after {moves}");
        for m in v["moves"].as_array().unwrap() {
            let c = counts.get(m["move"].as_str().unwrap()).copied().unwrap_or_default();
            let got = |k: &str| m[k].as_u64().unwrap() as u32;
            assert_eq!(
                (got("games"), got("black_wins"), got("draws"), got("white_wins"), got("result_unknown")),
                (c.0, c.1, c.2, c.3, 0),
                "after {moves}: {m}"
            );
            assert!((m["mean_score"].as_f64().unwrap() - c.4 as f64 / f64::from(c.0)).abs() < 0.01, "{m}");
        }
    }
    // The list and the JSON say how each was decided.
    for (moves, score, _, text, decided) in &stated {
        let through: String = moves.iter().map(|&m| name(8, m)).collect();
        let out = run(&archive, &["games", "--moves", &through]);
        let list = String::from_utf8_lossy(&out.stdout);
        assert!(list.lines().any(|l| l.trim_start().starts_with(text)), "{text}: {list}");
        let v = json(&archive, &["games", "--json", "--moves", &through]);
        let g = v["games"].as_array().unwrap().iter().find(|g| g["moves"] == through).unwrap();
        assert_eq!((g["black_score"].as_i64(), g["result_known"].as_bool()), (Some(i64::from(*score)), Some(true)));
        assert_eq!(g["decided"], *decided, "{g}");
    }
    let through: String = every[3].0.iter().map(|&m| name(8, m)).collect();
    let v = json(&archive, &["games", "--json", "--moves", &through]);
    assert_eq!((v["games"][0]["black_score"].as_i64(), v["games"][0]["decided"].as_str()), (Some(16), Some("stated")));
    // A GGF written from the archive states them again.
    let out_ggf = dir.path().join("out.ggf");
    let out = run(&archive, &["games", "--ggf", out_ggf.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&out_ggf).unwrap();
    for re in ["RE[-64:r]", "RE[+10:t]", "RE[+0:s]", "RE[+16]"] {
        assert!(text.contains(re), "{re}: {text}");
    }
}

/// Whether process `pid` catches SIGINT (Linux shows the caught signals in /proc).
fn catches_sigint(pid: u32) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let mask = status.lines().find_map(|l| l.strip_prefix("SigCgt:")).map(str::trim).unwrap_or("0");
    u64::from_str_radix(mask, 16).is_ok_and(|m| m & (1 << (2 - 1)) != 0)
}

/// Ctrl-C while `add` reads its files: the files read so far are added (their games counted as a
/// plain replay counts them), the rest left unread, and the report says so; exit code 130.
#[test]
fn ctrl_c_while_the_files_are_read_adds_those_read() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("a.oxar");
    let list = games(2000, 0x5eed);
    let text = ggf_text(&list);
    // The first file is long (its games ten times over), so the signal comes while it is read;
    // the others hold the same games (text outside the records is no game).
    let files: Vec<PathBuf> = (0..30)
        .map(|k| {
            let path = dir.path().join(format!("f{k:02}.ggf"));
            let body = if k == 0 { text.repeat(10) } else { format!("{text}file {k}\n") };
            std::fs::write(&path, body).unwrap();
            path
        })
        .collect();
    let child = Command::new(BIN)
        .arg("archive")
        .arg("--archive")
        .arg(&archive)
        .args(["add", "--json"])
        .args(&files)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let began = std::time::Instant::now();
    // SIGINT as soon as it is caught: `add` catches it before it reads the first file.
    while !catches_sigint(child.id()) {
        assert!(began.elapsed() < Duration::from_secs(60), "add never caught SIGINT");
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["interrupted"], true, "{v}");
    let added = v["files"].as_array().unwrap().len();
    let unread = v["unread"].as_u64().unwrap() as usize;
    assert!(added >= 1 && unread >= 1 && added + unread == files.len(), "{added} added, {unread} unread");
    // What was read is in the archive: the files, in order, and every distinct game (the later
    // files' games are the first one's).
    let stats = json(&archive, &["stats", "--json"]);
    let listed: Vec<&str> = stats["files"].as_array().unwrap().iter().map(|f| f["file"].as_str().unwrap()).collect();
    let read: Vec<String> = files[..added].iter().map(|f| f.display().to_string()).collect();
    assert_eq!(listed, read, "{stats}");
    let distinct: HashSet<&Vec<usize>> = list.iter().map(|(moves, _)| moves).collect();
    assert_eq!(stats["games"].as_u64().unwrap() as usize, distinct.len(), "{stats}");
}

/// A large file that is no archive (1.5 GiB, under the 2 GiB limit) is refused by its header,
/// before it is read whole: under a 400 MB data limit, one line, exit 2. Skipped with a notice
/// without `prlimit`.
#[test]
fn a_large_file_that_is_no_archive_is_refused_by_its_header_alone() {
    if Command::new("prlimit").arg("--version").output().is_err() {
        eprintln!("notice: no prlimit; skipping the memory-bound test");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let large = dir.path().join("large.oxar");
    // Sparse: no disk used.
    std::fs::File::create(&large).unwrap().set_len(1536 << 20).unwrap();
    for sub in ["stats", "show"] {
        let out = Command::new("prlimit")
            .arg("--data=400000000")
            .arg(BIN)
            .arg("archive")
            .arg("--archive")
            .arg(&large)
            .arg(sub)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{sub}: {err}");
        assert_eq!(err.lines().count(), 1, "{sub}: {err}");
        assert!(err.contains("large.oxar") && err.contains("no OXARCH header"), "{sub}: {err}");
    }
}
