//! The text form of store entries: what `store export` writes, `store import` reads and the
//! shipped book is made of. One entry per line, fields separated by spaces:
//!
//! ```text
//! ; board (N*N of X/O/-, from a1)     side scoring  score  best source
//! ------------OOX---XXX--------------- O standard -4    c5   book
//! --------------XO----OX-------------- X discs    -6..+2 -    explorer
//! ```
//!
//! - the board string and side to move, as everywhere in the project ([`crate::notation::obf`]);
//! - the scoring rule: `standard` (empties to the winner) or `discs`;
//! - the score from the side to move: exact (`-4`, `+2`, `0`) or bounds `LOWER..UPPER`;
//! - a move that reaches the exact score, or `-` when none is known (or the side must pass);
//! - optionally where the entry came from: `book`, `explorer` or `import` (the default).
//!
//! A `;` starts a comment, to the end of the line; blank lines are skipped. A line is at most
//! [`LINE_LIMIT`] bytes: `store import` refuses a longer one.

use super::{Entry, Source, Stored};
use crate::notation::obf::{self, BoardStringError};
use crate::{board::position::Scoring, board::square::Square};
use std::fmt;

/// The longest line `store import` reads, in bytes (its newline not counted): an entry takes
/// about 100 (an 8x8 board is 64 characters), the rest is room for a comment. Far below the
/// file's cap (256 MiB), so one line never costs more memory than a few.
pub const LINE_LIMIT: usize = 4096;

/// Why a line of the text form did not parse. Columns count characters from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseEntryError {
    /// The board string or the side to move is wrong.
    Board(BoardStringError),
    /// A field is missing.
    Missing { column: usize, field: &'static str },
    /// The scoring rule is not `standard` or `discs`.
    BadScoring { column: usize, found: String },
    /// The score is not a number or a range `LOWER..UPPER`.
    BadScore { column: usize, found: String },
    /// The score lies beyond what the board allows, or the bounds cross.
    ScoreOutOfRange { column: usize, found: String },
    /// The best move is not a square name or `-`.
    BadBest { column: usize, found: String },
    /// The best move is not a legal move of the position.
    IllegalBest { column: usize, square: Square },
    /// The source is not `book`, `explorer` or `import`.
    BadSource { column: usize, found: String },
    /// Something other than a `;` comment follows the last field.
    Trailing { column: usize, found: String },
}

impl fmt::Display for ParseEntryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseEntryError::Board(e) => write!(f, "{e}"),
            ParseEntryError::Missing { column, field } => write!(f, "missing {field} at column {column}"),
            ParseEntryError::BadScoring { column, found } => {
                write!(f, "bad scoring '{found}' at column {column}: expected standard or discs")
            }
            ParseEntryError::BadScore { column, found } => {
                write!(f, "bad score '{found}' at column {column}: expected a number like -4 or bounds like -6..+2")
            }
            ParseEntryError::ScoreOutOfRange { column, found } => {
                write!(f, "score '{found}' at column {column} is impossible on this board")
            }
            ParseEntryError::BadBest { column, found } => {
                write!(f, "bad best move '{found}' at column {column}: expected a square like c4 or -")
            }
            ParseEntryError::IllegalBest { column, square } => {
                write!(f, "best move {square} at column {column} is not a legal move of the position")
            }
            ParseEntryError::BadSource { column, found } => {
                write!(f, "bad source '{found}' at column {column}: expected book, explorer or import")
            }
            ParseEntryError::Trailing { column, found } => {
                write!(f, "unexpected '{found}' at column {column}: only a ; comment may follow the source")
            }
        }
    }
}

impl std::error::Error for ParseEntryError {}

/// Writes an entry as one line (no newline).
///
/// ```
/// use othello_explorer::store::{Entry, Source, Stored, text};
/// use othello_explorer::{Position, Scoring, Size};
/// let entry = Entry {
///     position: Position::start(Size::Four),
///     scoring: Scoring::Standard,
///     stored: Stored::exact(-10, Some("c4".parse().unwrap()), Source::Book),
/// };
/// let line = text::format_entry(&entry);
/// assert_eq!(line, "-----OX--XO----- X standard -10 c4 book");
/// assert_eq!(text::parse_entry(&line).unwrap(), Some(entry));
/// ```
pub fn format_entry(entry: &Entry) -> String {
    let Stored { lower, upper, best, source } = entry.stored;
    let score =
        if lower == upper { format_score(lower) } else { format!("{}..{}", format_score(lower), format_score(upper)) };
    let best = best.map_or_else(|| "-".to_string(), |sq| sq.to_string());
    format!("{} {} {score} {best} {}", obf::format_board(&entry.position), entry.scoring.name(), source.name())
}

fn format_score(score: i32) -> String {
    if score == 0 { "0".to_string() } else { format!("{score:+}") }
}

