//! The store file: an SQLite database in WAL mode, which many programs read and add to at once.
//!
//! - `meta (key, value)`: `magic` = `othello-explorer store`, `format` = the format version
//!   ([`FORMAT_VERSION`]), `shipped-book-6x6` = the hash of the last shipped book merged. A file
//!   without them is not ours; a newer format is refused.
//! - `entries (size, scoring, player, opponent, lower, upper, best, source)`, keyed by the first
//!   four: size N, scoring 0 standard / 1 discs, the canonical player's and opponent's discs (the
//!   `u64` masks kept as SQLite's signed integers, bit for bit); the bounds, the best move's bit
//!   in the canonical orientation (`NULL`: none) and the source code.
//!
//! Readers never wait (WAL: a reader sees the last commit when it began); a writer takes the
//! write lock for one short transaction and others wait for it up to [`BUSY_TIMEOUT`]. A killed
//! writer leaves the last commit; SQLite replays its log on the next open. Stores of format 1
//! (redb) are converted on first use ([`super::migrate`]).

use super::migrate;
use super::text::{self, ParseEntryError};
use super::{Entry, ImportCheck, Key, Merged, Source, Stored, merge};
use crate::{
    board::position::{Position, Scoring},
    board::size::Size,
    board::square::Square,
};
use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior, params};
use std::collections::BTreeMap;
use std::fmt;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// The version of the file layout this program writes and reads: 2, SQLite (1 was redb, converted
/// on first use).
pub const FORMAT_VERSION: u32 = 2;
const MAGIC: &str = "othello-explorer store";
/// The first bytes of every SQLite database file.
const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";
/// The `meta` key that remembers which shipped book was merged.
pub(super) const BOOK_KEY: &str = "shipped-book-6x6";
/// Entries per transaction when importing: a killed import keeps the chunks it committed, and no
/// other program waits long for the write lock.
const IMPORT_CHUNK: usize = 256;
/// How long a write waits for another program's write to end. A write transaction holds the lock
/// for milliseconds (at most [`IMPORT_CHUNK`] entries), so only a program stopped in the middle of
/// one (`kill -STOP`, a debugger) makes another wait this long.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

const SCHEMA: &str = "
    CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE entries (
        size INTEGER NOT NULL, scoring INTEGER NOT NULL, player INTEGER NOT NULL, opponent INTEGER NOT NULL,
        lower INTEGER NOT NULL, upper INTEGER NOT NULL, best INTEGER, source INTEGER NOT NULL,
        PRIMARY KEY (size, scoring, player, opponent)
    ) WITHOUT ROWID;";
const SELECT: &str =
    "SELECT lower, upper, best, source FROM entries WHERE size = ?1 AND scoring = ?2 AND player = ?3 AND opponent = ?4";
const UPSERT: &str = "INSERT OR REPLACE INTO entries VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";

/// Why the store cannot be used. Every message names the file.
#[derive(Debug)]
pub enum StoreError {
    /// The file or its folder cannot be created or read.
    Io { path: PathBuf, message: String },
    /// Another program held the write lock longer than [`BUSY_TIMEOUT`]: this write was not made
    /// (reads never wait).
    Busy { path: PathBuf },
    /// A store of the old format (1, redb) that an older othello-explorer has open, so it cannot
    /// be converted yet.
    Locked { path: PathBuf },
    /// The file is damaged: truncated, overwritten, or not readable as a database.
    Corrupt { path: PathBuf, detail: String },
    /// The file is something else: not a database, or a database of another program.
    Foreign { path: PathBuf },
    /// The file was written by a newer version of this program.
    NewerVersion { path: PathBuf, found: String },
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Io { path, message } => write!(f, "cannot use the store {}: {message}", path.display()),
            StoreError::Busy { path } => write!(
                f,
                "the store {} is busy: another program has been writing to it for over {} s",
                path.display(),
                BUSY_TIMEOUT.as_secs()
            ),
            StoreError::Locked { path } => write!(
                f,
                "the store {} is in the old format and an older othello-explorer has it open: close that program, then this one converts the store",
                path.display()
            ),
            StoreError::Corrupt { path, detail } => write!(
                f,
                "the store {} is damaged ({detail}): move it away, or choose another file with --store",
                path.display()
            ),
            StoreError::Foreign { path } => {
                write!(f, "{} is not an othello-explorer store: choose another file with --store", path.display())
            }
            StoreError::NewerVersion { path, found } => write!(
                f,
                "the store {} has format version {found}, newer than this program's {FORMAT_VERSION}: update othello-explorer",
                path.display()
            ),
        }
    }
}

impl std::error::Error for StoreError {}
/// What a batch of writes did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PutSummary {
    /// Positions the store did not have.
    pub added: u64,
    /// Entries that became tighter (or gained a best move).
    pub merged: u64,
    /// Entries that added nothing.
    pub unchanged: u64,
    /// Entries whose bounds contradict the kept ones (the kept ones stay).
    pub conflicting: u64,
}

