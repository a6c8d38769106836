//! The reachability thread, a [`JobThread`]: `:reach` runs [`crate::studies::reach::reach_with_progress`] here, off the UI
//! thread. Each run is a job with its own stop flag; a new run or [`ReachWorker::cancel`] stops
//! the one before. Its progress comes back as [`Msg::ReachProgress`] (at most every
//! [`PROGRESS_INTERVAL`]) and the result as [`Msg::Reached`], both tagged with its job number.

use super::app::Msg;
use super::job::{Gone, JobThread};
use crate::board::position::Position;
use crate::studies::reach::{self, Limits};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

/// The least time between two progress reports of a search.
pub const PROGRESS_INTERVAL: Duration = Duration::from_millis(250);

/// The handle of the thread, a [`JobThread`]. Dropping it stops the search and joins the thread.
pub struct ReachWorker {
    thread: JobThread<Position>,
}

impl ReachWorker {
    /// Starts the thread; results go to `replies`.
    pub fn spawn(replies: Sender<Msg>) -> std::io::Result<ReachWorker> {
        let thread = JobThread::spawn("reach", move || {
            move |job, position: Position, stop: &Arc<AtomicBool>| {
                let mut last: Option<Instant> = None;
                let mut report = |progress: &reach::Progress| {
                    if last.is_none_or(|t| t.elapsed() >= PROGRESS_INTERVAL) {
                        last = Some(Instant::now());
                        // A closed channel is found by the send of the outcome.
                        let _ = replies.send(Msg::ReachProgress { job, progress: *progress });
                    }
                };
                let outcome = reach::reach_with_progress(&position, &Limits::default(), stop, &mut report);
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
