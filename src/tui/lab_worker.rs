//! The search lab's thread: the four methods of [`crate::studies::lab`] run one after the other off the UI
//! thread, then the five of [`crate::studies::lab::outcome`] (win, loss or draw, without a budget, so
//! positions too deep for a method are refused at once), each result sent as a [`LabEvent`] tagged
//! with its job number and position as soon as it is known. [`LabWorker::run`] cancels the job
//! before through its stop flag; [`LabWorker::cancel`] stops the running one (the methods left
//! are reported cancelled).

use super::app::Msg;
use super::job::{Gone, JobThread};
use crate::board::position::{Position, Scoring};
use crate::studies::lab::outcome::{self, Budget, OutcomeError};
use crate::studies::lab::{self, LabError, Run};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;

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
    /// An exact score ([`crate::studies::lab::run`]).
    Exact(Result<Run, LabError>),
    /// An outcome ([`crate::studies::lab::outcome::run`]).
    Outcome(Result<outcome::Run, OutcomeError>),
}

/// The handle of the lab thread, a [`JobThread`]. Dropping it stops the lab and joins the thread.
pub struct LabWorker {
    thread: JobThread<Position>,
}

impl LabWorker {
    /// Starts the thread; positions are scored with `scoring`, results go to `events` as
    /// [`Msg::Lab`].
    pub fn spawn(scoring: Scoring, events: Sender<Msg>) -> std::io::Result<LabWorker> {
        let thread = JobThread::spawn("lab", move || {
            move |job, position: Position, stop: &Arc<AtomicBool>| {
                let mut gone = false;
                let mut send = |result| {
                    if events.send(Msg::Lab(LabEvent { job, position, result })).is_err() {
                        gone = true;
                        stop.store(true, Ordering::Relaxed); // nobody listens: end the lab now
                    }
                };
                lab::compare(&position, scoring, stop, &mut |r| send(LabResult::Exact(r)));
                outcome::compare(&position, Budget::UNLIMITED, stop, &mut |r| send(LabResult::Outcome(r)));
                if gone { Err(Gone) } else { Ok(()) }
            }
        })?;
        Ok(LabWorker { thread })
    }

    /// Cancels the running job and runs the lab on `position` as job `job`.
    pub fn run(&mut self, job: u64, position: Position) {
        self.thread.start(job, position);
    }

    /// Cancels the running job, if any.
    pub fn cancel(&mut self) {
        self.thread.cancel();
    }
}
