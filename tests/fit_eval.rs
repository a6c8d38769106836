//! `fit-eval` on the real binary, against independent references:
//!
//! - `solved --play search`: every position's label is its exact score by plain negamax over the
//!   reference rules; the header names the run and the weights it was played with; a shard run
//!   again goes on from its last line, and the run is the same item for item however it was
//!   interrupted;
//! - `games-solve`: one position of every game, one the game reached in the range, with plain
//!   negamax's score; two shards (flag, Slurm) hold the whole run's lines; a file cut mid-line
//!   resumes to the same lines; the fit trains the solved positions in place of their games'
//!   results (the same count of positions, the solved ones counted) and checks its error against
//!   them (`--exact-check`);
//! - `train --freeze-from E --base W`: the stages from `E` empties on are `W`'s, entry for entry
//!   (read back by the library's own weights parser), and so are their check positions, while
//!   the stages below are refitted; with `--freeze-below` too, only the stages between move, and
//!   `--keep-lean` leaves each of them with the base's mean signed error on the held-out
//!   positions (computed here with the library's evaluation from the files written); a fit of
//!   narrower stages (`--bucket 2` from the shipped stages of 4) keeps each frozen stage as the
//!   base's stage that holds its empties;
//! - `train --checkpoint F`: a fit stopped after `--epochs-per-run` epochs (in either round) or by
//!   SIGTERM exits 3 with its state kept, and the same command run again, as often as it takes,
//!   ends with the weights and check positions of a fit never stopped, byte for byte; a
//!   checkpoint of other settings is refused and left as it was, a folder refused as a
//!   checkpoint;
//! - bad settings, unknown values, missing arguments and empty data directories: exit 2 and one
//!   line naming them.

mod reference;

use assert_cmd::Command;
use othello_explorer::eval::weights::Weights;
use reference::{Board, Side, negamax};
use std::path::{Path, PathBuf};

fn fit_eval() -> Command {
    Command::cargo_bin("fit-eval").expect("the training tool is built")
}

/// A reference board from a board string of `n * n` cells, `X` to move.
fn board_of(n: usize, cells: &str) -> Board {
    Board::from_cells(n, cells, Side::Black)
}

fn solved(out: &Path, positions: u32) {
    let positions = positions.to_string();
    let out = out.to_str().expect("a UTF-8 path");
    fit_eval()
        .args(["solved", "--size", "8", "--seed", "11", "--play", "search", "--shard", "1/1"])
        .args(["--positions", &positions, "--min-empties", "2", "--max-empties", "6", "--out", out])
        .assert()
        .success();
}

const SOLVED_FILE: &str = "solved-8x8-empties2-6-seed11-search-shard1of1.txt";

#[test]
fn search_played_positions_carry_their_exact_scores_and_a_run_resumes() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (first, whole) = (dir.path().join("first"), dir.path().join("whole"));
    solved(&first, 8);
    solved(&first, 16);
    solved(&whole, 16);
    let text = std::fs::read_to_string(first.join(SOLVED_FILE)).expect("the shard file");
    assert_eq!(text, std::fs::read_to_string(whole.join(SOLVED_FILE)).expect("the shard file"));
    let mut lines = text.lines();
    let header = lines.next().expect("a header");
    assert!(
        header.starts_with("# fit-eval solved v2 size 8 seed 11 shard 1/1 empties 2-6 play search weights "),
        "{header}"
    );
    let mut count = 0;
    for (g, line) in lines.enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words.len(), 4, "{line}");
        assert_eq!(words[0], g.to_string(), "{line}");
        assert_eq!(words[2], "X", "{line}");
        let board = board_of(8, words[1]);
        assert!((2..=6).contains(&board.empties()), "{line}");
        assert!(!board.moves().is_empty(), "a position with a move to play: {line}");
        assert_eq!(words[3].parse::<i32>().expect("a score"), negamax(&board), "{line}");
        count += 1;
    }
    assert_eq!(count, 16);
}

