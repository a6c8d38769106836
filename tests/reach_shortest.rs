//! Reachability and the shortest games, against the square-by-square reference rules: the
//! transcripts `reach` finds replay to the board; its refusals agree with an enumeration of every
//! game on 4x4; `shortest` agrees with a plain enumeration of every game on 4x4, and with a plain
//! depth-first count of the 9-move wipe-outs on 6x6 and 8x8 (9 moves on 8x8: a published fact);
//! the ten 20-move draws of Yamana (2024) check. Long searches report their progress with their
//! bounds (monotone counts from the library; on a terminal, in tmux, a line on standard error that
//! is cleared before the answer).

mod common;
mod reference;
mod tmux;

use common::{size_of, to_position};
use othello_explorer::board::rules::{flips, legal_moves};
use othello_explorer::studies::reach::{self, Limits, Outcome, Refusal, least_wipeout_moves};
use othello_explorer::studies::shortest::{self, Ending};
use othello_explorer::{Position, Size, Square};
use reference::{Board, Rng, Side, random_game};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::AtomicBool;

/// Replays `moves` on the reference board, passing where the side to move has no move.
fn replay(n: usize, moves: &[Square]) -> Board {
    let mut b = Board::start(n);
    for m in moves {
        if b.moves().is_empty() {
            b = b.pass();
        }
        let index = m.row() * n + m.col();
        assert!(b.moves().contains(&index), "{m} is not legal in {}", b.board_string());
        b = b.play(index);
    }
    if b.must_pass() { b.pass() } else { b }
}

fn same_board(a: &Board, b: &Board) -> bool {
    a.cells == b.cells && (a.game_over() || a.to_move == b.to_move)
}

#[test]
fn boards_from_random_play_are_reached_by_a_transcript_that_replays_to_them() {
    let stop = AtomicBool::new(false);
    let mut rng = Rng(17);
    for n in [4, 6, 8] {
        for length in [0, 1, 3, 6, 10, 14, 20] {
            for _ in 0..4 {
                let (_, end) = random_game(&Board::start(n), &mut rng, length);
                let target = if end.must_pass() { end.pass() } else { end.clone() };
                let outcome = reach::reach(&to_position(&target), &Limits::default(), &stop);
                let Outcome::Found { moves, .. } = outcome else {
                    panic!("{}: {outcome:?}", target.board_string());
                };
                let discs = n * n - target.empties() as usize;
                assert_eq!(moves.len(), discs - 4);
                let replayed = replay(n, &moves);
                assert!(same_board(&replayed, &target), "{} from {moves:?}", target.board_string());
            }
        }
    }
}

/// Every position reachable on 4x4 (after forced passes), by playing every game with the
/// reference rules.
fn every_4x4_position() -> HashSet<(u64, u64, bool)> {
    fn walk(b: &Board, seen: &mut HashSet<(u64, u64, bool)>) {
        let b = if b.must_pass() { b.pass() } else { b.clone() };
        let over = b.game_over();
        // A finished game is kept with black "to move": its side does not count.
        let key = (b.black_bits(), b.white_bits(), over || b.to_move == Side::Black);
        if !seen.insert(key) || over {
            return;
        }
        for m in b.moves() {
            walk(&b.play(m), seen);
        }
    }
    let mut seen = HashSet::new();
    walk(&Board::start(4), &mut seen);
    seen
}

