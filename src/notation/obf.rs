//! Board strings and problem lines, as in Edax's OBF problem files, for every board size.
//!
//! A board string is `N*N` characters from `a1` in reading order, `X` black, `O` white, `-` empty
//! (the length decides the size: 16, 36 or 64), whitespace, then `X` or `O` for the side to move.
//! A `;` starts a comment; in a problem file the comment lists each move's exact score:
//! `; G8:+18; H1:+12;`.
//!
//! What Edax, NBoard and the WTHOR tools write is read too ([`format_board`] writes the form
//! above): `*` (or `x`) for black, `o` for white, `.` for an empty square; the side as `*`, `x`,
//! `B` or `b` for black and `o`, `W` or `w` for white; and the side glued to the board (65
//! characters on 8x8, Edax's `-d` and NBoard's copy). Anything else is refused in one line
//! naming its column.

use crate::{
    board::position::{Color, Position, PositionError},
    board::size::Size,
    board::square::Square,
};
use std::fmt;

/// Why a board string did not parse. Columns count characters from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardStringError {
    /// Nothing but spaces or a comment.
    Empty,
    /// A board character that is not `X`, `O` or `-`.
    BadChar { column: usize, found: char },
    /// The board part has a length that is no board's (16, 36 or 64).
    WrongLength { length: usize },
    /// The side to move is missing after the board.
    MissingSide { column: usize },
    /// The side to move is not `X` or `O`.
    BadSide { column: usize, found: String },
    /// Something other than a `;` comment follows the side to move.
    Trailing { column: usize, found: String },
    /// The discs do not make a position.
    Position(PositionError),
}

impl fmt::Display for BoardStringError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardStringError::Empty => write!(f, "empty board string"),
            BoardStringError::BadChar { column, found: '\u{feff}' } => {
                write!(f, "a byte-order mark (U+FEFF) at column {column}: remove it (an editor may have added it)")
            }
            BoardStringError::BadChar { column, found } => {
                write!(
                    f,
                    "bad board character '{found}' at column {column}: expected X or * (black), O (white), - or . (empty)"
                )
            }
            BoardStringError::WrongLength { length } => {
                write!(
                    f,
                    "board of {}: a board string has 16, 36 or 64 characters of X, O and - (then the side to move)",
                    crate::notation::printable::count(*length as i64, "square", "squares")
                )
            }
            BoardStringError::MissingSide { column } => {
                write!(f, "missing side to move at column {column}: add X or O after a space")
            }
            BoardStringError::BadSide { column, found } => {
                write!(f, "bad side to move '{found}' at column {column}: expected X or O (also *, B or W)")
            }
            BoardStringError::Trailing { column, found } => {
                write!(f, "unexpected '{found}' at column {column}: only a ; comment may follow the side to move")
            }
            BoardStringError::Position(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for BoardStringError {}

/// A parsed board string with what followed its `;`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardLine<'a> {
    /// The position.
    pub position: Position,
    /// The text after the first `;`, if any.
    pub comment: Option<&'a str>,
    /// The column (from 1) where the comment's text starts.
    pub comment_column: usize,
}

/// Parses a board string, allowing a `;` comment after it.
///
/// ```
/// use othello_explorer::notation::obf::parse_board;
/// let p = parse_board("-----OX--XO----- X").unwrap();
/// assert_eq!(p.black().bits(), 0x0240);
/// assert_eq!(parse_board("-----OX--XO-----").unwrap_err().to_string(),
///            "missing side to move at column 17: add X or O after a space");
/// ```
pub fn parse_board(text: &str) -> Result<Position, BoardStringError> {
    parse_board_line(text).map(|line| line.position)
}

/// Parses a board string and returns its comment too.
pub fn parse_board_line(text: &str) -> Result<BoardLine<'_>, BoardStringError> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    let column = |i: usize| i + 1;
    while i < chars.len() && chars[i].1.is_whitespace() {
        i += 1;
    }
    if i == chars.len() || chars[i].1 == ';' {
        return Err(BoardStringError::Empty);
    }
    let board_start = i;
    let mut end = i;
    while end < chars.len() && !chars[end].1.is_whitespace() && chars[end].1 != ';' {
        end += 1;
    }
    // The side glued on: one character more than a board, the last a side's.
    let glued = Size::from_squares(end - board_start).is_none()
        && Size::from_squares(end - board_start - 1).is_some()
        && side_of(chars[end - 1].1).is_some();
    let board_end = if glued { end - 1 } else { end };
    let (mut black, mut white) = (Vec::new(), Vec::new());
    while i < board_end {
        match chars[i].1 {
            'X' | 'x' | '*' => black.push(i - board_start),
            'O' | 'o' => white.push(i - board_start),
            '-' | '.' => {}
            c => return Err(BoardStringError::BadChar { column: column(i), found: c }),
        }
        i += 1;
    }
    let length = i - board_start;
    let size = Size::from_squares(length).ok_or(BoardStringError::WrongLength { length })?;
    if !glued {
        while i < chars.len() && chars[i].1.is_whitespace() {
            i += 1;
        }
    }
    let to_move = match chars.get(i).map(|c| c.1) {
        None | Some(';') => return Err(BoardStringError::MissingSide { column: column(i) }),
        Some(c) if side_of(c).is_some() => side_of(c).expect("a side"),
        Some(_) => {
            let word: String = chars[i..].iter().map(|c| c.1).take_while(|c| !c.is_whitespace() && *c != ';').collect();
            return Err(BoardStringError::BadSide { column: column(i), found: word });
        }
    };
    i += 1;
    if i < chars.len() && !chars[i].1.is_whitespace() && chars[i].1 != ';' {
        let word: String = chars[i - 1..].iter().map(|c| c.1).take_while(|c| !c.is_whitespace() && *c != ';').collect();
        return Err(BoardStringError::BadSide { column: column(i - 1), found: word });
    }
    while i < chars.len() && chars[i].1.is_whitespace() {
        i += 1;
    }
    let (comment, comment_column) = match chars.get(i) {
        None => (None, column(i)),
        Some((byte, ';')) => (Some(&text[byte + 1..]), column(i + 1)),
        Some(_) => {
            let word: String = chars[i..].iter().map(|c| c.1).take_while(|c| !c.is_whitespace()).collect();
            return Err(BoardStringError::Trailing { column: column(i), found: word });
        }
    };
    let bits = |idx: &[usize]| idx.iter().fold(0u64, |acc, &k| acc | 1u64 << (size.squares() - 1 - k));
    let position = Position::new(size, bits(&black), bits(&white), to_move).map_err(BoardStringError::Position)?;
    Ok(BoardLine { position, comment, comment_column })
}

