//! The archive's file (`archive.oxar`): written whole ([`Archive::to_bytes`]), read and checked
//! whole ([`Archive::from_bytes`]: the checksum, then every game replayed by the rules), opened
//! with the size and kind of the path checked first ([`Archive::open`]). The layout is in the
//! module above's documentation.

use super::{Archive, ArchiveError, Entry, GameRow, MAGIC, PASS, SourceRow, SummaryMove, UNKNOWN, VERSION};
use super::{MAX_BYTES, byte_square, square_byte};
use crate::board::position::{Color, Position, Scoring};
use crate::board::size::Size;
use crate::notation::checksum::fnv1a;
use crate::notation::gamefile::How;
use std::path::Path;

/// The byte of how a game that stops early was decided (0: not stated).
fn how_byte(how: Option<How>) -> u8 {
    match how {
        None => 0,
        Some(How::Stated) => 1,
        Some(How::Resigned) => 2,
        Some(How::Time) => 3,
        Some(How::Agreed) => 4,
    }
}

/// [`how_byte`] read back (`None` outside: no such byte).
fn byte_how(b: u8) -> Option<Option<How>> {
    Some(match b {
        0 => None,
        1 => Some(How::Stated),
        2 => Some(How::Resigned),
        3 => Some(How::Time),
        4 => Some(How::Agreed),
        _ => return None,
    })
}

