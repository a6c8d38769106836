//! What the archive gives back: a game as kept and as indexed, a source file, a position's counts
//! and each next move's, and the filter on the games counted.

use crate::board::{position::Position, square::Square};
use crate::notation::gamefile::{GameResult, How};

/// One game as the archive keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchivedGame {
    /// The position it starts from.
    pub start: Position,
    /// The moves, passes explicit (`None`).
    pub moves: Vec<Option<Square>>,
    /// Black's player.
    pub black: Option<String>,
    /// White's player.
    pub white: Option<String>,
    /// The tournament.
    pub tournament: Option<String>,
    /// The year it was played.
    pub year: Option<u16>,
    /// The result its file states (taken when the game stops before its end).
    pub stated: Option<GameResult>,
}

impl ArchivedGame {
    /// The final position.
    pub fn end(&self) -> Position {
        let mut p = self.start;
        for m in &self.moves {
            p = match m {
                Some(sq) => p.play(*sq).unwrap_or(p),
                None => p.pass(),
            };
        }
        p
    }

    /// The result: the final board's score from black's side (empties to the winner), or for
    /// a game that stops early the stated one (within the board's squares); `None`: result
    /// unknown.
    pub fn result(&self) -> Option<GameResult> {
        crate::notation::gamefile::result_of(&self.end(), self.stated)
    }
}

/// A game in the index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// Its source file, an index into [`Archive::sources`].
    pub source: u32,
    /// Its number in the source, from 1.
    pub index: u32,
    /// The start.
    pub start: Position,
    /// The moves (`None` a pass).
    pub moves: Vec<Option<Square>>,
    /// Black's and white's names and the tournament's (indexes into the names), if known.
    pub black: Option<u32>,
    /// White's name.
    pub white: Option<u32>,
    /// The tournament's name.
    pub tournament: Option<u32>,
    /// The year.
    pub year: Option<u16>,
    /// The final score from black's side (empties to the winner), the board's or the stated
    /// one; `None`: result unknown (the game does not end on the board and its file states no
    /// result).
    pub black_score: Option<i8>,
    /// How a game that stops early was decided (`None`: it ends on the board, or its result is
    /// unknown).
    pub how: Option<How>,
}

impl GameRow {
    /// The position after its last move.
    pub fn end(&self) -> Position {
        self.moves.iter().fold(self.start, |p, m| match m {
            Some(sq) => p.play(*sq).unwrap_or(p),
            None => p.pass(),
        })
    }

    /// Its result, if known.
    pub fn result(&self) -> Option<GameResult> {
        self.black_score.map(|s| GameResult { black_score: i32::from(s), how: self.how })
    }

    /// The result as the front ends write it: black's final score (`+12`, `-64 resigned`), or
    /// `unknown`.
    pub fn result_text(&self) -> String {
        crate::notation::gamefile::result_text(self.result())
    }
}

/// A file the archive holds the games of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceRow {
    /// FNV-1a 64 of its bytes: the same file added again is recognised.
    pub hash: u64,
    /// Its games.
    pub games: u32,
    /// Its name as given to `archive add`.
    pub name: String,
}

/// One next move's counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveStats {
    /// The move, in the asking position's coordinates (`None`: the game ended here).
    pub square: Option<Square>,
    /// Games that played it.
    pub games: u32,
    /// Of those, won by black, drawn, won by white (the others' result is unknown).
    pub black_wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Won by white.
    pub white_wins: u32,
    /// The sum of their final scores from black's side (of the games with a result).
    pub(crate) score_sum: i64,
    /// The players who chose it most often, with how often (at most three).
    pub players: Vec<(String, u32)>,
}

impl MoveStats {
    /// The games with a result: black's wins, the draws and white's wins.
    pub fn decided(&self) -> u32 {
        self.black_wins + self.draws + self.white_wins
    }

    /// The games whose result is unknown (they do not end on the board).
    pub fn unknown(&self) -> u32 {
        self.games - self.decided()
    }

    /// The mean final score from black's side, of the games with a result (`None`: none has).
    pub fn mean_score(&self) -> Option<f64> {
        let n = self.decided();
        (n > 0).then(|| self.score_sum as f64 / f64::from(n))
    }

    /// The share of the games with a result that `count` of them are, in percent (`None`: none
    /// has a result).
    pub fn share_of_decided(&self, count: u32) -> Option<f64> {
        let n = self.decided();
        (n > 0).then(|| f64::from(count) / f64::from(n) * 100.0)
    }
}

/// What the archive knows of a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionStats {
    /// Games that reached it.
    pub games: u32,
    /// Its next moves, the most played first (ties in reading order).
    pub moves: Vec<MoveStats>,
    /// Games that ended at it.
    pub ended: u32,
}

/// A filter on the games counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// A player's name (either colour), case-insensitive, part of it.
    pub player: Option<String>,
    /// The first and last year.
    pub years: Option<(u16, u16)>,
    /// A tournament's name, case-insensitive, part of it.
    pub tournament: Option<String>,
}

impl Filter {
    /// Whether nothing is filtered.
    pub fn is_empty(&self) -> bool {
        self.player.is_none() && self.years.is_none() && self.tournament.is_none()
    }
}
