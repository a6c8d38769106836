//! The reachability thread, a [`JobThread`]: `:reach` runs [`crate::reach::reach`] here, off the UI thread. Each
//! run is a job with its own stop flag; a new run or [`ReachWorker::cancel`] stops the one
//! before, and the result comes back as [`Msg::Reached`] tagged with its job number.

use super::app::Msg;
use super::job::{Gone, JobThread};
use crate::Position;
use crate::reach::{self, Limits};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Sender;

/// The handle of the thread, a [`JobThread`]. Dropping it stops the search and joins the thread.
pub struct ReachWorker {
    thread: JobThread<Position>,
}

impl ReachWorker {
    /// Starts the thread; results go to `replies`.
    pub fn spawn(replies: Sender<Msg>) -> std::io::Result<ReachWorker> {
        let thread = JobThread::spawn("reach", move || {
            move |job, position: Position, stop: &Arc<AtomicBool>| {
                let outcome = reach::reach(&position, &Limits::default(), stop);
                replies.send(Msg::Reached { job, outcome }).map_err(|_| Gone)
            }
        })?;
        Ok(ReachWorker { thread })
    }

    /// Cancels the running search and looks for a game to `position` as job `job`.
    pub fn run(&mut self, job: u64, position: Position) {
        self.thread.start(job, position);
    }

    /// Cancels the running search, if any.
    pub fn cancel(&mut self) {
        self.thread.cancel();
    }
}