#[test]
fn every_move_runs_list_each_moves_exact_score_and_resume() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let run = |out: &Path, positions: &str| {
        fit_eval()
            .args(["solved", "--size", "8", "--seed", "12", "--play", "search", "--every-move", "--shard", "1/1"])
            .args(["--positions", positions, "--min-empties", "3", "--max-empties", "7", "--out"])
            .arg(out)
            .assert()
            .success();
    };
    let (first, whole) = (dir.path().join("first"), dir.path().join("whole"));
    run(&first, "6");
    run(&first, "12");
    run(&whole, "12");
    let name = "solved-8x8-empties3-7-seed12-search-every-move-shard1of1.txt";
    let text = std::fs::read_to_string(first.join(name)).expect("the shard file");
    assert_eq!(text, std::fs::read_to_string(whole.join(name)).expect("the shard file"));
    let mut lines = text.lines();
    let header = lines.next().expect("a header");
    assert!(header.starts_with("# fit-eval solved v2 size 8 seed 12 shard 1/1 empties 3-7 play search weights "));
    assert!(header.ends_with(" every-move"), "{header}");
    let mut children = 0;
    for (g, line) in lines.enumerate() {
        // `g BOARD X; MOVE:score; …`: every legal move once, best first, each score the
        // negation of the child's by plain negamax.
        let (index, rest) = line.split_once(' ').expect("an index");
        assert_eq!(index, g.to_string());
        let (board, listed) = rest.split_once(" X;").expect("the board, X to move, then the moves");
        let board = board_of(8, board);
        let mut scores = Vec::new();
        for entry in listed.split(';').map(str::trim).filter(|e| !e.is_empty()) {
            let (mv, score) = entry.split_once(':').expect("MOVE:score");
            let index = (0..64).find(|&i| reference::name(8, i) == mv.to_ascii_lowercase()).expect("a square");
            let score: i32 = score.parse().expect("a signed score");
            assert_eq!(score, -negamax(&board.play(index)), "{mv} in {line}");
            scores.push((index, score));
        }
        let mut listed_moves: Vec<usize> = scores.iter().map(|s| s.0).collect();
        listed_moves.sort_unstable();
        assert_eq!(listed_moves, board.moves(), "every legal move once: {line}");
        assert!(scores.windows(2).all(|w| w[0].1 >= w[1].1), "best first: {line}");
        children += scores.iter().filter(|&&(i, _)| !board.play(i).game_over()).count();
    }
    // net-data trains each position and each child that does not end the game, from its own
    // side: as many records as positions (12) and children; none kept from a game.
    let data = dir.path().join("records");
    fit_eval().args(["net-data", "--solved"]).arg(first.join(name)).arg("--out").arg(&data).assert().success();
    let records = |file: &str| std::fs::metadata(data.join(file)).expect("records").len() / 102;
    assert_eq!(records("train.bin") + records("valid.bin"), 12 + children as u64);
    // The sibling groups: each (first record, count) names children of one position (one empty
    // fewer than the record before them, the position's), their labels ascending (the moves
    // best first, each child's value the negation of its move's score); the groups of both
    // sets hold every line's children whose side to move has a move, where there are two or
    // more.
    let mut grouped = 0;
    for set in ["train", "valid"] {
        let bytes = std::fs::read(data.join(format!("{set}.bin"))).expect("records");
        let groups = std::fs::read(data.join(format!("groups-{set}.bin"))).expect("groups");
        let field = |r: usize, at: usize| bytes[r * 102 + at];
        for pair in groups.chunks(8) {
            let start = u32::from_le_bytes(pair[..4].try_into().unwrap()) as usize;
            let count = u32::from_le_bytes(pair[4..].try_into().unwrap()) as usize;
            assert!(count >= 2 && start >= 1 && (start + count) * 102 <= bytes.len());
            let parent_empties = field(start - 1, 97);
            let labels: Vec<i8> = (start..start + count).map(|r| field(r, 98) as i8).collect();
            assert!((start..start + count).all(|r| field(r, 97) + 1 == parent_empties && field(r, 99) == 4));
            assert!(labels.windows(2).all(|w| w[0] <= w[1]), "{labels:?}");
            grouped += count;
        }
    }
    let expected: usize = text
        .lines()
        .skip(1)
        .map(|line| {
            let board = board_of(8, line.split(' ').nth(1).expect("a board"));
            let moving = board.moves().into_iter().filter(|&m| !board.play(m).moves().is_empty()).count();
            if moving >= 2 { moving } else { 0 }
        })
        .sum();
    assert!(grouped > 0);
    assert_eq!(grouped, expected);
    // As a Slurm array of two tasks (the shard from the environment): the two files hold the
    // whole run's lines between them, each line as the run of one shard wrote it.
    let array = dir.path().join("array");
    for task in ["1", "2"] {
        let env = [("SLURM_ARRAY_TASK_ID", task), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_COUNT", "2")];
        let args = ["solved", "--size", "8", "--seed", "12", "--play", "search", "--every-move", "--positions", "6"];
        let out = array.to_str().expect("a UTF-8 path");
        as_batch_task(&args, &["--min-empties", "3", "--max-empties", "7", "--out", out], &env);
    }
    let mut lines: Vec<String> = ["1of2", "2of2"]
        .iter()
        .flat_map(|k| {
            let file = array.join(format!("solved-8x8-empties3-7-seed12-search-every-move-shard{k}.txt"));
            std::fs::read_to_string(file).expect("a shard file").lines().skip(1).map(str::to_string).collect::<Vec<_>>()
        })
        .collect();
    lines.sort_by_key(|l| l.split(' ').next().and_then(|g| g.parse::<u64>().ok()));
    assert_eq!(lines, text.lines().skip(1).map(str::to_string).collect::<Vec<_>>());
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The non-comment lines of a check file whose position has at least `empties` empty squares.
fn check_lines_from(path: &Path, empties: usize) -> Vec<String> {
    std::fs::read_to_string(path)
        .expect("a check file")
        .lines()
        .filter(|l| !l.starts_with('#') && l.split(' ').next().is_some_and(|b| b.matches('-').count() >= empties))
        .map(str::to_string)
        .collect()
}

/// `train --size 8 ARGS --base <the shipped weights>` on `positions` solved positions, in a
/// temporary directory (`data` and `out` in it): the directory, the base's weights and the fit's.
fn fit_from_base(positions: u32, args: &[&str]) -> (tempfile::TempDir, Weights, Weights) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let data = dir.path().join("data");
    solved(&data, positions);
    let out = dir.path().join("out");
    let base = repo("data/eval/weights-8.oxev");
    fit_eval()
        .args(["train", "--size", "8"])
        .args(args)
        .arg("--base")
        .arg(&base)
        .arg("--out")
        .arg(&out)
        .arg(&data)
        .assert()
        .success();
    let read = |path: &Path| Weights::from_bytes(8, &std::fs::read(path).expect("a weights file")).expect("weights");
    let (before, after) = (read(&base), read(&out.join("weights-8.oxev")));
    (dir, before, after)
}