/// Parses one line: `Ok(None)` for a blank or comment-only line.
pub fn parse_entry(line: &str) -> Result<Option<Entry>, ParseEntryError> {
    let content = line.split(';').next().unwrap_or("");
    let mut fields = Fields::new(content);
    let Some((board_col, board)) = fields.next() else { return Ok(None) };
    let side = fields.next();
    let board_text = match side {
        Some((_, side)) => format!("{board} {side}"),
        None => board.to_string(),
    };
    let position = obf::parse_board(&board_text).map_err(|e| ParseEntryError::Board(shift_columns(e, board_col)))?;
    let end = content.chars().count() + 1;
    let (col, word) = fields.next().ok_or(ParseEntryError::Missing { column: end, field: "scoring" })?;
    let scoring = match word {
        "standard" => Scoring::Standard,
        "discs" => Scoring::Discs,
        _ => return Err(ParseEntryError::BadScoring { column: col, found: word.to_string() }),
    };
    let (col, word) = fields.next().ok_or(ParseEntryError::Missing { column: end, field: "score" })?;
    let bad = || ParseEntryError::BadScore { column: col, found: word.to_string() };
    let (lower, upper) = match word.split_once("..") {
        Some((l, u)) => (parse_int(l).ok_or_else(bad)?, parse_int(u).ok_or_else(bad)?),
        None => {
            let s = parse_int(word).ok_or_else(bad)?;
            (s, s)
        }
    };
    let limit = position.size().squares() as i32;
    if lower > upper || lower < -limit || upper > limit {
        return Err(ParseEntryError::ScoreOutOfRange { column: col, found: word.to_string() });
    }
    let (col, word) = fields.next().ok_or(ParseEntryError::Missing { column: end, field: "best move" })?;
    let best = match word {
        "-" => None,
        _ => {
            let square: Square =
                word.parse().map_err(|_| ParseEntryError::BadBest { column: col, found: word.to_string() })?;
            if !square.is_on(position.size()) || !position.legal_moves().contains(square) {
                return Err(ParseEntryError::IllegalBest { column: col, square });
            }
            Some(square)
        }
    };
    let source = match fields.next() {
        None => Source::Import,
        Some((col, word)) => Source::from_name(word)
            .ok_or_else(|| ParseEntryError::BadSource { column: col, found: word.to_string() })?,
    };
    if let Some((col, word)) = fields.next() {
        return Err(ParseEntryError::Trailing { column: col, found: word.to_string() });
    }
    Ok(Some(Entry { position, scoring, stored: Stored { lower, upper, best, source } }))
}

fn parse_int(text: &str) -> Option<i32> {
    text.strip_prefix('+').unwrap_or(text).parse().ok().filter(|_| !text.starts_with("+-"))
}

/// The board parser counts columns from its own first character; make them the line's.
fn shift_columns(e: BoardStringError, board_col: usize) -> BoardStringError {
    let shift = |c: usize| c + board_col - 1;
    match e {
        BoardStringError::BadChar { column, found } => BoardStringError::BadChar { column: shift(column), found },
        BoardStringError::MissingSide { column } => BoardStringError::MissingSide { column: shift(column) },
        BoardStringError::BadSide { column, found } => BoardStringError::BadSide { column: shift(column), found },
        BoardStringError::Trailing { column, found } => BoardStringError::Trailing { column: shift(column), found },
        other => other,
    }
}

/// The whitespace-separated words of a line with the column (from 1) where each starts.
struct Fields<'a> {
    text: &'a str,
    chars: Vec<(usize, char)>,
    i: usize,
}

impl<'a> Fields<'a> {
    fn new(text: &'a str) -> Fields<'a> {
        Fields { text, chars: text.char_indices().collect(), i: 0 }
    }
}

impl<'a> Iterator for Fields<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<(usize, &'a str)> {
        while self.i < self.chars.len() && self.chars[self.i].1.is_whitespace() {
            self.i += 1;
        }
        if self.i == self.chars.len() {
            return None;
        }
        let (start_i, start_byte) = (self.i, self.chars[self.i].0);
        while self.i < self.chars.len() && !self.chars[self.i].1.is_whitespace() {
            self.i += 1;
        }
        let end_byte = self.chars.get(self.i).map_or(self.text.len(), |c| c.0);
        Some((start_i + 1, &self.text[start_byte..end_byte]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_their_column() {
        let e = |line: &str| parse_entry(line).unwrap_err().to_string();
        assert_eq!(
            e("-----OX--XO----- X standard x c4"),
            "bad score 'x' at column 29: expected a number like -4 or bounds like -6..+2"
        );
        assert_eq!(
            e("-----OX--XO----- X normal -10 c4"),
            "bad scoring 'normal' at column 20: expected standard or discs"
        );
        assert_eq!(
            e("-----OX--XO----- X standard -10 a1"),
            "best move a1 at column 33 is not a legal move of the position"
        );
        assert_eq!(e("-----OX--XO----- X standard 4..-2 -"), "score '4..-2' at column 29 is impossible on this board");
        assert_eq!(e("-----OX--XO----- X standard -10"), "missing best move at column 32");
        assert_eq!(
            e("  -----OX--XO--Z-- X standard -10 -"),
            "bad board character 'Z' at column 16: expected X or * (black), O (white), - or . (empty)"
        );
        assert_eq!(parse_entry("  ; a comment").unwrap(), None);
        assert!(parse_entry("-----OX--XO----- X discs -8..0 - explorer ; note").unwrap().is_some());
    }
}
