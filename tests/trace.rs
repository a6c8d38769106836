//! The teaching traces against the engine and the square-by-square reference: on random positions
//! of every size (reached in random games, and random arrangements), each trace's final step
//! equals the engine's own result (legal moves, flips, the position after the move, the disc
//! count, the canonical key), and the per-direction steps equal a walk one square at a time.

mod common;
mod reference;

use common::to_position;
use othello_explorer::board::geometry::DIRECTIONS;
use othello_explorer::board::symmetry::canonical;
use othello_explorer::studies::trace::{Topic, TraceError, Value, trace};
use othello_explorer::{Bitboard, Color, Position, Size, Square, board::rules, with_size};
use reference::{Board, Rng, Side, bit_of, random_board, random_game};

/// Positions of every size: every ply of a few random games, and random arrangements.
fn positions() -> Vec<Position> {
    let mut rng = Rng(0x07ea_c4e5);
    let mut out = Vec::new();
    for n in [4, 6, 8] {
        for _ in 0..6 {
            let (plies, end) = random_game(&Board::start(n), &mut rng, 100);
            out.extend(plies.iter().map(|p| to_position(&p.board)));
            out.push(to_position(&end));
        }
        for _ in 0..60 {
            out.push(to_position(&random_board(n, &mut rng)));
        }
    }
    out
}

fn last_mask(steps: &[othello_explorer::studies::trace::Step], name: &str) -> Bitboard {
    match steps.iter().rev().find(|s| s.full_name() == name).map(|s| s.value) {
        Some(Value::Mask(m)) => m,
        other => panic!("no mask step {name}: {other:?}"),
    }
}

/// The squares one move in `dir` creates: empty squares whose walk in the opposite direction
/// crosses one or more opponent discs and ends at one of ours (reference board, one square at a
/// time).
fn reference_direction(b: &Board, dcol: i32, drow: i32) -> u64 {
    let n = b.n as i32;
    let mut mask = 0;
    for i in 0..b.cells.len() {
        if b.cells[i].is_some() {
            continue;
        }
        let (mut c, mut r, mut run) = ((i as i32 % n) - dcol, (i as i32 / n) - drow, 0);
        while c >= 0 && r >= 0 && c < n && r < n {
            match b.cells[(r * n + c) as usize] {
                Some(s) if s == b.to_move && run > 0 => {
                    mask |= 1u64 << bit_of(b.n, i % b.n, i / b.n);
                    break;
                }
                Some(s) if s != b.to_move => run += 1,
                _ => break,
            }
            c -= dcol;
            r -= drow;
        }
    }
    mask
}