#[test]
fn a_frozen_fit_keeps_the_base_stages_and_their_check_positions() {
    let (dir, before, after) = fit_from_base(40, &["--freeze-from", "12", "--epochs", "3"]);
    for stage in 3..16 {
        assert_eq!(before.stage(stage), after.stage(stage), "stage {stage} is frozen");
    }
    assert!((0..3).any(|stage| before.stage(stage) != after.stage(stage)), "the stages below 12 empties are refitted");
    let frozen = check_lines_from(&repo("data/eval/check-8.txt"), 12);
    assert!(!frozen.is_empty());
    assert_eq!(check_lines_from(&dir.path().join("out/check-8.txt"), 12), frozen);
}

#[test]
fn a_fit_of_narrower_stages_splits_the_base_stages_it_freezes() {
    let (_dir, before, after) = fit_from_base(40, &["--bucket", "2", "--freeze-from", "12", "--epochs", "3"]);
    assert_eq!((before.bucket(), after.bucket()), (4, 2));
    assert_eq!(after.stages().len(), 31, "stages of 0-1, 2-3, ... 58-59 and 60 or more empties");
    for stage in 6..31 {
        // Stage 6 is 12-13 empties, in the base's stage 3 (12-15); the last takes 60 and more.
        assert_eq!(after.stage(stage), before.stage((stage / 2).min(15)), "stage {stage} is the base's, split");
    }
    assert!((0..6).any(|stage| after.stage(stage) != before.stage(stage / 2)), "the stages below 12 are refitted");
}

#[test]
fn a_fit_between_two_frozen_ranges_moves_only_those_stages_and_keeps_the_base_lean() {
    let args = ["--freeze-below", "4", "--freeze-from", "8", "--keep-lean", "--epochs", "20"];
    let (dir, before, after) = fit_from_base(300, &args);
    let data = dir.path().join("data");
    for stage in (0..16).filter(|&s| s != 1) {
        assert_eq!(before.stage(stage), after.stage(stage), "stage {stage} is frozen");
    }
    assert_ne!(before.stage(1), after.stage(1), "the stage of 4-7 empties is refitted");
    // The held-out positions (index mod 10 = 9) of 4-7 empties: the mean signed error, in
    // discs, of both weights against the exact labels.
    let text = std::fs::read_to_string(data.join(SOLVED_FILE)).expect("the solved file");
    let (mut fitted, mut based, mut k) = (0.0, 0.0, 0);
    for line in text.lines().skip(1) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let index: u64 = words[0].parse().expect("an index");
        let position =
            othello_explorer::notation::obf::parse_board(&format!("{} {}", words[1], words[2])).expect("a board");
        let label: f64 = words[3].parse().expect("a score");
        if index % 10 != 9 || !(4..8).contains(&position.empty_count()) {
            continue;
        }
        let (p, o) = position.raw();
        let error = |w: &Weights| othello_explorer::eval::evaluate_fine_with::<8>(w, p, o) as f64 / 64.0 - label;
        fitted += error(&after);
        based += error(&before);
        k += 1;
    }
    assert!(k >= 5, "{k} held-out positions");
    let (fitted, based) = (fitted / k as f64, based / k as f64);
    assert!((fitted - based).abs() < 0.05, "mean signed error {fitted:+.3} against the base's {based:+.3}");
}