impl PutSummary {
    fn add(&mut self, other: PutSummary) {
        self.added += other.added;
        self.merged += other.merged;
        self.unchanged += other.unchanged;
        self.conflicting += other.conflicting;
    }
}

/// What [`Store::import`] did.
pub type ImportSummary = PutSummary;

/// An entry [`Store::import_checked`] refused: the solver disagrees with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// Its line in the text, from 1.
    pub line: usize,
    /// The entry, as the text gives it.
    pub entry: Entry,
    /// What is wrong, in words.
    pub problem: String,
}

/// What [`Store::import_checked`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckedImport {
    /// Entries in the text.
    pub entries: usize,
    /// Entries re-solved (every one up to the check's empties, and the sample).
    pub checked: usize,
    /// Of those, the sample beyond the check's empties.
    pub sampled: usize,
    /// Entries the solver disagrees with: not written.
    pub refused: Vec<Refused>,
    /// Entries whose check needed more nodes than the budget ([`ImportCheck::max_nodes`]), with
    /// their lines: neither confirmed nor refuted, so written as unchecked entries are (unless
    /// the sample found a wrong one).
    pub skipped: Vec<(usize, Entry)>,
    /// Entries not checked and not written, because the sample found a wrong one.
    pub suspect: usize,
    /// Nodes searched by the check.
    pub nodes: u64,
    /// Entries written (to the store's merge: see `summary`).
    pub written: usize,
    /// What the writes did.
    pub summary: ImportSummary,
    /// Whether the stop flag ended the import (nothing written when it came during the check).
    pub stopped: bool,
}

/// Why an import failed. Nothing is written when a line does not parse.
#[derive(Debug)]
pub enum ImportError {
    /// A line (counted from 1) is not an entry.
    Parse { line: usize, error: ParseEntryError },
    /// The text could not be read at a line.
    Read { line: usize, message: String },
    /// A line (counted from 1) is longer than [`text::LINE_LIMIT`] bytes.
    TooLong { line: usize },
    /// The store failed.
    Store(StoreError),
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::Parse { line, error } => write!(f, "line {line}: {error}"),
            ImportError::Read { line, message } => write!(f, "line {line}: cannot read: {message}"),
            ImportError::TooLong { line } => write!(
                f,
                "line {line}: longer than {} bytes, not an entry (an entry's line is about 100)",
                text::LINE_LIMIT
            ),
            ImportError::Store(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ImportError {}

/// Why an export failed.
#[derive(Debug)]
pub enum ExportError {
    /// The store could not be read.
    Store(StoreError),
    /// The output could not be written.
    Write(std::io::Error),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Store(e) => write!(f, "{e}"),
            ExportError::Write(e) => write!(f, "cannot write the export: {e}"),
        }
    }
}

impl std::error::Error for ExportError {}

/// Counts of one board size and scoring rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatsRow {
    /// The board size.
    pub size: Size,
    /// The scoring rule.
    pub scoring: Scoring,
    /// Entries with an exact score.
    pub exact: u64,
    /// Entries with bounds only.
    pub bounds: u64,
    /// Entries by source, in the order of [`Source::ALL`].
    pub by_source: [u64; 3],
}

/// What a store holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// One row per size and scoring present, smallest size first.
    pub rows: Vec<StatsRow>,
    /// The file's size in bytes.
    pub file_bytes: u64,
}

impl Stats {
    /// Every entry.
    pub fn total(&self) -> u64 {
        self.rows.iter().map(|r| r.exact + r.bounds).sum()
    }
}

/// An open store. Any number of programs (and threads) may hold one file open at once: reads never
/// wait, and each write is one short transaction, so every program sees what the others committed
/// (`Store` is `Send` and `Sync`).
///
/// ```
/// use othello_explorer::store::{Source, Store, Stored};
/// use othello_explorer::{Position, Scoring, Size};
/// let dir = tempfile::tempdir().unwrap();
/// let store = Store::open(&dir.path().join("store.redb")).unwrap();
/// let start = Position::start(Size::Four);
/// let c4 = "c4".parse().unwrap();
/// store.put_many(&[(start, Scoring::Standard, Stored::exact(-10, Some(c4), Source::Book))]).unwrap();
/// // The mirror image finds the same entry, its best move mirrored (c4 becomes b4).
/// let mirror = othello_explorer::board::symmetry::Symmetry::MirrorColumns.apply_position(&start);
/// let found = store.get(&mirror, Scoring::Standard).unwrap().unwrap();
/// assert_eq!((found.lower, found.best), (-10, Some("b4".parse().unwrap())));
/// // A second program (here a second connection) reads and writes the same file meanwhile.
/// let other = Store::open(&dir.path().join("store.redb")).unwrap();
/// assert_eq!(other.get(&start, Scoring::Standard).unwrap().unwrap().lower, -10);
/// ```
pub struct Store {
    conn: Mutex<Connection>,
    path: PathBuf,
    writable: bool,
    /// Read from a store of the old format into memory, the file left as it is.
    old_format: bool,
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store").field("path", &self.path).finish_non_exhaustive()
    }
}

