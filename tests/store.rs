//! The store of solved positions, against independent references:
//!
//! - scores come from a plain negamax written here over the square-by-square reference rules
//!   (`tests/reference`), never from the store or the solver under test;
//! - lookups of all eight symmetric images of a stored position: each finds the entry, and its
//!   best move, mapped to the image, is legal there and reaches the stored score (by the plain
//!   negamax);
//! - merging bounds, export → import round trips, malformed lines named by number;
//! - damaged files (random bytes, a real store cut in half, a text file, a redb file of another
//!   program, a newer format version) each give their own clear error, never a panic;
//! - a second open of a file in use is refused (across processes: `tests/cli_store.rs`, with the
//!   kill-mid-write test);
//! - the shipped 6x6 book: every line parses and its best move is legal; the start's score is the
//!   published one; a sample of its deepest entries agrees with the exact solver;
//! - the full 6x6 solve from the start (ignored by default: minutes of two cores).

mod common;
mod reference;

use common::to_position;
use othello_explorer::solver::{Limits, Solver, SolverOptions};
use othello_explorer::store::{Entry, Merged, Source, Store, StoreError, Stored, book, check_entry, merge, text};
use othello_explorer::symmetry::Symmetry;
use othello_explorer::{Position, Scoring, Size, Square, obf};
use reference::{Board, Rng, random_game};
use std::collections::HashMap;
use std::path::Path;

/// Plain negamax over the reference rules, memoised by board string: the exact score from the
/// side to move (empties to the winner, or not counted).
fn negamax(b: &Board, discs: bool, memo: &mut HashMap<String, i32>) -> i32 {
    let key = format!("{}{}", b.board_string(), discs);
    if let Some(&s) = memo.get(&key) {
        return s;
    }
    let moves = b.moves();
    let score = if moves.is_empty() {
        if b.moves_for(b.to_move.other()).is_empty() {
            if discs { b.disc_difference() } else { b.final_score() }
        } else {
            -negamax(&b.pass(), discs, memo)
        }
    } else {
        moves.into_iter().map(|m| -negamax(&b.play(m), discs, memo)).max().expect("a move")
    };
    memo.insert(key, score);
    score
}

fn reference_board(position: &Position) -> Board {
    use reference::Side;
    let side = if position.to_move() == othello_explorer::Color::Black { Side::Black } else { Side::White };
    Board::from_bits(position.size().n(), position.black().bits(), position.white().bits(), side)
}

fn reference_score(position: &Position, scoring: Scoring, memo: &mut HashMap<String, i32>) -> i32 {
    negamax(&reference_board(position), scoring == Scoring::Discs, memo)
}

/// A best move by the plain negamax (`None` when the side must pass or the game is over).
fn reference_best(position: &Position, scoring: Scoring, memo: &mut HashMap<String, i32>) -> Option<Square> {
    let score = reference_score(position, scoring, memo);
    position
        .legal_moves()
        .reading_order()
        .into_iter()
        .find(|&sq| -reference_score(&position.play(sq).unwrap(), scoring, memo) == score)
}

/// Positions of random 4x4 and 6x6 games (6x6 only near the end, at most 12 empties, for the
/// plain negamax).
fn sample_positions(seed: u64, count: usize) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let n = if rng.below(2) == 0 { 4 } else { 6 };
        let (plies, _) = random_game(&Board::start(n), &mut rng, 64);
        let min_ply = if n == 4 { 0 } else { 24 };
        for ply in plies.iter().skip(min_ply) {
            if rng.below(3) == 0 && out.len() < count {
                out.push(to_position(&ply.board));
            }
        }
    }
    out
}

fn temp_store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("nested/folder/store.redb")).unwrap();
    (dir, store)
}