#[test]
fn bad_training_settings_exit_2_with_one_line() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let base = repo("data/eval/weights-8.oxev");
    // The settings are checked before any data is read; an empty directory is refused at once.
    let file = dir.path().join("solved-8x8-none.txt");
    let cases: [(Vec<&str>, &Path, &str); 4] = [
        (vec!["--freeze-from", "13", "--base", base.to_str().unwrap()], &file, "--freeze-from 13"),
        (vec!["--bucket", "3", "--base", base.to_str().unwrap()], &file, "which stages of 3 cannot split"),
        (vec!["--freeze-from", "12"], &file, "needs --base"),
        (vec![], dir.path(), "no games-8x8-*.oxg, selfplay-8x8-*.txt or solved-8x8-*.txt files"),
    ];
    for (args, data, says) in cases {
        let out = fit_eval()
            .args(["train", "--size", "8", "--out"])
            .arg(dir.path().join("out"))
            .args(&args)
            .arg(data)
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

#[test]
fn unknown_values_and_missing_arguments_exit_2_with_one_line() {
    for (args, says) in [
        (vec!["solved", "--play", "bogus"], "invalid value 'bogus' for '--play"),
        (vec!["train", "--size", "8"], "required arguments were not provided"),
        (vec!["train", "--size", "8", "--freeze-from", "x", "data"], "--freeze-from"),
        (vec!["net-data", "--out", "unused"], "nothing to make records of"),
    ] {
        let out = fit_eval().args(&args).output().expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("fit-eval: ") && stderr.contains(says), "{args:?}: {stderr}");
    }
}

/// Runs `fit-eval games` on 6x6 (cheap settings: depth 1, the solver from 8 empties) into `out`,
/// with `extra` arguments and environment.
fn games(out: &Path, count: u32, extra: &[&str], env: &[(&str, &str)]) {
    let out = out.to_str().expect("a UTF-8 path");
    let mut args = vec!["games", "--size", "6", "--seed", "3", "--depth", "1", "--exact", "8", "--out", out];
    let count = count.to_string();
    args.extend(["--games", count.as_str()]);
    as_batch_task(&args, extra, env);
}

/// Runs `fit-eval ARGS EXTRA` with the batch engines' variables of this process removed and
/// `env` set instead, and expects success.
fn as_batch_task(args: &[&str], extra: &[&str], env: &[(&str, &str)]) {
    let mut cmd = fit_eval();
    for var in ["SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_COUNT", "JOB_COMPLETION_INDEX"] {
        cmd.env_remove(var);
    }
    cmd.args(args).args(extra).envs(env.iter().copied()).assert().success();
}

fn merge(out: &Path, shards: &[PathBuf]) -> Vec<u8> {
    fit_eval().arg("games-merge").arg("--out").arg(out).args(shards).assert().success();
    std::fs::read(out).expect("the merged file")
}

/// A games file decoded here, independently of the tool: the header, then frames of
/// `u32 length, u32 games, zlib(records)`, a record being `u32 index, u8 opening plies, u8 moves,
/// a byte a move (its rank among the legal moves in reading order), i8 black's score`. Every game
/// is replayed by the reference rules: each move legal, the score the final board's, and from 8
/// empties on (where the solver plays) every move keeps plain negamax's value.
fn read_games(bytes: &[u8]) -> (String, Vec<(u32, Vec<usize>, i32)>) {
    use std::io::Read as _;
    let end = bytes.iter().position(|&b| b == b'\n').expect("a header line");
    let header = String::from_utf8(bytes[..end].to_vec()).expect("a text header");
    let (mut at, mut out) = (end + 1, Vec::new());
    while at < bytes.len() {
        let len = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let count = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
        let mut records = Vec::new();
        flate2::read::ZlibDecoder::new(&bytes[at + 8..at + 8 + len]).read_to_end(&mut records).expect("zlib");
        at += 8 + len;
        let mut r = &records[..];
        for _ in 0..count {
            let index = u32::from_le_bytes(r[..4].try_into().unwrap());
            let (opening, moves) = (r[4] as usize, r[5] as usize);
            assert!(opening <= moves, "game {index}: the opening is part of the game");
            let score = r[6 + moves] as i8 as i32;
            let mut board = reference::Board::start(6);
            let mut squares = Vec::new();
            for (k, &rank) in r[6..6 + moves].iter().enumerate() {
                if board.must_pass() {
                    board = board.pass();
                }
                let legal = board.moves();
                let square = legal[rank as usize];
                let next = board.play(square);
                if board.empties() <= 8 {
                    assert_eq!(-negamax(&next), negamax(&board), "game {index}, move {k}: a perfect move");
                }
                board = next;
                squares.push(square);
            }
            assert!(board.game_over(), "game {index} ends");
            let black = if board.to_move == Side::Black { board.final_score() } else { -board.final_score() };
            assert_eq!(black, score, "game {index}: black's final score");
            out.push((index, squares, score));
            r = &r[7 + moves..];
        }
        assert!(r.is_empty());
    }
    (header, out)
}

