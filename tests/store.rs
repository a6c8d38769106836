//! The store of solved positions, against independent references:
//!
//! - scores come from a plain negamax written here over the square-by-square reference rules
//!   (`tests/reference`), never from the store or the solver under test;
//! - lookups of all eight symmetric images of a stored position: each finds the entry, and its
//!   best move, mapped to the image, is legal there and reaches the stored score (by the plain
//!   negamax);
//! - merging bounds, export → import round trips, malformed lines named by number;
//! - damaged files (random bytes, a real store cut in half, a text file, a redb or SQLite file of
//!   another program, a newer format version) each give their own clear error, never a panic;
//! - one file opened many times (as many programs do) is shared: each open sees what the others
//!   committed, and four writers with two readers lose nothing (across processes, with kill -9:
//!   `tests/store_many.rs`); a writer kept waiting by another past the timeout is told so
//!   (`Busy`, 10 s) while reads go on;
//! - stores of the old format (redb), made by the program before this one (`tests/data/store-format1/`),
//!   converted on first open with every entry kept, read as they are by the read-only open;
//! - the shipped 6x6 book: every line parses and its best move is legal; the start's score is the
//!   published one; a sample of its deepest entries agrees with the exact solver;
//! - the full 6x6 solve from the start (ignored by default: minutes of two cores).

mod common;
mod reference;

use common::to_position;
use othello_explorer::board::symmetry::Symmetry;
use othello_explorer::solver::{Limits, Solver, SolverOptions};
use othello_explorer::store::{Entry, Merged, Source, Store, StoreError, Stored, book, check_entry, merge, text};
use othello_explorer::{Position, Scoring, Size, Square, notation::obf};
use reference::{Board, Memo, Rng, negamax_memo, random_game};
use std::collections::HashMap;
use std::path::Path;

fn reference_board(position: &Position) -> Board {
    use reference::Side;
    let side = if position.to_move() == othello_explorer::Color::Black { Side::Black } else { Side::White };
    Board::from_bits(position.size().n(), position.black().bits(), position.white().bits(), side)
}

fn reference_score(position: &Position, scoring: Scoring, memo: &mut Memo) -> i32 {
    negamax_memo(&reference_board(position), scoring == Scoring::Discs, memo)
}

