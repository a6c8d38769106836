//! Writing a file a user named: the one rule behind every path the program writes or rotates (the
//! store, the session and its kept copies, `:save`, `:export`, `review --ggf`, `store export`).
//!
//! - The path must be a regular file or absent. A folder, a device (`/dev/null`), a FIFO or a
//!   socket is refused before anything is written, renamed or replaced.
//! - A symbolic link is followed: to a regular file (or to nothing, in an existing folder) it is
//!   written through, the link kept; to anything else it is refused like the thing it points to.
//!
//! ```
//! use othello_explorer::notation::writefile::{target, WriteError};
//! let dir = tempfile::tempdir().unwrap();
//! let file = dir.path().join("game.txt");
//! assert_eq!(target(&file).unwrap(), file); // absent: written as named
//! assert!(matches!(target(dir.path()), Err(WriteError::NotRegular { what: "a folder", .. })));
//! ```

use std::fmt;
use std::path::{Path, PathBuf};

/// Why a path may not be written. The message names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WriteError {
    /// A folder, device, FIFO or socket (what it is, in words): never written over.
    NotRegular {
        /// The path.
        path: PathBuf,
        /// `a folder`, `a character device`, `a block device`, `a FIFO`, `a socket`.
        what: &'static str,
    },
    /// The system refused to say what is there (permissions).
    Io {
        /// The path.
        path: PathBuf,
        /// The system's message, lower case.
        message: String,
    },
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::NotRegular { path, what } => {
                write!(f, "{}: {what}, not a regular file: refusing to write over it", path.display())
            }
            WriteError::Io { path, message } => write!(f, "cannot write {}: {message}", path.display()),
        }
    }
}

impl std::error::Error for WriteError {}

/// What `meta` is, in words, when it is not a regular file.
pub fn kind_of(meta: &std::fs::Metadata) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_file() {
        None
    } else if t.is_dir() {
        Some("a folder")
    } else if t.is_char_device() {
        Some("a character device")
    } else if t.is_block_device() {
        Some("a block device")
    } else if t.is_fifo() {
        Some("a FIFO")
    } else if t.is_socket() {
        Some("a socket")
    } else {
        Some("not a file")
    }
}

/// The file to write for `path`: `path` itself when it is a regular file or absent, the file a
/// symbolic link points to when that is a regular file or absent; an error for anything else.
pub fn target(path: &Path) -> Result<PathBuf, WriteError> {
    let io = |e: std::io::Error| WriteError::Io { path: path.to_path_buf(), message: e.to_string().to_lowercase() };
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(path.to_path_buf()),
        Err(e) => Err(io(e)),
        Ok(meta) if meta.file_type().is_symlink() => {
            // Follow the link, as far as it goes: the last name that does not exist is written.
            let mut to = path.to_path_buf();
            for _ in 0..40 {
                match std::fs::symlink_metadata(&to) {
                    Ok(m) if m.file_type().is_symlink() => {
                        let link = std::fs::read_link(&to).map_err(io)?;
                        to = match to.parent() {
                            Some(dir) if link.is_relative() => dir.join(link),
                            _ => link,
                        };
                    }
                    Ok(m) => {
                        return match kind_of(&m) {
                            None => Ok(to),
                            Some(what) => Err(WriteError::NotRegular { path: path.to_path_buf(), what }),
                        };
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(to),
                    Err(e) => return Err(io(e)),
                }
            }
            Err(WriteError::Io { path: path.to_path_buf(), message: "too many levels of symbolic links".into() })
        }
        Ok(meta) => match kind_of(&meta) {
            None => Ok(path.to_path_buf()),
            Some(what) => Err(WriteError::NotRegular { path: path.to_path_buf(), what }),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_is_written_through_to_a_file_and_refused_to_anything_else() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.txt");
        std::fs::write(&file, "x").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert_eq!(target(&link).unwrap(), file);
        let to_dir = dir.path().join("to-dir");
        std::os::unix::fs::symlink(dir.path(), &to_dir).unwrap();
        assert!(matches!(target(&to_dir), Err(WriteError::NotRegular { what: "a folder", .. })));
        let dangling = dir.path().join("dangling");
        std::os::unix::fs::symlink(dir.path().join("nothing"), &dangling).unwrap();
        assert_eq!(target(&dangling).unwrap(), dir.path().join("nothing"));
    }
}
