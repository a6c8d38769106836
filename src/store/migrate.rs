//! Stores of format 1 (a redb file, before many programs could share one store): read, and
//! converted in place on first use.
//!
//! [`convert`] holds a lock on the store's folder (`flock`), so of two programs that find an old
//! store at once one converts it and the other waits a moment and opens the result. It takes a
//! shared lock on the old file (an older othello-explorer writing it holds an exclusive one: it is
//! reported, and nothing changes); reads every entry through redb's read-only open, checking each
//! as the old program did (a file its last writer left unclean is replayed in a copy in the
//! temporary folder); builds the new store beside it under a temporary name; keeps the old file,
//! never written, as `<store>.format1` (a hard link: the same bytes, not copied); and renames the
//! new store over the old name, so the path always holds one whole store. A failure at any step
//! leaves the old file where it was.
//!
//! [`read_into_memory`] serves the commands that only read (`store stats|export|verify`) the same
//! way, into memory, and writes nothing.

use super::errors::StoreError;
use super::sqlite::{self, Found, MAGIC};
use super::{Key, Stored};
use crate::board::size::Size;
use redb::{ReadableDatabase, ReadableTable, TableDefinition, TableHandle};
use std::path::{Path, PathBuf};

const META: TableDefinition<&str, &str> = TableDefinition::new("meta");
/// (size N, scoring code, canonical player, canonical opponent).
type RawKey = (u8, u8, u64, u64);
/// (lower, upper, best move's bit or 255, source code).
type RawValue = (i8, i8, u8, u8);
const ENTRIES: TableDefinition<RawKey, RawValue> = TableDefinition::new("entries");
const NO_MOVE: u8 = 255;

/// What a store of format 1 holds.
struct Format1 {
    entries: Vec<(Key, Stored)>,
    /// The hash of the shipped book last merged into it.
    book: Option<String>,
}

/// The name the old file is kept under: `<store>.format1`, or `<store>.format1.2`, … when that is
/// taken.
pub fn kept_name(path: &Path) -> PathBuf {
    let with = |tail: String| {
        let mut name = path.as_os_str().to_owned();
        name.push(tail);
        PathBuf::from(name)
    };
    (1..)
        .map(|i| with(if i == 1 { ".format1".into() } else { format!(".format1.{i}") }))
        .find(|p| !p.exists())
        .expect("a free name")
}

/// Converts the store of format 1 at `path` into the current format, in place; the old file is
/// kept beside it ([`kept_name`]). Does nothing when another program converted it meanwhile.
pub(super) fn convert(path: &Path) -> Result<(), StoreError> {
    let io = |e: std::io::Error| StoreError::Io { path: path.to_path_buf(), message: e.to_string() };
    let target = crate::notation::writefile::target(path).map_err(|e| io(std::io::Error::other(e.to_string())))?;
    // The folder is the lock (flock on it): nothing is left beside the store, and a converter that
    // waited looks at the store again once it has the lock.
    let folder = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let lock = std::fs::File::open(&folder).map_err(io)?;
    // Another program converting takes a second or two: wait for it.
    lock.lock().map_err(io)?;
    let converted = (|| {
        if sqlite::inspect(&target)? != Found::Redb {
            return Ok(());
        }
        // A shared lock on the old file: an older othello-explorer writing it holds an exclusive
        // one (and cannot take it while this is held), a reader of this program a shared one.
        let held = std::fs::File::open(&target).map_err(io)?;
        match held.try_lock_shared() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => return Err(StoreError::Locked { path: path.to_path_buf() }),
            Err(std::fs::TryLockError::Error(e)) => return Err(io(e)),
        }
        let format1 = read_file(&target, path)?;
        let temp = sqlite::build_beside(&target, &format1.entries, format1.book.as_deref()).map_err(io)?;
        let kept = kept_name(&target);
        let moved = std::fs::hard_link(&target, &kept)
            .or_else(|_| std::fs::copy(&target, &kept).map(|_| ()))
            .and_then(|()| std::fs::rename(&temp, &target));
        if let Err(e) = moved {
            let _ = std::fs::remove_file(&temp);
            return Err(io(e));
        }
        drop(held);
        Ok(())
    })();
    drop(lock);
    converted
}

/// The store of format 1 at `path`, read into memory: the file is not written.
pub(super) fn read_into_memory(path: &Path) -> Result<super::Store, StoreError> {
    let format1 = read_file(path, path)?;
    super::Store::in_memory(path, &format1.entries)
}

