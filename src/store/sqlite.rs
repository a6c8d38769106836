//! The SQLite file beneath the store: what lies at a path ([`inspect`]), the schema and the
//! statements, a connection opened with the busy timeout, a new store built beside an old one
//! ([`build_beside`]), SQLite's errors as [`StoreError`]s, and an entry's columns (the `u64`
//! masks kept as signed integers, bit for bit). [`super::migrate`] and [`super::db`] stand on it.

use super::errors::StoreError;
use super::format::{BUSY_TIMEOUT, FORMAT_VERSION};
use super::{Key, Source, Stored};
use crate::board::{position::Scoring, size::Size, square::Square};
use rusqlite::{Connection, OpenFlags, params};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

pub(super) const MAGIC: &str = "othello-explorer store";
/// The first bytes of every SQLite database file.
pub(super) const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";
/// The `meta` key that remembers which shipped book was merged.
pub(super) const BOOK_KEY: &str = "shipped-book-6x6";

pub(super) const SCHEMA: &str = "
    CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE entries (
        size INTEGER NOT NULL, scoring INTEGER NOT NULL, player INTEGER NOT NULL, opponent INTEGER NOT NULL,
        lower INTEGER NOT NULL, upper INTEGER NOT NULL, best INTEGER, source INTEGER NOT NULL,
        PRIMARY KEY (size, scoring, player, opponent)
    ) WITHOUT ROWID;";
pub(super) const SELECT: &str =
    "SELECT lower, upper, best, source FROM entries WHERE size = ?1 AND scoring = ?2 AND player = ?3 AND opponent = ?4";
pub(super) const UPSERT: &str = "INSERT OR REPLACE INTO entries VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
/// The first bytes of every redb file (a store of format 1).
pub(super) const REDB_MAGIC: [u8; 9] = [b'r', b'e', b'd', b'b', 0x1A, 0x0A, 0xA9, 0x0D, 0x0A];

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
            let redb = &REDB_MAGIC;
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

/// Opens a connection to the SQLite file at `path` (never creating it), waiting up to
/// [`BUSY_TIMEOUT`] for a lock.
pub(super) fn connect(path: &Path, flags: OpenFlags) -> Result<Connection, StoreError> {
    let sql = |e| sql_error(path, e);
    let conn = Connection::open_with_flags(path, flags | OpenFlags::SQLITE_OPEN_NO_MUTEX).map_err(sql)?;
    conn.busy_timeout(BUSY_TIMEOUT).map_err(sql)?;
    Ok(conn)
}

/// Makes a new store at `path` atomically: built beside it under a temporary name, then linked
/// into place, so a process killed while creating leaves no half-made store behind. If another
/// process created the store meanwhile, its file is kept. `replace` replaces an empty file.
pub(super) fn create(path: &Path, replace: bool) -> std::io::Result<()> {
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
pub(super) fn fill(tx: &rusqlite::Transaction<'_>, entries: &[(Key, Stored)]) -> rusqlite::Result<()> {
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
pub(super) fn sql_error(path: &Path, e: rusqlite::Error) -> StoreError {
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
pub(super) type RawKey = (i64, i64, i64, i64);
/// A value's columns: lower, upper, the best move's bit (or `NULL`), the source code.
pub(super) type RawValue = (i64, i64, Option<i64>, i64);

pub(super) fn encode_key(key: &Key) -> RawKey {
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
pub(super) fn row(key: &Key, stored: &Stored) -> (i64, i64, i64, i64, i64, i64, Option<i64>, i64) {
    let (n, scoring, player, opponent) = encode_key(key);
    let best = stored.best.map(|sq| i64::from(sq.bit(key.size)));
    (n, scoring, player, opponent, stored.lower.into(), stored.upper.into(), best, stored.source.code().into())
}

pub(super) fn raw_value(r: &rusqlite::Row<'_>) -> rusqlite::Result<RawValue> {
    raw_at(r, 0)
}

pub(super) fn raw_at(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<RawValue> {
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
