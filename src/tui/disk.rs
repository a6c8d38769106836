//! The file thread: every read and write of the explorer happens here, off the UI thread.
//!
//! Three jobs: `:save` and `:load` (reported back as [`Msg::Saved`] / [`Msg::Loaded`]; a load
//! reads only a regular file of at most [`textfile::TEXT_LIMIT`] bytes), and the
//! session file, rewritten atomically ([`session::write_atomic`]) after every change of the
//! explored tree. Session writes coalesce: when several are queued only the newest is written,
//! so a burst of moves costs one write, and the file always ends up holding the latest tree.
//!
//! Before any of that, [`claim_session`] makes the session file this explorer's own: it locks
//! `NAME.lock` beside it, so a second explorer on the same data directory never writes over the
//! first one's session nor moves its files, and takes `session-2.txt` (and so on) instead.

use super::app::Msg;
use super::session;
use crate::notation::textfile;
use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;

/// How many session files [`claim_session`] tries: `session.txt`, then `session-2.txt` up to
/// `session-9.txt`.
pub const SESSION_SLOTS: usize = 9;

/// The session file an explorer holds, locked for as long as this value lives.
#[derive(Debug)]
pub struct Claim {
    /// The session file to write.
    pub path: PathBuf,
    /// Set when the asked-for file was held by another explorer and `path` is another one.
    pub busy: Option<PathBuf>,
    /// The lock (`None` where the file system has no locks: then the file is used unlocked).
    _lock: Option<File>,
}

/// What [`claim_session`] found.
#[derive(Debug)]
pub enum Claimed {
    /// A session file of this explorer's own.
    Session(Claim),
    /// Every one of the [`SESSION_SLOTS`] files is held by another explorer.
    AllBusy,
}

/// The lock file of a session file: `NAME.lock` beside it.
pub fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// The `n`th session file for `path` (`n` from 1): `session.txt`, `session-2.txt`, ...
pub(crate) fn session_slot(path: &Path, n: usize) -> PathBuf {
    if n <= 1 {
        return path.to_path_buf();
    }
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{n}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{n}"),
    };
    path.with_file_name(name)
}

/// Makes a session file this explorer's own: the first of `path`, `session-2.txt`, ... whose
/// lock file (an advisory lock, [`File::try_lock`], released by the system when the process ends
/// however it ends) no other explorer holds.
///
/// A new session keeps the ones it replaces beside it, the last [`KEPT_SESSIONS`] of them:
/// `NAME.previous` the newest, then `NAME.previous.2` and so on, so starting without `--resume`
/// never loses a tree (nor does starting again, up to that many times): the claimed file is
/// moved there, unless `resumed` (the tree came from `path` and goes back there). Files another
/// explorer holds are never moved.
///
/// ```
/// use othello_explorer::tui::testing::disk::{Claimed, claim_session};
///
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("session.txt");
/// let Claimed::Session(first) = claim_session(&path, false).unwrap() else { panic!() };
/// let Claimed::Session(second) = claim_session(&path, false).unwrap() else { panic!() };
/// assert_eq!(first.path, path);
/// assert_eq!(second.path, dir.path().join("session-2.txt"));
/// assert_eq!(second.busy.as_deref(), Some(path.as_path()));
/// ```
pub fn claim_session(path: &Path, resumed: bool) -> std::io::Result<Claimed> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    for n in 1..=SESSION_SLOTS {
        let slot = session_slot(path, n);
        let file = File::options().create(true).truncate(false).write(true).open(lock_path(&slot))?;
        let lock = match file.try_lock() {
            Ok(()) => Some(file),
            Err(TryLockError::WouldBlock) => continue,
            // No locks on this file system: use the file as before, unlocked.
            Err(TryLockError::Error(_)) => None,
        };
        if !(resumed && n == 1) {
            keep_previous(&slot);
        }
        let busy = (n > 1).then(|| path.to_path_buf());
        return Ok(Claimed::Session(Claim { path: slot, busy, _lock: lock }));
    }
    Ok(Claimed::AllBusy)
}

/// Whether the explorer may write its session at `path`: the file and every kept copy it would
/// rotate (`NAME.previous`, …) must be a regular file or absent, so that nothing else is renamed
/// or replaced. The launcher refuses the path (exit 2) otherwise.
pub fn check_session_path(path: &Path) -> Result<(), crate::notation::writefile::WriteError> {
    crate::notation::writefile::target(path)?;
    for k in 1..=KEPT_SESSIONS {
        crate::notation::writefile::target(&kept_session(path, k))?;
    }
    Ok(())
}

/// How many replaced sessions are kept (`NAME.previous`, `NAME.previous.2`, …).
pub const KEPT_SESSIONS: usize = 5;

/// The name of the `k`-th newest kept session of `path` (1: `NAME.previous`).
pub fn kept_session(path: &Path, k: usize) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".previous");
    if k > 1 {
        name.push(format!(".{k}"));
    }
    PathBuf::from(name)
}

/// Moves `path` to `NAME.previous`, if it exists, after moving each kept session one older (the
/// oldest of [`KEPT_SESSIONS`] is dropped).
fn keep_previous(path: &Path) {
    // Only regular files move: anything else at one of these names stays as it is.
    if !path.exists() || check_session_path(path).is_err() {
        return;
    }
    for k in (1..KEPT_SESSIONS).rev() {
        let from = kept_session(path, k);
        if from.exists() {
            let _ = std::fs::rename(&from, kept_session(path, k + 1));
        }
    }
    let _ = std::fs::rename(path, kept_session(path, 1));
}

