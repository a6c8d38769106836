//! WTHOR `.wtb` databases (the French federation's game archive format): a 16-byte header, then
//! 68 bytes per game.
//!
//! - Header: bytes 0-3 the file's date (century, year, month, day), 4-7 the number of games
//!   (little-endian `u32`), 8-9 a record count (`u16`, 0 in game files), 10-11 the games' year,
//!   12 the board size (0 or 8: 8x8), 13 the game type, 14 the depth of the theoretical score,
//!   15 reserved.
//! - A game: the tournament, black's and white's player numbers (`u16` each, indexes into the
//!   separate `.JOU` and `.TRN` files, not read here), black's disc count at the end (empties to
//!   the winner; for a game that stops early, a resignation or a loss on time, the count the
//!   result was recorded as: read as its stated result, [`Game::stated`]), the theoretical score, then 60 moves, one byte each, `10 * row + column` (1-based: 11 is a1, 18
//!   is h1, 88 is h8), 0 after the last (and nothing but 0 after it: a record with moves after a
//!   0 byte is refused as damaged). Passes are not written.
//!
//! [`write`] writes such a file (the tests write their own small databases).

use super::{Format, Game, GameFileError, GameResult, How};
use crate::{board::position::Position, board::size::Size, board::square::Square};

const HEADER: usize = 16;
const RECORD: usize = 68;

/// Whether `bytes` look like a WTHOR game database: a header whose game count matches the length.
pub(crate) fn looks_like(bytes: &[u8]) -> bool {
    bytes.len() >= HEADER
        && matches!(bytes[12], 0 | 8)
        && (bytes.len() - HEADER).is_multiple_of(RECORD)
        && u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]) as usize == (bytes.len() - HEADER) / RECORD
}

/// The number of games a WTHOR database's header counts (0 for fewer bytes than a header).
pub(crate) fn count(bytes: &[u8]) -> usize {
    match bytes.get(4..8) {
        Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize,
        None => 0,
    }
}

/// Reads game `index` (from 1) of a WTHOR database.
pub fn read(bytes: &[u8], index: usize) -> Result<Game, GameFileError> {
    if bytes.len() < HEADER {
        return Err(GameFileError::Database { offset: bytes.len(), reason: "the file ends inside the header".into() });
    }
    if !matches!(bytes[12], 0 | 8) {
        return Err(GameFileError::Database {
            offset: 12,
            reason: format!("board size {}: only 8x8 databases are read", bytes[12]),
        });
    }
    let count = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]) as usize;
    if count == 0 {
        return Err(GameFileError::Empty);
    }
    let Some(k) = index.checked_sub(1).filter(|&k| k < count) else {
        return Err(GameFileError::NoSuchGame { index, count });
    };
    let at = HEADER + k * RECORD;
    let Some(record) = bytes.get(at..at + RECORD) else {
        return Err(GameFileError::Database {
            offset: bytes.len(),
            reason: format!(
                "the header counts {} but the file ends inside game {index}",
                crate::notation::printable::count(count as i64, "game", "games")
            ),
        });
    };
    let start = Position::start(Size::Eight);
    let mut p = start;
    let mut moves = Vec::new();
    for (i, &b) in record[8..].iter().enumerate() {
        let offset = at + 8 + i;
        if b == 0 {
            // The end of the game: every byte after it is 0 too, or the record is damaged (a game
            // silently cut there would be counted as a shorter one).
            if let Some(j) = record[8 + i..].iter().position(|&b| b != 0) {
                return Err(GameFileError::Database {
                    offset,
                    reason: format!(
                        "game {index}, move {}: a 0 byte ends the game, yet move {} follows",
                        i + 1,
                        i + j + 1
                    ),
                });
            }
            break;
        }
        let (row, col) = (b / 10, b % 10);
        let square = Square::new(col as usize - 1, row as usize - 1)
            .filter(|_| (1..=8).contains(&row) && (1..=8).contains(&col))
            .ok_or_else(|| GameFileError::Database {
                offset,
                reason: format!("move {}: byte {b} is no square", i + 1),
            })?;
        p = p.after_forced_pass().0;
        p = p
            .play(square)
            .map_err(|e| GameFileError::Database { offset, reason: format!("game {index}, move {}: {e}", i + 1) })?;
        moves.push(square);
    }
    let players = |o: usize| u16::from_le_bytes([record[o], record[o + 1]]);
    Ok(Game {
        start,
        moves,
        black: Some(format!("player {}", players(2))),
        white: Some(format!("player {}", players(4))),
        format: Format::Wthor,
        index: (index, count),
        // Black's discs as recorded (more than 64 is no count: nothing stated).
        stated: (record[6] <= 64)
            .then(|| GameResult { black_score: 2 * i32::from(record[6]) - 64, how: Some(How::Stated) }),
    })
}