/// What lies at a store's path before it is opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Found {
    /// No file.
    Nothing,
    /// An empty file.
    Empty,
    /// A file that starts with SQLite's header.
    Sqlite,
    /// A file that starts with redb's header: a store of format 1.
    Redb,
}

/// Looks at `path` without writing: a folder, a file of another kind or one cut inside the header
/// is an error.
pub(super) fn inspect(path: &Path) -> Result<Found, StoreError> {
    let path_buf = path.to_path_buf();
    let io = |e: std::io::Error| StoreError::Io { path: path_buf.clone(), message: e.to_string() };
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Err(StoreError::Io { path: path_buf.clone(), message: "it is a folder".into() }),
        // A device, a FIFO or a socket is never read as a store, nor replaced by one.
        Ok(meta) if let Some(what) = crate::notation::writefile::kind_of(&meta) => Err(StoreError::Io {
            path: path_buf.clone(),
            message: format!("{what}, not a regular file: refusing to use it as a store"),
        }),
        Ok(meta) if meta.len() > 0 => {
            let mut head = [0u8; SQLITE_MAGIC.len()];
            let mut file = std::fs::File::open(path).map_err(io)?;
            let n = read_up_to(&mut file, &mut head).map_err(io)?;
            let redb = &migrate::REDB_MAGIC;
            if n == SQLITE_MAGIC.len() && head == *SQLITE_MAGIC {
                Ok(Found::Sqlite)
            } else if n >= redb.len() && head[..redb.len()] == *redb {
                Ok(Found::Redb)
            } else if head[..n] == SQLITE_MAGIC[..n] || head[..n] == redb[..n.min(redb.len())] {
                Err(StoreError::Corrupt { path: path_buf, detail: "the file is truncated".into() })
            } else {
                Err(StoreError::Foreign { path: path_buf })
            }
        }
        Ok(_) => Ok(Found::Empty),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Found::Nothing),
        Err(e) => Err(io(e)),
    }
}