/// Writes `text` as the newest kept copy of the session `path` (`NAME.previous`), after moving
/// each kept copy one older (the oldest of [`KEPT_SESSIONS`] is dropped). Only regular files
/// move or are written.
fn keep_text(path: &Path, text: &str) -> Result<(), String> {
    check_session_path(path).map_err(|e| e.to_string())?;
    for k in (1..KEPT_SESSIONS).rev() {
        let from = kept_session(path, k);
        if from.exists() {
            std::fs::rename(&from, kept_session(path, k + 1)).map_err(|e| e.to_string().to_lowercase())?;
        }
    }
    session::write_atomic(&kept_session(path, 1), text).map_err(|e| e.to_string().to_lowercase())
}

enum Request {
    Session(String),
    Append(String),
    Keep(String),
    Save { path: String, contents: String },
    Load { path: String, index: Option<usize> },
    Archive(PathBuf),
    Shutdown,
}

/// The handle of the file thread. Dropping it writes what is queued and joins the thread.
pub struct Disk {
    requests: Sender<Request>,
    thread: Option<JoinHandle<()>>,
}

impl Disk {
    /// Starts the thread; `session` is where the session file goes (`None`: no session file).
    /// Replies go to `replies`.
    pub fn spawn(session: Option<PathBuf>, replies: Sender<Msg>) -> std::io::Result<Disk> {
        let (requests, rx) = channel();
        let thread = std::thread::Builder::new().name("files".into()).spawn(move || serve(session, rx, replies))?;
        Ok(Disk { requests, thread: Some(thread) })
    }

    /// Queues the session text for writing.
    pub(crate) fn write_session(&self, text: String) {
        let _ = self.requests.send(Request::Session(text));
    }

    /// Queues a journal to append to the session file.
    pub(crate) fn append_session(&self, text: String) {
        let _ = self.requests.send(Request::Append(text));
    }

    /// Queues a replaced tree's session text, to keep as the newest copy beside the session.
    pub(crate) fn keep_tree(&self, text: String) {
        let _ = self.requests.send(Request::Keep(text));
    }

    /// Queues a `:save`.
    pub fn save(&self, path: String, contents: String) {
        let _ = self.requests.send(Request::Save { path, contents });
    }

    /// Queues a `:load` (of game `index` of a file of several).
    pub fn load(&self, path: String, index: Option<usize>) {
        let _ = self.requests.send(Request::Load { path, index });
    }

    /// Reads the archive of played games at `path` (an empty one if there is none); the reply
    /// is [`Msg::ArchiveLoaded`].
    pub(crate) fn load_archive(&self, path: PathBuf) {
        let _ = self.requests.send(Request::Archive(path));
    }
}

impl Drop for Disk {
    fn drop(&mut self) {
        let _ = self.requests.send(Request::Shutdown);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve(session: Option<PathBuf>, rx: Receiver<Request>, replies: Sender<Msg>) {
    let mut failed = false;
    while let Ok(first) = rx.recv() {
        // Take everything queued: only the newest session text matters, the rest in order.
        let mut batch = vec![first];
        batch.extend(rx.try_iter());
        let newest_session = batch.iter().rposition(|r| matches!(r, Request::Session(_)));
        let mut shutdown = false;
        for (i, request) in batch.into_iter().enumerate() {
            match request {
                Request::Session(text) if Some(i) == newest_session => {
                    let Some(path) = &session else { continue };
                    match session::write_atomic(path, &text) {
                        Ok(()) => failed = false,
                        Err(e) if !failed => {
                            // Said once, not at every move.
                            failed = true;
                            let text = format!("session file {}: {}", path.display(), e.to_string().to_lowercase());
                            let _ = replies.send(Msg::SessionFailed(text));
                        }
                        Err(_) => {}
                    }
                }
                Request::Session(_) => {}
                // Covered by a whole text later in the batch.
                Request::Append(_) if newest_session.is_some_and(|n| n > i) => {}
                Request::Append(text) => {
                    let Some(path) = &session else { continue };
                    // After a failed write the file's content is unknown: the model writes it
                    // whole next (it heard of the failure), and appends wait for that.
                    if failed {
                        continue;
                    }
                    if let Err(e) = session::append(path, &text) {
                        failed = true;
                        let text = format!("session file {}: {}", path.display(), e.to_string().to_lowercase());
                        let _ = replies.send(Msg::SessionFailed(text));
                    }
                }
                Request::Keep(text) => {
                    let Some(path) = &session else { continue };
                    let kept = kept_session(path, 1);
                    let reply = match keep_text(path, &text) {
                        Ok(()) => Msg::Notice {
                            text: format!(
                                "the replaced tree is kept in {}: --resume --session with that file reopens it",
                                kept.display()
                            ),
                            error: false,
                        },
                        Err(e) => Msg::Notice {
                            text: format!("cannot keep the replaced tree in {}: {e}", kept.display()),
                            error: true,
                        },
                    };
                    let _ = replies.send(reply);
                }
                Request::Save { path, contents } => {
                    let result = session::write_atomic(std::path::Path::new(&path), &contents)
                        .map_err(|e| e.to_string().to_lowercase());
                    let _ = replies.send(Msg::Saved { path, result });
                }
                Request::Load { path, index } => {
                    // Bounded: a device or a huge file is refused, never read without end. Bytes:
                    // a WTHOR database is binary.
                    let result =
                        textfile::read_bytes(std::path::Path::new(&path), textfile::TEXT_LIMIT).map_err(|e| e.reason());
                    let _ = replies.send(Msg::Loaded { path, index, result });
                }
                Request::Archive(path) => {
                    let result = crate::archive::Archive::open(&path)
                        .map(std::sync::Arc::new)
                        .map_err(|e| format!("archive {}: {e}", path.display()));
                    let _ = replies.send(Msg::ArchiveLoaded(result));
                }
                Request::Shutdown => shutdown = true,
            }
        }
        if shutdown {
            return;
        }
    }
}