/// A WTHOR database of `games` (8x8, from the start position; others are refused), dated
/// `year`, with player numbers 0.
pub fn write(games: &[Game], year: u16) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(HEADER + RECORD * games.len());
    out.extend_from_slice(&[(year / 100) as u8, (year % 100) as u8, 1, 1]);
    out.extend_from_slice(&(games.len() as u32).to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&year.to_le_bytes());
    out.extend_from_slice(&[8, 0, 0, 0]);
    for (k, g) in games.iter().enumerate() {
        if g.start != Position::start(Size::Eight) {
            return Err(format!("game {}: WTHOR holds 8x8 games from the start position only", k + 1));
        }
        let end = g.end();
        let black_discs = match g.result() {
            // The official count (empties to the winner), or the result stated for a game that
            // stops early.
            Some(r) => ((64 + r.black_score.clamp(-64, 64)) / 2) as u8,
            None => end.black().count() as u8,
        };
        out.extend_from_slice(&[0, 0, 0, 0, 0, 0, black_discs, black_discs]);
        let mut moves = [0u8; 60];
        for (i, m) in g.moves.iter().take(60).enumerate() {
            moves[i] = (10 * (m.row() + 1) + m.col() + 1) as u8;
        }
        out.extend_from_slice(&moves);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_of_a_small_database() {
        let a = crate::notation::transcript::play(&Position::start(Size::Eight), "f5d6c3d3c4").unwrap();
        let b = crate::notation::transcript::play(&Position::start(Size::Eight), "e6f4").unwrap();
        let games =
            [Game::new(a.start, a.moves.clone(), Format::Wthor), Game::new(b.start, b.moves.clone(), Format::Wthor)];
        let bytes = write(&games, 2026).unwrap();
        assert_eq!(bytes.len(), 16 + 2 * 68);
        assert!(looks_like(&bytes));
        assert_eq!(bytes[16 + 8], 56, "f5 is row 5, column 6");
        assert_eq!(read(&bytes, 1).unwrap().moves, a.moves);
        let second = read(&bytes, 2).unwrap();
        assert_eq!((second.moves, second.index), (b.moves, (2, 2)));
        assert_eq!(read(&bytes, 3).unwrap_err(), GameFileError::NoSuchGame { index: 3, count: 2 });
    }

    /// A game that stops early has the result its score byte records (black's discs, here 40 of
    /// 64: +16); a finished one the board's, whatever the byte says.
    #[test]
    fn a_game_that_stops_early_has_the_result_its_score_byte_records() {
        let a = crate::notation::transcript::play(&Position::start(Size::Eight), "f5d6c3").unwrap();
        let mut resigned = Game::new(a.start, a.moves.clone(), Format::Wthor);
        resigned.stated = Some(GameResult { black_score: 16, how: Some(How::Resigned) });
        let mut bytes = write(&[resigned], 2026).unwrap();
        assert_eq!(bytes[16 + 6], 40);
        let back = read(&bytes, 1).unwrap();
        assert_eq!(back.result(), Some(GameResult { black_score: 16, how: Some(How::Stated) }));
        assert_eq!(back.result().unwrap().to_string(), "+16 stated");
        bytes[16 + 6] = 200;
        assert_eq!(read(&bytes, 1).unwrap().result(), None, "no count of 64 squares");
        // A shortest game (nine moves, black wipes white out) keeps +64.
        let wipe = crate::notation::transcript::play(&Position::start(Size::Eight), "d3c3b3d2e1d6d7e3f4").unwrap();
        assert!(wipe.end().is_game_over());
        let mut bytes = write(&[Game::new(wipe.start, wipe.moves, Format::Wthor)], 2026).unwrap();
        bytes[16 + 6] = 10;
        let r = read(&bytes, 1).unwrap().result().unwrap();
        assert_eq!((r.black_score, r.how), (64, None));
    }

    #[test]
    fn damaged_databases_name_the_byte() {
        let a = crate::notation::transcript::play(&Position::start(Size::Eight), "f5d6").unwrap();
        let mut bytes = write(&[Game::new(a.start, a.moves, Format::Wthor)], 2026).unwrap();
        bytes[16 + 9] = 99;
        assert_eq!(read(&bytes, 1).unwrap_err().to_string(), "byte 25: WTHOR: move 2: byte 99 is no square");
        bytes[16 + 9] = 56;
        assert!(read(&bytes, 1).unwrap_err().to_string().starts_with("byte 25: WTHOR: game 1, move 2: f5"));
        // A 0 byte mid-game, more moves after it: refused, not read as a shorter game.
        bytes[16 + 9] = 0;
        bytes[16 + 12] = 43;
        assert_eq!(
            read(&bytes, 1).unwrap_err().to_string(),
            "byte 25: WTHOR: game 1, move 2: a 0 byte ends the game, yet move 5 follows"
        );
    }
}