#[test]
fn on_4x4_reach_agrees_with_every_game_played_out() {
    let reachable = every_4x4_position();
    let stop = AtomicBool::new(false);
    let mut rng = Rng(5);
    let (mut found, mut refused) = (0, 0);
    // Boards from random games, some with one disc's colour changed, and boards at random (the
    // centre filled, each other square empty, black or white).
    let mut searched = 0;
    for round in 0..3000 {
        let mut b = Board::start(4);
        if round % 3 == 2 {
            for i in 0..16 {
                if b.cells[i].is_none() {
                    b.cells[i] = match rng.below(3) {
                        0 => None,
                        1 => Some(Side::Black),
                        _ => Some(Side::White),
                    };
                }
            }
        } else {
            let length = rng.below(13);
            b = random_game(&Board::start(4), &mut rng, length).1;
            if round % 3 == 1 {
                let discs: Vec<usize> = (0..16).filter(|&i| b.cells[i].is_some()).collect();
                let i = discs[rng.below(discs.len())];
                b.cells[i] = b.cells[i].map(Side::other);
            }
        }
        b.to_move = if rng.below(2) == 0 { Side::Black } else { Side::White };
        let normal = if b.must_pass() { b.pass() } else { b.clone() };
        let over = normal.game_over();
        let key = (normal.black_bits(), normal.white_bits(), over || normal.to_move == Side::Black);
        let expected = reachable.contains(&key);
        match reach::reach(&to_position(&b), &Limits::default(), &stop) {
            Outcome::Found { moves, .. } => {
                assert!(expected, "found a line to an unreachable board {}", b.board_string());
                assert!(same_board(&replay(4, &moves), &normal));
                found += 1;
            }
            Outcome::Unreachable { nodes, .. } => {
                assert!(!expected, "refused a reachable board {}", b.board_string());
                refused += 1;
                searched += usize::from(nodes > 0);
            }
            other => panic!("{}: {other:?}", b.board_string()),
        }
    }
    assert!(found > 500 && refused > 500 && searched > 100, "{found} found, {refused} refused ({searched} by search)");
}

#[test]
fn cut_off_boards_are_refused_by_the_cheap_arguments() {
    let stop = AtomicBool::new(false);
    let refuse = |board: &str| match reach::reach(
        &othello_explorer::notation::obf::parse_board(board).unwrap(),
        &Limits::default(),
        &stop,
    ) {
        Outcome::Unreachable { reason, nodes } => {
            assert_eq!(nodes, 0, "{board}: a cheap argument should settle it");
            reason
        }
        other => panic!("{board}: {other:?}"),
    };
    let e = "-".repeat(8);
    // The start plus a disc on h8, far from the rest.
    let cut = format!("{e}{e}{e}---OX---{}---XO---{e}{e}-------X X", "");
    assert!(matches!(refuse(&cut), Refusal::NotConnected(sq) if sq.to_string() == "h8"));
    // d4 empty.
    let hole = format!("{e}{e}{e}----X---{}---XO---{e}{e}{e} X", "");
    assert!(matches!(refuse(&hole), Refusal::CentreEmpty(sq) if sq.to_string() == "d4"));
    // A fifth disc that flipped nothing: nobody has three in a row.
    let lone = format!("{e}{e}{e}---OX---{}---XOX--{e}{e}{e} O", "");
    assert_eq!(refuse(&lone), Refusal::NoThreeInARow);
    // Six black discs and no white one: a wipe-out in 2 moves.
    let early = format!("{e}{e}{e}---XXX--{}---XXX--{e}{e}{e} O", "");
    assert_eq!(refuse(&early), Refusal::WipeoutTooSoon { moves: 2, least: 9 });
}

#[test]
fn the_twenty_move_draws_are_reached() {
    let stop = AtomicBool::new(false);
    let text = std::fs::read_to_string("data/shortest/draws-20-8x8.txt").unwrap();
    for line in text.lines().filter(|l| !l.starts_with(';')) {
        let end = othello_explorer::notation::transcript::play(&Position::start(Size::Eight), line).unwrap().end();
        let Outcome::Found { moves, .. } = reach::reach(&end, &Limits::default(), &stop) else { panic!("{line}") };
        let replayed = replay(8, &moves);
        assert_eq!((replayed.black_bits(), replayed.white_bits()), (end.black().bits(), end.white().bits()));
    }
}

