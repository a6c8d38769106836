//! Games in and out: GGF (the Generic Game Format of the online Othello servers), WTHOR `.wtb`
//! databases, transcripts (with or without move numbers, spaces and line breaks) and board
//! strings. [`read_text`] and [`read_bytes`] say which format they read ([`Format`]); every
//! error names the line and column (or, in a database, the game and the byte) and what was
//! expected.
//!
//! Conventions: squares are named as everywhere in the project (`a1` top-left, columns a.., rows
//! 1..); GGF and WTHOR name them the same way (WTHOR as `10 * row + column`, 1-based). Passes are
//! implicit in a game's move list: [`Game::moves`] holds squares only.
//!
//! A game's result is the board's when the game ends on it; a game that stops before (a
//! resignation, a loss on time, a score the players agreed) has the result its file states, if
//! it states one ([`Game::stated`]: GGF's `RE[+64:r]`, WTHOR's score byte), else none
//! ([`Game::result`]).

pub mod ggf;
pub mod text;
pub mod wthor;

use crate::{board::position::Position, board::size::Size, board::square::Square};
use std::fmt;

/// The formats a game is read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A GGF record `(;GM[Othello]...;)`.
    Ggf,
    /// A WTHOR `.wtb` database.
    Wthor,
    /// A transcript (`f5d6c3`, `1. f5 d6 2. c3`).
    Transcript,
    /// A board string, then optionally a transcript from it.
    BoardString,
}

impl Format {
    /// Its name, for the messages: "a GGF game".
    pub const fn name(self) -> &'static str {
        match self {
            Format::Ggf => "GGF",
            Format::Wthor => "WTHOR",
            Format::Transcript => "transcript",
            Format::BoardString => "board string",
        }
    }
}

/// A game read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The position the game starts from.
    pub start: Position,
    /// The moves, passes implicit.
    pub moves: Vec<Square>,
    /// Black's player, if the file names one.
    pub black: Option<String>,
    /// White's player, if the file names one.
    pub white: Option<String>,
    /// The format it was read from.
    pub format: Format,
    /// Which game of the file it is (from 1) and how many the file holds.
    pub index: (usize, usize),
    /// The result the file states, if it states one (taken only when the game does not end on
    /// the board: [`Game::result`]).
    pub stated: Option<GameResult>,
}

/// How a game that stops before its end was decided, as a file states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum How {
    /// A score with no reason given (WTHOR's score byte, GGF's `RE[+4]`).
    Stated,
    /// The loser resigned (GGF `:r`).
    Resigned,
    /// The loser ran out of time (GGF `:t`).
    Time,
    /// The players agreed on the score (GGF `:s`).
    Agreed,
}

impl How {
    /// The word the lists write after the score: `+64 resigned`.
    pub const fn word(self) -> &'static str {
        match self {
            How::Stated => "stated",
            How::Resigned => "resigned",
            How::Time => "on time",
            How::Agreed => "agreed",
        }
    }

    /// Its name in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            How::Stated => "stated",
            How::Resigned => "resigned",
            How::Time => "time",
            How::Agreed => "agreed",
        }
    }
}

/// A game's result: black's final score (empties to the winner), and how it is known (`None`:
/// counted on the final board).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// The final score from black's side.
    pub black_score: i32,
    /// How the game was decided when it stops before its end.
    pub how: Option<How>,
}

impl fmt::Display for GameResult {
    /// `+12` for a game counted on the board, `+64 resigned` (or `on time`, `agreed`, `stated`)
    /// for one decided before its end.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.how {
            None => write!(f, "{:+}", self.black_score),
            Some(how) => write!(f, "{:+} {}", self.black_score, how.word()),
        }
    }
}

/// The result of a game that reached `end`: counted on the board when the game is over there,
/// else `stated` (kept within the board's squares), else `None` (result unknown). The one rule
/// for game files and the archive alike.
pub fn result_of(end: &Position, stated: Option<GameResult>) -> Option<GameResult> {
    if end.is_game_over() {
        return Some(GameResult { black_score: end.black_score(crate::board::position::Scoring::Standard), how: None });
    }
    let squares = end.size().squares() as i32;
    stated.map(|r| GameResult { black_score: r.black_score.clamp(-squares, squares), how: r.how })
}

/// A result as the lists write it: [`GameResult`]'s text, or `unknown`.
pub fn result_text(result: Option<GameResult>) -> String {
    result.map_or_else(|| "unknown".to_string(), |r| r.to_string())
}

impl Game {
    /// A game from `start` with `moves`, of no player and no file.
    pub fn new(start: Position, moves: Vec<Square>, format: Format) -> Game {
        Game { start, moves, black: None, white: None, format, index: (1, 1), stated: None }
    }