impl Store {
    /// Opens the store at `path` for reading and writing, creating it (and its folder) when it
    /// does not exist, and converting a store of the old format (1, redb) in place first
    /// ([`super::migrate`]). Other programs may have it open too.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let io = |e: std::io::Error| StoreError::Io { path: path.to_path_buf(), message: e.to_string() };
        match inspect(path)? {
            Found::Sqlite => {}
            Found::Redb => migrate::convert(path)?,
            Found::Empty => create(path, true).map_err(io)?,
            Found::Nothing => {
                if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                    std::fs::create_dir_all(parent).map_err(io)?;
                }
                create(path, false).map_err(io)?;
            }
        }
        let conn = connect(path, OpenFlags::SQLITE_OPEN_READ_WRITE)?;
        let store = Store { conn: Mutex::new(conn), path: path.to_path_buf(), writable: true, old_format: false };
        store.check_meta()?;
        // Made in WAL mode; a file copied out of it (a backup tool's) is put back.
        let sql = |e| sql_error(path, e);
        let conn = store.conn();
        let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0)).map_err(sql)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::Io { path: path.to_path_buf(), message: format!("cannot use WAL mode ({mode})") });
        }
        // Every commit synced before it returns, as a killed or powered-off machine must keep it.
        conn.pragma_update(None, "synchronous", "FULL").map_err(sql)?;
        drop(conn);
        Ok(store)
    }

    /// Opens the store at `path` for reading only: the file is not written, so a read-only file
    /// serves `store stats`, `verify` and `export`. Writes return an error. Nothing is created: a
    /// path with no store (or an empty file) is an error. A store of the old format is read into
    /// memory as it is ([`Store::old_format`]), not converted.
    pub fn open_read_only(path: &Path) -> Result<Store, StoreError> {
        let missing = |message: &str| StoreError::Io { path: path.to_path_buf(), message: message.into() };
        match inspect(path)? {
            Found::Sqlite => {}
            Found::Redb => return migrate::read_into_memory(path),
            // Nothing is created for a command that only reads: a mistyped path is reported.
            Found::Nothing => return Err(missing("no store here (nothing has been stored at this path)")),
            Found::Empty => return Err(missing("an empty file, not a store")),
        }
        let conn = connect(path, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
        let store = Store { conn: Mutex::new(conn), path: path.to_path_buf(), writable: false, old_format: false };
        store.check_meta()?;
        Ok(store)
    }

    /// A store read only, in memory, holding `entries` (a store of the old format read as it is).
    pub(super) fn in_memory(path: &Path, entries: &[(Key, Stored)]) -> Result<Store, StoreError> {
        let sql = |e| sql_error(path, e);
        let mut conn = Connection::open_in_memory().map_err(sql)?;
        let tx = conn.transaction().map_err(sql)?;
        tx.execute_batch(SCHEMA).map_err(sql)?;
        fill(&tx, entries).map_err(sql)?;
        tx.commit().map_err(sql)?;
        Ok(Store { conn: Mutex::new(conn), path: path.to_path_buf(), writable: false, old_format: true })
    }

    /// Whether the file is a store of the old format (1, redb) that [`Store::open_read_only`] read
    /// as it is: the first program that writes to it converts it.
    pub fn old_format(&self) -> bool {
        self.old_format
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        // A panic elsewhere while holding the connection leaves no half-made transaction behind
        // (SQLite rolls it back): the connection is still good.
        self.conn.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn sql(&self, e: rusqlite::Error) -> StoreError {
        sql_error(&self.path, e)
    }

    fn corrupt(&self, e: impl fmt::Display) -> StoreError {
        StoreError::Corrupt { path: self.path.clone(), detail: e.to_string() }
    }

    /// Checks that the file is ours, of this format, and sound (SQLite's `quick_check`: every
    /// page of the tables is read once, milliseconds for a store of a few MB).
    fn check_meta(&self) -> Result<(), StoreError> {
        let conn = self.conn();
        let table = |name: &str| -> Result<bool, StoreError> {
            conn.query_row("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1", [name], |r| {
                r.get::<_, i64>(0)
            })
            .map(|n| n > 0)
            .map_err(|e| self.sql(e))
        };
        if !table("meta")? {
            return Err(StoreError::Foreign { path: self.path.clone() });
        }
        let value = |k: &str| -> Result<Option<String>, StoreError> {
            conn.query_row("SELECT value FROM meta WHERE key = ?1", [k], |r| r.get::<_, String>(0))
                .optional()
                .map_err(|_| StoreError::Foreign { path: self.path.clone() })
        };
        if value("magic")?.as_deref() != Some(MAGIC) {
            return Err(StoreError::Foreign { path: self.path.clone() });
        }
        let format = value("format")?.unwrap_or_default();
        match format.parse::<u32>() {
            Ok(FORMAT_VERSION) => {}
            Ok(v) if v > FORMAT_VERSION => {
                return Err(StoreError::NewerVersion { path: self.path.clone(), found: format });
            }
            _ => return Err(self.corrupt(format!("unknown format version '{format}'"))),
        }
        if !table("entries")? {
            return Err(self.corrupt("the entries table is missing"));
        }
        let verdict: String = conn.query_row("PRAGMA quick_check", [], |r| r.get(0)).map_err(|e| self.sql(e))?;
        if verdict != "ok" {
            return Err(self.corrupt(crate::notation::printable::excerpt(&verdict)));
        }
        Ok(())
    }

    /// What is known of `position` under `scoring`, its best move in `position`'s orientation.
    pub fn get(&self, position: &Position, scoring: Scoring) -> Result<Option<Stored>, StoreError> {
        Ok(self.get_many(&[(*position, scoring)])?.pop().flatten())
    }

    /// [`Store::get`] for many positions, read from one snapshot of the file.
    pub fn get_many(&self, queries: &[(Position, Scoring)]) -> Result<Vec<Option<Stored>>, StoreError> {
        let conn = self.conn();
        // One statement reads one snapshot by itself; several share a read transaction.
        let read = if queries.len() > 1 { Some(conn.unchecked_transaction().map_err(|e| self.sql(e))?) } else { None };
        let mut select = conn.prepare_cached(SELECT).map_err(|e| self.sql(e))?;
        let found = queries
            .iter()
            .map(|(position, scoring)| {
                let (key, symmetry) = Key::of(position, *scoring);
                let Some(raw) = select.query_row(encode_key(&key), raw_value).optional().map_err(|e| self.sql(e))?
                else {
                    return Ok(None);
                };
                let stored = decode_value(key.size, raw).ok_or_else(|| self.corrupt("an entry has a bad value"))?;
                Ok(Some(stored.mapped(key.size, symmetry.inverse())))
            })
            .collect();
        drop(select);
        if let Some(read) = read {
            read.finish().map_err(|e| self.sql(e))?;
        }
        found
    }

    /// Stores what is known of each `(position, scoring)`, in one transaction, merged with what
    /// is kept ([`super::merge`]: tighter bounds win, contradictions are counted and dropped).
    pub fn put_many(&self, entries: &[(Position, Scoring, Stored)]) -> Result<PutSummary, StoreError> {
        let entries: Vec<Entry> =
            entries.iter().map(|&(position, scoring, stored)| Entry { position, scoring, stored }).collect();
        self.put_entries(&entries)
    }

    /// [`Store::put_many`] for [`Entry`] values. The write lock is taken first (`BEGIN
    /// IMMEDIATE`), so what is merged with is what the other programs last committed.
    pub(crate) fn put_entries(&self, entries: &[Entry]) -> Result<PutSummary, StoreError> {
        if !self.writable {
            return Err(StoreError::Io { path: self.path.clone(), message: "opened for reading only".into() });
        }
        let mut summary = PutSummary::default();
        let mut conn = self.conn();
        let write = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(|e| self.sql(e))?;
        {
            let mut select = write.prepare_cached(SELECT).map_err(|e| self.sql(e))?;
            let mut upsert = write.prepare_cached(UPSERT).map_err(|e| self.sql(e))?;
            for entry in entries {
                let (key, mut stored) = entry.canonical();
                // A bound beyond the board's range says nothing: clamp it. Crossed bounds are
                // no result at all.
                let limit = key.size.squares() as i32;
                stored.lower = stored.lower.max(-limit);
                stored.upper = stored.upper.min(limit);
                if stored.lower > stored.upper {
                    summary.conflicting += 1;
                    continue;
                }
                let k = encode_key(&key);
                let kept = select.query_row(k, raw_value).optional().map_err(|e| self.sql(e))?;
                let new = match kept {
                    None => {
                        summary.added += 1;
                        Some(stored)
                    }
                    Some(raw) => {
                        let kept =
                            decode_value(key.size, raw).ok_or_else(|| self.corrupt("an entry has a bad value"))?;
                        match merge(&kept, &stored) {
                            Merged::Unchanged => {
                                summary.unchanged += 1;
                                None
                            }
                            Merged::Conflict => {
                                summary.conflicting += 1;
                                None
                            }
                            Merged::Changed(s) => {
                                summary.merged += 1;
                                Some(s)
                            }
                        }
                    }
                };
                if let Some(s) = new {
                    upsert.execute(row(&key, &s)).map_err(|e| self.sql(e))?;
                }
            }
        }
        write.commit().map_err(|e| self.sql(e))?;
        Ok(summary)
    }

    /// Every entry, in key order (size, scoring, then the discs as unsigned numbers), as (key,
    /// entry with its best move in the key's orientation).
    pub fn entries(&self) -> Result<Vec<(Key, Stored)>, StoreError> {
        let conn = self.conn();
        let mut all = conn
            .prepare("SELECT size, scoring, player, opponent, lower, upper, best, source FROM entries")
            .map_err(|e| self.sql(e))?;
        let rows = all
            .query_map([], |r| {
                Ok((
                    (r.get::<_, i64>(0)?, r.get::<_, i64>(1)?, r.get::<_, i64>(2)?, r.get::<_, i64>(3)?),
                    raw_at(r, 4)?,
                ))
            })
            .map_err(|e| self.sql(e))?;
        let mut out = Vec::new();
        for row in rows {
            let (k, v) = row.map_err(|e| self.sql(e))?;
            let key = decode_key(k).ok_or_else(|| self.corrupt("an entry has a bad key"))?;
            let stored = decode_value(key.size, v).ok_or_else(|| self.corrupt("an entry has a bad value"))?;
            out.push((key, stored));
        }
        out.sort_by_key(|(k, _)| (k.size.n(), scoring_code(k.scoring), k.player, k.opponent));
        Ok(out)
    }

    /// Counts per size and scoring, exact against bounds, and per source; the file's size.
    pub fn stats(&self) -> Result<Stats, StoreError> {
        let mut rows: BTreeMap<(Size, u8), StatsRow> = BTreeMap::new();
        for (key, stored) in self.entries()? {
            let row = rows.entry((key.size, scoring_code(key.scoring))).or_insert(StatsRow {
                size: key.size,
                scoring: key.scoring,
                exact: 0,
                bounds: 0,
                by_source: [0; 3],
            });
            if stored.is_exact() {
                row.exact += 1;
            } else {
                row.bounds += 1;
            }
            row.by_source[stored.source.code() as usize] += 1;
        }
        let file_bytes = std::fs::metadata(&self.path).map(|m| m.len()).unwrap_or(0);
        Ok(Stats { rows: rows.into_values().collect(), file_bytes })
    }

    /// Writes every entry in the text form ([`super::text`]), with a header comment. A failure
    /// to read the store is [`ExportError::Store`]; a failure to write `out` is
    /// [`ExportError::Write`] (the caller names its output).
    pub fn export(&self, out: &mut dyn Write) -> Result<u64, ExportError> {
        let entries = self.entries().map_err(ExportError::Store)?;
        writeln!(out, "; othello-explorer store export: board side scoring score best source")
            .map_err(ExportError::Write)?;
        for (key, stored) in &entries {
            let entry = Entry { position: key.position(), scoring: key.scoring, stored: *stored };
            writeln!(out, "{}", text::format_entry(&entry)).map_err(ExportError::Write)?;
        }
        Ok(entries.len() as u64)
    }

    /// Reads entries in the text form and merges them in. Every line is parsed before anything is
    /// written; the entries are then committed a few hundred at a time.
    pub fn import(&self, input: &mut dyn BufRead) -> Result<ImportSummary, ImportError> {
        let entries: Vec<Entry> = parse_import(input)?.into_iter().map(|(_, e)| e).collect();
        self.put_in_chunks(&entries).map_err(ImportError::Store)
    }

    /// [`Store::import`], re-checking the entries first as `check` says (none with `None`), and
    /// stopping cleanly when `stop` is set: stopped while checking, nothing is written; while
    /// writing, the chunks written stay (each a transaction of a few hundred entries). A wrong
    /// entry is refused; when the sample beyond `check.exact_up_to` finds one, the entries that
    /// were not checked are suspect and none is written either. `on_progress` hears of each entry
    /// checked (done, total).
    pub fn import_checked(
        &self,
        input: &mut dyn BufRead,
        check: Option<&ImportCheck>,
        stop: Option<Arc<AtomicBool>>,
        on_progress: &mut dyn FnMut(usize, usize),
    ) -> Result<CheckedImport, ImportError> {
        let lines = parse_import(input)?;
        let mut result = CheckedImport { entries: lines.len(), ..CheckedImport::default() };
        let mut keep: Vec<bool> = vec![true; lines.len()];
        if let Some(check) = check {
            let (cheap, costly): (Vec<usize>, Vec<usize>) =
                (0..lines.len()).partition(|&i| lines[i].1.position.empty_count() <= check.exact_up_to);
            let sampled = super::verify::pick_by(costly.clone(), check.sample, check.seed, |&i| {
                lines[i].1.position.empty_count()
            });
            let chosen: Vec<usize> = cheap.iter().copied().chain(sampled.iter().copied()).collect();
            let entries: Vec<Entry> = chosen.iter().map(|&i| lines[i].1).collect();
            let report =
                super::verify::check_entries(&entries, &check.options, check.max_nodes, stop.clone(), on_progress);
            result.nodes = report.nodes;
            if report.stopped {
                result.stopped = true;
                return Ok(result);
            }
            result.checked = report.checked;
            result.sampled = sampled.len();
            let wrong: std::collections::HashSet<usize> = report
                .mismatches
                .iter()
                .filter_map(|m| {
                    let k = entries.iter().position(|e| *e == m.entry)?;
                    Some(chosen[k])
                })
                .collect();
            for &i in &chosen {
                if wrong.contains(&i) {
                    keep[i] = false;
                    let problem = report
                        .mismatches
                        .iter()
                        .find(|m| m.entry == lines[i].1)
                        .map(|m| m.problem.clone())
                        .unwrap_or_default();
                    result.refused.push(Refused { line: lines[i].0, entry: lines[i].1, problem });
                }
            }
            result.refused.sort_by_key(|r| r.line);
            let skipped: std::collections::HashSet<usize> =
                report.skipped.iter().filter_map(|s| Some(chosen[entries.iter().position(|e| e == s)?])).collect();
            result.skipped = chosen.iter().filter(|i| skipped.contains(i)).map(|&i| lines[i]).collect();
            if sampled.iter().any(|i| wrong.contains(i)) {
                let checked: std::collections::HashSet<usize> =
                    chosen.iter().copied().filter(|i| !skipped.contains(i)).collect();
                for (i, k) in keep.iter_mut().enumerate() {
                    if !checked.contains(&i) && *k {
                        *k = false;
                        result.suspect += 1;
                    }
                }
            }
        }
        let entries: Vec<Entry> = lines.iter().zip(&keep).filter(|(_, k)| **k).map(|((_, e), _)| *e).collect();
        for chunk in entries.chunks(IMPORT_CHUNK) {
            if stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed)) {
                result.stopped = true;
                break;
            }
            result.summary.add(self.put_entries(chunk).map_err(ImportError::Store)?);
            result.written += chunk.len();
        }
        Ok(result)
    }

    /// Merges the shipped 6x6 book ([`super::book::shipped`]) into the store, unless this very
    /// book was merged before (the store remembers a hash of the book's text). Returns what the
    /// merge did, or `None` when there was nothing to do. Meant for the explorer's start, on its
    /// store thread.
    pub fn merge_shipped_book(&self) -> Result<Option<PutSummary>, StoreError> {
        let hash = format!("{:016x}", crate::notation::checksum::fnv1a(super::book::SHIPPED_6X6.as_bytes()));
        let merged: Option<String> = self
            .conn()
            .query_row("SELECT value FROM meta WHERE key = ?1", [BOOK_KEY], |r| r.get(0))
            .optional()
            .map_err(|e| self.sql(e))?;
        if merged.as_deref() == Some(hash.as_str()) {
            return Ok(None);
        }
        let entries: Vec<Entry> = super::book::shipped().collect();
        let summary = self.put_in_chunks(&entries)?;
        self.conn()
            .execute("INSERT OR REPLACE INTO meta VALUES (?1, ?2)", params![BOOK_KEY, hash])
            .map_err(|e| self.sql(e))?;
        Ok(Some(summary))
    }

    /// Stores entries a few hundred per transaction.
    pub(crate) fn put_in_chunks(&self, entries: &[Entry]) -> Result<PutSummary, StoreError> {
        let mut summary = PutSummary::default();
        for chunk in entries.chunks(IMPORT_CHUNK) {
            summary.add(self.put_entries(chunk)?);
        }
        Ok(summary)
    }
}