/// Every game on 4x4 played to its end with the reference rules: for each length, the finished
/// games (their final boards) by ending.
fn every_4x4_game() -> Vec<(usize, Board)> {
    fn walk(b: &Board, moves: usize, out: &mut Vec<(usize, Board)>) {
        let b = if b.must_pass() { b.pass() } else { b.clone() };
        if b.game_over() {
            out.push((moves, b));
            return;
        }
        for m in b.moves() {
            walk(&b.play(m), moves + 1, out);
        }
    }
    let mut out = Vec::new();
    walk(&Board::start(4), 0, &mut out);
    out
}

#[test]
fn on_4x4_shortest_agrees_with_every_game_played_out() {
    let games = every_4x4_game();
    let stop = AtomicBool::new(false);
    for ending in [Ending::Draw, Ending::Wipeout, Ending::Any] {
        let fits = |b: &Board| match ending {
            Ending::Draw => b.count(Side::Black) == b.count(Side::White),
            Ending::Wipeout => b.count(Side::Black) == 0 || b.count(Side::White) == 0,
            Ending::Any => true,
        };
        let least = games.iter().filter(|(_, b)| fits(b)).map(|(m, _)| *m).min().unwrap();
        let shortest: Vec<&Board> = games.iter().filter(|(m, b)| *m == least && fits(b)).map(|(_, b)| b).collect();
        let finals: HashSet<(u64, u64)> = shortest.iter().map(|b| (b.black_bits(), b.white_bits())).collect();
        let shortest::Outcome::Found(found) = shortest::shortest(Size::Four, ending, &Default::default(), &stop) else {
            panic!("{ending}")
        };
        assert_eq!(found.moves as usize, least, "{ending}");
        assert_eq!(found.games as usize, shortest.len(), "{ending}");
        let ours: HashSet<(u64, u64)> = found.finals.iter().map(|p| (p.black().bits(), p.white().bits())).collect();
        assert_eq!(ours, finals, "{ending}");
        // --all lists each game once, and each replays to one of those ends.
        let listed = found.games(usize::MAX);
        assert_eq!(listed.len(), shortest.len());
        assert_eq!(listed.iter().collect::<HashSet<_>>().len(), listed.len());
        for g in &listed {
            let end = replay(4, g);
            assert!(end.game_over() && finals.contains(&(end.black_bits(), end.white_bits())));
        }
    }
    assert_eq!(least_wipeout_moves(Size::Four), 10);
}

/// The games of exactly `depth` moves from the start that end in a wipe-out after their last
/// move, and whether any game ends in a wipe-out sooner: a plain depth-first walk of every game.
fn plain_wipeouts<const N: usize>(depth: u32) -> (u64, bool) {
    fn walk<const N: usize>(p: u64, o: u64, left: u32, count: &mut u64, sooner: &mut bool) {
        let mut moves = legal_moves::<N>(p, o);
        if moves == 0 {
            if legal_moves::<N>(o, p) != 0 {
                return walk::<N>(o, p, left, count, sooner);
            }
            if p == 0 || o == 0 {
                if left == 0 { *count += 1 } else { *sooner = true }
            }
            return;
        }
        if left == 0 {
            return;
        }
        while moves != 0 {
            let sq = moves.trailing_zeros();
            moves &= moves - 1;
            let f = flips::<N>(p, o, sq);
            walk::<N>(o ^ f, p ^ f ^ (1 << sq), left - 1, count, sooner);
        }
    }
    let start = Position::start(size_of(N));
    let (mut count, mut sooner) = (0, false);
    walk::<N>(start.black().bits(), start.white().bits(), depth, &mut count, &mut sooner);
    (count, sooner)
}