#[test]
fn game_shards_from_the_batch_engines_merge_into_the_whole_run_and_a_killed_shard_resumes() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let d = dir.path();
    // The whole run in one shard.
    games(&d.join("whole"), 9, &["--shard", "1/1"], &[]);
    let whole_file = d.join("whole/games-6x6-seed3-shard1of1.oxg");
    let whole = merge(&d.join("whole.oxg"), std::slice::from_ref(&whole_file));
    // Three shards: one from --shard, one from a Slurm array, one from a Kubernetes Indexed Job.
    games(&d.join("split"), 9, &["--shard", "1/3"], &[]);
    games(
        &d.join("split"),
        9,
        &[],
        &[("SLURM_ARRAY_TASK_ID", "2"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_COUNT", "3")],
    );
    games(&d.join("split"), 9, &["--shards", "3"], &[("JOB_COMPLETION_INDEX", "2")]);
    let shards: Vec<PathBuf> = (1..=3).map(|i| d.join(format!("split/games-6x6-seed3-shard{i}of3.oxg"))).collect();
    let (_, first) = read_games(&std::fs::read(&shards[0]).unwrap());
    assert_eq!(first.iter().map(|g| g.0).collect::<Vec<_>>(), [0, 3, 6], "shard 1 of 3 holds games 0, 3, 6");
    let split = merge(&d.join("split.oxg"), &shards);
    assert_eq!(split, whole, "three shards merged are the whole run, byte for byte");
    let (header, games_read) = read_games(&whole);
    assert!(header.starts_with("# othello-explorer games v1 size 6 seed 3 shard all depth 1 exact 8 "), "{header}");
    assert_eq!(games_read.iter().map(|g| g.0).collect::<Vec<_>>(), (0..9).collect::<Vec<_>>());
    // A shard stopped early, then killed in the middle of a frame, goes on to the same games.
    games(&d.join("resumed"), 4, &["--shard", "1/1"], &[]);
    games(&d.join("resumed"), 7, &["--shard", "1/1"], &[]);
    let file = d.join("resumed/games-6x6-seed3-shard1of1.oxg");
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() - 5]).unwrap();
    games(&d.join("resumed"), 9, &["--shard", "1/1"], &[]);
    assert_eq!(read_games(&std::fs::read(&file).unwrap()).1, games_read);
    assert_eq!(merge(&d.join("resumed.oxg"), &[file]), whole);
    // Shards of two runs do not merge; a shard of another run is not continued.
    games(&d.join("other"), 3, &["--shard", "1/3", "--margin", "0"], &[]);
    let other = d.join("other/games-6x6-seed3-shard1of3.oxg");
    fit_eval().arg("games-merge").arg("--out").arg(d.join("x.oxg")).arg(&other).arg(&shards[1]).assert().code(2);
    std::fs::copy(&other, &shards[0]).unwrap();
    fit_eval()
        .args(["games", "--size", "6", "--seed", "3", "--depth", "1", "--exact", "8", "--games", "9", "--shard", "1/3"])
        .arg("--out")
        .arg(d.join("split"))
        .assert()
        .code(2);
}

/// The board string of `board` with its side to move as `X` (the solved files' convention).
fn mover_string(board: &reference::Board) -> String {
    board
        .cells
        .iter()
        .map(|c| match c {
            Some(s) if *s == board.to_move => 'X',
            Some(_) => 'O',
            None => '-',
        })
        .collect()
}

/// `games-solve` on `source` into `out` (positions of 9-10 empties, seed 5).
fn games_solve(source: &Path, out: &Path, extra: &[&str], env: &[(&str, &str)]) {
    let (source, out) = (source.to_str().expect("a UTF-8 path"), out.to_str().expect("a UTF-8 path"));
    let args = ["games-solve", source, "--min-empties", "9", "--max-empties", "10", "--seed", "5", "--out", out];
    as_batch_task(&args, extra, env);
}

