//! The 8x8 opening names (`src/notation/opening.rs`, `data/openings-8x8.txt`) against facts found here
//! without the library: the table is replayed on the square-by-square reference board of
//! `tests/reference`, symmetric images are computed from its coordinates, and transpositions are
//! found by comparing reference boards. Then `show` of the real binary prints the name.

mod reference;

use assert_cmd::cargo::cargo_bin_cmd;
use othello_explorer::{Position, Size, notation::opening, notation::transcript};
use reference::{Board, name};
use std::collections::BTreeSet;

const N: usize = 8;
const DATA: &str = include_str!("../data/openings-8x8.txt");

/// The openings of the table, as (transcript, name), parsed here by the rules of its header.
fn entries() -> Vec<(&'static str, &'static str)> {
    DATA.lines()
        .filter_map(|line| {
            let text = line.split(';').next().unwrap_or_default().trim();
            if text.is_empty() {
                return None;
            }
            let (moves, name) = text.split_once(char::is_whitespace).unwrap_or_else(|| panic!("no name: {line}"));
            Some((moves, name.trim()))
        })
        .collect()
}

/// The (column, row) of each move of a transcript, from 0.
fn cells(moves: &str) -> Vec<(usize, usize)> {
    let bytes = moves.as_bytes();
    assert!(bytes.len().is_multiple_of(2), "odd transcript {moves}");
    bytes
        .chunks(2)
        .map(|pair| {
            let (c, r) = (pair[0].to_ascii_lowercase(), pair[1]);
            assert!((b'a'..=b'h').contains(&c) && (b'1'..=b'8').contains(&r), "bad square in {moves}");
            ((c - b'a') as usize, (r - b'1') as usize)
        })
        .collect()
}

fn transcript_of(moves: &[(usize, usize)]) -> String {
    moves.iter().map(|&(c, r)| name(N, r * N + c)).collect()
}

/// Plays a transcript on the reference board, passing where the side to move has no move;
/// `None` at the first illegal move.
fn reference_play(moves: &[(usize, usize)]) -> Option<Board> {
    let mut board = Board::start(N);
    for &(c, r) in moves {
        if board.must_pass() {
            board = board.pass();
        }
        let index = r * N + c;
        if !board.is_legal_for(board.to_move, index) {
            return None;
        }
        board = board.play(index);
    }
    Some(board)
}

/// Where a symmetry takes the square at (`col`, `row`).
type Map = fn(usize, usize) -> (usize, usize);

/// The four symmetries that keep the start position (the others swap the colours of the
/// centre): where they take the square at (`col`, `row`).
const START_SYMMETRIES: [Map; 4] = [
    |c, r| (c, r),                 // identity
    |c, r| (r, c),                 // reflection in the a1-h8 diagonal
    |c, r| (N - 1 - c, N - 1 - r), // half turn
    |c, r| (N - 1 - r, N - 1 - c), // reflection in the a8-h1 diagonal
];

/// The library's name of the position a transcript reaches, and of the deepest named position
/// along it.
fn library_names(moves: &str) -> (Option<&'static str>, Option<&'static str>) {
    let start = Position::start(Size::Eight);
    let line = transcript::play(&start, moves).unwrap_or_else(|e| panic!("{moves}: {e}"));
    (opening::name(&line.end()), opening::name_along(&start, &line.moves))
}

#[test]
fn every_line_plays_legally_from_the_start() {
    let entries = entries();
    assert!(!entries.is_empty());
    for (moves, name) in &entries {
        assert!(!name.is_empty(), "{moves} has no name");
        let moves = cells(moves);
        assert!(reference_play(&moves).is_some(), "{} ({name}) is not legal", transcript_of(&moves));
    }
}

#[test]
fn the_table_has_seventy_names_and_the_second_moves() {
    let entries = entries();
    let names: BTreeSet<&str> = entries.iter().map(|(_, name)| *name).collect();
    assert!(names.len() >= 70, "{} names", names.len());
    assert_eq!(names.len(), entries.len(), "a name given twice");
    assert_eq!(opening::count(), entries.len());
    let transcripts: BTreeSet<&str> = entries.iter().map(|(moves, _)| *moves).collect();
    assert_eq!(transcripts.len(), entries.len(), "a line given twice");
    for (moves, name) in [("f5d6", "Perpendicular"), ("f5f6", "Diagonal"), ("f5f4", "Parallel")] {
        assert!(entries.contains(&(moves, name)), "{moves} {name} missing");
        assert_eq!(library_names(moves), (Some(name), Some(name)));
    }
}

#[test]
fn every_line_is_named_at_its_end_in_all_four_orientations() {
    for (moves, name) in entries() {
        let cells = cells(moves);
        let board = reference_play(&cells).expect("legal");
        for map in START_SYMMETRIES {
            let image: Vec<(usize, usize)> = cells.iter().map(|&(c, r)| map(c, r)).collect();
            // The image game ends in the image of the board, square for square.
            let image_board = reference_play(&image).expect("the image of a legal line is legal");
            for (i, &cell) in board.cells.iter().enumerate() {
                let (c, r) = map(i % N, i / N);
                assert_eq!(image_board.cells[r * N + c], cell);
            }
            let text = transcript_of(&image);
            assert_eq!(library_names(&text), (Some(name), Some(name)), "{text}, the image of {moves}");
        }
    }
}