#[test]
fn the_shortest_wipe_outs_on_6x6_and_8x8_match_a_plain_count() {
    let stop = AtomicBool::new(false);
    for size in [Size::Six, Size::Eight] {
        let shortest::Outcome::Found(found) = shortest::shortest(size, Ending::Wipeout, &Default::default(), &stop)
        else {
            panic!("{size}")
        };
        assert_eq!(found.moves, least_wipeout_moves(size));
        let (count, sooner) = match size {
            Size::Six => plain_wipeouts::<6>(found.moves),
            _ => plain_wipeouts::<8>(found.moves),
        };
        assert!(!sooner, "{size}: a shorter wipe-out exists");
        assert_eq!(found.games, count, "{size}");
    }
    assert_eq!(least_wipeout_moves(Size::Eight), 9, "the published shortest game on 8x8");
}

#[test]
fn the_article_s_ten_draws_verify_and_a_changed_one_does_not() {
    let text = std::fs::read_to_string("data/shortest/draws-20-8x8.txt").unwrap();
    let v = shortest::verify(Size::Eight, Ending::Draw, 20, &text);
    assert!(v.passed());
    assert_eq!((v.records.len(), v.finals_up_to_symmetry), (10, 10));
    // Cut after 18 moves: not over. A wrong move: illegal. Claimed 22: shorter.
    let bad = "f5f4c3f6g7f7f3h7f8b2h6e7h8e3d7g3f2f1\nf5f5\n";
    let v = shortest::verify(Size::Eight, Ending::Draw, 20, bad);
    assert!(!v.passed());
    assert!(matches!(v.records[0].result, Err(shortest::RecordProblem::NotOver)));
    assert!(matches!(v.records[1].result, Err(shortest::RecordProblem::Illegal(_))));
    let first = text.lines().find(|l| !l.starts_with(';')).unwrap();
    let v = shortest::verify(Size::Eight, Ending::Draw, 22, first);
    assert!(matches!(v.records[0].result, Err(shortest::RecordProblem::Shorter { moves: 20 })));
}

#[test]
fn a_search_that_outgrows_its_memory_stops_undecided() {
    let stop = AtomicBool::new(false);
    let limits = shortest::Limits { max_moves: 60, max_positions: 20_000 };
    match shortest::shortest_by(shortest::Method::Layers, Size::Eight, Ending::Draw, &limits, &stop) {
        shortest::Outcome::TooLarge { searched_moves, positions, .. } => {
            assert!(searched_moves >= 5 && positions > 20_000);
        }
        other => panic!("{other:?}"),
    }
    // A board far too deep for a tiny node budget: undecided, not wrong.
    let mut rng = Rng(3);
    let (_, end) = random_game(&Board::start(8), &mut rng, 40);
    let tiny = Limits { max_nodes: 10, ..Limits::default() };
    let outcome = reach::reach(&to_position(&end), &tiny, &stop);
    assert!(matches!(outcome, Outcome::GaveUp { .. } | Outcome::Found { .. }), "{outcome:?}");
}