#[test]
fn games_solve_labels_one_position_of_every_game_exactly_in_shards_that_resume() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let d = dir.path();
    // Six 6x6 games whose perfect lines begin at 8 empties: positions of 9-10 empties carry only
    // the game's result until they are solved.
    games(&d.join("games"), 6, &["--shard", "1/1"], &[]);
    let source = d.join("games/games-6x6-seed3-shard1of1.oxg");
    let (_, played) = read_games(&std::fs::read(&source).unwrap());
    let name = |shard: &str| format!("solved-6x6-empties9-10-seed5-from-games-6x6-seed3-shard1of1-shard{shard}.txt");

    games_solve(&source, &d.join("whole"), &["--shard", "1/1"], &[]);
    let whole = std::fs::read_to_string(d.join("whole").join(name("1of1"))).expect("the labels");
    let mut lines = whole.lines();
    let header = lines.next().expect("a header");
    assert!(
        header.starts_with("# fit-eval solved v3 size 6 seed 5 shard 1/1 empties 9-10 from othello-explorer games v1 size 6 seed 3 shard 1/1 "),
        "{header}"
    );
    let body: Vec<&str> = lines.collect();
    assert_eq!(body.len(), played.len(), "one line a game");
    for (line, (index, squares, _)) in body.iter().zip(&played) {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[0], index.to_string(), "a line starts with its game's index: {line}");
        if words[1] == "none" {
            continue;
        }
        assert_eq!((words.len(), words[2]), (4, "X"), "{line}");
        // The position is one the game reached, with a move to play, in the range.
        let mut board = reference::Board::start(6);
        let mut reached = Vec::new();
        for &square in squares {
            if board.must_pass() {
                board = board.pass();
            }
            reached.push(mover_string(&board));
            board = board.play(square);
        }
        assert!(reached.iter().any(|b| b == words[1]), "game {index} reached {line}");
        let position = board_of(6, words[1]);
        assert!((9..=10).contains(&position.empties()) && !position.moves().is_empty(), "{line}");
        assert_eq!(words[3].parse::<i32>().expect("a score"), negamax(&position), "{line}");
    }
    assert!(body.iter().filter(|l| !l.contains("none")).count() >= 5, "the games reach 9-10 empties");

    // Two shards, one from --shard and one from a Slurm array, hold the whole run's lines.
    games_solve(&source, &d.join("split"), &["--shard", "1/2"], &[]);
    games_solve(&source, &d.join("split"), &[], &[("SLURM_ARRAY_TASK_ID", "1"), ("SLURM_ARRAY_TASK_COUNT", "2")]);
    let mut split: Vec<String> = ["1of2", "2of2"]
        .iter()
        .flat_map(|s| {
            let text = std::fs::read_to_string(d.join("split").join(name(s))).expect("a shard");
            text.lines().skip(1).map(str::to_string).collect::<Vec<_>>()
        })
        .collect();
    split.sort_by_key(|l| l.split(' ').next().unwrap().parse::<u32>().unwrap());
    assert_eq!(split, body);

    // The fit trains a solved position on its exact score in place of its game's result: the
    // same positions with and without the labels, the solved ones counted.
    let counts = |data: &[&Path]| -> String {
        let out = fit_eval()
            .args(["train", "--size", "6", "--epochs", "1", "--bootstrap-depth", "0", "--out"])
            .arg(d.join("fit"))
            .args(data)
            .output()
            .expect("train runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stderr).lines().next().unwrap_or("").split(" (").next().unwrap().to_string()
    };
    let solved = body.iter().filter(|l| !l.contains("none")).count();
    let alone = counts(&[&source]);
    let (games_part, positions) = alone.rsplit_once(": ").expect("a count line");
    assert_eq!(games_part, "6x6: 6 games, 0 solved positions", "{alone}");
    assert_eq!(counts(&[&source, &d.join("whole")]), format!("6x6: 6 games, {solved} solved positions: {positions}"));

    // As an exact check, the solved positions are counted in the table of errors against exact
    // values, stage by stage.
    let out = fit_eval()
        .args(["train", "--size", "6", "--epochs", "1", "--bootstrap-depth", "0", "--out"])
        .arg(d.join("fit"))
        .arg("--exact-check")
        .arg(d.join("whole").join(name("1of1")))
        .arg(&source)
        .output()
        .expect("train runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let table = stdout.split("| exact positions |").nth(1).expect("the exact table");
    let checked: usize = table
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.split('|').nth(3).unwrap().trim().parse::<usize>().unwrap())
        .sum();
    assert_eq!(checked, solved, "{stdout}");

    // A file cut in the middle of a line goes on to the same lines.
    let path = d.join("whole").join(name("1of1"));
    let cut = whole.lines().take(3).map(|l| format!("{l}\n")).collect::<String>() + &body[3][..5];
    std::fs::write(&path, cut).unwrap();
    games_solve(&source, &d.join("whole"), &["--shard", "1/1"], &[]);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), whole);
}

