//! What `archive show`, `add`, `stats` and `games` report, as text and JSON.

use super::super::common::counted;
use othello_explorer::Position;
use othello_explorer::archive::{self, PositionStats};
use serde::Serialize;

/// One next move in `show`'s report.
#[derive(Serialize)]
pub(super) struct MoveRow {
    #[serde(rename = "move")]
    pub(super) square: String,
    pub(super) games: u32,
    pub(super) share: f64,
    pub(super) black_wins: u32,
    pub(super) draws: u32,
    pub(super) white_wins: u32,
    /// Games with no result (not finished, none stated): counted in `games`, not in the results.
    pub(super) result_unknown: u32,
    /// The mean final score from black's side of the games with a result (`null`: none has).
    pub(super) mean_score: Option<f64>,
    pub(super) players: Vec<String>,
    /// How often each player chose it (the text's `(3)`).
    #[serde(skip)]
    pub(super) counts: Vec<u32>,
}

/// `show`'s report: the position, its games, and each next move's counts.
#[derive(Serialize)]
pub(super) struct ShowReport {
    pub(super) position: String,
    pub(super) games: u32,
    pub(super) ended_here: u32,
    pub(super) moves: Vec<MoveRow>,
}

impl ShowReport {
    pub(super) fn of(position: &Position, s: &PositionStats) -> ShowReport {
        let total = s.games.max(1);
        let moves = s
            .moves
            .iter()
            .map(|m| MoveRow {
                square: m.square.map_or("pass".into(), |q| q.to_string()),
                games: m.games,
                share: (f64::from(m.games) / f64::from(total) * 1000.0).round() / 1000.0,
                black_wins: m.black_wins,
                draws: m.draws,
                white_wins: m.white_wins,
                result_unknown: m.unknown(),
                mean_score: m.mean_score().map(|v| (v * 100.0).round() / 100.0),
                players: m.players.iter().map(|(n, _)| n.clone()).collect(),
                counts: m.players.iter().map(|(_, c)| *c).collect(),
            })
            .collect();
        ShowReport {
            position: othello_explorer::notation::obf::format_board(position),
            games: s.games,
            ended_here: s.ended,
            moves,
        }
    }
}

impl std::fmt::Display for ShowReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {} reached it", self.position, counted(u64::from(self.games), "game", "games"))?;
        if self.ended_here > 0 {
            write!(f, " ({} ended here)", self.ended_here)?;
        }
        writeln!(f)?;
        if self.moves.is_empty() {
            return Ok(());
        }
        writeln!(f, " move   games  share   black  draw  white  unknown   mean  players")?;
        let total = f64::from(self.games.max(1));
        for m in &self.moves {
            let players: Vec<String> = m
                .players
                .iter()
                .zip(&m.counts)
                .map(|(n, c)| format!("{} ({c})", othello_explorer::notation::printable::printable(n)))
                .collect();
            writeln!(
                f,
                " {:<5} {:>6} {:>5.1}% {:>7} {:>5} {:>6} {:>8} {:>6}  {}",
                m.square,
                m.games,
                f64::from(m.games) / total * 100.0,
                m.black_wins,
                m.draws,
                m.white_wins,
                m.result_unknown,
                m.mean_score.map_or("-".to_string(), |v| format!("{v:+.1}")),
                players.join(", ")
            )?;
        }
        writeln!(
            f,
            "black/draw/white: the games' results; unknown: games with no result (not finished, none stated), left out of the results and the mean; mean: the final disc difference from black's side"
        )
    }
}

/// One file of `add`'s report.
#[derive(Serialize)]
pub(super) struct AddedRow {
    pub(super) file: String,
    pub(super) games: usize,
    pub(super) duplicates: usize,
    pub(super) already: bool,
}

/// `add`'s report: what each file added, and the archive after.
#[derive(Serialize)]
pub(super) struct AddReport {
    pub(super) archive: String,
    pub(super) files: Vec<AddedRow>,
    pub(super) games: usize,
    pub(super) positions: usize,
    pub(super) interrupted: bool,
    pub(super) unread: usize,
    /// The files in the archive after.
    #[serde(skip)]
    pub(super) sources: usize,
    /// The files given but not added (unread, or read when the interruption came).
    #[serde(skip)]
    pub(super) left_out: usize,
}

impl std::fmt::Display for AddReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for r in &self.files {
            let text = if r.already {
                "already in the archive: nothing added".to_string()
            } else if r.duplicates > 0 {
                format!("{} added, {} the archive had", counted(r.games as u64, "game", "games"), r.duplicates)
            } else {
                format!("{} added", counted(r.games as u64, "game", "games"))
            };
            writeln!(f, "{}: {text}", othello_explorer::notation::printable::printable(&r.file))?;
        }
        writeln!(
            f,
            "{}: {} of {}, {}",
            self.archive,
            counted(self.games as u64, "game", "games"),
            counted(self.sources as u64, "file", "files"),
            counted(self.positions as u64, "position", "positions")
        )?;
        if self.interrupted {
            writeln!(
                f,
                "interrupted: {} added, {} left out",
                counted(self.files.len() as u64, "file", "files"),
                counted(self.left_out as u64, "file", "files")
            )?;
        }
        Ok(())
    }
}

/// One file of `stats`'s report.
#[derive(Serialize)]
pub(super) struct SourceJson {
    pub(super) file: String,
    pub(super) hash: String,
    pub(super) games: u32,
}

/// `stats`'s report: the archive's size and its files.
#[derive(Serialize)]
pub(super) struct StatsReport {
    pub(super) archive: String,
    pub(super) bytes: u64,
    pub(super) games: usize,
    pub(super) positions: usize,
    pub(super) files: Vec<SourceJson>,
}

impl std::fmt::Display for StatsReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{}: {}, {}, {} ({:.1} MB)",
            self.archive,
            counted(self.files.len() as u64, "file", "files"),
            counted(self.games as u64, "game", "games"),
            counted(self.positions as u64, "position", "positions"),
            self.bytes as f64 / 1e6
        )?;
        for s in &self.files {
            writeln!(
                f,
                "  {}  {:>13}  {}",
                s.hash,
                counted(u64::from(s.games), "game", "games"),
                othello_explorer::notation::printable::printable(&s.file)
            )?;
        }
        Ok(())
    }
}

/// One game of `games`'s report.
#[derive(Serialize)]
pub(super) struct GameJson {
    pub(super) black: String,
    pub(super) white: String,
    pub(super) year: Option<u16>,
    pub(super) tournament: String,
    pub(super) black_score: Option<i8>,
    pub(super) result_known: bool,
    /// How a game that stopped early was decided (`resigned`, `time`, `agreed`, `stated`).
    pub(super) decided: Option<&'static str>,
    pub(super) moves: String,
    pub(super) source: Option<String>,
    pub(super) index: u32,
    /// The list's line ([`archive::game_line`]).
    #[serde(skip)]
    pub(super) line: String,
}

/// `games`'s report: the games through the position.
#[derive(Serialize)]
pub(super) struct GamesReport {
    pub(super) games: Vec<GameJson>,
}

impl std::fmt::Display for GamesReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !self.games.is_empty() {
            writeln!(f, "{}", archive::GAME_HEADER)?;
        }
        for g in &self.games {
            writeln!(f, "{}", g.line)?;
        }
        writeln!(f, "{}", counted(self.games.len() as u64, "game", "games"))
    }
}