/// Reads the store of format 1 at `file` (named `path` in messages) without writing it: through
/// redb's read-only open, or, when its last writer was killed and redb must replay the file
/// first, through a replayed copy in the temporary folder.
fn read_file(file: &Path, path: &Path) -> Result<Format1, StoreError> {
    let opened = std::panic::catch_unwind(|| redb::Builder::new().open_read_only(file));
    match opened {
        Ok(Ok(db)) => read(&db, path),
        Ok(Err(redb::DatabaseError::RepairAborted)) => {
            let copy = TempCopy::of(file).map_err(|e| StoreError::Io {
                path: path.to_path_buf(),
                message: format!("cannot copy the old-format store to read it: {e}"),
            })?;
            read(&open(&copy.file, path)?, path)
        }
        Ok(Err(e)) => Err(database_error(path, e)),
        Err(_) => {
            Err(StoreError::Corrupt { path: path.to_path_buf(), detail: "the database could not be read".into() })
        }
    }
}

/// Opens a redb file for writing (replaying a killed writer's commits), checking its pages'
/// checksums; a panic on a damaged file becomes [`StoreError::Corrupt`]. Only for a copy.
fn open(file: &Path, path: &Path) -> Result<redb::Database, StoreError> {
    let opened = std::panic::catch_unwind(|| redb::Builder::new().set_check_integrity_on_open(true).open(file));
    match opened {
        Ok(Ok(db)) => Ok(db),
        Ok(Err(e)) => Err(database_error(path, e)),
        Err(_) => {
            Err(StoreError::Corrupt { path: path.to_path_buf(), detail: "the database could not be read".into() })
        }
    }
}

/// Every entry and the book's hash, checked as format 1 was: `meta` with our magic and format 1,
/// keys and values in range.
fn read(db: &impl ReadableDatabase, path: &Path) -> Result<Format1, StoreError> {
    let corrupt = |e: &dyn std::fmt::Display| StoreError::Corrupt {
        path: path.to_path_buf(),
        detail: sqlite::lower_first(&e.to_string()),
    };
    let foreign = || StoreError::Foreign { path: path.to_path_buf() };
    let read = db.begin_read().map_err(|e| corrupt(&e))?;
    let names: Vec<String> = read.list_tables().map_err(|e| corrupt(&e))?.map(|t| t.name().to_string()).collect();
    if !names.iter().any(|n| n == META.name()) {
        return Err(foreign());
    }
    let meta = read.open_table(META).map_err(|_| foreign())?;
    let value = |k: &str| -> Result<Option<String>, StoreError> {
        Ok(meta.get(k).map_err(|e| corrupt(&e))?.map(|v| v.value().to_string()))
    };
    if value("magic")?.as_deref() != Some(MAGIC) {
        return Err(foreign());
    }
    let format = value("format")?.unwrap_or_default();
    if format != "1" {
        return Err(corrupt(&format!("an old-format store of unknown format version '{format}'")));
    }
    let book = value(sqlite::BOOK_KEY)?;
    if !names.iter().any(|n| n == ENTRIES.name()) {
        return Err(corrupt(&"the entries table is missing"));
    }
    let table = read.open_table(ENTRIES).map_err(|e| corrupt(&e))?;
    let mut entries = Vec::new();
    for item in table.iter().map_err(|e| corrupt(&e))? {
        let (k, v) = item.map_err(|e| corrupt(&e))?;
        let key = decode_key(k.value()).ok_or_else(|| corrupt(&"an entry has a bad key"))?;
        let stored = decode_value(key.size, v.value()).ok_or_else(|| corrupt(&"an entry has a bad value"))?;
        entries.push((key, stored));
    }
    Ok(Format1 { entries, book })
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
            StoreError::Corrupt { path, detail: sqlite::lower_first(&message) }
        }
        other => StoreError::Corrupt { path, detail: sqlite::lower_first(&other.to_string()) },
    }
}

fn decode_key((n, scoring, player, opponent): RawKey) -> Option<Key> {
    sqlite::decode_key((i64::from(n), i64::from(scoring), player as i64, opponent as i64))
}

fn decode_value(size: Size, (lower, upper, best, source): RawValue) -> Option<Stored> {
    let best = (best != NO_MOVE).then_some(i64::from(best));
    sqlite::decode_value(size, (lower.into(), upper.into(), best, source.into()))
}

/// A copy of a file in a folder of its own under the temporary folder, removed with it.
struct TempCopy {
    folder: PathBuf,
    file: PathBuf,
}

impl TempCopy {
    fn of(path: &Path) -> std::io::Result<TempCopy> {
        let base = std::env::temp_dir();
        let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        for attempt in 0..100u32 {
            let folder = base.join(format!("othello-explorer-store-{}-{stamp}-{attempt}", std::process::id()));
            match std::fs::create_dir(&folder) {
                Ok(()) => {
                    let copy = TempCopy { file: folder.join("store.redb"), folder };
                    std::fs::copy(path, &copy.file)?;
                    return Ok(copy);
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
