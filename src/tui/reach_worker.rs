//! The reachability thread: `:reach` runs [`crate::reach::reach`] here, off the UI thread. Each
//! run is a job with its own stop flag; a new run or [`ReachWorker::cancel`] stops the one
//! before, and the result comes back as [`Msg::Reached`] tagged with its job number.

use super::app::Msg;
use crate::Position;
use crate::reach::{self, Limits};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;

enum Request {
    Run { job: u64, position: Position, stop: Arc<AtomicBool> },
    Shutdown,
}

/// The handle of the thread. Dropping it stops the search and joins the thread.
pub struct ReachWorker {
    requests: Sender<Request>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl ReachWorker {
    /// Starts the thread; results go to `replies`.
    pub fn spawn(replies: Sender<Msg>) -> std::io::Result<ReachWorker> {
        let (requests, rx) = channel();
        let thread = std::thread::Builder::new().name("reach".into()).spawn(move || serve(rx, replies))?;
        Ok(ReachWorker { requests, stop: Arc::new(AtomicBool::new(false)), thread: Some(thread) })
    }

    /// Cancels the running search and looks for a game to `position` as job `job`.
    pub fn run(&mut self, job: u64, position: Position) {
        self.cancel();
        self.stop = Arc::new(AtomicBool::new(false));
        let _ = self.requests.send(Request::Run { job, position, stop: self.stop.clone() });
    }

    /// Cancels the running search, if any.
    pub fn cancel(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Drop for ReachWorker {
    fn drop(&mut self) {
        self.cancel();
        let _ = self.requests.send(Request::Shutdown);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve(rx: Receiver<Request>, replies: Sender<Msg>) {
    while let Ok(mut request) = rx.recv() {
        while let Ok(next) = rx.try_recv() {
            request = next;
        }
        match request {
            Request::Shutdown => return,
            Request::Run { job, position, stop } => {
                let outcome = reach::reach(&position, &Limits::default(), &stop);
                if replies.send(Msg::Reached { job, outcome }).is_err() {
                    return;
                }
            }
        }
    }
}
