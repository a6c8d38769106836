//! One writer of an archive file at a time, and a file no reader sees half of.
//!
//! A writer takes an exclusive lock (`flock`) on `<archive>.lock` beside the archive and holds it
//! across the whole read-modify-write: it reads the archive only once it holds the lock, so a
//! second `archive add` sees the first one's games instead of writing over them. Each write goes
//! to a temporary file of its own (`<archive>.<pid>-<n>.partial`), synced, then renamed over the
//! archive, so a reader (which takes no lock) finds the old file or the new one, whole. The lock
//! file stays beside the archive (removing it would let two writers lock two different files);
//! the system releases the lock when its holder ends, however it ends, and the holder removes the
//! temporary files a killed writer left.

use super::{Archive, ArchiveError};
use std::fs::{File, TryLockError};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The temporary files this process has made, numbering the next one.
static TEMPORARY: AtomicU64 = AtomicU64::new(0);

/// The right to write one archive file: its lock, held until this is dropped.
#[derive(Debug)]
pub struct Writer {
    /// The locked file (its lock ends when it is closed).
    _lock: File,
    lock_path: PathBuf,
    /// The archive file itself (a symbolic link followed).
    target: PathBuf,
}

fn io_error(path: &Path, e: std::io::Error) -> ArchiveError {
    ArchiveError::Io(format!("{}: {}", path.display(), e.to_string().to_lowercase()))
}

/// `path` with `tail` added to its file name: `a.oxar` and `.lock` make `a.oxar.lock`.
fn beside(path: &Path, tail: &str) -> PathBuf {
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(tail);
    path.with_file_name(name)
}

impl Writer {
    /// Takes the archive at `path` for writing, creating its folder if need be. When another
    /// program holds it, `waiting` is called once with the lock file's path, then this waits
    /// until that program is done.
    pub fn lock(path: &Path, waiting: impl FnOnce(&Path)) -> Result<Writer, ArchiveError> {
        let target = crate::notation::writefile::target(path).map_err(|e| ArchiveError::Io(e.to_string()))?;
        if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
        }
        let lock_path = beside(&target, ".lock");
        let lock = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock_path)
            .map_err(|e| io_error(&lock_path, e))?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                waiting(&lock_path);
                lock.lock().map_err(|e| io_error(&lock_path, e))?;
            }
            Err(TryLockError::Error(e)) => return Err(io_error(&lock_path, e)),
        }
        let writer = Writer { _lock: lock, lock_path, target };
        writer.remove_stale_temporaries();
        Ok(writer)
    }

    /// The lock file's path.
    pub fn lock_path(&self) -> &Path {
        &self.lock_path
    }

    /// The archive as it is now (read under the lock: no other writer changes it meanwhile); an
    /// empty one if there is no file yet.
    pub fn read(&self) -> Result<Archive, ArchiveError> {
        Archive::open(&self.target)
    }

    /// Writes `archive` over the file: whole, to a temporary file of this process's own beside
    /// it, synced, then renamed over it.
    pub fn write(&self, archive: &Archive) -> Result<(), ArchiveError> {
        let n = TEMPORARY.fetch_add(1, Ordering::Relaxed);
        let tmp = beside(&self.target, &format!(".{}-{n}.partial", std::process::id()));
        let written = (|| {
            let mut f = File::create(&tmp)?;
            f.write_all(&archive.to_bytes())?;
            f.sync_all()?;
            std::fs::rename(&tmp, &self.target)
        })();
        if let Err(e) = written {
            let _ = std::fs::remove_file(&tmp);
            return Err(io_error(&self.target, e));
        }
        // The rename itself survives a crash once the folder is synced.
        if let Some(dir) = self.target.parent().filter(|d| !d.as_os_str().is_empty())
            && let Ok(d) = File::open(dir)
        {
            let _ = d.sync_all();
        }
        Ok(())
    }

    /// Removes the temporary files of writers that were killed mid-write: with the lock held, no
    /// other program is writing one.
    fn remove_stale_temporaries(&self) {
        let (Some(dir), Some(name)) = (self.target.parent(), self.target.file_name()) else { return };
        let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
        let Some(name) = name.to_str() else { return };
        let Ok(list) = std::fs::read_dir(dir) else { return };
        for entry in list.flatten() {
            let file = entry.file_name();
            let Some(middle) = file
                .to_str()
                .and_then(|f| f.strip_prefix(name))
                .and_then(|f| f.strip_prefix('.'))
                .and_then(|f| f.strip_suffix(".partial"))
            else {
                continue;
            };
            let ours = middle.split_once('-').is_some_and(|(pid, n)| {
                !pid.is_empty() && !n.is_empty() && (pid.bytes().chain(n.bytes())).all(|b| b.is_ascii_digit())
            });
            if ours && entry.file_type().is_ok_and(|t| t.is_file()) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}