#[test]
fn the_tiger_from_each_first_move() {
    let image =
        |moves: &str, map: &Map| transcript_of(&cells(moves).iter().map(|&(c, r)| map(c, r)).collect::<Vec<_>>());
    let images: Vec<String> = START_SYMMETRIES.iter().map(|map| image("f5d6c3d3c4", map)).collect();
    // Written out by hand: 1.f5, 1.e6, 1.c4 and 1.d3.
    assert_eq!(images, ["f5d6c3d3c4", "e6f4c3c4d3", "c4e3f6e6f5", "d3c5f6f5e6"]);
    for text in &images {
        assert_eq!(library_names(text), (Some("Tiger"), Some("Tiger")), "{text}");
    }
    // One move on (6.f3, which the table does not name) the position has no name of its own, but
    // the game is still a Tiger.
    for map in &START_SYMMETRIES {
        let longer = image("f5d6c3d3c4f3", map);
        assert_eq!(library_names(&longer), (None, Some("Tiger")), "{longer}");
    }
}

#[test]
fn a_transposition_of_the_tiger_is_a_tiger() {
    // Black's c3 and c4 swapped: the same discs, by the reference rules.
    let (a, b) = ("f5d6c3d3c4", "f5d6c4d3c3");
    assert_eq!(reference_play(&cells(a)), reference_play(&cells(b)));
    assert_ne!(a, b);
    assert_eq!(library_names(b), (Some("Tiger"), Some("Tiger")));
}

/// Every order of each side's moves, the sides still alternating.
fn reorderings(moves: &[(usize, usize)]) -> Vec<Vec<(usize, usize)>> {
    fn permutations(items: &[(usize, usize)]) -> Vec<Vec<(usize, usize)>> {
        if items.len() <= 1 {
            return vec![items.to_vec()];
        }
        let mut out = Vec::new();
        for i in 0..items.len() {
            let mut rest = items.to_vec();
            let first = rest.remove(i);
            for mut tail in permutations(&rest) {
                tail.insert(0, first);
                out.push(tail);
            }
        }
        out
    }
    let black: Vec<_> = moves.iter().step_by(2).copied().collect();
    let white: Vec<_> = moves.iter().skip(1).step_by(2).copied().collect();
    let mut out = Vec::new();
    for b in permutations(&black) {
        for w in permutations(&white) {
            let mut line = Vec::new();
            for i in 0..moves.len() {
                line.push(if i.is_multiple_of(2) { b[i / 2] } else { w[i / 2] });
            }
            out.push(line);
        }
    }
    out
}

#[test]
fn transpositions_in_the_table_get_the_same_name() {
    let mut found = 0;
    for (moves, name) in entries() {
        let cells = cells(moves);
        if cells.len() > 8 {
            continue;
        }
        let board = reference_play(&cells).unwrap();
        for order in reorderings(&cells) {
            if order == cells || reference_play(&order).as_ref() != Some(&board) {
                continue;
            }
            let text = transcript_of(&order);
            assert_eq!(library_names(&text).0, Some(name), "{text}, a transposition of {moves}");
            found += 1;
        }
    }
    assert!(found > 0, "no transposition in the table");
}

fn show(args: &[&str]) -> String {
    let out = cargo_bin_cmd!("othello-explorer").arg("show").args(args).output().expect("the binary runs");
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8 output")
}

#[test]
fn show_prints_the_opening() {
    let json = show(&["--moves", "f5d6c3d3c4", "--json"]);
    assert!(json.contains(r#""opening":"Tiger""#), "{json}");
    let json = show(&["--moves", "c4e3f6e6f5c5c3c6", "--json"]);
    assert!(json.contains(r#""opening":"Comp'Oth""#), "{json}");
    // Past the end of the table the game keeps its name.
    let json = show(&["--moves", "f5d6c3d3c4f4f6f3e6e7c6", "--json"]);
    assert!(json.contains(r#""opening":"Comp'Oth""#), "{json}");
    for args in [&["--size", "6", "--json"][..], &["--json"], &["--moves", "f5", "--json"]] {
        let json = show(args);
        assert!(json.contains(r#""opening":null"#), "{args:?}: {json}");
    }
    // A board string names the position itself.
    let board = reference_play(&cells("e6f4c3c4d3")).unwrap().board_string();
    let json = show(&["--board", &board, "--json"]);
    assert!(json.contains(r#""opening":"Tiger""#), "{json}");
    let text = show(&["--moves", "f5d6c3d3c4"]);
    assert!(text.lines().any(|l| l == "opening: Tiger"), "{text}");
    let text = show(&["--size", "6"]);
    assert!(!text.contains("opening:"), "{text}");
}
