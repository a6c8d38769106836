//! The names of 8x8 openings: the Tiger, the Rose, the Buffalo, …
//!
//! # Conventions
//!
//! The table is `data/openings-8x8.txt`, embedded in the program: one opening a line,
//! `<transcript> <name>` (`f5d6c3d3c4 Tiger`), `;` starting a comment. Its squares are the
//! crate's (`a1` top-left, columns `a..h` left to right, rows `1..8` top to bottom) and its start
//! is the crate's (white on `d4` and `e5`, black on `e4` and `d5`, black to move): the same as
//! standard Othello notation, so the published sequences apply as written.
//!
//! # Matching
//!
//! Each line names the position at its end. A position is named when it is, up to the eight
//! symmetries of the board and with the same side to move, the end of a named line: matching is
//! on the position, not the moves, so a transposition (another move order reaching it) and every
//! symmetric image (any of the four first moves) get the name too. No two lines of the table end
//! in the same position (a unit test checks); were they to, the first would give the name.
//!
//! [`name`] names one position; [`name_along`] names a game by the deepest named position it
//! passes through, so the name stays after the game leaves the table, as players expect.
//!
//! ```
//! use othello_explorer::{Position, Size, notation::opening, notation::transcript};
//! let start = Position::start(Size::Eight);
//! let tiger = transcript::play(&start, "f5d6c3d3c4").unwrap();
//! assert_eq!(opening::name(&tiger.end()), Some("Tiger"));
//! // The same position from the first move e6.
//! let mirrored = transcript::play(&start, "e6f4c3c4d3").unwrap();
//! assert_eq!(opening::name(&mirrored.end()), Some("Tiger"));
//! // One move further the position has no name of its own, but the game is still a Tiger.
//! let later = transcript::play(&start, "f5d6c3d3c4f3").unwrap();
//! assert_eq!(opening::name(&later.end()), None);
//! assert_eq!(opening::name_along(&start, &later.moves), Some("Tiger"));
//! ```

use crate::board::symmetry::canonical;
use crate::notation::transcript::{self, TranscriptError};
use crate::{
    board::position::{Color, Position},
    board::size::Size,
    board::square::Square,
};
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

/// The table, as written in `data/openings-8x8.txt`.
const DATA: &str = include_str!("../../data/openings-8x8.txt");

/// What a named position is looked up by: its canonical discs and the side to move.
type Key = ((u64, u64), Color);

/// The parsed table.
struct Table {
    /// The name of each named position.
    names: HashMap<Key, &'static str>,
    /// The number of lines that parsed and played.
    lines: usize,
}

/// One opening of the table: the position its moves reach from the start, and its name.
struct Entry {
    end: Position,
    name: &'static str,
}

/// Why a line of the table is not an opening.
#[derive(Clone, Debug, PartialEq, Eq)]
enum EntryError {
    /// A transcript with no name after it.
    MissingName,
    /// The transcript does not play from the start.
    Transcript(TranscriptError),
}

impl fmt::Display for EntryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EntryError::MissingName => write!(f, "no name after the moves"),
            EntryError::Transcript(e) => write!(f, "bad moves: {e}"),
        }
    }
}

/// The name of `position`: the opening that ends there, in any symmetric image and by any move
/// order. `None` when no opening ends there and on 4x4 and 6x6 boards.
pub fn name(position: &Position) -> Option<&'static str> {
    if position.size() != Size::Eight {
        return None;
    }
    table().names.get(&key(position)).copied()
}

/// The name of the deepest named position along `moves` played from `start` (`start` included),
/// passing where the side to move has no move: the opening the game is in, or left last. Play
/// stops at the first illegal move. `None` when no position along the line is named.
pub fn name_along(start: &Position, moves: &[Square]) -> Option<&'static str> {
    if start.size() != Size::Eight {
        return None;
    }
    let mut position = *start;
    let mut found = name(&position);
    for &square in moves {
        if position.must_pass() {
            position = position.pass();
        }
        let Ok(next) = position.play(square) else { break };
        position = next;
        found = name(&position).or(found);
    }
    found
}

/// The number of named openings in the table (lines of `data/openings-8x8.txt`).
pub fn count() -> usize {
    table().lines
}

fn key(position: &Position) -> Key {
    (canonical(position).0, position.to_move())
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut names = HashMap::new();
        let mut lines = 0;
        // A line that does not parse is skipped: the unit tests make sure there is none.
        for entry in DATA.lines().filter_map(|line| parse_line(line).ok().flatten()) {
            names.entry(key(&entry.end)).or_insert(entry.name);
            lines += 1;
        }
        Table { names, lines }
    })
}

