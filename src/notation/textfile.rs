//! Reading a text file a user named, with bounded memory: the one reader behind every file the
//! program reads (problem files for `bench`, `store import`, the explorer's `:load`, session
//! files).
//!
//! - Only a regular file is read: a device (`/dev/zero`, `/dev/urandom`), a folder or a FIFO is
//!   refused before it is opened, so nothing endless is ever read and nothing blocks.
//! - At most a limit of bytes is read: [`TEXT_LIMIT`] (64 MiB) for games, boards, sessions and
//!   problem files, [`IMPORT_LIMIT`] (256 MiB) for `store import`. A longer file is an error.
//! - A leading UTF-8 byte-order mark is skipped; bytes that are not UTF-8 are reported with the
//!   number of the line that holds them.
//!
//! ```
//! use othello_explorer::notation::textfile::{read_text, ReadError, TEXT_LIMIT};
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("board.txt");
//! std::fs::write(&path, "\u{feff}-----OX--XO----- X\n").unwrap();
//! assert_eq!(read_text(&path, TEXT_LIMIT).unwrap(), "-----OX--XO----- X\n");
//! assert!(matches!(read_text(dir.path(), TEXT_LIMIT), Err(ReadError::NotRegular { .. })));
//! ```

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The most bytes read from a game, board, session or problem file: 64 MiB.
pub const TEXT_LIMIT: u64 = 64 * 1024 * 1024;

/// The most bytes read from a `store import` file: 256 MiB (some three million entries).
pub const IMPORT_LIMIT: u64 = 256 * 1024 * 1024;

/// Why a file could not be read. The message names the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    /// The file does not exist.
    NotFound {
        /// The file.
        path: PathBuf,
    },
    /// A device, folder, FIFO or socket: not read.
    NotRegular {
        /// The file.
        path: PathBuf,
        /// What it is instead ([`crate::notation::writefile::kind_of`]: "a FIFO", "a folder").
        what: &'static str,
    },
    /// More bytes than the limit.
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit in bytes.
        limit: u64,
    },
    /// Bytes that are not UTF-8 text, on this line (from 1).
    NotUtf8 {
        /// The file.
        path: PathBuf,
        /// The line.
        line: usize,
    },
    /// The system refused (permissions, a read error).
    Io {
        /// The file.
        path: PathBuf,
        /// The system's message, lower case.
        message: String,
    },
}

impl ReadError {
    /// What is wrong, without the file's name (for a message that names it already).
    pub fn reason(&self) -> String {
        match self {
            ReadError::NotFound { .. } => "no such file".into(),
            ReadError::NotRegular { what, .. } => format!("{what}, not a regular file"),
            ReadError::TooLarge { limit, .. } => format!("larger than the {} MiB limit", limit / (1024 * 1024)),
            ReadError::NotUtf8 { line, .. } => format!("line {line}: not UTF-8 text"),
            ReadError::Io { message, .. } => message.clone(),
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::NotFound { path } => write!(f, "cannot read {}: no such file", path.display()),
            ReadError::NotRegular { path, what } => write!(f, "{}: {what}, not a regular file", path.display()),
            ReadError::TooLarge { path, limit } => {
                write!(f, "{}: larger than the {} MiB limit", path.display(), limit / (1024 * 1024))
            }
            ReadError::NotUtf8 { path, line } => write!(f, "{}:{line}: not UTF-8 text", path.display()),
            ReadError::Io { path, message } => write!(f, "cannot read {}: {message}", path.display()),
        }
    }
}

impl std::error::Error for ReadError {}

fn io_error(path: &Path, e: std::io::Error) -> ReadError {
    if e.kind() == std::io::ErrorKind::NotFound {
        return ReadError::NotFound { path: path.to_path_buf() };
    }
    // "Permission denied (os error 13)" reads "permission denied (os error 13)".
    let text = e.to_string();
    let mut chars = text.chars();
    let message = match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => text,
    };
    ReadError::Io { path: path.to_path_buf(), message }
}