#[test]
fn entries_round_trip_through_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    let mut memo = HashMap::new();
    let positions = sample_positions(7, 60);
    let mut expected = Vec::new();
    {
        let store = Store::open(&path).unwrap();
        let mut batch = Vec::new();
        let mut keys = std::collections::HashSet::new();
        for (i, p) in positions.iter().enumerate() {
            let scoring = if i % 3 == 0 { Scoring::Discs } else { Scoring::Standard };
            // Symmetric twins share an entry (merged): keep one of each here.
            if !keys.insert(othello_explorer::store::Key::of(p, scoring).0) {
                continue;
            }
            let score = reference_score(p, scoring, &mut memo);
            // Some entries exact with a best move, some only bounds around the true score.
            let stored = if i % 4 == 3 {
                Stored { lower: score - 2, upper: score + 4, best: None, source: Source::Explorer }
            } else {
                Stored::exact(score, reference_best(p, scoring, &mut memo), Source::Book)
            };
            batch.push((*p, scoring, stored));
            expected.push((*p, scoring, stored));
        }
        store.put_many(&batch).unwrap();
    }
    let store = Store::open(&path).unwrap();
    for (p, scoring, stored) in &expected {
        let found = store.get(p, *scoring).unwrap().unwrap_or_else(|| panic!("{p} not found"));
        // Bounds beyond the board's range are kept clamped to it.
        let limit = p.size().squares() as i32;
        let expected = (stored.lower.max(-limit), stored.upper.min(limit), stored.source);
        assert_eq!((found.lower, found.upper, found.source), expected, "{p}");
        if let Some(best) = found.best {
            let reached = -reference_score(&p.play(best).unwrap(), *scoring, &mut memo);
            assert_eq!(reached, stored.lower, "{p}: best move {best}");
        }
    }
    // The other scoring was not stored for these positions.
    let (p, scoring, _) = expected[1];
    assert_eq!(scoring, Scoring::Standard);
    let twin_in_store =
        expected.iter().any(|(q, s, _)| *s == Scoring::Discs && Symmetry::ALL.iter().any(|y| y.apply_position(q) == p));
    if !twin_in_store {
        assert_eq!(store.get(&p, Scoring::Discs).unwrap(), None);
    }
}

#[test]
fn every_symmetric_image_finds_the_entry_with_its_best_move_mapped() {
    let (_dir, store) = temp_store();
    let mut memo = HashMap::new();
    // Positions with a best move; asymmetric ones make every image distinct.
    let positions: Vec<Position> =
        sample_positions(11, 80).into_iter().filter(|p| !p.legal_moves().is_empty()).take(30).collect();
    for (i, p) in positions.iter().enumerate() {
        let scoring = if i % 2 == 0 { Scoring::Standard } else { Scoring::Discs };
        let score = reference_score(p, scoring, &mut memo);
        let best = reference_best(p, scoring, &mut memo);
        store.put_many(&[(*p, scoring, Stored::exact(score, best, Source::Explorer))]).unwrap();
        for symmetry in Symmetry::ALL {
            let image = symmetry.apply_position(p);
            let found = store
                .get(&image, scoring)
                .unwrap()
                .unwrap_or_else(|| panic!("{image} ({}) not found", symmetry.name()));
            assert_eq!(found.score(), Some(score), "{image}");
            let square = found.best.expect("a best move was stored");
            let child = image.play(square).unwrap_or_else(|e| panic!("{image}: {square} is not legal: {e}"));
            assert_eq!(-reference_score(&child, scoring, &mut memo), score, "{image} ({}): {square}", symmetry.name());
        }
    }
}

#[test]
fn bounds_merge_tighter_wins_and_never_cross() {
    let (_dir, store) = temp_store();
    let p = Position::start(Size::Six);
    let s = Scoring::Standard;
    let bounds = |lower, upper, source| Stored { lower, upper, best: None, source };
    let put = |stored: Stored| store.put_many(&[(p, s, stored)]).unwrap();
    assert_eq!(put(bounds(-20, 10, Source::Explorer)).added, 1);
    assert_eq!(put(bounds(-30, 20, Source::Import)).unchanged, 1);
    assert_eq!(put(bounds(-8, 30, Source::Import)).merged, 1);
    assert_eq!(store.get(&p, s).unwrap().unwrap(), bounds(-8, 10, Source::Import));
    assert_eq!(put(bounds(12, 14, Source::Book)).conflicting, 1);
    assert_eq!(store.get(&p, s).unwrap().unwrap(), bounds(-8, 10, Source::Import));
    let c4: Square = "c4".parse().unwrap();
    assert_eq!(put(Stored::exact(-4, Some(c4), Source::Book)).merged, 1);
    assert_eq!(store.get(&p, s).unwrap().unwrap(), Stored::exact(-4, Some(c4), Source::Book));
    assert_eq!(put(Stored::exact(-2, None, Source::Book)).conflicting, 1);
    // The same rules, on values alone.
    assert_eq!(merge(&bounds(0, 4, Source::Book), &bounds(0, 4, Source::Import)), Merged::Unchanged);
    assert_eq!(merge(&bounds(0, 4, Source::Book), &bounds(5, 9, Source::Import)), Merged::Conflict);
}