#[test]
fn legal_trace_ends_at_the_engines_mask_and_each_direction_matches_the_reference() {
    let mut rng = Rng(99);
    let mut checked = 0;
    for n in [4, 6, 8] {
        for _ in 0..150 {
            let b = random_board(n, &mut rng);
            let p = to_position(&b);
            let t = trace(Topic::Legal, &p, None).unwrap();
            let (pl, op) = p.raw();
            let engine = with_size!(p.size(), N => rules::legal_moves::<N>(pl, op));
            assert_eq!(t.steps.last().unwrap().value, Value::Mask(Bitboard::new(p.size(), engine)), "{p}");
            assert_eq!(t.result, Value::Mask(p.legal_moves()));
            for d in &DIRECTIONS {
                let group = format!("{} ({} {})", d.name, d.operator(), d.shift(n));
                let moves = last_mask(&t.steps, &format!("{group}: moves"));
                assert_eq!(moves.bits(), reference_direction(&b, d.dcol, d.drow), "{} of {p}", d.name);
                // N-3 propagation steps per direction.
                let steps = t.steps.iter().filter(|s| s.group == group && s.name.starts_with("step")).count();
                assert_eq!(steps, n - 3);
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 450);
}

#[test]
fn every_trace_ends_at_the_engines_result_on_random_positions() {
    for p in positions() {
        let size = p.size();
        // Legal moves.
        let t = trace(Topic::Legal, &p, None).unwrap();
        assert_eq!(t.steps.last().unwrap().value, Value::Mask(p.legal_moves()), "legal {p}");
        // Flips of every empty square, legal or not, against the reference walk.
        let b = Board::from_bits(size.n(), p.black().bits(), p.white().bits(), side(p.to_move()));
        for sq in p.empty() {
            let t = trace(Topic::Flips, &p, Some(sq)).unwrap();
            assert_eq!(t.steps.last().unwrap().value, Value::Mask(p.flips(sq)), "flips {sq} {p}");
            let reference = reference::mask_of(size.n(), &b.flips(sq.index(size)));
            assert_eq!(p.flips(sq).bits(), reference);
        }
        // Play and undo every legal move.
        for sq in p.legal_moves() {
            let t = trace(Topic::Play, &p, Some(sq)).unwrap();
            let next = p.play(sq).unwrap();
            assert_eq!(t.steps.last().unwrap().value, Value::Position(next), "play {sq} {p}");
            assert_eq!(t.result, Value::Position(next));
            let (pl, op) = p.raw();
            assert_eq!(last_mask(&t.steps, "undo: player").bits(), pl);
            assert_eq!(last_mask(&t.steps, "undo: opponent").bits(), op);
            let reference = b.play(sq.index(size));
            assert_eq!((next.black().bits(), next.white().bits()), (reference.black_bits(), reference.white_bits()));
        }
        // The population count.
        let t = trace(Topic::Popcount, &p, None).unwrap();
        let count = p.black().bits().count_ones() as i64;
        let swar = t.steps.iter().find(|s| s.name == "SWAR count").unwrap().value;
        assert_eq!(swar, Value::Number(count), "popcount {p}");
        assert_eq!(t.steps.last().unwrap().value, Value::Number(count));
        assert_eq!(t.result, Value::Number(b.count(Side::Black) as i64));
        // Lowest-bit extraction: every empty square once, in the iterator's order.
        let t = trace(Topic::Empties, &p, None).unwrap();
        let lowest: Vec<Square> = t
            .steps
            .iter()
            .filter(|s| s.name == "lowest")
            .map(|s| match s.value {
                Value::Mask(m) => m.lowest().unwrap(),
                v => panic!("{v:?}"),
            })
            .collect();
        assert_eq!(lowest, p.empty().iter().collect::<Vec<_>>());
        assert_eq!(t.steps.last().unwrap().value, Value::Mask(p.empty()));
        assert_eq!(t.steps.last().unwrap().value.mask().unwrap().bits(), b.empty_bits());
        // Symmetry: the last step is the canonical key.
        let t = trace(Topic::Symmetry, &p, None).unwrap();
        let ((cp, co), sym) = canonical(&p);
        match t.steps.last().unwrap().value {
            Value::Key { player, opponent, symmetry } => {
                assert_eq!((player.bits(), opponent.bits(), symmetry), (cp, co, sym), "symmetry {p}")
            }
            v => panic!("{v:?}"),
        }
        assert_eq!(t.steps.iter().filter(|s| s.name == "player").count(), 8);
    }
}

fn side(c: Color) -> Side {
    match c {
        Color::Black => Side::Black,
        Color::White => Side::White,
    }
}

#[test]
fn popcount_steps_hold_the_field_counts() {
    // 4x4 start: black c2 b3 (0x0240 = 0000 0010 0100 0000). Worked by hand: pairs
    // 0x0240 - (0x0120 & 0x5555) = 0x0140 (00 00 00 01 01 00 00 00); nibbles 0x0100 + 0x0010 =
    // 0x0110; bytes (0x0110 + 0x0011) & 0x0f0f = 0x0101; 16 bits (0x0101 + 0x0001) & 0x00ff = 2.
    let t = trace(Topic::Popcount, &Position::start(Size::Four), None).unwrap();
    let words: Vec<u64> =
        t.steps.iter().filter_map(|s| if let Value::Word { bits, .. } = s.value { Some(bits) } else { None }).collect();
    assert_eq!(words, [0x0240, 0x0140, 0x0110, 0x0101, 0x0002]);
}

#[test]
fn moves_that_cannot_be_traced_are_named() {
    let start = Position::start(Size::Four);
    let a1: Square = "a1".parse().unwrap();
    let b2: Square = "b2".parse().unwrap();
    assert!(matches!(trace(Topic::Play, &start, Some(a1)), Err(TraceError::Illegal(_))));
    assert_eq!(trace(Topic::Flips, &start, Some(b2)), Err(TraceError::NotEmpty(b2)));
    assert_eq!(trace(Topic::Flips, &start, Some(a1)).unwrap().result, Value::Mask(Bitboard::empty(Size::Four)));
    // A full board: no move.
    let full = Position::new(Size::Four, 0xffff, 0, Color::White).unwrap();
    assert_eq!(trace(Topic::Play, &full, None), Err(TraceError::NoMove));
    assert_eq!("LEGAL".parse::<Topic>(), Ok(Topic::Legal));
    assert_eq!(
        "moves".parse::<Topic>().unwrap_err().to_string(),
        "unknown topic 'moves': expected one of legal, flips, play, popcount, empties, symmetry, stable, frontier, regions, \
         corners"
    );
}

/// The cell of `(col, row)` under the `k`-th symmetry (the library's order: identity, mirror
/// columns, flip rows, rotate 180, transpose, rotate 90, rotate 270, anti-transpose), square by
/// square.
fn image_cell(n: usize, k: usize, col: usize, row: usize) -> (usize, usize) {
    let l = n - 1;
    match k {
        0 => (col, row),
        1 => (l - col, row),
        2 => (col, l - row),
        3 => (l - col, l - row),
        4 => (row, col),
        5 => (l - row, col),
        6 => (row, l - col),
        _ => (l - row, l - col),
    }
}

/// Issue 97, item 10: the symmetry trace teaches the shifts and masks (the three moves, each a
/// masked shift per column, row or diagonal) and says what sets each of the eight images apart,
/// not one sentence eight times; every image is the square-by-square one.
#[test]
fn the_symmetry_trace_shows_its_shifts_and_tells_the_images_apart() {
    for p in positions().into_iter().step_by(17) {
        let n = p.size().n();
        let t = trace(Topic::Symmetry, &p, None).unwrap();
        let expr = |name: &str| t.steps.iter().find(|s| s.full_name() == name).unwrap().expression.clone();
        assert!(expr("three moves: mirror").contains("player & col_a") && expr("three moves: mirror").contains(">>"));
        assert!(expr("three moves: flip").contains("player & row_1"));
        assert!(expr("three moves: transpose").contains("player & diag_0"));
        assert!(t.steps.iter().all(|s| !s.expression.contains("Symmetry::")), "the expressions name the moves");
        let images: Vec<&othello_explorer::studies::trace::Step> =
            t.steps.iter().filter(|s| s.name == "player").collect();
        assert_eq!(images.len(), 8);
        let notes: std::collections::HashSet<&str> = images.iter().map(|s| s.note.as_str()).collect();
        assert_eq!(notes.len(), 8, "eight different notes: {notes:?}");
        let (player, _) = p.raw();
        for (k, step) in images.iter().enumerate() {
            let mut want = 0u64;
            for row in 0..n {
                for col in 0..n {
                    if player >> bit_of(n, col, row) & 1 == 1 {
                        let (c, r) = image_cell(n, k, col, row);
                        want |= 1 << bit_of(n, c, r);
                    }
                }
            }
            assert_eq!(step.value, Value::Mask(Bitboard::new(p.size(), want)), "image {k} of {p}");
        }
    }
}