    /// Its result: counted on the board when the game ends there, else the one its file states
    /// (kept within the board's squares), else `None` (result unknown).
    pub fn result(&self) -> Option<GameResult> {
        result_of(&self.end(), self.stated)
    }

    /// The position after the last move.
    pub fn end(&self) -> Position {
        let mut p = self.start;
        for &m in &self.moves {
            p = p.after_forced_pass().0;
            if let Ok(next) = p.play(m) {
                p = next;
            }
        }
        p
    }
}

/// Why a game file could not be read. Lines and columns count from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameFileError {
    /// The text at a place is not what the format expects there.
    Syntax {
        /// The format read.
        format: Format,
        /// The line.
        line: usize,
        /// The column (characters).
        column: usize,
        /// What was expected, and what was found.
        expected: String,
    },
    /// A move that is not legal where it is played.
    Illegal {
        /// The format read.
        format: Format,
        /// The line.
        line: usize,
        /// The column.
        column: usize,
        /// The move number, from 1.
        move_number: usize,
        /// Why.
        reason: String,
    },
    /// A WTHOR database is damaged at this byte.
    Database {
        /// The byte offset.
        offset: usize,
        /// What is wrong.
        reason: String,
    },
    /// `--index K` names no game of the file.
    NoSuchGame {
        /// The game asked for (from 1).
        index: usize,
        /// How many the file holds.
        count: usize,
    },
    /// The file holds no game.
    Empty,
}

impl fmt::Display for GameFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameFileError::Syntax { format, line, column, expected } => {
                write!(f, "line {line}, column {column}: {} expected {expected}", format.name())
            }
            GameFileError::Illegal { format, line, column, move_number, reason } => {
                write!(f, "line {line}, column {column}: {} move {move_number} is illegal: {reason}", format.name())
            }
            GameFileError::Database { offset, reason } => write!(f, "byte {offset}: WTHOR: {reason}"),
            GameFileError::NoSuchGame { index, count } => {
                write!(f, "no game {index}: the file holds {count} game{}", if *count == 1 { "" } else { "s" })
            }
            GameFileError::Empty => write!(f, "the file holds no game: no GGF record, board string or transcript"),
        }
    }
}

impl std::error::Error for GameFileError {}

/// Reads game number `index` (from 1; `None`: the first) of a text file: GGF when it holds a
/// `(;` record, else a board string and/or a transcript (the start of `size` when it has no board
/// string; another size when the transcript plays only there).
pub fn read_text(text: &str, size: Size, index: Option<usize>) -> Result<Game, GameFileError> {
    if text.contains("(;") {
        return ggf::read(text, index.unwrap_or(1));
    }
    if let Some(k) = index.filter(|&k| k != 1) {
        return Err(GameFileError::NoSuchGame { index: k, count: 1 });
    }
    text::read(text, size)
}

/// One game in a file's list ([`list`]): its number, its players and length, or why it does not
/// read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// Its number in the file, from 1.
    pub index: usize,
    /// The game, or why it does not read.
    pub game: Result<Game, GameFileError>,
}

/// The first `limit` games of a file's bytes (WTHOR, GGF, or one transcript), each read, and how
/// many games the file holds. Time and memory follow `limit`, not the file (a GGF file is
/// tokenized once).
pub fn list(bytes: &[u8], size: Size, limit: usize) -> Result<(Vec<Listed>, usize), GameFileError> {
    if wthor::looks_like(bytes) {
        let count = wthor::count(bytes);
        let games = (1..=count.min(limit)).map(|index| Listed { index, game: wthor::read(bytes, index) }).collect();
        return Ok((games, count));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| GameFileError::Database {
        offset: e.valid_up_to(),
        reason: "neither text nor a WTHOR database (its header does not match its length)".into(),
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.contains("(;") {
        let starts = ggf::records(text);
        if starts.is_empty() {
            return Err(GameFileError::Empty);
        }
        let shown = &starts[..starts.len().min(limit)];
        let games = ggf::read_each(text, &starts)
            .take(shown.len())
            .enumerate()
            .map(|(k, game)| Listed { index: k + 1, game })
            .collect();
        return Ok((games, starts.len()));
    }
    Ok((vec![Listed { index: 1, game: text::read(text, size) }], 1))
}

/// Reads game `index` of a file's bytes: a WTHOR database when it looks like one (a header whose
/// game count matches the length), else its text.
pub fn read_bytes(bytes: &[u8], size: Size, index: Option<usize>) -> Result<Game, GameFileError> {
    if wthor::looks_like(bytes) {
        return wthor::read(bytes, index.unwrap_or(1));
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => read_text(text.strip_prefix('\u{feff}').unwrap_or(text), size, index),
        Err(e) => {
            let offset = e.valid_up_to();
            Err(GameFileError::Database {
                offset,
                reason: "neither text nor a WTHOR database (its header does not match its length)".into(),
            })
        }
    }
}
