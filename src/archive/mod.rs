//! The archive of played games (WTHOR, GGF, transcripts), indexed by position: for any position,
//! how many games reached it, and for each next move its games, black's wins, draws and losses,
//! the mean final score and the players who chose it.
//!
//! Positions are keyed by their **canonical form** ([`crate::board::symmetry::canonical`]) and the side
//! to move, so transpositions and the eight symmetric images of a position meet; every move is
//! given back in the asking position's own coordinates.
//!
//! A game's result is the board's when it ends there. A game that stops before (a resignation, a
//! loss on time, a score agreed) has the result its file states (GGF's `RE[-64:r]`, WTHOR's score
//! byte), marked with how it was decided (`-64 resigned`), and counts like any other. A game with
//! neither (an unfinished transcript) is *result unknown*: counted among a move's games but not in
//! black's wins, the draws, white's wins or the mean score, whose shares are of the games with a
//! result.
//!
//! # The file (`archive.oxar`, format version 3)
//!
//! A sorted-array file rather than the store's redb: the index is read far more often than it is
//! written, its entries are fixed-size, and a sorted array of 14-byte entries found by binary
//! search is about a third of what a B-tree of the same keys takes (the bound is 200 MB
//! for the 8 M positions of every WTHOR year). It is written whole to a temporary file beside it
//! and renamed over it, so a reader or an interrupted writer never sees half of it, and only by
//! the holder of its lock ([`Writer`]), one program at a time.
//!
//! | section | content |
//! |---|---|
//! | header | magic `OXARCH\0\x1a`, version `u16`, then the counts of sources, names, games, entries and summaries (`u32`, `u32`, `u32`, `u64`, `u32`) |
//! | sources | each: FNV-1a 64 of the file's bytes, its games (`u32`), its name (`u16` length, UTF-8) |
//! | names | players' and tournaments' names: `u16` length, UTF-8 |
//! | games | each: source `u32`, index in the source `u32`, board side `u8`, start black/white `u64` `u64`, side to move `u8`, black's and white's name `u32` (`u32::MAX`: none), tournament `u32`, year `u16`, final score from black `i8` (`-128`: result unknown; version 1 wrote the disc difference of an unfinished game's last position, read as unknown), how a game that stops early was decided `u8` (0: it ends on the board, or its result is unknown; 1 stated, 2 resigned, 3 on time, 4 agreed; not in versions 1 and 2), move count `u8`, the moves (`0..N*N` a square in reading order, 255 a pass) |
//! | entries | sorted by key: key `u64`, game `u32`, ply `u8`, symmetry `u8` (14 bytes) |
//! | summaries | for each key with at least [`SUMMARY_MIN`] games, its next moves counted ahead (below) |
//! | checksum | FNV-1a 64 of everything before |
//!
//! The key of a position is the FNV-1a 64 of its board side, canonical `(player, opponent)` and
//! side to move; the entry's symmetry maps the game's position onto the canonical one. A summary:
//! key `u64`, games `u32`, moves `u8`, then per move: the move in canonical coordinates `u8`, games,
//! black's wins, draws, white's wins (`u32` each), the sum of the final scores `i64`, and its three
//! most frequent players (name `u32`, games `u32`).

mod file;
mod rows;
mod sources;
mod writer;

pub use rows::{ArchivedGame, Filter, GameRow, MoveStats, PositionStats, SourceRow};
pub use sources::{SOURCE_LIMIT, SourceError, read_source};
pub use writer::Writer;

use crate::board::symmetry::{Symmetry, canonical};
use crate::notation::checksum::fnv1a;
use crate::{
    board::position::{Color, Position},
    board::size::Size,
    board::square::Square,
};
use std::collections::HashMap;

/// The largest archive file read, 2 GiB: about two million games (an archive takes about 840
/// bytes a game), and a bound on the memory a file given as the archive can take.
pub(crate) const MAX_BYTES: u64 = 2 << 30;

/// The magic bytes an archive file starts with.
pub const MAGIC: [u8; 8] = *b"OXARCH\0\x1a";
/// The format version this build writes (it reads versions 1 and 2 too: 1's summaries counted
/// again, 1's and 2's games without a stated result).
pub const VERSION: u16 = 3;
/// The score byte of a game whose result is unknown.
const UNKNOWN: i8 = i8::MIN;
/// Keys with at least this many games get their next moves counted ahead in the file.
pub const SUMMARY_MIN: usize = 32;
/// A move byte for a pass.
pub(crate) const PASS: u8 = 255;

/// The heading of [`game_line`]'s columns.
pub const GAME_HEADER: &str = " result        moves  black – white · year · tournament";

