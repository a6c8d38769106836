//! The store file: a redb database with two tables.
//!
//! - `meta` (`&str` → `&str`): `magic` = `othello-explorer store`, `format` = the format version
//!   ([`FORMAT_VERSION`]). A file without them is not ours; a newer format is refused.
//! - `entries` (`(u8, u8, u64, u64)` → `(i8, i8, u8, u8)`): key (size N, scoring 0 standard /
//!   1 discs, canonical player, canonical opponent) → (lower, upper, best move's bit in the
//!   canonical orientation or 255, source code).
//!
//! redb commits copy-on-write with checksums, so a killed writer leaves the last commit intact;
//! it locks the file, so a second writer is refused. The file's integrity is checked on open.

use super::text::{self, ParseEntryError};
use super::{Entry, ImportCheck, Key, Merged, Source, Stored, merge};
use crate::{Position, Scoring, Size, Square};
use redb::{ReadableDatabase, ReadableTable, TableDefinition, TableHandle};
use std::collections::BTreeMap;
use std::fmt;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The version of the file layout this program writes and reads.
pub const FORMAT_VERSION: u32 = 1;
const MAGIC: &str = "othello-explorer store";
const META: TableDefinition<&str, &str> = TableDefinition::new("meta");
/// (size N, scoring code, canonical player, canonical opponent).
type RawKey = (u8, u8, u64, u64);
/// (lower, upper, best move's bit or [`NO_MOVE`], source code).
type RawValue = (i8, i8, u8, u8);
const ENTRIES: TableDefinition<RawKey, RawValue> = TableDefinition::new("entries");
const REDB_MAGIC: [u8; 9] = [b'r', b'e', b'd', b'b', 0x1A, 0x0A, 0xA9, 0x0D, 0x0A];
const NO_MOVE: u8 = 255;
/// The `meta` key that remembers which shipped book was merged.
const BOOK_KEY: &str = "shipped-book-6x6";
/// Entries per transaction when importing: a killed import keeps the chunks it committed.
const IMPORT_CHUNK: usize = 256;

/// Why the store cannot be used. Every message names the file.
#[derive(Debug)]
pub enum StoreError {
    /// The file or its folder cannot be created or read.
    Io { path: PathBuf, message: String },
    /// Another program (another explorer, most likely) has the file open.
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
            StoreError::Locked { path } => write!(
                f,
                "the store {} is in use by another othello-explorer (close it, or choose another file with --store)",
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
    /// The store failed.
    Store(StoreError),
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::Parse { line, error } => write!(f, "line {line}: {error}"),
            ImportError::Read { line, message } => write!(f, "line {line}: cannot read: {message}"),
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

/// An open store. Only one program at a time may hold a file open; reads and writes are
/// transactions, safe from any thread (`Store` is `Send` and `Sync`).
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
/// let mirror = othello_explorer::symmetry::Symmetry::MirrorColumns.apply_position(&start);
/// let found = store.get(&mirror, Scoring::Standard).unwrap().unwrap();
/// assert_eq!((found.lower, found.best), (-10, Some("b4".parse().unwrap())));
/// ```
pub struct Store {
    db: Db,
    path: PathBuf,
    /// How a store left unclean by a killed writer was made readable, if it was.
    recovered: Option<Recovery>,
    /// The repaired copy a read-only store is read through ([`Recovery::Copy`]), removed on drop.
    _copy: Option<TempCopy>,
}

/// How [`Store::open_read_only`] read a store its last writer did not close (killed, or stopped
/// by a signal it did not catch): the data of every commit is intact, but redb must replay the
/// file's allocation state before a reader may trust it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recovery {
    /// Repaired in place (the file was writable): the next run finds it clean.
    InPlace,
    /// The file or its folder cannot be written: read through a repaired copy in the temporary
    /// folder; the file itself is untouched.
    Copy,
}

impl fmt::Display for Recovery {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Recovery::InPlace => "was not closed cleanly (its last writer was stopped): recovered, every committed entry kept",
            Recovery::Copy => {
                "was not closed cleanly (its last writer was stopped) and cannot be written: read through a recovered copy, the file left as it is"
            }
        })
    }
}

/// A copy of a store in a folder of its own under the temporary folder, removed with it.
struct TempCopy {
    folder: PathBuf,
}

