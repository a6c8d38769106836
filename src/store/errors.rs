//! Why the store cannot be used, an import fails or an export stops: each error names the file
//! or the line, in lower case.

use super::format::{BUSY_TIMEOUT, FORMAT_VERSION};
use super::text::{self, ParseEntryError};
use std::fmt;
use std::path::PathBuf;

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