/// One game of the archive as the lists write it (`archive games`, the explorer's `:games`):
/// black's final score (`-64 resigned` when the game stopped early) or `unknown`, its moves, the
/// players, the year and the tournament, `?` where the file names none; names made printable.
pub fn game_line(a: &Archive, g: &GameRow) -> String {
    let name = |n: Option<u32>| {
        n.and_then(|n| a.name(n)).map_or_else(|| "?".to_string(), crate::notation::printable::printable)
    };
    let moves = g.moves.iter().flatten().count();
    format!(
        " {:<13} {:>5}  {} – {} · {} · {}",
        g.result_text(),
        moves,
        name(g.black),
        name(g.white),
        g.year.map_or("?".into(), |y| y.to_string()),
        name(g.tournament)
    )
}

/// The key of a position and the symmetry that maps it onto its canonical form.
pub(crate) fn key_of(p: &Position) -> (u64, Symmetry) {
    let ((a, b), sym) = canonical(p);
    let mut bytes = [0u8; 18];
    bytes[0] = p.size().n() as u8;
    bytes[1..9].copy_from_slice(&a.to_le_bytes());
    bytes[9..17].copy_from_slice(&b.to_le_bytes());
    bytes[17] = u8::from(p.to_move() == Color::White);
    (fnv1a(&bytes), sym)
}

fn sym_index(s: Symmetry) -> u8 {
    Symmetry::ALL.iter().position(|&x| x == s).unwrap_or(0) as u8
}

/// An entry: a game passing through a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    key: u64,
    game: u32,
    ply: u8,
    sym: u8,
}

/// A summary's move: canonical move byte, counts, score sum, top players.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct SummaryMove {
    mv: u8,
    games: u32,
    black_wins: u32,
    draws: u32,
    white_wins: u32,
    score_sum: i64,
    players: Vec<(u32, u32)>,
}

/// An archive, in memory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Archive {
    /// The files it holds the games of.
    pub sources: Vec<SourceRow>,
    names: Vec<String>,
    name_ids: HashMap<String, u32>,
    /// The games.
    pub games: Vec<GameRow>,
    entries: Vec<Entry>,
    summaries: HashMap<u64, (u32, Vec<SummaryMove>)>,
    /// Each game's identity (start, moves, players), to add none twice.
    seen: HashMap<u64, u32>,
}

/// Why an archive file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArchiveError {
    /// It cannot be read or written.
    Io(String),
    /// It is not an archive of this version, or it is damaged.
    Damaged(String),
}

impl std::fmt::Display for ArchiveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArchiveError::Io(e) => write!(f, "{e}"),
            ArchiveError::Damaged(e) => write!(f, "not a readable archive: {e}"),
        }
    }
}

impl std::error::Error for ArchiveError {}

/// What adding a source did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Added {
    /// Games added.
    pub games: usize,
    /// Games already in the archive (from this file or another), skipped.
    pub duplicates: usize,
    /// Whether the very same file was there already (nothing added).
    pub already: bool,
}

fn square_byte(size: Size, m: Option<Square>) -> u8 {
    m.map_or(PASS, |s| s.index(size) as u8)
}

fn byte_square(size: Size, b: u8) -> Option<Square> {
    if b == PASS { None } else { Square::from_index(size, b as usize) }
}

impl Archive {
    /// The number of positions indexed (one per game and position it passed through).
    pub fn positions(&self) -> usize {
        self.entries.len()
    }

    /// A name by its index.
    pub fn name(&self, id: u32) -> Option<&str> {
        self.names.get(id as usize).map(String::as_str)
    }

    fn intern(&mut self, name: &Option<String>) -> Option<u32> {
        let n = name.as_ref()?.trim();
        if n.is_empty() {
            return None;
        }
        if let Some(&id) = self.name_ids.get(n) {
            return Some(id);
        }
        let id = self.names.len() as u32;
        self.names.push(n.to_string());
        self.name_ids.insert(n.to_string(), id);
        Some(id)
    }

    /// The identity of game `k` of the index.
    fn identity_of(&self, k: usize) -> u64 {
        let g = &self.games[k];
        Archive::identity(&ArchivedGame {
            start: g.start,
            moves: g.moves.clone(),
            black: g.black.and_then(|n| self.name(n)).map(str::to_string),
            white: g.white.and_then(|n| self.name(n)).map(str::to_string),
            tournament: None,
            year: None,
            stated: None,
        })
    }

    fn identity(g: &ArchivedGame) -> u64 {
        let mut bytes = Vec::with_capacity(100);
        let size = g.start.size();
        bytes.push(size.n() as u8);
        bytes.extend_from_slice(&g.start.black().bits().to_le_bytes());
        bytes.extend_from_slice(&g.start.white().bits().to_le_bytes());
        bytes.extend(g.moves.iter().map(|m| square_byte(size, *m)));
        for s in [&g.black, &g.white] {
            bytes.push(0);
            bytes.extend_from_slice(s.as_deref().unwrap_or("").as_bytes());
        }
        fnv1a(&bytes)
    }