/// The entries of a text file, each with its line number (from 1). Nothing is returned when a
/// line does not parse. A line longer than [`text::LINE_LIMIT`] bytes is refused as soon as the
/// limit is passed, so a file of one endless line costs no more memory than a short one.
fn parse_import(input: &mut dyn BufRead) -> Result<Vec<(usize, Entry)>, ImportError> {
    let mut entries = Vec::new();
    let mut line = Vec::new();
    let mut number = 0;
    loop {
        line.clear();
        number += 1;
        let limited = &mut std::io::Read::take(&mut *input, text::LINE_LIMIT as u64 + 1);
        match limited.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => return Err(ImportError::Read { line: number, message: e.to_string() }),
        }
        if !line.ends_with(b"\n") && line.len() > text::LINE_LIMIT {
            return Err(ImportError::TooLong { line: number });
        }
        let Ok(content) = std::str::from_utf8(&line) else {
            return Err(ImportError::Read { line: number, message: "not UTF-8 text".into() });
        };
        let parsed = text::parse_entry(content.trim_end_matches(['\n', '\r']))
            .map_err(|error| ImportError::Parse { line: number, error })?;
        entries.extend(parsed.into_iter().map(|e| (number, e)));
    }
    Ok(entries)
}

/// Opens a connection to the SQLite file at `path` (never creating it), waiting up to
/// [`BUSY_TIMEOUT`] for a lock.
fn connect(path: &Path, flags: OpenFlags) -> Result<Connection, StoreError> {
    let sql = |e| sql_error(path, e);
    let conn = Connection::open_with_flags(path, flags | OpenFlags::SQLITE_OPEN_NO_MUTEX).map_err(sql)?;
    conn.busy_timeout(BUSY_TIMEOUT).map_err(sql)?;
    Ok(conn)
}