/// A refusal of `path` unless `meta` is a regular file's, saying what it is: the one check of
/// readers and writers alike ([`kind_of`](crate::notation::writefile::kind_of)).
fn not_regular(path: &Path, meta: &std::fs::Metadata) -> Result<(), ReadError> {
    match crate::notation::writefile::kind_of(meta) {
        None => Ok(()),
        Some(what) => Err(ReadError::NotRegular { path: path.to_path_buf(), what }),
    }
}

/// Whether `path` may be read later: a regular file (or a link to one), or nothing yet. A device,
/// a folder or a FIFO is refused now, without opening it, so a reader never waits on it.
pub fn regular_or_missing(path: &Path) -> Result<(), ReadError> {
    match std::fs::metadata(path) {
        Ok(meta) => not_regular(path, &meta),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(io_error(path, e)),
    }
}

/// The bytes of the regular file at `path`, at most `limit` of them.
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    // Checked before opening: opening a FIFO would wait for a writer.
    let meta = std::fs::metadata(path).map_err(|e| io_error(path, e))?;
    not_regular(path, &meta)?;
    if meta.len() > limit {
        return Err(ReadError::TooLarge { path: path.to_path_buf(), limit });
    }
    let file = std::fs::File::open(path).map_err(|e| io_error(path, e))?;
    // Swapped for something else between the two looks: refused too.
    let now = file.metadata().map_err(|e| io_error(path, e))?;
    not_regular(path, &now)?;
    // The file may have been swapped or may grow meanwhile: never read past the limit.
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1).read_to_end(&mut bytes).map_err(|e| io_error(path, e))?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { path: path.to_path_buf(), limit });
    }
    Ok(bytes)
}

/// The text of the regular file at `path` (at most `limit` bytes), without a leading byte-order
/// mark; bytes that are not UTF-8 are an error naming their line.
pub fn read_text(path: &Path, limit: u64) -> Result<String, ReadError> {
    let bytes = read_bytes(path, limit)?;
    decode(path, bytes)
}

/// `bytes` as text, without a leading byte-order mark; bytes that are not UTF-8 are an error
/// naming their line.
pub fn decode(path: &Path, mut bytes: Vec<u8>) -> Result<String, ReadError> {
    if bytes.starts_with("\u{feff}".as_bytes()) {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..valid].iter().filter(|&&b| b == b'\n').count() + 1;
        ReadError::NotUtf8 { path: path.to_path_buf(), line }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_devices_folders_and_large_files_and_names_bad_lines() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            read_text(Path::new("/dev/zero"), TEXT_LIMIT),
            Err(ReadError::NotRegular { path: "/dev/zero".into(), what: "a character device" })
        );
        assert!(matches!(read_text(dir.path(), TEXT_LIMIT), Err(ReadError::NotRegular { .. })));
        assert!(matches!(regular_or_missing(dir.path()), Err(ReadError::NotRegular { .. })));
        assert_eq!(regular_or_missing(&dir.path().join("missing")), Ok(()));
        let missing = dir.path().join("missing");
        assert_eq!(read_text(&missing, TEXT_LIMIT), Err(ReadError::NotFound { path: missing.clone() }));
        let big = dir.path().join("big");
        std::fs::write(&big, "x".repeat(11)).unwrap();
        assert_eq!(read_text(&big, 10), Err(ReadError::TooLarge { path: big.clone(), limit: 10 }));
        assert_eq!(read_text(&big, 11).unwrap(), "x".repeat(11));
        let binary = dir.path().join("binary");
        std::fs::write(&binary, b"one\ntwo\nth\xffree\n").unwrap();
        assert_eq!(read_text(&binary, TEXT_LIMIT), Err(ReadError::NotUtf8 { path: binary.clone(), line: 3 }));
        assert_eq!(
            read_text(&binary, TEXT_LIMIT).unwrap_err().to_string(),
            format!("{}:3: not UTF-8 text", binary.display())
        );
    }
}
