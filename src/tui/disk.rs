//! The file thread: every read and write of the explorer happens here, off the UI thread.
//!
//! Three jobs: `:save` and `:load` (reported back as [`Msg::Saved`] / [`Msg::Loaded`]; a load
//! reads only a regular file of at most [`textfile::TEXT_LIMIT`] bytes), and the
//! session file, rewritten atomically ([`session::write_atomic`]) after every change of the
//! explored tree. Session writes coalesce: when several are queued only the newest is written,
//! so a burst of moves costs one write, and the file always ends up holding the latest tree.

use super::app::Msg;
use super::session;
use crate::textfile;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;

enum Request {
    Session(String),
    Save { path: String, contents: String },
    Load { path: String },
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
    pub fn write_session(&self, text: String) {
        let _ = self.requests.send(Request::Session(text));
    }

    /// Queues a `:save`.
    pub fn save(&self, path: String, contents: String) {
        let _ = self.requests.send(Request::Save { path, contents });
    }

    /// Queues a `:load`.
    pub fn load(&self, path: String) {
        let _ = self.requests.send(Request::Load { path });
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
                Request::Save { path, contents } => {
                    let result = session::write_atomic(std::path::Path::new(&path), &contents)
                        .map_err(|e| e.to_string().to_lowercase());
                    let _ = replies.send(Msg::Saved { path, result });
                }
                Request::Load { path } => {
                    // Bounded: a device or a huge file is refused, never read without end.
                    let result =
                        textfile::read_text(std::path::Path::new(&path), textfile::TEXT_LIMIT).map_err(|e| e.reason());
                    let _ = replies.send(Msg::Loaded { path, result });
                }
                Request::Shutdown => shutdown = true,
            }
        }
        if shutdown {
            return;
        }
    }
}