/// Makes a new store at `path` atomically: built beside it under a temporary name, then linked
/// into place, so a process killed while creating leaves no half-made store behind. If another
/// process created the store meanwhile, its file is kept. `replace` replaces an empty file.
fn create(path: &Path, replace: bool) -> std::io::Result<()> {
    // Through a symbolic link to the file it names, the link kept.
    let path = &crate::notation::writefile::target(path).map_err(|e| std::io::Error::other(e.to_string()))?;
    let temp = build_beside(path, &[], None)?;
    let published = if replace {
        std::fs::rename(&temp, path)
    } else {
        match std::fs::hard_link(&temp, path) {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
            Err(_) => std::fs::rename(&temp, path),
            ok => ok,
        }
    };
    let _ = std::fs::remove_file(&temp);
    published
}

/// Builds a whole store holding `entries` (and the shipped book's hash `book`) beside `path`,
/// under a temporary name of this process and call, in WAL mode, closed: one file, its log folded in.
/// Returns the temporary file's path.
pub(super) fn build_beside(path: &Path, entries: &[(Key, Stored)], book: Option<&str>) -> std::io::Result<PathBuf> {
    // A name of this process and this call: threads of one program may create stores at once.
    static MADE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let call = MADE.fetch_add(1, Ordering::Relaxed);
    let temp = path.with_file_name(format!(".{name}.{}-{call}.new", std::process::id()));
    let remove = |temp: &Path| {
        for tail in ["", "-wal", "-shm", "-journal"] {
            let mut file = temp.as_os_str().to_owned();
            file.push(tail);
            let _ = std::fs::remove_file(file);
        }
    };
    remove(&temp);
    let made = (|| -> rusqlite::Result<()> {
        let mut conn = Connection::open(&temp)?;
        let _: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
        let tx = conn.transaction()?;
        tx.execute_batch(SCHEMA)?;
        tx.execute(
            "INSERT INTO meta VALUES ('magic', ?1), ('format', ?2)",
            params![MAGIC, FORMAT_VERSION.to_string()],
        )?;
        if let Some(hash) = book {
            tx.execute("INSERT INTO meta VALUES (?1, ?2)", params![BOOK_KEY, hash])?;
        }
        fill(&tx, entries)?;
        tx.commit()?;
        // Closing the last connection folds the log into the file and removes it.
        conn.close().map_err(|(_, e)| e)
    })();
    if let Err(e) = made {
        remove(&temp);
        return Err(std::io::Error::other(format!("cannot create it: {e}")));
    }
    Ok(temp)
}