impl Archive {
    /// The archive as the bytes of its file.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.bytes_of_version(VERSION)
    }

    /// The bytes of its file in format `version` (older ones for the tests of reading them:
    /// versions 1 and 2 have no byte for how a game was decided).
    pub(super) fn bytes_of_version(&self, version: u16) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + self.entries.len() * 14 + self.games.len() * 100);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&(self.sources.len() as u32).to_le_bytes());
        out.extend_from_slice(&(self.names.len() as u32).to_le_bytes());
        out.extend_from_slice(&(self.games.len() as u32).to_le_bytes());
        out.extend_from_slice(&(self.entries.len() as u64).to_le_bytes());
        out.extend_from_slice(&(self.summaries.len() as u32).to_le_bytes());
        let text = |out: &mut Vec<u8>, s: &str| {
            let b = &s.as_bytes()[..s.len().min(u16::MAX as usize)];
            out.extend_from_slice(&(b.len() as u16).to_le_bytes());
            out.extend_from_slice(b);
        };
        for s in &self.sources {
            out.extend_from_slice(&s.hash.to_le_bytes());
            out.extend_from_slice(&s.games.to_le_bytes());
            text(&mut out, &s.name);
        }
        for n in &self.names {
            text(&mut out, n);
        }
        let id = |x: Option<u32>| x.unwrap_or(u32::MAX).to_le_bytes();
        for g in &self.games {
            out.extend_from_slice(&g.source.to_le_bytes());
            out.extend_from_slice(&g.index.to_le_bytes());
            let size = g.start.size();
            out.push(size.n() as u8);
            out.extend_from_slice(&g.start.black().bits().to_le_bytes());
            out.extend_from_slice(&g.start.white().bits().to_le_bytes());
            out.push(u8::from(g.start.to_move() == Color::White));
            out.extend_from_slice(&id(g.black));
            out.extend_from_slice(&id(g.white));
            out.extend_from_slice(&id(g.tournament));
            out.extend_from_slice(&g.year.unwrap_or(0).to_le_bytes());
            out.push(g.black_score.unwrap_or(UNKNOWN) as u8);
            if version >= 3 {
                out.push(how_byte(g.how));
            }
            out.push(g.moves.len() as u8);
            out.extend(g.moves.iter().map(|m| square_byte(size, *m)));
        }
        for e in &self.entries {
            out.extend_from_slice(&e.key.to_le_bytes());
            out.extend_from_slice(&e.game.to_le_bytes());
            out.push(e.ply);
            out.push(e.sym);
        }
        let mut keys: Vec<&u64> = self.summaries.keys().collect();
        keys.sort_unstable();
        for k in keys {
            let (games, moves) = &self.summaries[k];
            out.extend_from_slice(&k.to_le_bytes());
            out.extend_from_slice(&games.to_le_bytes());
            out.push(moves.len() as u8);
            for m in moves {
                out.push(m.mv);
                for v in [m.games, m.black_wins, m.draws, m.white_wins] {
                    out.extend_from_slice(&v.to_le_bytes());
                }
                out.extend_from_slice(&m.score_sum.to_le_bytes());
                out.push(m.players.len() as u8);
                for (n, c) in &m.players {
                    out.extend_from_slice(&n.to_le_bytes());
                    out.extend_from_slice(&c.to_le_bytes());
                }
            }
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// An archive from its file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Archive, ArchiveError> {
        let bad = |what: &str| ArchiveError::Damaged(what.to_string());
        if bytes.len() < 8 + 2 + 24 + 8 || bytes[..8] != MAGIC {
            return Err(bad("not an archive file (no OXARCH header)"));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if fnv1a(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
            return Err(bad("its checksum does not match (the file is damaged)"));
        }
        let mut r = Cursor { bytes: body, at: 8 };
        let version = r.u16()?;
        if !(1..=VERSION).contains(&version) {
            return Err(bad(&format!("format version {version}; this build reads 1 to {VERSION}")));
        }
        let (ns, nn, ng) = (r.u32()? as usize, r.u32()? as usize, r.u32()? as usize);
        let ne = r.u64()? as usize;
        let nsum = r.u32()? as usize;
        let mut a = Archive::default();
        for _ in 0..ns {
            let hash = r.u64()?;
            let games = r.u32()?;
            let name = r.text()?;
            a.sources.push(SourceRow { hash, games, name });
        }
        for i in 0..nn {
            let n = r.text()?;
            a.name_ids.insert(n.clone(), i as u32);
            a.names.push(n);
        }
        let opt = |x: u32| (x != u32::MAX).then_some(x);
        for _ in 0..ng {
            let source = r.u32()?;
            let index = r.u32()?;
            let size = Size::from_n(r.u8()? as usize).ok_or_else(|| bad("a game of an unknown board size"))?;
            let (b, w) = (r.u64()?, r.u64()?);
            let to_move = if r.u8()? == 1 { Color::White } else { Color::Black };
            let start = Position::new(size, b, w, to_move).map_err(|e| bad(&format!("a game's start: {e}")))?;
            let (black, white, tournament) = (opt(r.u32()?), opt(r.u32()?), opt(r.u32()?));
            let year = Some(r.u16()?).filter(|&y| y != 0);
            let black_score = Some(r.u8()? as i8).filter(|&s| s != UNKNOWN);
            let how = if version >= 3 {
                let b = r.u8()?;
                byte_how(b)
                    .ok_or_else(|| bad(&format!("game {}: {b} is no way a game is decided", a.games.len() + 1)))?
            } else {
                None
            };
            let n = r.u8()? as usize;
            let bytes = r.take(n)?;
            if let Some(i) = bytes.iter().position(|&m| m != PASS && usize::from(m) >= size.n() * size.n()) {
                let name = a.sources.get(source as usize).map_or("?", |s| s.name.as_str());
                return Err(bad(&format!(
                    "game {} (game {index} of {name}): move {}: byte {} is no square of the {size} board",
                    a.games.len() + 1,
                    i + 1,
                    bytes[i]
                )));
            }
            let moves = bytes.iter().map(|&m| byte_square(size, m)).collect();
            a.games.push(GameRow { source, index, start, moves, black, white, tournament, year, black_score, how });
        }
        a.check_games(version)?;
        if ne > body.len() / 14 {
            return Err(bad("more entries than the file holds"));
        }
        a.entries.reserve(ne);
        for _ in 0..ne {
            let key = r.u64()?;
            let game = r.u32()?;
            let (ply, sym) = (r.u8()?, r.u8()?);
            if game as usize >= a.games.len() || sym >= 8 {
                return Err(bad("an entry out of range"));
            }
            a.entries.push(Entry { key, game, ply, sym });
        }
        if version == 1 {
            // Its summaries counted an unfinished game's last disc difference as a result.
            a.finish();
            return Ok(a);
        }
        for _ in 0..nsum {
            let key = r.u64()?;
            let games = r.u32()?;
            let nm = r.u8()? as usize;
            let mut moves = Vec::with_capacity(nm);
            for _ in 0..nm {
                let mv = r.u8()?;
                let (g, bw, d, ww) = (r.u32()?, r.u32()?, r.u32()?, r.u32()?);
                let score_sum = r.u64()? as i64;
                let np = r.u8()? as usize;
                let mut players = Vec::with_capacity(np);
                for _ in 0..np {
                    players.push((r.u32()?, r.u32()?));
                }
                moves.push(SummaryMove { mv, games: g, black_wins: bw, draws: d, white_wins: ww, score_sum, players });
            }
            a.summaries.insert(key, (games, moves));
        }
        Ok(a)
    }

    /// Replays every game by the rules and checks its source and final score (a finished game's
    /// the board's and no way decided; an unfinished one's unknown, or stated with how it was
    /// decided; a file of `version` 1 wrote the last position's disc difference for it, taken as
    /// unknown here): the checksum guards against accidents,
    /// not against a file made to hold an illegal game, and the rest of the archive (its lookups,
    /// `remove`, the explorer's games) takes its games to be legal. The error names the game,
    /// its source and its move.
    fn check_games(&mut self, version: u16) -> Result<(), ArchiveError> {
        use rayon::prelude::*;
        let wrong = |k: usize, g: &GameRow, what: String| {
            let source = self.sources.get(g.source as usize).map_or("?", |s| s.name.as_str());
            ArchiveError::Damaged(format!("game {} (game {} of {source}): {what}", k + 1, g.index))
        };
        self.games.par_iter().enumerate().try_for_each(|(k, g)| {
            if g.source as usize >= self.sources.len() {
                return Err(ArchiveError::Damaged(format!(
                    "game {}: source {} of {}",
                    k + 1,
                    g.source + 1,
                    self.sources.len()
                )));
            }
            let mut p = g.start;
            for (i, m) in g.moves.iter().enumerate() {
                p = match m {
                    Some(sq) => p.play(*sq).map_err(|e| wrong(k, g, format!("move {}: {e}", i + 1)))?,
                    None if p.must_pass() => p.pass(),
                    None => return Err(wrong(k, g, format!("move {} is a pass where there is a move", i + 1))),
                };
            }
            // Written only for an error: the check runs over every game of the file.
            let written = || g.result_text();
            let score = p.is_game_over().then(|| p.black_score(Scoring::Standard).clamp(-64, 64) as i8);
            if score.is_some() && (score != g.black_score || g.how.is_some()) {
                return Err(wrong(k, g, format!("its final score is {:+}, not {}", score.unwrap_or(0), written())));
            }
            let squares = g.start.size().squares() as i32;
            match (score, g.black_score, g.how) {
                (None, Some(_), None) if version != 1 => {
                    return Err(wrong(
                        k,
                        g,
                        format!(
                            "it does not end on the board and states no result, so it is unknown, not {}",
                            written()
                        ),
                    ));
                }
                (None, None, Some(how)) => {
                    return Err(wrong(k, g, format!("it is {} with no score", how.word())));
                }
                (None, Some(s), Some(_)) if i32::from(s).abs() > squares => {
                    return Err(wrong(k, g, format!("a stated score of {s:+} on {squares} squares")));
                }
                _ => {}
            }
            Ok(())
        })?;
        if version == 1 {
            for g in &mut self.games {
                if !g.end().is_game_over() {
                    g.black_score = None;
                }
            }
        }
        Ok(())
    }

    /// Reads the archive at `path`; an empty one if there is no file.
    pub fn open(path: &Path) -> Result<Archive, ArchiveError> {
        // A regular file of at most MAX_BYTES, checked before it is opened: a FIFO or a device is
        // refused at once instead of waited on, and a huge file before a byte of it is read.
        // Then its header: a large file that is no archive is refused before it is read whole.
        crate::notation::textfile::regular_or_missing(path).map_err(|e| ArchiveError::Io(e.reason()))?;
        let within = std::fs::metadata(path).is_ok_and(|m| m.len() <= MAX_BYTES);
        if within && let Ok(file) = std::fs::File::open(path) {
            let mut head = Vec::with_capacity(MAGIC.len());
            let _ = std::io::Read::read_to_end(&mut std::io::Read::take(file, MAGIC.len() as u64), &mut head);
            if !head.is_empty() && head != MAGIC {
                // The whole file's error: no header.
                return Archive::from_bytes(&head);
            }
        }
        match crate::notation::textfile::read_bytes(path, MAX_BYTES) {
            Ok(bytes) => Archive::from_bytes(&bytes),
            Err(crate::notation::textfile::ReadError::NotFound { .. }) => Ok(Archive::default()),
            Err(e) => Err(ArchiveError::Io(e.reason())),
        }
    }
}

/// A reader over a file's bytes.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], ArchiveError> {
        let s =
            self.bytes.get(self.at..self.at + n).ok_or_else(|| ArchiveError::Damaged("the file ends early".into()))?;
        self.at += n;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, ArchiveError> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, ArchiveError> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().expect("2 bytes")))
    }
    fn u32(&mut self) -> Result<u32, ArchiveError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }
    fn u64(&mut self) -> Result<u64, ArchiveError> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
    fn text(&mut self) -> Result<String, ArchiveError> {
        let n = self.u16()? as usize;
        String::from_utf8(self.take(n)?.to_vec()).map_err(|_| ArchiveError::Damaged("a name that is not UTF-8".into()))
    }
}