#[test]
fn export_then_import_gives_the_same_entries() {
    let (_dir, a) = temp_store();
    let mut memo = HashMap::new();
    let mut batch = Vec::new();
    for (i, p) in sample_positions(23, 80).iter().enumerate() {
        let scoring = if i % 2 == 0 { Scoring::Standard } else { Scoring::Discs };
        let score = reference_score(p, scoring, &mut memo);
        let stored = if i % 5 == 0 {
            Stored { lower: score - 1, upper: score + 3, best: None, source: Source::Import }
        } else {
            Stored::exact(score, reference_best(p, scoring, &mut memo), Source::Explorer)
        };
        batch.push((*p, scoring, stored));
    }
    a.put_many(&batch).unwrap();
    let mut text = Vec::new();
    let written = a.export(&mut text).unwrap();
    assert_eq!(written, a.stats().unwrap().total());
    let (_dir2, b) = temp_store();
    let summary = b.import(&mut text.as_slice()).unwrap();
    assert_eq!(summary.added, written);
    assert_eq!(a.entries().unwrap(), b.entries().unwrap());
    assert_eq!(a.stats().unwrap().rows, b.stats().unwrap().rows);
    // Importing again adds nothing.
    let again = b.import(&mut text.as_slice()).unwrap();
    assert_eq!((again.added, again.merged, again.unchanged), (0, 0, written));
    // Each exported line names the position and score the plain negamax gives.
    for line in String::from_utf8(text).unwrap().lines() {
        let Some(entry) = text::parse_entry(line).unwrap() else { continue };
        let score = reference_score(&entry.position, entry.scoring, &mut memo);
        assert!(entry.stored.lower <= score && score <= entry.stored.upper, "{line}");
    }
}

#[test]
fn a_malformed_import_line_is_named_and_nothing_is_written() {
    let (_dir, store) = temp_store();
    let input = "; a comment\n\
                 -----OX--XO----- X standard -10 c4 book\n\
                 \n\
                 -----OX--XO----- X standard -10 zz book\n";
    let e = store.import(&mut input.as_bytes()).unwrap_err();
    assert_eq!(e.to_string(), "line 4: bad best move 'zz' at column 33: expected a square like c4 or -");
    assert_eq!(store.stats().unwrap().total(), 0);
    let e = store.import(&mut "-----OX--XO----- X standard\n".as_bytes()).unwrap_err();
    assert_eq!(e.to_string(), "line 1: missing score at column 28");
}

fn open_error(path: &Path) -> StoreError {
    Store::open(path).expect_err("the file must be refused")
}

/// A real store with some entries, closed.
fn make_store(path: &Path) {
    let store = Store::open(path).unwrap();
    // The scores do not matter here, only that the file holds a few pages of entries.
    let batch: Vec<_> = sample_positions(5, 400)
        .iter()
        .map(|p| (*p, Scoring::Standard, Stored::exact(0, None, Source::Book)))
        .collect();
    store.put_many(&batch).unwrap();
}