/// `fit-eval train --size 6 ARGS DATA`, its exit code and standard error.
fn train_6(args: &[&str], data: &Path) -> (Option<i32>, String) {
    let out = fit_eval().args(["train", "--size", "6"]).args(args).arg(data).output().expect("train runs");
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn a_fit_stopped_by_its_epoch_limit_or_a_signal_goes_on_from_its_checkpoint_to_the_same_weights() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let d = dir.path();
    games(&d.join("g"), 60, &["--shard", "1/1"], &[]);
    let data = d.join("g");
    let path = |name: &str| d.join(name).to_str().expect("a UTF-8 path").to_string();
    let (whole, pieces, state) = (path("whole"), path("pieces"), path("state"));
    // Two rounds of 12 epochs, the second on labels relabelled by a 2-ply search.
    let fit = ["--epochs", "12", "--bootstrap-depth", "2"];
    let (code, stderr) = train_6(&[&fit[..], &["--out", &whole]].concat(), &data);
    assert_eq!(code, Some(0), "{stderr}");

    // Five epochs a run: stopped in round one at 5 and 10, in round two at 3 and 8, done in the
    // fifth run.
    let piece = [&fit[..], &["--out", &pieces, "--checkpoint", &state, "--epochs-per-run", "5"]].concat();
    for (round, epoch) in [(1, 5), (1, 10), (2, 3), (2, 8)] {
        let (code, stderr) = train_6(&piece, &data);
        assert_eq!(code, Some(3), "{stderr}");
        let last = stderr.lines().last().unwrap_or("");
        assert!(last.starts_with(&format!("stopped in round {round} at epoch {epoch} of 12")), "{stderr}");
        assert!(Path::new(&state).is_file() && !d.join("pieces").join("weights-6.oxev").exists());
    }
    let (code, stderr) = train_6(&piece, &data);
    assert_eq!(code, Some(0), "{stderr}");
    for file in ["weights-6.oxev", "check-6.txt"] {
        let read = |dir: &str| std::fs::read(Path::new(dir).join(file)).expect("written");
        assert!(read(&whole) == read(&pieces), "{file} differs from the fit never stopped");
    }
    assert!(!Path::new(&state).exists(), "the finished fit's state is removed");

    // A fit that never stops nor reaches its tenth epoch writes no state, and ends as usual.
    let short = ["--epochs", "3", "--bootstrap-depth", "0", "--out", &pieces, "--checkpoint", &path("short")];
    let (code, stderr) = train_6(&short, &data);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!d.join("short").exists());

    // A kept state of one fit is no other fit's: refused, and left as it was.
    let (code, _) = train_6(&piece, &data);
    assert_eq!(code, Some(3));
    let kept = std::fs::read(&state).expect("the state");
    let other = ["--epochs", "12", "--bootstrap-depth", "2", "--prior", "5", "--out", &pieces, "--checkpoint", &state];
    let (code, stderr) = train_6(&other, &data);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.lines().last().unwrap_or("").contains("the checkpoint of another fit"), "{stderr}");
    assert_eq!(std::fs::read(&state).expect("the state"), kept);
    let (code, stderr) = train_6(&[&fit[..], &["--out", &pieces, "--checkpoint", &path("g")]].concat(), &data);
    assert_eq!((code, stderr.lines().count()), (Some(2), 1), "{stderr}");
    assert!(stderr.contains("a folder, not a regular file"), "{stderr}");

    // SIGTERM ends the epoch under way and keeps the state; the next run goes on from there.
    let long = ["--epochs", "1000000", "--bootstrap-depth", "0", "--out", &pieces, "--checkpoint", &path("long")];
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_fit-eval"))
        .args(["train", "--size", "6"])
        .args(long)
        .arg(&data)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("train starts");
    std::thread::sleep(std::time::Duration::from_secs(2));
    let killed = std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().expect("train ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    let epoch: usize = stderr
        .lines()
        .last()
        .and_then(|l| l.strip_prefix("stopped in round 1 at epoch "))
        .and_then(|l| l.split(' ').next())
        .and_then(|e| e.parse().ok())
        .unwrap_or_else(|| panic!("{stderr}"));
    let (code, stderr) = train_6(&[&long[..], &["--epochs-per-run", "1"]].concat(), &data);
    assert_eq!(code, Some(3), "{stderr}");
    assert!(stderr.contains(&format!("resumed from the checkpoint: round 1, epoch {epoch} of 1000000")), "{stderr}");
    assert!(stderr.lines().last().unwrap_or("").starts_with(&format!("stopped in round 1 at epoch {}", epoch + 1)));
}

/// Whether a Slurm node takes jobs here (`scripts/slurm-local` starts one; `.ci/run` runs it).
fn slurm_ready() -> bool {
    std::process::Command::new("sinfo").args(["-h", "-o", "%T"]).output().is_ok_and(|o| {
        o.status.success()
            && String::from_utf8_lossy(&o.stdout).lines().any(|l| ["idle", "mixed", "allocated"].contains(&l.trim()))
    })
}