    /// Adds the games of one source (`name`, whose bytes hash to `hash`). The games must be
    /// legal (as [`read_source`] gives them). The entries are sorted by [`Archive::finish`].
    pub fn add(&mut self, name: &str, hash: u64, games: &[ArchivedGame]) -> Added {
        if self.sources.iter().any(|s| s.hash == hash) {
            return Added { already: true, ..Added::default() };
        }
        // The games' identities, built on the first add after reading the file (a lookup never
        // needs them).
        if self.seen.len() < self.games.len() {
            self.seen = (0..self.games.len()).map(|k| (self.identity_of(k), k as u32)).collect();
        }
        let source = self.sources.len() as u32;
        let mut added = Added::default();
        for (i, g) in games.iter().enumerate() {
            let id = Archive::identity(g);
            if self.seen.contains_key(&id) {
                added.duplicates += 1;
                continue;
            }
            let game = self.games.len() as u32;
            self.seen.insert(id, game);
            let row = GameRow {
                source,
                index: i as u32 + 1,
                start: g.start,
                moves: g.moves.clone(),
                black: self.intern(&g.black),
                white: self.intern(&g.white),
                tournament: self.intern(&g.tournament),
                year: g.year,
                black_score: g.result().map(|r| r.black_score.clamp(-64, 64) as i8),
                how: g.result().and_then(|r| r.how),
            };
            self.index_game(game, &row);
            self.games.push(row);
            added.games += 1;
        }
        self.sources.push(SourceRow { hash, games: added.games as u32, name: name.to_string() });
        added
    }

    fn index_game(&mut self, game: u32, row: &GameRow) {
        let mut p = row.start;
        for ply in 0..=row.moves.len() {
            if !p.must_pass() {
                let (key, sym) = key_of(&p);
                self.entries.push(Entry { key, game, ply: ply as u8, sym: sym_index(sym) });
            }
            let Some(m) = row.moves.get(ply) else { break };
            p = match m {
                Some(sq) => p.play(*sq).expect("a legal game"),
                None => p.pass(),
            };
        }
    }

    /// Removes the games of the source named `name` (or whose hash, in hex, it is); whether one
    /// was there.
    pub fn remove(&mut self, name: &str) -> bool {
        let Some(k) = self.sources.iter().position(|s| s.name == name || format!("{:016x}", s.hash) == name) else {
            return false;
        };
        let old = std::mem::take(self);
        let mut fresh = Archive::default();
        for (i, s) in old.sources.iter().enumerate() {
            if i == k {
                continue;
            }
            let games: Vec<ArchivedGame> = old
                .games
                .iter()
                .filter(|g| g.source == i as u32)
                .map(|g| ArchivedGame {
                    start: g.start,
                    moves: g.moves.clone(),
                    black: g.black.and_then(|n| old.name(n)).map(str::to_string),
                    white: g.white.and_then(|n| old.name(n)).map(str::to_string),
                    tournament: g.tournament.and_then(|n| old.name(n)).map(str::to_string),
                    year: g.year,
                    stated: g.how.and(g.result()),
                })
                .collect();
            fresh.add(&s.name, s.hash, &games);
        }
        fresh.finish();
        *self = fresh;
        true
    }

    /// Sorts the entries and counts the popular positions' moves ahead (after adding).
    pub fn finish(&mut self) {
        self.entries.sort_unstable();
        self.summaries.clear();
        let mut i = 0;
        while i < self.entries.len() {
            let key = self.entries[i].key;
            let j = i + self.entries[i..].partition_point(|e| e.key == key);
            if j - i >= SUMMARY_MIN {
                let first = self.entries[i];
                let mover = self.mover(first.game, first.ply);
                let moves = self.count_moves(&self.entries[i..j], mover, &Filter::default());
                self.summaries.insert(key, ((j - i) as u32, moves));
            }
            i = j;
        }
    }

    /// The entries of `key`.
    fn range(&self, key: u64) -> &[Entry] {
        let lo = self.entries.partition_point(|e| e.key < key);
        let hi = lo + self.entries[lo..].partition_point(|e| e.key == key);
        &self.entries[lo..hi]
    }

    fn passes(&self, g: &GameRow, f: &Filter) -> bool {
        let has = |id: Option<u32>, part: &str| {
            id.and_then(|n| self.name(n)).is_some_and(|s| s.to_lowercase().contains(part))
        };
        if let Some(p) = &f.player {
            let p = p.to_lowercase();
            if !has(g.black, &p) && !has(g.white, &p) {
                return false;
            }
        }
        if let Some((a, b)) = f.years
            && !g.year.is_some_and(|y| (a..=b).contains(&y))
        {
            return false;
        }
        if let Some(t) = &f.tournament
            && !has(g.tournament, &t.to_lowercase())
        {
            return false;
        }
        true
    }