/// A best move by the plain negamax (`None` when the side must pass or the game is over).
fn reference_best(position: &Position, scoring: Scoring, memo: &mut Memo) -> Option<Square> {
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

    // SQLite's header, then garbage.
    let garbled = dir.path().join("garbled.redb");
    make_store(&garbled);
    let mut bytes = std::fs::read(&garbled).unwrap();
    for b in bytes.iter_mut().skip(16) {
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

    // A page of a real store overwritten in the middle: SQLite's check of the tables catches it.
    let scribbled = dir.path().join("scribbled.redb");
    make_store(&scribbled);
    let mut bytes = std::fs::read(&scribbled).unwrap();
    let mid = bytes.len() / 2 / 4096 * 4096;
    for b in &mut bytes[mid..mid + 4096] {
        *b ^= 0x5a;
    }
    std::fs::write(&scribbled, &bytes).unwrap();
    match Store::open(&scribbled) {
        Err(e) => assert!(matches!(e, StoreError::Corrupt { .. }), "{e}"),
        // A page of free space harms nothing: then every entry must still read.
        Ok(store) => {
            store.entries().unwrap();
        }
    }

    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "shopping list\n").unwrap();
    assert!(matches!(open_error(&text), StoreError::Foreign { .. }));

    // A redb database of another program (redb was the format before SQLite).
    let other = dir.path().join("other.redb");
    {
        let db = redb::Database::create(&other).unwrap();
        let w = db.begin_write().unwrap();
        w.open_table(redb::TableDefinition::<&str, u64>::new("accounts")).unwrap().insert("x", &1).unwrap();
        w.commit().unwrap();
    }
    let before = std::fs::read(&other).unwrap();
    assert!(matches!(open_error(&other), StoreError::Foreign { .. }));
    assert!(std::fs::read(&other).unwrap() == before, "another program's file left as it was");
    assert!(!dir.path().join("other.redb.format1").exists());

    // An SQLite database of another program.
    let other_sqlite = dir.path().join("other.sqlite");
    {
        let db = rusqlite::Connection::open(&other_sqlite).unwrap();
        db.execute_batch("CREATE TABLE accounts (name TEXT, balance INTEGER); INSERT INTO accounts VALUES ('x', 1);")
            .unwrap();
    }
    assert!(matches!(open_error(&other_sqlite), StoreError::Foreign { .. }));

    // Ours, from a newer version of the program.
    let newer = dir.path().join("newer.redb");
    make_store(&newer);
    {
        let db = rusqlite::Connection::open(&newer).unwrap();
        db.execute("UPDATE meta SET value = '3' WHERE key = 'format'", []).unwrap();
    }
    let e = open_error(&newer);
    assert!(matches!(e, StoreError::NewerVersion { .. }), "{e}");
    assert_eq!(
        e.to_string(),
        format!(
            "the store {} has format version 3, newer than this program's 2: update othello-explorer",
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
fn two_opens_of_one_store_share_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    let first = Store::open(&path).unwrap();
    let second = Store::open(&path).unwrap();
    let reader = Store::open_read_only(&path).unwrap();
    let start = Position::start(Size::Four);
    let c1 = start.play("b1".parse().unwrap()).unwrap();
    first.put_many(&[(start, Scoring::Standard, Stored::exact(-10, None, Source::Book))]).unwrap();
    second.put_many(&[(c1, Scoring::Standard, Stored::exact(10, None, Source::Explorer))]).unwrap();
    // Each sees what the other committed, and so does a reader that opened before both writes.
    for store in [&first, &second, &reader] {
        assert_eq!(store.get(&start, Scoring::Standard).unwrap().and_then(|s| s.score()), Some(-10));
        assert_eq!(store.get(&c1, Scoring::Standard).unwrap().and_then(|s| s.score()), Some(10));
    }
    // Merges see the other's entry: a tighter bound from one, a contradiction from the other.
    let merged = second
        .put_many(&[(start, Scoring::Standard, Stored { lower: -12, upper: 0, best: None, source: Source::Import })])
        .unwrap();
    assert_eq!(merged.unchanged, 1);
    let conflict = first.put_many(&[(c1, Scoring::Standard, Stored::exact(4, None, Source::Import))]).unwrap();
    assert_eq!(conflict.conflicting, 1);
    // A store opened for reading only refuses writes.
    assert!(reader.put_many(&[(start, Scoring::Standard, Stored::exact(-10, None, Source::Book))]).is_err());
    drop((first, second, reader));
    assert_eq!(Store::open(&path).unwrap().stats().unwrap().total(), 2);
}

#[test]
fn many_threads_write_one_store_through_their_own_opens_and_nothing_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    let mut memo = HashMap::new();
    let positions = sample_positions(31, 240);
    let scored: Vec<(Position, i32)> =
        positions.iter().map(|p| (*p, reference_score(p, Scoring::Standard, &mut memo))).collect();
    // Four writers, each with its own open (as four programs have), each writing every position
    // in small transactions, in its own order; readers meanwhile.
    std::thread::scope(|scope| {
        for writer in 0..4usize {
            let (path, scored) = (&path, &scored);
            scope.spawn(move || {
                let store = Store::open(path).unwrap();
                let mut order: Vec<&(Position, i32)> = scored.iter().collect();
                order.rotate_left(writer * 60);
                for chunk in order.chunks(7) {
                    let batch: Vec<_> = chunk
                        .iter()
                        .map(|(p, s)| (*p, Scoring::Standard, Stored::exact(*s, None, Source::Explorer)))
                        .collect();
                    let summary = store.put_many(&batch).unwrap();
                    assert_eq!(summary.conflicting, 0);
                }
            });
        }
        for _ in 0..2 {
            let (path, scored) = (&path, &scored);
            scope.spawn(move || {
                let store = Store::open(path).unwrap();
                for (p, s) in scored.iter().cycle().take(2000) {
                    // Absent, or the right score: never anything else.
                    if let Some(found) = store.get(p, Scoring::Standard).unwrap() {
                        assert_eq!(found.score(), Some(*s), "{p}");
                    }
                }
            });
        }
    });
    let store = Store::open(&path).unwrap();
    for (p, s) in &scored {
        assert_eq!(store.get(p, Scoring::Standard).unwrap().and_then(|x| x.score()), Some(*s), "{p}");
    }
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

/// A copy of the format-1 store `name` (made by the program before SQLite) in a new folder, and
/// the entries the old program exported from it, parsed.
fn format1(name: &str) -> (tempfile::TempDir, std::path::PathBuf, Vec<Entry>) {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/store-format1");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    std::fs::copy(data.join(format!("{name}.redb")), &path).unwrap();
    let text = std::fs::read_to_string(data.join(format!("{name}.txt"))).unwrap();
    let entries: Vec<Entry> = text.lines().filter_map(|l| text::parse_entry(l).unwrap()).collect();
    assert!(entries.len() > 10, "{name}.txt has {} entries", entries.len());
    (dir, path, entries)
}

/// Every entry of `store`, and nothing else, is one of `expected`: the same bounds, best move and
/// source, in the same (canonical) orientation.
fn assert_same_entries(store: &Store, expected: &[Entry]) {
    let kept = store.entries().unwrap();
    assert_eq!(kept.len(), expected.len());
    let mut memo = HashMap::new();
    for ((key, stored), entry) in kept.iter().zip(expected) {
        assert_eq!((key.position(), key.scoring, *stored), (entry.position, entry.scoring, entry.stored));
        // The 4x4 exact scores of the book and the imports, against the plain negamax.
        if key.size == Size::Four && stored.is_exact() {
            assert_eq!(stored.lower, reference_score(&key.position(), key.scoring, &mut memo), "{}", key.position());
        }
    }
}

#[test]
fn a_format1_store_is_converted_on_first_open_and_keeps_every_entry() {
    for name in ["clean", "killed"] {
        let (dir, path, expected) = format1(name);
        let old_bytes = std::fs::read(&path).unwrap();
        // Read as it is by a read-only open: the file is not touched, nothing converted.
        let reader = Store::open_read_only(&path).unwrap();
        assert!(reader.old_format());
        assert_same_entries(&reader, &expected);
        drop(reader);
        assert!(std::fs::read(&path).unwrap() == old_bytes, "{name}: a read-only open wrote the old file");
        // Converted by the first open for writing, every entry kept.
        let store = Store::open(&path).unwrap();
        assert!(!store.old_format());
        assert_same_entries(&store, &expected);
        assert!(std::fs::read(&path).unwrap().starts_with(b"SQLite format 3\0"), "{name}");
        // The old file kept beside it, byte for byte: it was never written.
        let kept = dir.path().join("store.redb.format1");
        assert!(std::fs::read(&kept).unwrap() == old_bytes, "{name}: the old file kept");
        // The store works as any: the shipped book's hash came along (clean has the book merged),
        // and a new entry is kept.
        if name == "clean" {
            assert_eq!(store.merge_shipped_book().unwrap(), None, "the book's hash was converted too");
        }
        let p = Position::start(Size::Four).play("b1".parse().unwrap()).unwrap();
        store.put_many(&[(p, Scoring::Discs, Stored::exact(0, None, Source::Explorer))]).unwrap();
        drop(store);
        // A second open converts nothing: no second kept file, every entry still there.
        let store = Store::open(&path).unwrap();
        assert_eq!(
            store.entries().unwrap().len(),
            expected.len()
                + usize::from(!expected.iter().any(|e| {
                    othello_explorer::store::Key::of(&e.position, e.scoring).0
                        == othello_explorer::store::Key::of(&p, Scoring::Discs).0
                }))
        );
        assert!(!dir.path().join("store.redb.format1.2").exists());
    }
}

#[test]
fn programs_that_find_a_format1_store_at_once_convert_it_once() {
    let (dir, path, expected) = format1("clean");
    std::thread::scope(|scope| {
        let opened: Vec<_> =
            (0..4).map(|_| scope.spawn(|| Store::open(&path).map(|s| s.stats().unwrap().total()))).collect();
        for o in opened {
            assert_eq!(o.join().unwrap().unwrap(), expected.len() as u64);
        }
    });
    let kept: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.contains("format1"))
        .collect();
    assert_eq!(kept, ["store.redb.format1"]);
    assert_same_entries(&Store::open(&path).unwrap(), &expected);
}

#[test]
fn a_write_kept_waiting_past_the_timeout_is_busy_and_reads_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    let store = Store::open(&path).unwrap();
    let start = Position::start(Size::Four);
    store.put_many(&[(start, Scoring::Standard, Stored::exact(-10, None, Source::Book))]).unwrap();
    // Another program stopped in the middle of a write (a debugger, kill -STOP): it holds the
    // write lock and commits nothing.
    let holder = rusqlite::Connection::open(&path).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE; DELETE FROM meta WHERE key = 'nothing';").unwrap();
    // Reads never wait.
    assert_eq!(store.get(&start, Scoring::Standard).unwrap().and_then(|s| s.score()), Some(-10));
    // A write waits out the timeout, then says so; nothing is written, the store still works.
    let b1 = start.play("b1".parse().unwrap()).unwrap();
    let e = store.put_many(&[(b1, Scoring::Standard, Stored::exact(10, None, Source::Explorer))]).unwrap_err();
    assert!(matches!(e, StoreError::Busy { .. }), "{e}");
    assert_eq!(
        e.to_string(),
        format!("the store {} is busy: another program has been writing to it for over 10 s", path.display())
    );
    holder.execute_batch("ROLLBACK").unwrap();
    store.put_many(&[(b1, Scoring::Standard, Stored::exact(10, None, Source::Explorer))]).unwrap();
    assert_eq!(store.stats().unwrap().total(), 2);
}