/// One line of the table: `None` for a blank or comment line.
fn parse_line(line: &'static str) -> Result<Option<Entry>, EntryError> {
    let text = line.split(';').next().unwrap_or_default().trim();
    if text.is_empty() {
        return Ok(None);
    }
    let (moves, name) = text.split_once(char::is_whitespace).ok_or(EntryError::MissingName)?;
    let name = name.trim();
    if name.is_empty() {
        return Err(EntryError::MissingName);
    }
    let played = transcript::play(&Position::start(Size::Eight), moves).map_err(EntryError::Transcript)?;
    Ok(Some(Entry { end: played.end(), name }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(moves: &str) -> transcript::Line {
        transcript::play(&Position::start(Size::Eight), moves).unwrap()
    }

    #[test]
    fn every_line_of_the_table_parses_and_plays() {
        let mut entries = 0;
        for (i, line) in DATA.lines().enumerate() {
            match parse_line(line) {
                Ok(Some(_)) => entries += 1,
                Ok(None) => {}
                Err(e) => panic!("line {} of data/openings-8x8.txt: {e}: {line}", i + 1),
            }
        }
        assert_eq!(count(), entries);
        assert!(entries >= 70, "{entries} openings");
    }

    #[test]
    fn no_two_lines_name_the_same_position() {
        let mut seen: HashMap<Key, &str> = HashMap::new();
        for entry in DATA.lines().filter_map(|line| parse_line(line).unwrap()) {
            if let Some(first) = seen.insert(key(&entry.end), entry.name) {
                panic!("{first} and {} end in the same position", entry.name);
            }
        }
        assert_eq!(table().names.len(), count());
    }

    #[test]
    fn each_opening_is_named_at_its_end() {
        for entry in DATA.lines().filter_map(|line| parse_line(line).unwrap()) {
            assert_eq!(name(&entry.end), Some(entry.name));
        }
    }

    #[test]
    fn malformed_lines_are_errors() {
        assert_eq!(parse_line("; a comment").unwrap().map(|e| e.name), None);
        assert_eq!(parse_line("   ").unwrap().map(|e| e.name), None);
        assert_eq!(parse_line("f5d6 Perpendicular ; the usual").unwrap().map(|e| e.name), Some("Perpendicular"));
        assert!(matches!(parse_line("f5d6c3"), Err(EntryError::MissingName)));
        assert!(matches!(parse_line("f5d6c3 ; no name"), Err(EntryError::MissingName)));
        assert!(matches!(parse_line("f5f5 Nonsense"), Err(EntryError::Transcript(_))));
        assert!(matches!(parse_line("z9 Nonsense"), Err(EntryError::Transcript(_))));
        let e = parse_line("f5d6c3").err().unwrap();
        assert_eq!(e.to_string(), "no name after the moves");
    }

    #[test]
    fn the_start_and_other_sizes_have_no_name() {
        assert_eq!(name(&Position::start(Size::Eight)), None);
        assert_eq!(name(&Position::start(Size::Six)), None);
        assert_eq!(name_along(&Position::start(Size::Six), &[]), None);
        assert_eq!(name(&play("f5").end()), None);
    }

    #[test]
    fn the_deepest_name_along_a_line_stays() {
        let start = Position::start(Size::Eight);
        let rose = play("f5d6c5f4e3c6d3f6e6d7");
        assert_eq!(name_along(&start, &rose.moves[..2]), Some("Perpendicular"));
        assert_eq!(name_along(&start, &rose.moves[..5]), Some("Perpendicular"));
        assert_eq!(name_along(&start, &rose.moves[..6]), Some("Perpendicular"));
        assert_eq!(name_along(&start, &rose.moves), Some("Rose"));
        // One move on: the Rose unless the move reaches a name of its own (the Flat, …).
        let mut unnamed = 0;
        for square in rose.end().legal_moves().reading_order() {
            let own = name(&rose.end().play(square).unwrap());
            let moves = [&rose.moves[..], &[square]].concat();
            assert_eq!(name_along(&start, &moves), own.or(Some("Rose")));
            unnamed += usize::from(own.is_none());
        }
        assert!(unnamed > 0);
        // An illegal move ends the line: what came before still counts.
        let f5: Square = "f5".parse().unwrap();
        let mut moves = rose.moves.clone();
        moves.push(f5);
        assert_eq!(name_along(&start, &moves), Some("Rose"));
    }
}