    /// The side to move in game `game` after `ply` moves.
    fn mover(&self, game: u32, ply: u8) -> Color {
        let g = &self.games[game as usize];
        let mut p = g.start;
        for m in &g.moves[..(ply as usize).min(g.moves.len())] {
            p = match m {
                Some(sq) => p.play(*sq).unwrap_or(p),
                None => p.pass(),
            };
        }
        p.to_move()
    }

    /// The next moves of the games of `entries` (in canonical coordinates), filtered; `mover` is
    /// the side to move at their position (the same for all: it is part of the key).
    fn count_moves(&self, entries: &[Entry], mover: Color, f: &Filter) -> Vec<SummaryMove> {
        let mut by: HashMap<u8, (SummaryMove, HashMap<u32, u32>)> = HashMap::new();
        for e in entries {
            let g = &self.games[e.game as usize];
            if !self.passes(g, f) {
                continue;
            }
            let size = g.start.size();
            let mv = match g.moves.get(e.ply as usize) {
                Some(m) => {
                    let sym = Symmetry::ALL[e.sym as usize];
                    square_byte(size, m.map(|sq| sym.apply_square(size, sq)))
                }
                None => PASS - 1, // the game ended here
            };
            let (s, players) =
                by.entry(mv).or_insert_with(|| (SummaryMove { mv, ..SummaryMove::default() }, HashMap::new()));
            s.games += 1;
            if let Some(score) = g.black_score {
                match score.signum() {
                    1 => s.black_wins += 1,
                    0 => s.draws += 1,
                    _ => s.white_wins += 1,
                }
                s.score_sum += i64::from(score);
            }
            let who = if mover == Color::Black { g.black } else { g.white };
            if let Some(n) = who {
                *players.entry(n).or_default() += 1;
            }
        }
        let mut out: Vec<SummaryMove> = by
            .into_values()
            .map(|(mut s, players)| {
                let mut top: Vec<(u32, u32)> = players.into_iter().collect();
                top.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| self.name(a.0).cmp(&self.name(b.0))));
                top.truncate(3);
                s.players = top;
                s
            })
            .collect();
        out.sort_by_key(|s| s.mv);
        out
    }

    /// What the archive knows of `position` (its side to move's moves), counting only the games
    /// `filter` lets through.
    pub fn stats(&self, position: &Position, filter: &Filter) -> PositionStats {
        let (key, sym) = key_of(position);
        let size = position.size();
        let back = sym.inverse();
        let (games, moves) = match self.summaries.get(&key).filter(|_| filter.is_empty()) {
            Some((games, moves)) => (*games, moves.clone()),
            None => {
                let entries = self.range(key);
                let moves = self.count_moves(entries, position.to_move(), filter);
                (moves.iter().map(|m| m.games).sum(), moves)
            }
        };
        let mut out = PositionStats { games, ..PositionStats::default() };
        for m in moves {
            if m.mv == PASS - 1 {
                out.ended += m.games;
                continue;
            }
            let square = byte_square(size, m.mv).map(|s| back.apply_square(size, s));
            out.moves.push(MoveStats {
                square,
                games: m.games,
                black_wins: m.black_wins,
                draws: m.draws,
                white_wins: m.white_wins,
                score_sum: m.score_sum,
                players: m.players.iter().filter_map(|&(n, c)| Some((self.name(n)?.to_string(), c))).collect(),
            });
        }
        out.moves.sort_by(|a, b| {
            b.games.cmp(&a.games).then_with(|| a.square.map(|s| s.index(size)).cmp(&b.square.map(|s| s.index(size))))
        });
        out
    }

    /// The games that passed through `position`, filtered, in the archive's order, at most
    /// `limit`.
    pub fn games_through(&self, position: &Position, filter: &Filter, limit: usize) -> Vec<&GameRow> {
        let (key, _) = key_of(position);
        let mut ids: Vec<u32> = self.range(key).iter().map(|e| e.game).collect();
        ids.sort_unstable();
        ids.into_iter().map(|i| &self.games[i as usize]).filter(|g| self.passes(g, filter)).take(limit).collect()
    }

    /// A game of the archive as a game file's game (for GGF).
    pub fn as_game(&self, g: &GameRow) -> crate::notation::gamefile::Game {
        let mut game = crate::notation::gamefile::Game::new(
            g.start,
            g.moves.iter().flatten().copied().collect(),
            crate::notation::gamefile::Format::Ggf,
        );
        game.black = g.black.and_then(|n| self.name(n)).map(str::to_string);
        game.white = g.white.and_then(|n| self.name(n)).map(str::to_string);
        game.stated = g.how.and(g.result());
        game
    }
}

#[cfg(test)]
mod tests;
