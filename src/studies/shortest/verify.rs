//! Game records checked against the asked ending: each plays from the start, ends, and ends the
//! asked way; the shortest length among them, and whether the search's bound is met.

use super::Ending;
use crate::board::symmetry::canonical;
use crate::notation::transcript::{self, TranscriptError};
use crate::{
    board::position::{Color, Position},
    board::size::Size,
    board::square::Square,
};
use std::collections::HashSet;
use std::fmt;

/// Why a game record in a file to verify was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordProblem {
    /// It does not play from the start.
    Illegal(TranscriptError),
    /// After its last move the game goes on.
    NotOver,
    /// It ends, but not the asked way (the final discs black-white).
    WrongEnding {
        /// Black's discs at the end.
        black: u32,
        /// White's discs at the end.
        white: u32,
    },
    /// It has fewer moves than the claimed shortest length.
    Shorter {
        /// Its moves.
        moves: usize,
    },
    /// It has more moves than the claimed shortest length.
    Longer {
        /// Its moves.
        moves: usize,
    },
}

impl fmt::Display for RecordProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordProblem::Illegal(e) => write!(f, "{e}"),
            RecordProblem::NotOver => f.write_str("the game is not over after its last move"),
            RecordProblem::WrongEnding { black, white } => write!(f, "it ends {black}-{white}"),
            RecordProblem::Shorter { moves } => {
                write!(
                    f,
                    "it has {}: shorter than the claimed shortest, which it refutes",
                    crate::notation::printable::count(*moves as i64, "move", "moves")
                )
            }
            RecordProblem::Longer { moves } => {
                write!(
                    f,
                    "it has {}: longer than the claimed shortest",
                    crate::notation::printable::count(*moves as i64, "move", "moves")
                )
            }
        }
    }
}

/// One record's verdict in [`verify`].
#[derive(Clone, Debug)]
pub struct Checked {
    /// The line it came from, counting from 1.
    pub line: usize,
    /// Its moves.
    pub moves: Vec<Square>,
    /// `Ok` with the final position, or the problem.
    pub result: Result<Position, RecordProblem>,
}

/// The verdict on a file of game records claimed to be the shortest of an ending.
#[derive(Clone, Debug)]
pub struct Verification {
    /// Every record, in file order.
    pub records: Vec<Checked>,
    /// The distinct final positions of the good records, up to the eight symmetries.
    pub finals_up_to_symmetry: usize,
}

impl Verification {
    /// Whether every record passed (and there was at least one).
    pub fn passed(&self) -> bool {
        !self.records.is_empty() && self.records.iter().all(|r| r.result.is_ok())
    }
}

/// Checks game records (one transcript per line; `;` starts a comment, blank lines are skipped)
/// claimed to be the shortest games of `ending` on `size`, `moves` long: each plays legally from
/// the start, the game is over after its last move, it ends that way, and it has exactly `moves`
/// moves (a shorter one would refute the claim).
pub fn verify(size: Size, ending: Ending, moves: usize, text: &str) -> Verification {
    let start = Position::start(size);
    let mut records = Vec::new();
    let mut finals = HashSet::new();
    for (i, raw) in text.lines().enumerate() {
        let body = raw.split(';').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let result = match transcript::play(&start, body) {
            Err(e) => Err(RecordProblem::Illegal(e)),
            Ok(line) => {
                let end = line.end();
                let (b, w) = (end.black().bits(), end.white().bits());
                let n = line.moves.len();
                let checked = if !end.is_game_over() {
                    Err(RecordProblem::NotOver)
                } else if !ending.matches(b, w) {
                    Err(RecordProblem::WrongEnding { black: b.count_ones(), white: w.count_ones() })
                } else if n < moves {
                    Err(RecordProblem::Shorter { moves: n })
                } else if n > moves {
                    Err(RecordProblem::Longer { moves: n })
                } else {
                    Ok(end)
                };
                if let Ok(end) = &checked {
                    let board =
                        Position::new(size, end.black().bits(), end.white().bits(), Color::Black).expect("a position");
                    finals.insert(canonical(&board).0);
                }
                records.push(Checked { line: i + 1, moves: line.moves, result: checked });
                continue;
            }
        };
        records.push(Checked { line: i + 1, moves: Vec::new(), result });
    }
    Verification { records, finals_up_to_symmetry: finals.len() }
}