#[test]
fn layers_count_distinct_positions_like_a_plain_walk() {
    // The positions after k moves on 6x6, by a plain walk with a set, for k up to 6.
    let stop = AtomicBool::new(false);
    let shortest::Outcome::Found(found) = shortest::shortest(Size::Six, Ending::Any, &Default::default(), &stop) else {
        panic!()
    };
    let mut layer: HashMap<(u64, u64, bool), ()> = HashMap::new();
    let start = Board::start(6);
    layer.insert((start.black_bits(), start.white_bits(), true), ());
    for k in 1..=6 {
        let mut next = HashMap::new();
        for &(b, w, black) in layer.keys() {
            let board = Board::from_bits(6, b, w, if black { Side::Black } else { Side::White });
            if board.game_over() {
                continue;
            }
            for m in board.moves() {
                let mut c = board.play(m);
                if c.must_pass() {
                    c = c.pass();
                }
                let over = c.game_over();
                next.insert((c.black_bits(), c.white_bits(), !over && c.to_move == Side::Black), ());
            }
        }
        layer = next;
        assert_eq!(found.layer_sizes[k], layer.len(), "after {k} moves");
    }
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_othello-explorer")).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn the_commands_answer_in_json_and_refuse_bad_input_with_one_line() {
    // Without a terminal nothing goes to standard error: no progress line.
    let (code, out, err) = run(&["reach", "--moves", "f5d6c3d3c4", "--json"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["reachable"], true);
    assert_eq!(v["moves"].as_str().unwrap().len(), 10);
    let e = "-".repeat(8);
    let cut = format!("{e}{e}{e}---OX------XO---{e}{e}-------X X");
    let (code, out, _) = run(&["reach", "--board", &cut, "--json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!((v["reachable"].clone(), v["moves"].clone()), (serde_json::json!(false), serde_json::Value::Null));
    assert!(v["reason"].as_str().unwrap().contains("8-connected"));
    let (code, out, err) = run(&["shortest", "--size", "8", "--ending", "wipeout", "--json"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["moves"], 9);
    let (code, out, err) = run(&["shortest", "--size", "4", "--ending", "draw", "--all"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert!(out.contains("shortest draw on 4x4: 10 moves"));
    let records = "data/shortest/draws-20-8x8.txt";
    let (code, out, _) =
        run(&["shortest", "--size", "8", "--ending", "draw", "--max-moves", "20", "--verify-only", records]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("10 of 10 records") && out.contains("10 distinct final positions"));
    for bad in [
        vec!["reach", "--board", "XO"],
        vec!["reach", "--moves", "f5f5"],
        vec!["reach", "--max-nodes", "-3"],
        vec!["shortest", "--size", "5"],
        vec!["shortest", "--ending", "sometimes"],
        vec!["shortest", "--verify-only", records],
        vec!["shortest", "--max-moves", "20", "--verify-only", "no/such/file"],
        vec!["shortest", "--max-positions", "0"],
    ] {
        let (code, out, err) = run(&bad);
        assert_eq!(code, 2, "{bad:?}: {out}{err}");
        assert_eq!(err.lines().count(), 1, "{bad:?}: {err}");
        assert!(out.is_empty(), "{bad:?}");
    }
}

/// `--verify-only` on records holding NUL, ESC and a right-to-left override: each refused in a line
/// that quotes them as escapes, never as raw bytes on the terminal.
#[test]
fn verify_only_prints_a_records_control_characters_as_escapes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("records.txt");
    std::fs::write(&path, "f5\0d6\nf5\u{1b}[2Jd6\nf5\u{202e}d6\n").unwrap();
    let (code, out, _) = run(&["shortest", "--max-moves", "9", "--verify-only", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(out.matches("refused").count(), 3, "{out}");
    assert!(!out.chars().any(|c| (c.is_control() && c != '\n') || c == '\u{202e}'), "{out:?}");
    assert!(out.contains(r"\u{1b}") || out.contains(r"\0"), "{out}");
}

#[test]
fn on_4x4_every_finished_drawn_board_of_a_game_is_enumerated_and_both_methods_agree() {
    // Every 4x4 game's end that is a draw, from the reference enumeration, by number of discs.
    let games = every_4x4_game();
    let stop = AtomicBool::new(false);
    for discs in (4..=16).step_by(2) {
        let mut listed = HashSet::new();
        othello_explorer::studies::finals::draw_finals(Size::Four, discs, &stop, &mut |b, w| {
            listed.insert((b, w));
        });
        for (_, end) in
            games.iter().filter(|(m, b)| m + 4 == discs as usize && b.count(Side::Black) == b.count(Side::White))
        {
            assert!(listed.contains(&(end.black_bits(), end.white_bits())), "missing {}", end.board_string());
        }
        // And each one listed is finished, drawn, of that many discs, by the reference rules.
        for &(b, w) in &listed {
            let board = Board::from_bits(4, b, w, Side::Black);
            assert!(board.game_over() && board.count(Side::Black) == board.count(Side::White));
            assert_eq!(16 - board.empties() as u32, discs);
        }
    }
    let by = |method| match shortest::shortest_by(method, Size::Four, Ending::Draw, &Default::default(), &stop) {
        shortest::Outcome::Found(f) => f,
        other => panic!("{other:?}"),
    };
    let (layers, finals) = (by(shortest::Method::Layers), by(shortest::Method::Finals));
    assert_eq!(
        (finals.moves, finals.games, finals.finals_up_to_symmetry),
        (layers.moves, layers.games, layers.finals_up_to_symmetry)
    );
    assert_eq!(finals.games(usize::MAX), layers.games(usize::MAX));
    assert_eq!(finals.example(), layers.example());
}

#[test]
fn the_shortest_6x6_draws_take_16_moves() {
    // The records committed for each of the 22 final boards replay by the reference rules to a
    // finished 10-10 board; the search finds those boards and no shorter draw.
    let text = std::fs::read_to_string("data/shortest/draws-16-6x6.txt").unwrap();
    let mut ends = HashSet::new();
    for line in text.lines().filter(|l| !l.starts_with(';')) {
        let moves: Vec<Square> =
            othello_explorer::notation::transcript::parse_squares(line).unwrap().into_iter().map(|(s, _)| s).collect();
        assert_eq!(moves.len(), 16);
        let end = replay(6, &moves);
        assert!(end.game_over() && end.count(Side::Black) == 10 && end.count(Side::White) == 10, "{line}");
        ends.insert((end.black_bits(), end.white_bits()));
    }
    assert_eq!(ends.len(), 22);
    let stop = AtomicBool::new(false);
    let shortest::Outcome::Found(found) = shortest::shortest(Size::Six, Ending::Draw, &Default::default(), &stop)
    else {
        panic!()
    };
    assert_eq!((found.moves, found.finals.len(), found.finals_up_to_symmetry), (16, 22, 4));
    let ours: HashSet<(u64, u64)> = found.finals.iter().map(|p| (p.black().bits(), p.white().bits())).collect();
    assert_eq!(ours, ends);
    // Each final's games, counted by the game-record search, replay to it.
    let mut total = 0;
    for f in &found.finals {
        let (count, games) = reach::all_games(f, &Limits::default(), &stop, usize::MAX).unwrap();
        assert_eq!(count as usize, games.len());
        for g in &games {
            let end = replay(6, g);
            assert_eq!((end.black_bits(), end.white_bits()), (f.black().bits(), f.white().bits()));
        }
        total += count;
    }
    assert_eq!(found.games, total);
}

// ---- progress ----

/// A full 8x8 board with the colours scattered (seeded at random once): the game-record search
/// runs for minutes on it before it gives up.
const SCATTERED: &str = "OXXOXXXXOOOOXOOOOOXOXXOXOXOOXXOOXXOOXOOXXOOOXXOXXXXXOOXOOOXOXXOX X";

#[test]
fn reach_reports_its_progress_and_its_bound() {
    let stop = AtomicBool::new(false);
    // A long search cut by its node limit: a report at the start, every PROGRESS_EVERY
    // positions, and one at the end with the count the outcome holds.
    let target: Position = othello_explorer::notation::obf::parse_board(SCATTERED).unwrap();
    let limits = Limits { max_nodes: 200_000, ..Limits::default() };
    let mut seen = Vec::new();
    let outcome = reach::reach_with_progress(&target, &limits, &stop, &mut |p| seen.push(*p));
    assert_eq!(outcome, Outcome::GaveUp { nodes: 200_001 });
    let nodes: Vec<u64> = seen.iter().map(|p| p.nodes).collect();
    let every = reach::PROGRESS_EVERY;
    assert_eq!(nodes, [0, every, 2 * every, 3 * every, 200_001]);
    for p in &seen {
        assert_eq!((p.max_nodes, p.moves), (200_000, 60), "{p:?}");
        assert!(p.depth <= p.moves, "{p:?}");
    }
    assert!(seen[1..4].iter().all(|p| p.depth > 0), "{seen:?}");
    // A short search found: the start and the end, the end with the outcome's count; the
    // depth of the end is the game's length.
    let target = othello_explorer::notation::transcript::play(&Position::start(Size::Six), "c2b2a2").unwrap().end();
    let mut seen = Vec::new();
    let outcome = reach::reach_with_progress(&target, &Limits::default(), &stop, &mut |p| seen.push(*p));
    let Outcome::Found { moves, nodes } = outcome else { panic!("{outcome:?}") };
    assert_eq!(moves.len(), 3);
    assert_eq!(seen.first().map(|p| (p.nodes, p.depth)), Some((0, 0)));
    assert_eq!(seen.last().map(|p| (p.nodes, p.depth, p.moves, p.max_nodes)), Some((nodes, 3, 3, 1_000_000_000)));
    // A board settled by a cheap argument is no search: no report.
    let mut calls = 0;
    let cut = format!("{}---OX------XO---{}-------X X", "-".repeat(24), "-".repeat(16));
    let cut = othello_explorer::notation::obf::parse_board(&cut).unwrap();
    let outcome = reach::reach_with_progress(&cut, &Limits::default(), &stop, &mut |_| calls += 1);
    assert!(matches!(outcome, Outcome::Unreachable { nodes: 0, .. }), "{outcome:?}");
    assert_eq!(calls, 0);
}

#[test]
fn shortest_reports_its_progress_and_its_bounds() {
    use shortest::{Method, Progress};
    let stop = AtomicBool::new(false);
    // By layers: the 9-move wipe-outs on 6x6. Every layer is reported from its start, its counts
    // only grow, and its parents are the layer before's positions.
    let limits = shortest::Limits::default();
    let mut seen = Vec::new();
    let outcome =
        shortest::shortest_with_progress(Method::Layers, Size::Six, Ending::Wipeout, &limits, &stop, &mut |p| {
            seen.push(*p)
        });
    let shortest::Outcome::Found(found) = outcome else { panic!() };
    assert_eq!(found.moves, 9);
    let mut last = (0, 0, 0);
    let mut layers = Vec::new();
    for p in &seen {
        let Progress::Layer { moves, max_moves, expanded, parents, positions, max_positions } = *p else {
            panic!("{p:?}")
        };
        assert_eq!((max_moves, max_positions), (32, limits.max_positions), "{p:?}");
        assert!(moves >= last.0 && positions >= last.2, "{p:?} after {last:?}");
        assert!(moves > last.0 || expanded > last.1, "{p:?} after {last:?}");
        assert!(positions <= max_positions && expanded < parents, "{p:?}");
        assert_eq!(parents, found.layer_sizes[moves as usize - 1], "{p:?}");
        if expanded == 0 {
            layers.push(moves);
        }
        last = (moves, expanded, positions);
    }
    assert_eq!(layers, (1..=9).collect::<Vec<u32>>());
    assert!(seen.len() > 9, "a layer of more than 4096 positions reports within it too");
    // A search stopped by --max-positions never reports more than it may hold.
    let small = shortest::Limits { max_moves: 60, max_positions: 20_000 };
    let mut most = 0;
    let outcome =
        shortest::shortest_with_progress(Method::Layers, Size::Eight, Ending::Draw, &small, &stop, &mut |p| {
            if let Progress::Layer { positions, max_positions, .. } = *p {
                assert_eq!(max_positions, 20_000);
                most = most.max(positions);
            }
        });
    assert!(matches!(outcome, shortest::Outcome::TooLarge { .. }));
    assert!(most > 0 && most <= 20_000, "{most}");
    // By final boards: the 10-move draws on 4x4; each even length from 2 reported, the boards
    // met only grow within it, and the game-record search's limit is named.
    let mut seen = Vec::new();
    let outcome =
        shortest::shortest_with_progress(Method::Finals, Size::Four, Ending::Draw, &limits, &stop, &mut |p| {
            seen.push(*p)
        });
    let shortest::Outcome::Found(found) = outcome else { panic!() };
    assert_eq!(found.moves, 10);
    let mut last = (0, 0, 0);
    let mut lengths = Vec::new();
    for p in &seen {
        let Progress::Finals { moves, max_moves, boards, reachable, max_nodes, .. } = *p else { panic!("{p:?}") };
        assert_eq!((max_moves, max_nodes), (12, Limits::default().max_nodes), "{p:?}");
        assert!((moves, boards, reachable) >= last && reachable <= boards, "{p:?} after {last:?}");
        if !lengths.contains(&moves) {
            lengths.push(moves);
        }
        last = (moves, boards, reachable);
    }
    assert_eq!(lengths, [2, 4, 6, 8, 10]);
}

/// Starts `args` in the tmux pane's shell, its process id printed first as `{tag}PID=` (the
/// shell `exec`s the binary, keeping its id), and its exit status after as `{tag}EXIT=`.
fn start_in(tmux: &tmux::Tmux, tag: &str, args: &str) -> String {
    let bin = env!("CARGO_BIN_EXE_othello-explorer");
    tmux.keys(&[&format!("sh -c 'echo {tag}PID=$$; exec \"$@\"' sh '{bin}' {args}; echo {tag}EXIT=$?"), "Enter"]);
    let key = format!("{tag}PID=");
    let screen = tmux.wait_for("the process id", |s| tmux::number_after(s, &key).is_some());
    tmux::number_after(&screen, &key).expect("the process id")
}

/// Interrupts the process `pid` (as Ctrl-C would, without the terminal echoing `^C`).
fn interrupt(pid: &str) {
    let done = std::process::Command::new("kill").args(["-INT", pid]).status().expect("kill runs");
    assert!(done.success());
}

#[test]
fn on_a_terminal_reach_and_shortest_show_their_progress() {
    if !tmux::tmux_available() {
        eprintln!("notice: tmux is not installed; skipping the progress-line test");
        return;
    }
    let tmux = tmux::Tmux { socket: format!("oe-progress-test-{}", std::process::id()) };
    tmux.start_sized("sh", 200, 30);
    let _ = tmux.run(&["set-option", "-t", "t", "status", "off"]);

    // reach on a scattered full board runs for minutes: the line shows the depth out of the 60
    // moves, the positions searched and the bound; interrupted, it is cleared before the answer.
    let pid = start_in(&tmux, "R", &format!("reach --board '{SCATTERED}'"));
    let bound = "positions searched of at most 1,000,000,000 (--max-nodes)";
    tmux.wait_all(&[bound, "reach: depth ", "/60 · "]);
    // It moves on: the count grows past the first report's.
    tmux.wait_for("the count to grow", |s| s.contains(bound) && !s.contains(" · 0 positions searched"));
    interrupt(&pid);
    let screen = tmux.wait_text("REXIT=3");
    assert!(screen.contains("undecided: interrupted after"), "{screen}");
    assert!(!screen.contains(bound), "the progress line is cleared: {screen}");

    // shortest --size 8 --ending draw: the length looked at out of 60, the boards met, the
    // game-record search's limit.
    let pid = start_in(&tmux, "S", "shortest --size 8 --ending draw");
    tmux.wait_all(&[
        "shortest: draws of ",
        "moves (at most 60) · ",
        "finished drawn boards",
        "of at most 1,000,000,000",
    ]);
    tmux.wait_for("a longer length", |s| s.contains("shortest: draws of ") && !s.contains("draws of 2 moves"));
    interrupt(&pid);
    let screen = tmux.wait_text("SEXIT=3");
    assert!(screen.contains("interrupted"), "{screen}");
    assert!(!screen.contains("shortest: draws of "), "the progress line is cleared: {screen}");
}