/// Submits `command` as a Slurm job array of `tasks` tasks with `sbatch --wait`, logs in `dir`.
fn slurm_array(dir: &Path, name: &str, tasks: u32, command: &str) {
    let script = dir.join(format!("{name}.sbatch"));
    let body = format!(
        "#!/bin/bash\n#SBATCH --job-name=othello-{name}\n#SBATCH --array=0-{}\n#SBATCH --cpus-per-task=1\n#SBATCH --output={}/{name}-%a.log\nexec {command}\n",
        tasks - 1,
        dir.display()
    );
    std::fs::write(&script, body).expect("the batch script");
    let out = std::process::Command::new("sbatch").arg("--wait").arg(&script).output().expect("sbatch runs");
    let logs: String =
        (0..tasks).map(|k| std::fs::read_to_string(dir.join(format!("{name}-{k}.log"))).unwrap_or_default()).collect();
    assert!(out.status.success(), "sbatch --wait {name}: {}\n{logs}", String::from_utf8_lossy(&out.stderr));
}

/// The lines of label files after their headers, sorted by game index.
fn label_lines(files: &[PathBuf]) -> Vec<String> {
    let mut lines: Vec<String> = files
        .iter()
        .flat_map(|f| {
            std::fs::read_to_string(f).expect("a label file").lines().skip(1).map(String::from).collect::<Vec<_>>()
        })
        .collect();
    lines.sort_by_key(|l| l.split_whitespace().next().and_then(|g| g.parse::<u64>().ok()));
    lines
}

#[test]
fn games_and_labels_run_unchanged_as_slurm_job_arrays() {
    if !slurm_ready() {
        eprintln!("skipped: no Slurm node takes jobs here (scripts/slurm-local starts one)");
        return;
    }
    // Slurm's tasks run on this machine as this user: a folder they can reach.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let d = dir.path();
    let fe = assert_cmd::cargo::cargo_bin("fit-eval");
    let fe = fe.display();
    // The games: three array tasks, each its shard from SLURM_ARRAY_TASK_*, then merged.
    slurm_array(
        d,
        "games",
        3,
        &format!("{fe} games --size 6 --seed 3 --depth 1 --exact 8 --games 9 --out {}/split", d.display()),
    );
    games(&d.join("whole"), 9, &["--shard", "1/1"], &[]);
    let whole = merge(&d.join("whole.oxg"), &[d.join("whole/games-6x6-seed3-shard1of1.oxg")]);
    let shards: Vec<PathBuf> = (1..=3).map(|i| d.join(format!("split/games-6x6-seed3-shard{i}of3.oxg"))).collect();
    assert_eq!(merge(&d.join("split.oxg"), &shards), whole, "the array's shards merged are the whole run");
    // The labels: two array tasks over the merged games, against one process labelling them all.
    let label = |out: &str| {
        format!(
            "{fe} label {} --per-game 2 --min-empties 6 --max-empties 14 --depth 2 --exact 10 --hash-mb 4 --out {}/{out}",
            d.join("whole.oxg").display(),
            d.display()
        )
    };
    slurm_array(d, "labels", 2, &label("labels-split"));
    let whole_args: Vec<String> = label("labels-whole").split_whitespace().skip(1).map(String::from).collect();
    as_batch_task(&whole_args.iter().map(String::as_str).collect::<Vec<_>>(), &["--shard", "1/1"], &[]);
    let files = |sub: &str| -> Vec<PathBuf> {
        let mut f: Vec<PathBuf> =
            std::fs::read_dir(d.join(sub)).expect("labels").map(|e| e.expect("entry").path()).collect();
        f.sort();
        f
    };
    let split = files("labels-split");
    assert_eq!(split.len(), 2, "one label file per task");
    let lines = label_lines(&split);
    assert_eq!(lines, label_lines(&files("labels-whole")), "the two tasks hold the whole run's labels");
    // Every label of at most 10 empties is the exact score by plain negamax over the reference rules.
    let (_, games) = read_games(&std::fs::read(d.join("whole.oxg")).expect("the merged games"));
    let mut exact = 0;
    for line in &lines {
        let mut words = line.split_whitespace();
        let g: u32 = words.next().and_then(|w| w.parse().ok()).expect("a game index");
        let (_, squares, _) = games.iter().find(|x| x.0 == g).expect("a labelled game");
        for word in words {
            let parts: Vec<i32> = word.split(':').map(|x| x.parse().expect("a number")).collect();
            let mut board = Board::start(6);
            for &square in &squares[..parts[0] as usize] {
                if board.must_pass() {
                    board = board.pass();
                }
                board = board.play(square);
            }
            if board.must_pass() {
                board = board.pass();
            }
            assert!((6..=14).contains(&board.empties()), "game {g} ply {}: in the range", parts[0]);
            if board.empties() <= 10 {
                assert_eq!(parts[1], negamax(&board), "game {g} ply {}: the exact score", parts[0]);
                exact += 1;
            }
        }
    }
    assert!(exact > 0, "some labels are exact");
}