impl TempCopy {
    /// Copies `path` into a new folder under the temporary folder.
    fn of(path: &Path) -> std::io::Result<(TempCopy, PathBuf)> {
        let base = std::env::temp_dir();
        let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        for attempt in 0..100u32 {
            let folder = base.join(format!("othello-explorer-store-{}-{stamp}-{attempt}", std::process::id()));
            match std::fs::create_dir(&folder) {
                Ok(()) => {
                    let copy = TempCopy { folder };
                    let file = copy.folder.join("store.redb");
                    std::fs::copy(path, &file)?;
                    return Ok((copy, file));
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(std::io::Error::other("no free name in the temporary folder"))
    }
}

impl Drop for TempCopy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

/// The database, opened for writing ([`Store::open`]) or for reading only
/// ([`Store::open_read_only`]).
enum Db {
    Write(redb::Database),
    Read(redb::ReadOnlyDatabase),
}

impl Db {
    fn reader(&self) -> Result<redb::ReadTransaction, redb::TransactionError> {
        match self {
            Db::Write(db) => db.begin_read(),
            Db::Read(db) => db.begin_read(),
        }
    }
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store").field("path", &self.path).finish_non_exhaustive()
    }
}

/// What lies at a store's path before it is opened.
#[derive(PartialEq, Eq)]
enum Found {
    /// No file.
    Nothing,
    /// An empty file.
    Empty,
    /// A file that starts with redb's header.
    Redb,
}

/// Looks at `path` without writing: a folder, a file of another kind or one cut inside the header
/// is an error.
fn inspect(path: &Path) -> Result<Found, StoreError> {
    let path_buf = path.to_path_buf();
    let io = |e: std::io::Error| StoreError::Io { path: path_buf.clone(), message: e.to_string() };
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Err(StoreError::Io { path: path_buf.clone(), message: "it is a folder".into() }),
        // A device, a FIFO or a socket is never read as a store, nor replaced by one.
        Ok(meta) if let Some(what) = crate::writefile::kind_of(&meta) => Err(StoreError::Io {
            path: path_buf.clone(),
            message: format!("{what}, not a regular file: refusing to use it as a store"),
        }),
        Ok(meta) if meta.len() > 0 => {
            let mut head = [0u8; REDB_MAGIC.len()];
            let mut file = std::fs::File::open(path).map_err(io)?;
            let n = read_up_to(&mut file, &mut head).map_err(io)?;
            if head[..n] != REDB_MAGIC[..n] {
                return Err(StoreError::Foreign { path: path_buf });
            }
            if n < REDB_MAGIC.len() {
                return Err(StoreError::Corrupt { path: path_buf, detail: "the file is truncated".into() });
            }
            Ok(Found::Redb)
        }
        Ok(_) => Ok(Found::Empty),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Found::Nothing),
        Err(e) => Err(io(e)),
    }
}

/// Opens the database with `open`. redb reports damage as errors; this also guards against a
/// panic on a file damaged in a way it does not foresee, so the program can still run without the
/// store.
fn guarded<D>(
    path: &Path,
    open: impl FnOnce() -> Result<D, redb::DatabaseError> + std::panic::UnwindSafe,
) -> Result<D, StoreError> {
    match std::panic::catch_unwind(open) {
        Ok(Ok(db)) => Ok(db),
        Ok(Err(e)) => Err(database_error(path, e)),
        Err(_) => {
            Err(StoreError::Corrupt { path: path.to_path_buf(), detail: "the database could not be read".into() })
        }
    }
}

