//! Transcripts: the moves of a game as `f5d6c3…`, either case, spaces allowed, passes implicit.
//! What other programs write is read too: move numbers (`1. f5 d6 2. c3`, `1... d6`), moves
//! joined by `-` (`f5-d6-c3`, a pass mark `--` among them) or `,`. Anything else is refused,
//! naming the move and the column.
//!
//! When the side to move has no legal move, the next move in the transcript is the other side's:
//! the pass is played before it without being written.

use crate::board::position::IllegalMove;
use crate::{
    board::position::Position,
    board::size::Size,
    board::square::{ParseSquareError, Square},
};
use std::fmt;

/// Why a transcript could not be played. Columns count characters from 1; moves count from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TranscriptError {
    /// The text at `column` is not a square name.
    BadSquare { move_number: usize, column: usize, error: ParseSquareError },
    /// The move at `column` is off the board or illegal in the position it is played in.
    Illegal { move_number: usize, column: usize, error: IllegalMove },
}

impl fmt::Display for TranscriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TranscriptError::BadSquare { move_number, column, error } => {
                write!(f, "move {move_number} at column {column}: {error}")
            }
            TranscriptError::Illegal { move_number, column, error } => {
                write!(f, "move {move_number} at column {column} is illegal: {error}")
            }
        }
    }
}

impl std::error::Error for TranscriptError {}

/// A transcript played from a start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The position the transcript starts from.
    pub start: Position,
    /// The moves, passes not written.
    pub moves: Vec<Square>,
    /// The position after each move (and after any pass before it): `positions[i]` follows
    /// `moves[i]`.
    pub positions: Vec<Position>,
}

impl Line {
    /// The position after the last move (the start if there is none).
    pub fn end(&self) -> Position {
        self.positions.last().copied().unwrap_or(self.start)
    }
}

/// Splits a transcript into squares with their columns, checking only the spelling (squares of
/// the 8x8 grid; [`parse_squares_for`] names a smaller board's range).
///
/// ```
/// use othello_explorer::notation::transcript::parse_squares;
/// let sq = parse_squares("F5 d6c3").unwrap();
/// assert_eq!(sq.iter().map(|(s, _)| s.to_string()).collect::<Vec<_>>(), ["f5", "d6", "c3"]);
/// assert_eq!(sq[1].1, 4);
/// ```
pub fn parse_squares(text: &str) -> Result<Vec<(Square, usize)>, TranscriptError> {
    parse_squares_for(Size::Eight, text)
}

/// [`parse_squares`] for a board of `size`: a character that is no column letter or row digit at
/// all is an error naming that board's range ([`Square::parse_for`]).
///
/// ```
/// use othello_explorer::{Size, notation::transcript::parse_squares_for};
/// let e = parse_squares_for(Size::Six, "c2 i1").unwrap_err();
/// assert_eq!(e.to_string(), "move 2 at column 4: bad column 'i': expected a letter a to f");
/// ```
pub fn parse_squares_for(size: Size, text: &str) -> Result<Vec<(Square, usize)>, TranscriptError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_whitespace() || matches!(chars[i], ',' | '-') {
            i += 1;
            continue;
        }
        // A move number: digits, then at least one dot.
        if chars[i].is_ascii_digit() {
            let digits = chars[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            if chars.get(i + digits) == Some(&'.') {
                i += digits;
                while chars.get(i) == Some(&'.') {
                    i += 1;
                }
                continue;
            }
        }
        let column = i + 1;
        let move_number = out.len() + 1;
        let end = (i + 2).min(chars.len());
        let word: String = chars[i..end].iter().collect();
        let square = Square::parse_for(size, &word).map_err(|error| {
            // A lone letter at the end, or a letter followed by a space, misses its row.
            let error = match (&error, chars.get(i + 1)) {
                (ParseSquareError::BadRow { found, .. }, _) if found.is_whitespace() => ParseSquareError::MissingRow,
                _ => error,
            };
            TranscriptError::BadSquare { move_number, column, error }
        })?;
        out.push((square, column));
        i = end;
    }
    Ok(out)
}

/// Plays `text` from `start`, passing where the side to move has no move.
///
/// ```
/// use othello_explorer::{Position, Size, notation::transcript};
/// let line = transcript::play(&Position::start(Size::Eight), "f5d6 C3").unwrap();
/// assert_eq!(line.moves.len(), 3);
/// let numbered = transcript::play(&Position::start(Size::Eight), "1. f5 d6 2. c3").unwrap();
/// assert_eq!(numbered.moves, line.moves);
/// assert_eq!(transcript::play(&Position::start(Size::Eight), "f5-d6-c3").unwrap().moves, line.moves);
/// let err = transcript::play(&Position::start(Size::Eight), "f5f5").unwrap_err();
/// assert_eq!(err.to_string(), "move 2 at column 3 is illegal: f5 is already occupied");
/// ```
pub fn play(start: &Position, text: &str) -> Result<Line, TranscriptError> {
    let squares = parse_squares_for(start.size(), text)?;
    let mut position = *start;
    let mut line = Line { start: *start, moves: Vec::new(), positions: Vec::new() };
    for (k, (square, column)) in squares.into_iter().enumerate() {
        if position.must_pass() {
            position = position.pass();
        }
        position =
            position.play(square).map_err(|error| TranscriptError::Illegal { move_number: k + 1, column, error })?;
        line.moves.push(square);
        line.positions.push(position);
    }
    Ok(line)
}

/// Writes moves as a transcript: `f5d6c3`.
pub fn format(moves: &[Square]) -> String {
    moves.iter().map(|m| m.to_string()).collect()
}
