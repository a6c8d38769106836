//! The search lab's thread: the four methods of [`crate::lab`] run one after the other off the UI
//! thread, then the five of [`crate::lab::outcome`] (win, loss or draw, without a budget, so
//! positions too deep for a method are refused at once), each result sent as a [`LabEvent`] tagged
//! with its job number and position as soon as it is known. [`LabWorker::run`] cancels the job
//! before through its stop flag; [`LabWorker::cancel`] stops the running one (the methods left
//! are reported cancelled).

use crate::lab::outcome::{self, Budget, OutcomeError};
use crate::lab::{self, LabError, Run};
use crate::{Position, Scoring};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;

/// One method's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabEvent {
    /// The job it belongs to.
    pub job: u64,
    /// The position the job solves.
    pub position: Position,
    /// The method's result.
    pub result: LabResult,
}

/// One method's result, from either half of the lab.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LabResult {
    /// An exact score ([`crate::lab::run`]).
    Exact(Result<Run, LabError>),
    /// An outcome ([`crate::lab::outcome::run`]).
    Outcome(Result<outcome::Run, OutcomeError>),
}

enum Request {
    Run { job: u64, position: Position, stop: Arc<AtomicBool> },
    Shutdown,
}

/// The handle of the lab thread. Dropping it stops the lab and joins the thread.
pub struct LabWorker {
    requests: Sender<Request>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl LabWorker {
    /// Starts the thread; positions are scored with `scoring`, results go to `events`.
    pub fn spawn(scoring: Scoring, events: Sender<LabEvent>) -> std::io::Result<LabWorker> {
        let (requests, rx) = channel();
        let thread = std::thread::Builder::new().name("lab".into()).spawn(move || serve(scoring, rx, events))?;
        Ok(LabWorker { requests, stop: Arc::new(AtomicBool::new(false)), thread: Some(thread) })
    }

    /// Cancels the running job and runs the lab on `position` as job `job`.
    pub fn run(&mut self, job: u64, position: Position) {
        self.cancel();
        self.stop = Arc::new(AtomicBool::new(false));
        let _ = self.requests.send(Request::Run { job, position, stop: self.stop.clone() });
    }

    /// Cancels the running job, if any.
    pub fn cancel(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Drop for LabWorker {
    fn drop(&mut self) {
        self.cancel();
        let _ = self.requests.send(Request::Shutdown);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve(scoring: Scoring, rx: Receiver<Request>, events: Sender<LabEvent>) {
    while let Ok(mut request) = rx.recv() {
        while let Ok(next) = rx.try_recv() {
            request = next;
        }
        match request {
            Request::Shutdown => return,
            Request::Run { job, position, stop } => {
                let mut gone = false;
                let mut send = |result| {
                    if events.send(LabEvent { job, position, result }).is_err() {
                        gone = true;
                        stop.store(true, Ordering::Relaxed); // nobody listens: end the lab now
                    }
                };
                lab::compare(&position, scoring, &stop, &mut |r| send(LabResult::Exact(r)));
                outcome::compare(&position, Budget::UNLIMITED, &stop, &mut |r| send(LabResult::Outcome(r)));
                if gone {
                    return;
                }
            }
        }
    }
}