impl Store {
    /// Opens the store at `path`, creating it (and its folder) when it does not exist.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let io = |e: std::io::Error| StoreError::Io { path: path.to_path_buf(), message: e.to_string() };
        match inspect(path)? {
            Found::Redb => {}
            Found::Empty => create(path, true).map_err(io)?,
            Found::Nothing => {
                if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                    std::fs::create_dir_all(parent).map_err(io)?;
                }
                create(path, false).map_err(io)?;
            }
        }
        let store = Store {
            db: Db::Write(guarded(path, || redb::Builder::new().set_check_integrity_on_open(true).open(path))?),
            path: path.to_path_buf(),
            recovered: None,
            _copy: None,
        };
        store.check_meta()?;
        Ok(store)
    }

    /// Opens the store at `path` for reading only: the file is not written (not even its
    /// header), so a read-only file or folder serves `store stats`, `verify` and `export`.
    /// Writes return an error. Nothing is created: a path with no store (or an empty file) is
    /// an error.
    ///
    /// A store its last writer did not close (killed, or stopped by a signal) holds every
    /// committed entry, but redb must recover it before it can be read: it is recovered in place
    /// when the file can be written, else read through a recovered copy ([`Store::recovered`]
    /// says which). It is never called damaged for that.
    pub fn open_read_only(path: &Path) -> Result<Store, StoreError> {
        let missing = |message: &str| StoreError::Io { path: path.to_path_buf(), message: message.into() };
        match inspect(path)? {
            Found::Redb => {}
            // Nothing is created for a command that only reads: a mistyped path is reported.
            Found::Nothing => return Err(missing("no store here (nothing has been stored at this path)")),
            Found::Empty => return Err(missing("an empty file, not a store")),
        }
        let db = match std::panic::catch_unwind(|| redb::Builder::new().open_read_only(path)) {
            Ok(Ok(db)) => db,
            Ok(Err(redb::DatabaseError::RepairAborted)) => return Store::recover(path),
            Ok(Err(e)) => return Err(database_error(path, e)),
            Err(_) => {
                return Err(StoreError::Corrupt {
                    path: path.to_path_buf(),
                    detail: "the database could not be read".into(),
                });
            }
        };
        let store = Store { db: Db::Read(db), path: path.to_path_buf(), recovered: None, _copy: None };
        store.check_meta()?;
        Ok(store)
    }

    /// Recovers a store its last writer left unclean, for reading: in place when the file can be
    /// written, else through a copy.
    fn recover(path: &Path) -> Result<Store, StoreError> {
        let open = |file: &Path| guarded(file, || redb::Builder::new().set_check_integrity_on_open(true).open(file));
        let writable = std::fs::OpenOptions::new().read(true).write(true).open(path).is_ok();
        let (db, recovered, copy) = if writable {
            (open(path)?, Recovery::InPlace, None)
        } else {
            let (copy, file) = TempCopy::of(path).map_err(|e| StoreError::Io {
                path: path.to_path_buf(),
                message: format!("cannot copy it to recover it: {e}"),
            })?;
            (open(&file)?, Recovery::Copy, Some(copy))
        };
        let store = Store { db: Db::Write(db), path: path.to_path_buf(), recovered: Some(recovered), _copy: copy };
        store.check_meta()?;
        Ok(store)
    }

    /// Whether [`Store::open_read_only`] had to recover the file, and how.
    pub fn recovered(&self) -> Option<Recovery> {
        self.recovered
    }

    /// The database to write to; an error for a store opened read-only.
    fn writer(&self) -> Result<&redb::Database, StoreError> {
        match &self.db {
            // A store recovered for reading is still opened for reading only.
            Db::Write(db) if self.recovered.is_none() => Ok(db),
            _ => Err(StoreError::Io { path: self.path.clone(), message: "opened for reading only".into() }),
        }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn corrupt(&self, e: impl fmt::Display) -> StoreError {
        StoreError::Corrupt { path: self.path.clone(), detail: e.to_string() }
    }

    /// Checks the `meta` table, writing it into a database that has no table at all (a new file).
    fn check_meta(&self) -> Result<(), StoreError> {
        let read = self.db.reader().map_err(|e| self.corrupt(e))?;
        let names: Vec<String> =
            read.list_tables().map_err(|e| self.corrupt(e))?.map(|t| t.name().to_string()).collect();
        if names.is_empty() {
            drop(read);
            let write = self.writer()?.begin_write().map_err(|e| self.corrupt(e))?;
            {
                let mut meta = write.open_table(META).map_err(|e| self.corrupt(e))?;
                meta.insert("magic", MAGIC).map_err(|e| self.corrupt(e))?;
                meta.insert("format", FORMAT_VERSION.to_string().as_str()).map_err(|e| self.corrupt(e))?;
                write.open_table(ENTRIES).map_err(|e| self.corrupt(e))?;
            }
            return write.commit().map_err(|e| self.corrupt(e));
        }
        if !names.iter().any(|n| n == META.name()) {
            return Err(StoreError::Foreign { path: self.path.clone() });
        }
        let meta = read.open_table(META).map_err(|_| StoreError::Foreign { path: self.path.clone() })?;
        let value = |k: &str| -> Result<Option<String>, StoreError> {
            Ok(meta.get(k).map_err(|e| self.corrupt(e))?.map(|v| v.value().to_string()))
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
        if !names.iter().any(|n| n == ENTRIES.name()) {
            return Err(self.corrupt("the entries table is missing"));
        }
        Ok(())
    }

    /// What is known of `position` under `scoring`, its best move in `position`'s orientation.
    pub fn get(&self, position: &Position, scoring: Scoring) -> Result<Option<Stored>, StoreError> {
        Ok(self.get_many(&[(*position, scoring)])?.pop().flatten())
    }

    /// [`Store::get`] for many positions in one read transaction.
    pub fn get_many(&self, queries: &[(Position, Scoring)]) -> Result<Vec<Option<Stored>>, StoreError> {
        let read = self.db.reader().map_err(|e| self.corrupt(e))?;
        let table = read.open_table(ENTRIES).map_err(|e| self.corrupt(e))?;
        queries
            .iter()
            .map(|(position, scoring)| {
                let (key, symmetry) = Key::of(position, *scoring);
                let Some(value) = table.get(encode_key(&key)).map_err(|e| self.corrupt(e))? else { return Ok(None) };
                let stored =
                    decode_value(key.size, value.value()).ok_or_else(|| self.corrupt("an entry has a bad value"))?;
                Ok(Some(stored.mapped(key.size, symmetry.inverse())))
            })
            .collect()
    }

    /// Stores what is known of each `(position, scoring)`, in one transaction, merged with what
    /// is kept ([`super::merge`]: tighter bounds win, contradictions are counted and dropped).
    pub fn put_many(&self, entries: &[(Position, Scoring, Stored)]) -> Result<PutSummary, StoreError> {
        let entries: Vec<Entry> =
            entries.iter().map(|&(position, scoring, stored)| Entry { position, scoring, stored }).collect();
        self.put_entries(&entries)
    }

    /// [`Store::put_many`] for [`Entry`] values.
    pub(crate) fn put_entries(&self, entries: &[Entry]) -> Result<PutSummary, StoreError> {
        let mut summary = PutSummary::default();
        let write = self.writer()?.begin_write().map_err(|e| self.corrupt(e))?;
        {
            let mut table = write.open_table(ENTRIES).map_err(|e| self.corrupt(e))?;
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
                let kept = table.get(k).map_err(|e| self.corrupt(e))?.map(|v| v.value());
                let new = match kept {
                    None => {
                        summary.added += 1;
                        Some(stored)
                    }
                    Some(value) => {
                        let kept =
                            decode_value(key.size, value).ok_or_else(|| self.corrupt("an entry has a bad value"))?;
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
                    table.insert(k, encode_value(key.size, &s)).map_err(|e| self.corrupt(e))?;
                }
            }
        }
        write.commit().map_err(|e| self.corrupt(e))?;
        Ok(summary)
    }

    /// Every entry, in key order, as (key, entry with its best move in the key's orientation).
    pub fn entries(&self) -> Result<Vec<(Key, Stored)>, StoreError> {
        let read = self.db.reader().map_err(|e| self.corrupt(e))?;
        let table = read.open_table(ENTRIES).map_err(|e| self.corrupt(e))?;
        let mut out = Vec::new();
        for item in table.iter().map_err(|e| self.corrupt(e))? {
            let (k, v) = item.map_err(|e| self.corrupt(e))?;
            let key = decode_key(k.value()).ok_or_else(|| self.corrupt("an entry has a bad key"))?;
            let stored = decode_value(key.size, v.value()).ok_or_else(|| self.corrupt("an entry has a bad value"))?;
            out.push((key, stored));
        }
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
            let report = super::verify::check_entries(&entries, &check.options, stop.clone(), on_progress);
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
            if sampled.iter().any(|i| wrong.contains(i)) {
                let checked: std::collections::HashSet<usize> = chosen.iter().copied().collect();
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
        let hash = format!("{:016x}", fnv1a(super::book::SHIPPED_6X6.as_bytes()));
        {
            let read = self.db.reader().map_err(|e| self.corrupt(e))?;
            let meta = read.open_table(META).map_err(|e| self.corrupt(e))?;
            if meta.get(BOOK_KEY).map_err(|e| self.corrupt(e))?.is_some_and(|v| v.value() == hash) {
                return Ok(None);
            }
        }
        let entries: Vec<Entry> = super::book::shipped().collect();
        let summary = self.put_in_chunks(&entries)?;
        let write = self.writer()?.begin_write().map_err(|e| self.corrupt(e))?;
        write
            .open_table(META)
            .map_err(|e| self.corrupt(e))?
            .insert(BOOK_KEY, hash.as_str())
            .map_err(|e| self.corrupt(e))?;
        write.commit().map_err(|e| self.corrupt(e))?;
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
/// line does not parse.
fn parse_import(input: &mut dyn BufRead) -> Result<Vec<(usize, Entry)>, ImportError> {
    let mut entries = Vec::new();
    let mut line = String::new();
    let mut number = 0;
    loop {
        line.clear();
        number += 1;
        match input.read_line(&mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => return Err(ImportError::Read { line: number, message: e.to_string() }),
        }
        let parsed = text::parse_entry(line.trim_end_matches(['\n', '\r']))
            .map_err(|error| ImportError::Parse { line: number, error })?;
        entries.extend(parsed.into_iter().map(|e| (number, e)));
    }
    Ok(entries)
}

/// Makes a new store at `path` atomically: built beside it under a temporary name, then linked
/// into place, so a process killed while creating leaves no half-made store behind. If another
/// process created the store meanwhile, its file is kept. `replace` replaces an empty file.
fn create(path: &Path, replace: bool) -> std::io::Result<()> {
    // Through a symbolic link to the file it names, the link kept.
    let path = &crate::writefile::target(path).map_err(|e| std::io::Error::other(e.to_string()))?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let temp = path.with_file_name(format!(".{name}.{}.new", std::process::id()));
    let _ = std::fs::remove_file(&temp);
    let made = (|| -> Result<(), redb::Error> {
        let db = redb::Database::create(&temp)?;
        let write = db.begin_write()?;
        {
            let mut meta = write.open_table(META)?;
            meta.insert("magic", MAGIC)?;
            meta.insert("format", FORMAT_VERSION.to_string().as_str())?;
            write.open_table(ENTRIES)?;
        }
        write.commit()?;
        Ok(())
    })();
    if let Err(e) = made {
        let _ = std::fs::remove_file(&temp);
        return Err(std::io::Error::other(format!("cannot create it: {e}")));
    }
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

/// FNV-1a, 64 bits: enough to tell one shipped book from another.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3))
}

fn read_up_to(file: &mut std::fs::File, buf: &mut [u8]) -> std::io::Result<usize> {
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

fn database_error(path: &Path, e: redb::DatabaseError) -> StoreError {
    let path = path.to_path_buf();
    match e {
        redb::DatabaseError::DatabaseAlreadyOpen | redb::DatabaseError::LockProtocolMismatch => {
            StoreError::Locked { path }
        }
        redb::DatabaseError::UpgradeRequired(v) => {
            StoreError::Corrupt { path, detail: format!("an old database format ({v}) this program does not read") }
        }
        redb::DatabaseError::Storage(redb::StorageError::Io(io)) if io.kind() != std::io::ErrorKind::UnexpectedEof => {
            StoreError::Io { path, message: io.to_string() }
        }
        redb::DatabaseError::Storage(redb::StorageError::Corrupted(message)) => {
            StoreError::Corrupt { path, detail: lower_first(&message) }
        }
        other => StoreError::Corrupt { path, detail: lower_first(&other.to_string()) },
    }
}

/// redb's messages start with a capital; ours are lower case (but "DB" stays "DB").
fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match (c.next(), s.chars().nth(1)) {
        (Some(f), Some(second)) if !second.is_uppercase() => f.to_lowercase().chain(c).collect(),
        _ => s.to_string(),
    }
}

fn scoring_code(scoring: Scoring) -> u8 {
    match scoring {
        Scoring::Standard => 0,
        Scoring::Discs => 1,
    }
}

fn encode_key(key: &Key) -> RawKey {
    (key.size.n() as u8, scoring_code(key.scoring), key.player, key.opponent)
}

fn decode_key((n, scoring, player, opponent): RawKey) -> Option<Key> {
    let size = Size::from_n(n as usize)?;
    let scoring = match scoring {
        0 => Scoring::Standard,
        1 => Scoring::Discs,
        _ => return None,
    };
    if (player | opponent) & !size.full() != 0 || player & opponent != 0 {
        return None;
    }
    Some(Key { size, scoring, player, opponent })
}

fn encode_value(size: Size, stored: &Stored) -> RawValue {
    let best = stored.best.map_or(NO_MOVE, |sq| sq.bit(size) as u8);
    (stored.lower as i8, stored.upper as i8, best, stored.source.code())
}

fn decode_value(size: Size, (lower, upper, best, source): RawValue) -> Option<Stored> {
    let limit = size.squares() as i32;
    let (lower, upper) = (lower as i32, upper as i32);
    if lower > upper || lower < -limit || upper > limit {
        return None;
    }
    let best = match best {
        NO_MOVE => None,
        bit => Some(Square::from_bit(size, bit as u32)?),
    };
    Some(Stored { lower, upper, best, source: Source::from_code(source)? })
}
