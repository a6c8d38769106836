//! The files an archive reads its games from: WTHOR databases (`.wtb`, with the players of
//! `WTHOR.JOU` and the tournaments of `WTHOR.TRN` when they lie beside it), GGF files with any
//! number of games, and transcript files (one game a line: a transcript, or a board string and a
//! transcript). Every game is replayed by the rules; a damaged or hostile file is refused whole,
//! with one line naming the file and the record.
//!
//! The WTHOR player and tournament files: a 16-byte header like the games file's, whose bytes 8-9
//! (`u16`) count the records (bytes 4-7 count games, and are 0 there), then 20 bytes a player and
//! 26 bytes a tournament, each a name padded with zero bytes (Latin-1).

use super::ArchivedGame;
use crate::notation::gamefile::{Format, ggf};
use crate::{board::position::Position, board::size::Size, board::square::Square};
use std::path::{Path, PathBuf};

/// Why a source cannot be added: one line naming the file and, where there is one, the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceError {
    /// The file.
    pub file: PathBuf,
    /// What is wrong, and where.
    pub reason: String,
}

impl std::fmt::Display for SourceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file.display(), self.reason)
    }
}

impl std::error::Error for SourceError {}

/// The most bytes a source file may have.
pub const SOURCE_LIMIT: u64 = 256 << 20;

/// Reads a name list (`.JOU` or `.TRN`): `width` bytes a record after the 16-byte header.
fn names(bytes: &[u8], width: usize) -> Option<Vec<String>> {
    let records = u16::from_le_bytes(bytes.get(8..10)?.try_into().ok()?) as usize;
    let games = u32::from_le_bytes(bytes.get(4..8)?.try_into().ok()?) as usize;
    // The record count is bytes 8-9; a file that counts in bytes 4-7 instead is read too.
    let count = if records > 0 { records } else { games };
    let body = bytes.get(16..)?;
    if body.len() < count.checked_mul(width)? {
        return None;
    }
    Some(
        body.chunks(width)
            .take(count)
            .map(|r| {
                let end = r.iter().position(|&b| b == 0).unwrap_or(r.len());
                // Latin-1: every byte is the character of its code.
                r[..end].iter().map(|&b| b as char).collect::<String>().trim().to_string()
            })
            .collect(),
    )
}

/// The file named `name` (any case) in `dir`.
fn beside(dir: &Path, name: &str) -> Option<PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .find(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.eq_ignore_ascii_case(name)))
}

fn read_names(dir: &Path, file: &str, width: usize) -> Option<Vec<String>> {
    let path = beside(dir, file)?;
    let bytes = crate::notation::textfile::read_bytes(&path, 16 << 20).ok()?;
    names(&bytes, width)
}

/// The games of a WTHOR database, with the names beside it.
fn wthor(path: &Path, bytes: &[u8]) -> Result<Vec<ArchivedGame>, SourceError> {
    let err = |reason: String| SourceError { file: path.to_path_buf(), reason };
    if bytes.len() < 16 {
        return Err(err("WTHOR: the file ends inside its 16-byte header".into()));
    }
    let count = u32::from_le_bytes(bytes[4..8].try_into().expect("4 bytes")) as usize;
    let year = u16::from_le_bytes(bytes[10..12].try_into().expect("2 bytes"));
    if !matches!(bytes[12], 0 | 8) {
        return Err(err(format!("WTHOR: board size {} in the header: only 8x8 databases are read", bytes[12])));
    }
    let records = (bytes.len() - 16) / 68;
    let truncated = !(bytes.len() - 16).is_multiple_of(68);
    if count != records || truncated {
        return Err(err(format!(
            "WTHOR: the header counts {count} games but the file holds {records} records{}",
            if truncated { " and a truncated one" } else { "" }
        )));
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let players = read_names(dir, "WTHOR.JOU", 20).unwrap_or_default();
    let tournaments = read_names(dir, "WTHOR.TRN", 26).unwrap_or_default();
    let name = |list: &[String], n: u16, what: &str| {
        list.get(n as usize).filter(|s| !s.is_empty()).cloned().or_else(|| Some(format!("{what} {n}")))
    };
    let mut out = Vec::with_capacity(count);
    for k in 0..count {
        let game =
            crate::notation::gamefile::wthor::read(bytes, k + 1).map_err(|e| err(format!("record {}: {e}", k + 1)))?;
        let r = &bytes[16 + k * 68..16 + (k + 1) * 68];
        let field = |o: usize| u16::from_le_bytes([r[o], r[o + 1]]);
        let moves = explicit(game.start, &game.moves);
        out.push(ArchivedGame {
            start: game.start,
            moves,
            black: name(&players, field(2), "player"),
            white: name(&players, field(4), "player"),
            tournament: name(&tournaments, field(0), "tournament"),
            year: (year != 0).then_some(year),
            stated: game.stated,
        });
    }
    Ok(out)
}

/// A game file's game with explicit passes.
fn explicit(start: Position, moves: &[Square]) -> Vec<Option<Square>> {
    let mut out = Vec::with_capacity(moves.len() + 2);
    let mut p = start;
    for &m in moves {
        if p.must_pass() {
            out.push(None);
            p = p.pass();
        }
        out.push(Some(m));
        p = p.play(m).unwrap_or(p);
    }
    out
}

/// Reads the games of the file `path` (its bytes): WTHOR, GGF, or transcripts one a line
/// (`size` for a transcript without a board string).
pub fn read_source(path: &Path, bytes: &[u8], size: Size) -> Result<Vec<ArchivedGame>, SourceError> {
    let err = |reason: String| SourceError { file: path.to_path_buf(), reason };
    let wthor_named = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("wtb"));
    if wthor_named || crate::notation::gamefile::wthor::looks_like(bytes) {
        return wthor(path, bytes);
    }
    let text = std::str::from_utf8(bytes)
        .map_err(|e| err(format!("byte {}: neither text nor a WTHOR database", e.valid_up_to())))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.contains("(;") {
        let starts = ggf::records(text);
        let mut out = Vec::with_capacity(starts.len());
        for (k, game) in ggf::read_each(text, &starts).enumerate() {
            let g = game.map_err(|e| err(format!("GGF record {}: {e}", k + 1)))?;
            out.push(ArchivedGame {
                start: g.start,
                moves: explicit(g.start, &g.moves),
                black: g.black,
                white: g.white,
                tournament: None,
                year: None,
                stated: g.stated,
            });
        }
        return Ok(out);
    }
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.split([';', '#']).next().unwrap_or("").trim();
        if t.is_empty() {
            continue;
        }
        let g = crate::notation::gamefile::read_text(t, size, None).map_err(|e| err(format!("line {}: {e}", i + 1)))?;
        if g.format != Format::Transcript && g.format != Format::BoardString {
            return Err(err(format!("line {}: not a transcript", i + 1)));
        }
        out.push(ArchivedGame {
            start: g.start,
            moves: explicit(g.start, &g.moves),
            black: None,
            white: None,
            tournament: None,
            year: None,
            stated: None,
        });
    }
    if out.is_empty() {
        return Err(err("no game in the file (WTHOR, GGF, or transcripts one a line)".into()));
    }
    Ok(out)
}