#[test]
fn damaged_and_foreign_files_give_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(99);

    let random = dir.path().join("random.redb");
    std::fs::write(&random, (0..100_000).map(|_| rng.next_u64() as u8).collect::<Vec<u8>>()).unwrap();
    let e = open_error(&random);
    assert!(matches!(e, StoreError::Foreign { .. }), "{e}");
    assert_eq!(
        e.to_string(),
        format!("{} is not an othello-explorer store: choose another file with --store", random.display())
    );

    // redb's header, then garbage.
    let garbled = dir.path().join("garbled.redb");
    make_store(&garbled);
    let mut bytes = std::fs::read(&garbled).unwrap();
    for b in bytes.iter_mut().skip(9) {
        *b = rng.next_u64() as u8;
    }
    std::fs::write(&garbled, &bytes).unwrap();
    let e = open_error(&garbled);
    assert!(matches!(e, StoreError::Corrupt { .. }), "{e}");
    assert!(e.to_string().starts_with(&format!("the store {} is damaged (", garbled.display())), "{e}");

    // A real store cut in half.
    let truncated = dir.path().join("truncated.redb");
    make_store(&truncated);
    let bytes = std::fs::read(&truncated).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let e = open_error(&truncated);
    assert!(matches!(e, StoreError::Corrupt { .. }), "{e}");

    // Pages of a real store overwritten in the middle: the checksums catch it.
    let scribbled = dir.path().join("scribbled.redb");
    make_store(&scribbled);
    let mut bytes = std::fs::read(&scribbled).unwrap();
    let mid = bytes.len() / 2;
    for b in &mut bytes[mid..mid + 4096] {
        *b ^= 0x5a;
    }
    std::fs::write(&scribbled, &bytes).unwrap();
    match Store::open(&scribbled) {
        Err(e) => assert!(matches!(e, StoreError::Corrupt { .. }), "{e}"),
        // Bytes in free space harm nothing: then every entry must still read.
        Ok(store) => {
            store.entries().unwrap();
        }
    }

    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "shopping list\n").unwrap();
    assert!(matches!(open_error(&text), StoreError::Foreign { .. }));

    // A redb database of another program.
    let other = dir.path().join("other.redb");
    {
        let db = redb::Database::create(&other).unwrap();
        let w = db.begin_write().unwrap();
        w.open_table(redb::TableDefinition::<&str, u64>::new("accounts")).unwrap().insert("x", &1).unwrap();
        w.commit().unwrap();
    }
    assert!(matches!(open_error(&other), StoreError::Foreign { .. }));

    // Ours, from a newer version of the program.
    let newer = dir.path().join("newer.redb");
    make_store(&newer);
    {
        let db = redb::Database::create(&newer).unwrap();
        let w = db.begin_write().unwrap();
        w.open_table(redb::TableDefinition::<&str, &str>::new("meta")).unwrap().insert("format", "2").unwrap();
        w.commit().unwrap();
    }
    let e = open_error(&newer);
    assert!(matches!(e, StoreError::NewerVersion { .. }), "{e}");
    assert_eq!(
        e.to_string(),
        format!(
            "the store {} has format version 2, newer than this program's 1: update othello-explorer",
            newer.display()
        )
    );

    let folder = dir.path().join("a-folder");
    std::fs::create_dir(&folder).unwrap();
    assert!(matches!(open_error(&folder), StoreError::Io { .. }));

    // An empty file is a new store.
    let empty = dir.path().join("empty.redb");
    std::fs::write(&empty, b"").unwrap();
    assert_eq!(Store::open(&empty).unwrap().stats().unwrap().total(), 0);
}

#[test]
fn a_second_open_of_a_store_in_use_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    let first = Store::open(&path).unwrap();
    let e = open_error(&path);
    assert!(matches!(e, StoreError::Locked { .. }), "{e}");
    assert_eq!(
        e.to_string(),
        format!(
            "the store {} is in use by another othello-explorer (close it, or choose another file with --store)",
            path.display()
        )
    );
    // The first still works, and once it is closed the file opens again.
    first
        .put_many(&[(Position::start(Size::Four), Scoring::Standard, Stored::exact(-10, None, Source::Book))])
        .unwrap();
    drop(first);
    assert_eq!(Store::open(&path).unwrap().stats().unwrap().total(), 1);
}

#[test]
fn the_store_moves_to_another_thread() {
    fn is_send<T: Send + Sync>() {}
    is_send::<Store>();
    let (_dir, store) = temp_store();
    let p = Position::start(Size::Four);
    std::thread::spawn(move || {
        store.put_many(&[(p, Scoring::Standard, Stored::exact(-10, None, Source::Book))]).unwrap()
    })
    .join()
    .unwrap();
}

#[test]
fn the_shipped_book_parses_and_its_moves_are_legal() {
    let mut count = 0;
    for (i, line) in book::SHIPPED_6X6.lines().enumerate() {
        // parse_entry checks the board, the score's range and that the best move is legal.
        let parsed = text::parse_entry(line).unwrap_or_else(|e| panic!("data/book-6x6.txt line {}: {e}", i + 1));
        if let Some(entry) = parsed {
            assert_eq!(entry.position.size(), Size::Six, "line {}", i + 1);
            assert!(entry.stored.is_exact(), "line {}", i + 1);
            assert_eq!(obf::parse_board(&obf::format_board(&entry.position)).unwrap(), entry.position);
            count += 1;
        }
    }
    assert_eq!(count, book::shipped().count());
    assert!(count > 100, "the book has {count} entries");
    // Published: 6x6 Othello is a win for white, 20-16 (Joel Feinstein, 1993; see the ignored
    // test below): -4 for black, to move at the start.
    let start = Position::start(Size::Six);
    let entry = book::shipped().find(|e| e.position == start).expect("the start is in the book");
    assert_eq!(entry.stored.score(), Some(-4));
    // Each of black's four first moves loses by 4: they are symmetric twins.
    for mv in ["c2", "b3", "e4", "d5"] {
        let child = start.play(mv.parse().unwrap()).unwrap();
        let (key, _) = othello_explorer::store::Key::of(&child, Scoring::Standard);
        let e = book::shipped().find(|e| othello_explorer::store::Key::of(&e.position, e.scoring).0 == key).unwrap();
        assert_eq!(e.stored.score(), Some(4), "{mv}: white to move, +4");
    }
}

