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
//! write lock for one short transaction and others wait for it up to [`super::BUSY_TIMEOUT`]. A killed
//! writer leaves the last commit; SQLite replays its log on the next open. Stores of format 1
//! (redb) are converted on first use ([`super::migrate`]).

use super::errors::{ExportError, ImportError, StoreError};
use super::format::FORMAT_VERSION;
use super::migrate;
use super::sqlite::{
    BOOK_KEY, Found, MAGIC, SCHEMA, SELECT, UPSERT, connect, create, decode_key, decode_value, encode_key, fill,
    inspect, raw_at, raw_value, row, scoring_code, sql_error,
};
use super::summary::{CheckedImport, ImportSummary, PutSummary, Refused, Stats, StatsRow};
use super::text;
use super::{Entry, ImportCheck, Key, Merged, Stored, merge};
use crate::{
    board::position::{Position, Scoring},
    board::size::Size,
};
use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior, params};
use std::collections::BTreeMap;
use std::fmt;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// Entries per transaction when importing: a killed import keeps the chunks it committed, and no
/// other program waits long for the write lock.
const IMPORT_CHUNK: usize = 256;

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