/// The side to move a character names: `X`, `x`, `*`, `B`, `b` black; `O`, `o`, `W`, `w` white.
fn side_of(c: char) -> Option<Color> {
    match c {
        'X' | 'x' | '*' | 'B' | 'b' => Some(Color::Black),
        'O' | 'o' | 'W' | 'w' => Some(Color::White),
        _ => None,
    }
}

/// The board string of a position.
///
/// ```
/// use othello_explorer::{Position, Size};
/// assert_eq!(othello_explorer::notation::obf::format_board(&Position::start(Size::Four)), "-----OX--XO----- X");
/// ```
pub fn format_board(position: &Position) -> String {
    // The position's own display: the board string is the board's, written once.
    position.to_string()
}

/// One line of a problem file: a position and the exact scores its comment lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The position.
    pub position: Position,
    /// Each listed move with its exact score from the side to move, in the file's order.
    pub scores: Vec<(Square, i32)>,
}

impl Problem {
    /// The best listed score, if the line lists any.
    pub fn best_score(&self) -> Option<i32> {
        self.scores.iter().map(|s| s.1).max()
    }
}

/// Why a problem line did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProblemError {
    /// The board string part is wrong.
    Board(BoardStringError),
    /// A `MOVE:score` entry is malformed.
    BadScore { column: usize, found: String },
    /// A score beyond the board: a disc difference lies within ±N·N.
    ImpossibleScore { column: usize, found: String, max: i32 },
    /// A listed move that is not a legal move of the position.
    IllegalMove { column: usize, square: Square },
}

impl fmt::Display for ProblemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProblemError::Board(e) => write!(f, "{e}"),
            ProblemError::BadScore { column, found } => {
                write!(f, "bad move score '{found}' at column {column}: expected MOVE:score like G8:+18")
            }
            ProblemError::ImpossibleScore { column, found, max } => {
                write!(f, "impossible score '{found}' at column {column}: a score lies between -{max} and +{max}")
            }
            ProblemError::IllegalMove { column, square } => {
                write!(f, "move {square} at column {column} is not a legal move of the position")
            }
        }
    }
}

impl std::error::Error for ProblemError {}

/// Parses a problem line: a board string, then optionally `; MOVE:score; MOVE:score; …`. Each
/// listed move must be legal in the position (or, when the side to move must pass, for the
/// opponent), and each score within ±N·N.
///
/// ```
/// use othello_explorer::notation::obf::parse_problem;
/// let line = "-----OX--XO----- X; C4:-2; D3:-2;";
/// let p = parse_problem(line).unwrap();
/// assert_eq!(p.scores.len(), 2);
/// assert_eq!(p.best_score(), Some(-2));
/// // b3 is not a legal move there, and no score lies beyond ±16 on 4x4.
/// assert!(parse_problem("-----OX--XO----- X; B3:-2;").is_err());
/// assert!(parse_problem("-----OX--XO----- X; C4:-18;").is_err());
/// ```
pub fn parse_problem(line: &str) -> Result<Problem, ProblemError> {
    let parsed = parse_board_line(line).map_err(ProblemError::Board)?;
    let legal = parsed.position.after_forced_pass().0.legal_moves();
    let max = parsed.position.size().squares() as i32;
    let mut scores = Vec::new();
    if let Some(comment) = parsed.comment {
        let mut offset = parsed.comment_column;
        for part in comment.split(';') {
            let trimmed = part.trim();
            let lead = part.chars().take_while(|c| c.is_whitespace()).count();
            if !trimmed.is_empty() {
                let column = offset + lead;
                let bad = || ProblemError::BadScore { column, found: trimmed.to_string() };
                let (mv, score) = trimmed.split_once(':').ok_or_else(bad)?;
                let square: Square = mv.trim().parse().map_err(|_| bad())?;
                let score = score.trim();
                let score: i32 = score.strip_prefix('+').unwrap_or(score).parse().map_err(|_| bad())?;
                if !legal.contains(square) {
                    return Err(ProblemError::IllegalMove { column, square });
                }
                if score.abs() > max {
                    return Err(ProblemError::ImpossibleScore { column, found: trimmed.to_string(), max });
                }
                scores.push((square, score));
            }
            offset += part.chars().count() + 1;
        }
    }
    Ok(Problem { position: parsed.position, scores })
}