#[test]
fn the_shipped_book_merges_into_a_store_once() {
    let (_dir, store) = temp_store();
    let summary = store.merge_shipped_book().unwrap().expect("a first merge");
    assert_eq!(summary.added, book::shipped().count() as u64);
    assert_eq!(store.merge_shipped_book().unwrap(), None);
    let start = Position::start(Size::Six);
    let found = store.get(&start, Scoring::Standard).unwrap().unwrap();
    assert_eq!(found.score(), Some(-4));
    assert!(found.best.is_some_and(|sq| start.legal_moves().contains(sq)));
}

#[test]
fn a_sample_of_the_shipped_book_agrees_with_the_solver() {
    // The deep entries are the quick ones to solve: 16 of those with 12 to 20 empties, spread
    // over the book, each re-solved (score, and the best move's score when one is stored).
    let entries: Vec<Entry> = book::shipped().filter(|e| (12..=20).contains(&e.position.empty().count())).collect();
    assert!(entries.len() >= 16, "{} deep entries", entries.len());
    let step = entries.len() / 16;
    let mut solver = Solver::new(SolverOptions {
        hash_mb: 64,
        scoring: Scoring::Standard,
        threads: 2,
        pv_extension: true,
        ..SolverOptions::default()
    });
    for entry in entries.iter().step_by(step).take(16) {
        let problem = check_entry(entry, &mut solver).unwrap();
        assert_eq!(problem, None, "{}", text::format_entry(entry));
    }
    // The shallow entries are too slow to re-solve here: each best move must lead to a child the
    // book holds with the same score (the ignored test below solves the start itself).
    let keyed: HashMap<_, _> =
        book::shipped().map(|e| (othello_explorer::store::Key::of(&e.position, e.scoring).0, e)).collect();
    for entry in book::shipped().filter(|e| e.position.empty().count() >= 29) {
        if let Some(best) = entry.stored.best {
            let child = entry.position.play(best).unwrap();
            let key = othello_explorer::store::Key::of(&child, Scoring::Standard).0;
            let kept =
                keyed.get(&key).unwrap_or_else(|| panic!("the child {child} of {} is in the book", entry.position));
            assert_eq!(Some(-kept.stored.lower), entry.stored.score(), "{}", text::format_entry(&entry));
        }
    }
}

/// The full 6x6 solve from the start: white wins 20-16 (-4 for black), as Joel Feinstein
/// published in 1993 ("Perfect play in 6x6 Othello from two alternative starting positions",
/// https://www.maths.nottingham.ac.uk/plp/pmzjff/Othello/6x6sol.html, and "Amenor wins World 6x6
/// championships!", British Othello Federation newsletter, July 1993: "White wins 20-16").
/// Minutes of two cores, so it runs on demand:
/// `cargo test --release --test store -- --ignored six_by_six`.
#[test]
#[ignore]
fn six_by_six_from_the_start_is_a_white_win_by_four() {
    let mut solver = Solver::new(SolverOptions {
        hash_mb: 1024,
        scoring: Scoring::Standard,
        threads: 2,
        pv_extension: true,
        ..SolverOptions::default()
    });
    let start = Position::start(Size::Six);
    let children = solver.score_children(&start, &Limits::default(), &mut |_| {}).unwrap();
    assert_eq!(children.len(), 4);
    assert!(children.iter().all(|c| c.score == -4), "{children:?}");
    let pv = solver.principal_variation(&start, &Limits::default()).unwrap();
    // The line ends the game 4 discs down for black.
    let mut position = start;
    for square in &pv {
        position = position.after_forced_pass().0.play(*square).unwrap();
    }
    assert!(position.is_game_over());
    assert_eq!(position.black_score(Scoring::Standard), -4);
}