/// Writes `entries` in the transaction `tx`.
fn fill(tx: &rusqlite::Transaction<'_>, entries: &[(Key, Stored)]) -> rusqlite::Result<()> {
    let mut upsert = tx.prepare_cached(UPSERT)?;
    for (key, stored) in entries {
        upsert.execute(row(key, stored))?;
    }
    Ok(())
}

pub(super) fn read_up_to(file: &mut std::fs::File, buf: &mut [u8]) -> std::io::Result<usize> {
    use std::io::Read;
    let mut n = 0;
    while n < buf.len() {
        match file.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

/// An SQLite error as ours: waiting too long for a lock is [`StoreError::Busy`], damage is
/// [`StoreError::Corrupt`], a file that cannot be opened or written is [`StoreError::Io`].
fn sql_error(path: &Path, e: rusqlite::Error) -> StoreError {
    use rusqlite::ErrorCode as C;
    let path = path.to_path_buf();
    let detail = lower_first(&e.to_string());
    match e.sqlite_error_code() {
        Some(C::DatabaseBusy | C::DatabaseLocked) => StoreError::Busy { path },
        Some(C::DatabaseCorrupt | C::NotADatabase) => StoreError::Corrupt { path, detail },
        Some(C::CannotOpen | C::PermissionDenied | C::ReadOnly | C::SystemIoFailure | C::DiskFull) => {
            StoreError::Io { path, message: detail }
        }
        _ => StoreError::Corrupt { path, detail },
    }
}

/// Messages from the libraries may start with a capital; ours are lower case (but "DB" stays "DB").
pub(super) fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match (c.next(), s.chars().nth(1)) {
        (Some(f), Some(second)) if !second.is_uppercase() => f.to_lowercase().chain(c).collect(),
        _ => s.to_string(),
    }
}

pub(super) fn scoring_code(scoring: Scoring) -> u8 {
    match scoring {
        Scoring::Standard => 0,
        Scoring::Discs => 1,
    }
}

/// A key's columns: size, scoring, and the discs' masks as signed integers, bit for bit.
type RawKey = (i64, i64, i64, i64);
/// A value's columns: lower, upper, the best move's bit (or `NULL`), the source code.
type RawValue = (i64, i64, Option<i64>, i64);

fn encode_key(key: &Key) -> RawKey {
    (key.size.n() as i64, i64::from(scoring_code(key.scoring)), key.player as i64, key.opponent as i64)
}

pub(super) fn decode_key((n, scoring, player, opponent): RawKey) -> Option<Key> {
    let size = Size::from_n(usize::try_from(n).ok()?)?;
    let scoring = match scoring {
        0 => Scoring::Standard,
        1 => Scoring::Discs,
        _ => return None,
    };
    let (player, opponent) = (player as u64, opponent as u64);
    if (player | opponent) & !size.full() != 0 || player & opponent != 0 {
        return None;
    }
    Some(Key { size, scoring, player, opponent })
}

/// The columns of one entry, for [`UPSERT`].
fn row(key: &Key, stored: &Stored) -> (i64, i64, i64, i64, i64, i64, Option<i64>, i64) {
    let (n, scoring, player, opponent) = encode_key(key);
    let best = stored.best.map(|sq| i64::from(sq.bit(key.size)));
    (n, scoring, player, opponent, stored.lower.into(), stored.upper.into(), best, stored.source.code().into())
}

fn raw_value(r: &rusqlite::Row<'_>) -> rusqlite::Result<RawValue> {
    raw_at(r, 0)
}

fn raw_at(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<RawValue> {
    Ok((r.get(at)?, r.get(at + 1)?, r.get(at + 2)?, r.get(at + 3)?))
}

pub(super) fn decode_value(size: Size, (lower, upper, best, source): RawValue) -> Option<Stored> {
    let limit = size.squares() as i64;
    if lower > upper || lower < -limit || upper > limit {
        return None;
    }
    let best = match best {
        None => None,
        Some(bit) => Some(Square::from_bit(size, u32::try_from(bit).ok()?)?),
    };
    let source = Source::from_code(u8::try_from(source).ok()?)?;
    Some(Stored { lower: lower as i32, upper: upper as i32, best, source })
}
